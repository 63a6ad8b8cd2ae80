#include <itch5/tde/windows/window_analyzer.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "number_text.hpp"

namespace itch5::tde {

namespace {

// `d` exactly, in the largest unit it reaches, as the flags take it: "16.3845ms", "1.5us", "250ns".
std::string duration_text(std::chrono::nanoseconds d) {
  const std::int64_t ns = d.count();
  const std::int64_t abs = ns < 0 ? -ns : ns;
  struct unit {
    std::int64_t size;
    const char* name;
  };
  for (unit u : {unit{1'000'000'000, "s"}, unit{1'000'000, "ms"}, unit{1'000, "us"}}) {
    if (abs < u.size) continue;
    std::string text = std::to_string(ns / u.size);
    if (std::int64_t rest = abs % u.size; rest != 0) {
      std::string digits = std::to_string(rest + u.size).substr(1);  // zero-padded
      digits.erase(digits.find_last_not_of('0') + 1);
      text += "." + digits;
    }
    return text + u.name;
  }
  return std::to_string(ns) + "ns";
}

// The whole numbers of periods around `d` (not a multiple of `period`), at least one period: "1us or 2us".
std::string whole_periods(std::chrono::nanoseconds d, std::chrono::nanoseconds period) {
  const std::int64_t below = d.count() / period.count();
  if (below == 0) return duration_text(period);
  return duration_text(period * below) + " or " + duration_text(period * (below + 1));
}

// Why `s` is not a symbol, or "" when it is one; `side` says where it is in a pair (" before ':'").
std::string symbol_problem(std::string_view s, std::string_view side) {
  if (s.empty()) return "empty symbol" + std::string(side);
  if (s.size() > 8) return "'" + std::string(s) + "' is longer than 8 characters";
  if (s.find_first_of(" \t") != std::string_view::npos) return "'" + std::string(s) + "' contains a blank";
  return {};
}

}  // namespace

symbol_pair parse_symbol_pair(std::string_view text) {
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument("bad symbol '" + std::string(text) + "': " + why +
                                " (expected SYM or SYMA:SYMB, 1 to 8 characters each)");
  };
  auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    if (auto why = symbol_problem(text, ""); !why.empty()) fail(why);
    return {std::string(text), std::string(text)};
  }
  if (text.find(':', colon + 1) != std::string_view::npos) fail("more than one ':'");
  std::string_view a = text.substr(0, colon), b = text.substr(colon + 1);
  if (auto why = symbol_problem(a, " before ':'"); !why.empty()) fail(why);
  if (auto why = symbol_problem(b, " after ':'"); !why.empty()) fail(why);
  return {std::string(a), std::string(b)};
}

std::chrono::nanoseconds default_window(std::chrono::nanoseconds sampling_period) {
  if (sampling_period.count() <= 0) throw std::invalid_argument("sampling_period must be positive");
  const double target = 16'384'000.0 / static_cast<double>(sampling_period.count());
  const double exponent = std::clamp(std::floor(std::log2(target) + 0.5), 2.0, 26.0);
  return sampling_period * (std::int64_t{1} << static_cast<int>(exponent));
}

std::chrono::nanoseconds default_max_lag(std::chrono::nanoseconds sampling_period,
                                         std::chrono::nanoseconds window) {
  if (sampling_period.count() <= 0) throw std::invalid_argument("sampling_period must be positive");
  const std::int64_t n = window.count() / sampling_period.count();
  const std::int64_t lag = std::min<std::int64_t>(1'000'000 / sampling_period.count(), (n - 1) / 2);
  return sampling_period * std::max<std::int64_t>(lag, 1);
}

std::optional<setting_problem> analysis_options::problem() const {
  auto bad = [](std::string field, std::string why) {
    return setting_problem{std::move(field), std::move(why)};
  };
  const std::int64_t p = sampling_period.count();
  if (p <= 0) return bad("sampling_period", "{sampling_period} must be positive");
  const std::string period = "sampling periods (" + duration_text(sampling_period) + ")";
  if (window.count() <= 0) return bad("window", "{window} must be positive");
  if (window.count() % p != 0) {
    return bad("window", "{window} " + duration_text(window) + " is not a whole number of " + period +
                             ": use " + whole_periods(window, sampling_period));
  }
  const auto n = window.count() / p;
  if (n < 3) {
    return bad("window", "{window} " + duration_text(window) + " holds " + std::to_string(n) + " " + period +
                             ": use at least " + duration_text(3 * sampling_period));
  }
  if (n > (std::int64_t{1} << 26)) {
    return bad("window", "{window} " + duration_text(window) + " holds " + std::to_string(n) +
                             " samples: at most 2^26 are supported, use at most " +
                             duration_text(sampling_period * (std::int64_t{1} << 26)));
  }
  if (hop.count() < 0) return bad("hop", "{hop} must not be negative");
  if (hop.count() > 0 && hop.count() % p != 0) {
    return bad("hop", "{hop} " + duration_text(hop) + " is not a whole number of " + period + ": use " +
                          whole_periods(hop, sampling_period));
  }
  if (from.count() < 0 || to <= from) return bad("", "the time range must not be empty");
  if (to != std::chrono::nanoseconds::max() && to - from < window) {
    return bad("", "the time range (" + duration_text(to - from) + ") is shorter than one window (" +
                       duration_text(window) + ")");
  }
  if (max_lag < sampling_period) {
    return bad("max_lag", "{max_lag} " + duration_text(max_lag) + " is shorter than one sampling period (" +
                              duration_text(sampling_period) + "): use at least " +
                              duration_text(sampling_period));
  }
  if (max_lag.count() % p != 0) {
    return bad("max_lag", "{max_lag} " + duration_text(max_lag) + " is not a whole number of " + period +
                              ": use " + whole_periods(max_lag, sampling_period));
  }
  if (2 * (max_lag.count() / p) >= n) {
    return bad("max_lag", "{max_lag} " + duration_text(max_lag) + " is not below half the window (" +
                              duration_text(window) + "): use at most " +
                              duration_text(sampling_period * ((n - 1) / 2)) + ", or a longer {window}");
  }
  if (threads < 1) return bad("threads", "{threads} must be at least 1");
  if (smooth.count() < 0 && smooth != smooth_auto) return bad("smooth", "{smooth} must not be negative");
  if (smooth_width() >= window) {
    return bad("smooth", "{smooth} " + duration_text(smooth_width()) + " is not shorter than the window (" +
                             duration_text(window) + ")");
  }
  if (signals.empty()) return bad("signals", "no signal chosen");
  for (std::size_t i = 0; i < signals.size(); ++i) {
    if (std::find(signals.begin(), signals.begin() + static_cast<std::ptrdiff_t>(i), signals[i]) !=
        signals.begin() + static_cast<std::ptrdiff_t>(i)) {
      return bad("signals", "signal '" + std::string(to_string(signals[i])) + "' chosen twice");
    }
  }
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    const std::string label = symbols[i].label();
    try {
      (void)parse_symbol_pair(label);
    } catch (const std::invalid_argument& e) {
      return bad("symbols", e.what());
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (symbols[j].label() == label) return bad("symbols", "symbol '" + label + "' chosen twice");
    }
  }
  if (upsample == 1) {
    return bad("upsample",
               "upsample factor 1 is not valid (0: Gaussian refinement; 2 to 1024: band-limited "
               "interpolation)");
  }
  if (upsample > 1024) return bad("upsample", "upsample factor above 1024");
  if (!(min_rho >= -1 && min_rho <= 1)) return bad("min_rho", "minimum rho must be within [-1, 1]");
  if (!(min_psr >= 0)) return bad("min_psr", "minimum PSR must not be negative");
  if (!(max_second_ratio >= 0)) {
    return bad("max_second_ratio", "maximum second-peak ratio must not be negative");
  }
  if (!(alpha > 0 && alpha <= 1)) return bad("alpha", "significance level must be in (0, 1]");
  return std::nullopt;
}

void analysis_options::validate() const {
  if (auto p = problem()) throw std::invalid_argument(p->text());
}

std::size_t analysis_options::samples() const {
  return static_cast<std::size_t>(window.count() / sampling_period.count());
}

estimator_options analysis_options::estimator() const {
  estimator_options o;
  o.length = samples();
  o.max_lag = static_cast<std::size_t>(max_lag.count() / sampling_period.count());
  o.smooth_sigma = static_cast<double>(smooth_width().count()) / static_cast<double>(sampling_period.count());
  o.upsample = upsample;
  o.rigor = rigor;
  o.min_rho = min_rho;
  o.min_psr = min_psr;
  o.max_second_ratio = max_second_ratio;
  o.alpha = alpha;
  return o;
}

namespace {

std::vector<std::string> side(const std::vector<symbol_pair>& pairs, bool a) {
  std::vector<std::string> out;
  for (const auto& p : pairs) out.push_back(a ? p.a : p.b);
  return out;
}

}  // namespace

template <fft_real T>
analysis_options window_analyzer<T>::validated(analysis_options o) {
  o.validate();
  return o;
}

namespace {

// Jobs gathered before they are estimated and delivered: enough to keep every worker busy and the cost of
// a hand-over small, few enough that the points of a batch stay a few MB.
constexpr std::size_t batch_jobs_per_worker = 32;
// With long transforms fewer: about this many transform samples per worker and batch (at least one job),
// so that a batch of long transforms (seconds each) still reports progress and sees a stop request soon.
constexpr std::size_t batch_samples_per_worker = std::size_t{1} << 21;
constexpr std::size_t batch_points = std::size_t{1} << 20;

}  // namespace

template <fft_real T>
window_analyzer<T>::window_analyzer(analysis_options options, inside_reader& a, inside_reader& b)
    : options_(validated(std::move(options))),
      a_(a, side(options_.symbols, true)),
      b_(b, side(options_.symbols, false)),
      pool_(options_.threads) {
  // Planned one after the other here (FFTW's planner is serialised); the first measures, the others reuse
  // its wisdom.
  workers_.reserve(options_.threads);
  for (std::size_t i = 0; i < options_.threads; ++i) workers_.emplace_back(options_);
  for (const auto& p : options_.symbols) labels_.push_back(p.label());
  batch_jobs_ = options_.threads *
                std::clamp<std::size_t>(batch_samples_per_worker / fft_length(), 1, batch_jobs_per_worker);
  jobs_.reserve(batch_jobs_);
}

template <fft_real T>
window_analyzer<T>::~window_analyzer() {
  try {
    pool_.wait();  // the workers may be using jobs_ and points_
  } catch (...) {  // NOLINT(bugprone-empty-catch): the run already failed, this is its unwinding
  }
}

template <fft_real T>
void window_analyzer<T>::run(const std::function<void(const window_row&)>& sink) {
  const std::int64_t w = options_.window.count(), h = options_.hop_ns();
  // The first window k * h that ends after t and starts at or after --from.
  const std::int64_t first_in_range = (options_.from.count() + h - 1) / h;
  auto first_window_for = [&](std::int64_t t) -> std::int64_t {
    return std::max(t < w ? 0 : (t - w) / h + 1, first_in_range);
  };
  const std::int64_t to = options_.to.count();
  auto next_change = [&]() -> std::optional<std::int64_t> {
    auto ta = a_.next_timestamp(), tb = b_.next_timestamp();
    if (!ta) return tb;
    if (!tb) return ta;
    return std::min(*ta, *tb);
  };

  // Both inputs are read to the end (next_change() empty), so every chosen symbol has been looked for.
  std::uint64_t visited = 0;
  if (auto first = next_change()) {
    std::int64_t k = first_window_for(*first);
    while (true) {
      if (++visited % 1024 == 0) {
        stop_if_asked();
        if (progress_) progress_();
      }
      const std::int64_t start = k * h, end = start + w;
      a_.load_until(end);
      b_.load_until(end);
      a_.drop_before(start);
      b_.drop_before(start);
      if (a_.empty() && b_.empty()) {
        auto t = next_change();
        if (!t) break;
        k = std::max(k + 1, first_window_for(*t));
        continue;
      }
      if (end <= to) analyse_window(start);  // beyond --to: read on, only to look for every symbol
      if (jobs_.size() >= batch_jobs_ || points_.size() >= batch_points) {
        flush(sink);
      }
      ++k;
    }
  }
  finish(sink);

  std::vector<std::string> absent_a, absent_b;
  for (const auto& p : options_.symbols) {
    auto note = [](std::vector<std::string>& absent, const feed_events& feed, const std::string& s) {
      if (!feed.seen(s) && std::find(absent.begin(), absent.end(), s) == absent.end()) absent.push_back(s);
    };
    note(absent_a, a_, p.a);
    note(absent_b, b_, p.b);
  }
  std::string text = absent_symbols_text(absent_a, a_.name());
  if (!absent_b.empty()) text += (text.empty() ? "" : "; ") + absent_symbols_text(absent_b, b_.name());
  if (!text.empty()) throw std::runtime_error(text);
}

template <fft_real T>
void window_analyzer<T>::stop_if_asked() const {
  if (stopping()) throw analysis_stopped();
}

template <fft_real T>
double bin_changes(std::span<const change_event> events, signal_kind s, std::int64_t start,
                   std::int64_t period, std::span<T> out) {
  std::fill(out.begin(), out.end(), T(0));
  if (out.empty()) return 0;
  double largest = 0;
  const double per_ns = 1.0 / static_cast<double>(period);
  const std::size_t last = out.size() - 1;
  for (const change_event& e : events) {
    const std::int64_t offset = e.timestamp - start;
    const auto i = static_cast<std::size_t>(offset / period);
    const double f = static_cast<double>(offset % period) * per_ns, v = e[s];
    out[i] += static_cast<T>(v - v * f);
    if (i < last) out[i + 1] += static_cast<T>(v * f);
    largest = std::max(largest, std::abs(v));
  }
  return largest;
}

template <fft_real T>
std::size_t window_analyzer<T>::label_of(std::string_view symbol) {
  auto [it, added] = discovered_.try_emplace(std::string(symbol), labels_.size());
  if (added) labels_.emplace_back(symbol);
  return it->second;
}

// As bin_changes(), but into points_ (sample, weight there, weight on the next sample), so that a worker
// can bin them into its own series later; returns the largest |value|.
template <fft_real T>
double window_analyzer<T>::add_points(std::span<const change_event> events, signal_kind s,
                                      std::int64_t start) {
  const std::int64_t period = options_.sampling_period.count();
  const double per_ns = 1.0 / static_cast<double>(period);
  double largest = 0;
  for (const change_event& e : events) {
    const std::int64_t offset = e.timestamp - start;
    const double f = static_cast<double>(offset % period) * per_ns, v = e[s];
    points_.push_back(
        {static_cast<std::uint32_t>(offset / period), static_cast<T>(v - v * f), static_cast<T>(v * f)});
    largest = std::max(largest, std::abs(v));
  }
  return largest;
}

template <fft_real T>
void window_analyzer<T>::analyse_window(std::int64_t start) {
  window_pairs_.clear();
  if (!options_.symbols.empty()) {
    for (std::size_t i = 0; i < options_.symbols.size(); ++i) {
      window_pairs_.push_back({options_.symbols[i].a, options_.symbols[i].b, i});
    }
  } else {
    a_.active_symbols(names_);
    b_.active_symbols(names_, true);
    std::sort(names_.begin(), names_.end());
    names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
    for (auto name : names_) window_pairs_.push_back({name, name, label_of(name)});
  }

  const std::uint64_t min_events = options_.min_events;
  bool any = false;
  for (const active_pair& p : window_pairs_) {
    const auto ea = a_.events(p.a), eb = b_.events(p.b);
    if (ea.empty() && eb.empty()) continue;
    if (ea.size() < min_events || eb.size() < min_events) {
      ++skipped_;
      continue;
    }
    any = true;
    const bool estimate = !ea.empty() && !eb.empty();
    for (signal_kind s : options_.signals) {
      job j{start, p.label, s, estimate, ea.size(), eb.size(), points_.size(), 0, 0, 0, 0, {}};
      if (estimate) j.impulse_a = add_points(ea, s, start);
      j.b_begin = points_.size();
      if (estimate) j.impulse_b = add_points(eb, s, start);
      j.b_end = points_.size();
      jobs_.push_back(j);
    }
  }
  if (any) ++windows_;
}

template <fft_real T>
void window_analyzer<T>::estimate(worker& w, job& j, const point* p) {
  // Binned as bin_changes() does, changes in time order, then the series set back to zero.
  const std::size_t last = w.a.size() - 1;
  auto bin = [&](std::vector<T>& series, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      series[p[i].sample] += p[i].here;
      if (p[i].sample < last) series[p[i].sample + 1] += p[i].next;
    }
  };
  auto clear = [&](std::vector<T>& series, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      series[p[i].sample] = T(0);
      if (p[i].sample < last) series[p[i].sample + 1] = T(0);
    }
  };
  bin(w.a, j.a_begin, j.b_begin);
  bin(w.b, j.b_begin, j.b_end);
  j.result = w.estimator.estimate(std::span<const T>(w.a), std::span<const T>(w.b), j.impulse_a, j.impulse_b);
  clear(w.a, j.a_begin, j.b_begin);
  clear(w.b, j.b_begin, j.b_end);
}

template <fft_real T>
void window_analyzer<T>::flush(const std::function<void(const window_row&)>& sink) {
  if (workers_.size() == 1) {
    finish(sink);
    return;
  }
  if (flying_) {
    pool_.wait();
    flying_ = false;
    stop_if_asked();  // the batch's jobs may have been left out
    deliver(flying_jobs_, sink);
  }
  std::swap(jobs_, flying_jobs_);
  std::swap(points_, flying_points_);
  jobs_.clear();
  points_.clear();
  if (flying_jobs_.empty()) return;
  flying_ = true;
  pool_.start(flying_jobs_.size(), [this](std::size_t w, std::size_t i) {
    if (flying_jobs_[i].estimate && !stopping())
      estimate(workers_[w], flying_jobs_[i], flying_points_.data());
  });
}

template <fft_real T>
void window_analyzer<T>::finish(const std::function<void(const window_row&)>& sink) {
  if (flying_) {
    pool_.wait();
    flying_ = false;
    stop_if_asked();
    deliver(flying_jobs_, sink);
  }
  pool_.run(jobs_.size(), [this](std::size_t w, std::size_t i) {
    if (jobs_[i].estimate && !stopping()) estimate(workers_[w], jobs_[i], points_.data());
  });
  stop_if_asked();
  deliver(jobs_, sink);
  jobs_.clear();
  points_.clear();
}

template <fft_real T>
void window_analyzer<T>::deliver(const std::vector<job>& jobs,
                                 const std::function<void(const window_row&)>& sink) {
  const double us_per_sample = static_cast<double>(options_.sampling_period.count()) / 1000.0;
  window_row row;
  for (const job& j : jobs) {
    row.window_start = j.start;
    row.symbol = labels_[j.label];
    row.signal = j.signal;
    row.events_a = j.events_a;
    row.events_b = j.events_b;
    if (j.estimate) {
      row.estimate = j.result;
    } else {
      row.estimate = delay_estimate{};
      row.estimate.flags.set(estimate_flag::flat);
      row.estimate.second_ratio = detail::nan;
    }
    row.delay_us = row.estimate.delay * us_per_sample;
    sink(row);
  }
  if (progress_ && !jobs.empty()) progress_();
}

template double bin_changes<float>(std::span<const change_event>, signal_kind, std::int64_t, std::int64_t,
                                   std::span<float>);
template double bin_changes<double>(std::span<const change_event>, signal_kind, std::int64_t, std::int64_t,
                                    std::span<double>);
template class window_analyzer<float>;
template class window_analyzer<double>;

}  // namespace itch5::tde
