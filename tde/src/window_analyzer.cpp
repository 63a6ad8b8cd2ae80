#include <tde/window_analyzer.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace tde {

namespace {

std::string ns_text(std::chrono::nanoseconds d) { return std::to_string(d.count()) + " ns"; }

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

void analysis_options::validate() const {
  if (sampling_period.count() <= 0) throw std::invalid_argument("sampling period must be positive");
  if (window.count() <= 0) throw std::invalid_argument("window must be positive");
  if (window.count() % sampling_period.count() != 0) {
    throw std::invalid_argument("window (" + ns_text(window) +
                                ") must be a whole number of sampling periods (" + ns_text(sampling_period) +
                                ")");
  }
  const auto n = window.count() / sampling_period.count();
  if (n < 2) throw std::invalid_argument("window must hold at least 2 sampling periods");
  if (n > (std::int64_t{1} << 26)) {
    throw std::invalid_argument("window holds " + std::to_string(n) + " samples; at most 2^26 are supported");
  }
  if (hop.count() < 0) throw std::invalid_argument("hop must not be negative");
  if (from.count() < 0 || to <= from) throw std::invalid_argument("the time range must not be empty");
  if (to != std::chrono::nanoseconds::max() && to - from < window) {
    throw std::invalid_argument("the time range (" + ns_text(to - from) + ") is shorter than one window (" +
                                ns_text(window) + ")");
  }
  if (max_lag < sampling_period) throw std::invalid_argument("max lag must be at least one sampling period");
  if (max_lag >= window) {
    throw std::invalid_argument("max lag (" + ns_text(max_lag) + ") must be shorter than the window (" +
                                ns_text(window) + ")");
  }
  if (smooth.count() < 0 && smooth != smooth_auto) {
    throw std::invalid_argument("smoothing width must not be negative");
  }
  if (smooth_width() >= window) throw std::invalid_argument("smoothing width must be shorter than the window");
  if (signals.empty()) throw std::invalid_argument("no signal chosen");
  for (std::size_t i = 0; i < signals.size(); ++i) {
    if (std::find(signals.begin(), signals.begin() + static_cast<std::ptrdiff_t>(i), signals[i]) !=
        signals.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw std::invalid_argument("signal '" + std::string(to_string(signals[i])) + "' chosen twice");
    }
  }
  for (std::size_t i = 0; i < symbols.size(); ++i) {
    const std::string label = symbols[i].label();
    (void)parse_symbol_pair(label);
    for (std::size_t j = 0; j < i; ++j) {
      if (symbols[j].label() == label) throw std::invalid_argument("symbol '" + label + "' chosen twice");
    }
  }
  if (upsample == 1) {
    throw std::invalid_argument("upsample factor 1 is not valid (0: Gaussian refinement; 2 to 1024: "
                                "band-limited interpolation)");
  }
  if (upsample > 1024) throw std::invalid_argument("upsample factor above 1024");
  if (!(min_rho >= -1 && min_rho <= 1)) throw std::invalid_argument("minimum rho must be within [-1, 1]");
  if (!(min_psr >= 0)) throw std::invalid_argument("minimum PSR must not be negative");
  if (!(max_second_ratio >= 0)) throw std::invalid_argument("maximum second-peak ratio must not be negative");
  if (!(alpha > 0 && alpha <= 1)) throw std::invalid_argument("significance level must be in (0, 1]");
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

template <fft_real T>
window_analyzer<T>::window_analyzer(analysis_options options, inside_reader& a, inside_reader& b)
    : options_(validated(std::move(options))),
      n_(options_.samples()),
      a_(a, side(options_.symbols, true)),
      b_(b, side(options_.symbols, false)),
      estimator_(options_.estimator()) {
  for (const auto& p : options_.symbols) labels_.push_back(p.label());
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
  if (auto first = next_change()) {
    std::int64_t k = first_window_for(*first);
    while (true) {
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
      if (end <= to) analyse_window(start, sink);  // beyond --to: read on, only to look for every symbol
      ++k;
    }
  }

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
double bin_changes(std::span<const change_event> events, signal_kind s, std::int64_t start, std::int64_t period,
                   std::span<T> out) {
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
void window_analyzer<T>::analyse_window(std::int64_t start,
                                        const std::function<void(const window_row&)>& sink) {
  window_pairs_.clear();
  if (!options_.symbols.empty()) {
    for (std::size_t i = 0; i < options_.symbols.size(); ++i) {
      window_pairs_.push_back({options_.symbols[i].a, options_.symbols[i].b, labels_[i]});
    }
  } else {
    names_ = a_.active_symbols();
    auto more = b_.active_symbols();
    names_.insert(names_.end(), more.begin(), more.end());
    std::sort(names_.begin(), names_.end());
    names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
    for (auto name : names_) window_pairs_.push_back({name, name, name});
  }

  rows_.clear();
  std::size_t estimated = 0;
  for (std::size_t p = 0; p < window_pairs_.size(); ++p) {
    const auto na = a_.events(window_pairs_[p].a).size(), nb = b_.events(window_pairs_[p].b).size();
    if (na == 0 && nb == 0) continue;
    for (signal_kind s : options_.signals) {
      std::ptrdiff_t index = -1;
      if (na > 0 && nb > 0) index = static_cast<std::ptrdiff_t>(estimated++);
      rows_.push_back({p, s, na, nb, index});
    }
  }
  if (rows_.empty()) return;
  ++windows_;

  if (series_.size() < 2 * estimated * n_) series_.resize(2 * estimated * n_);
  batch_.resize(estimated);
  results_.resize(estimated);
  for (const row_info& r : rows_) {
    if (r.batch_index < 0) continue;
    const auto i = static_cast<std::size_t>(r.batch_index);
    std::span<T> sa(series_.data() + 2 * i * n_, n_), sb(series_.data() + (2 * i + 1) * n_, n_);
    const std::int64_t period = options_.sampling_period.count();
    const double ia = bin_changes<T>(a_.events(window_pairs_[r.pair].a), r.signal, start, period, sa);
    const double ib = bin_changes<T>(b_.events(window_pairs_[r.pair].b), r.signal, start, period, sb);
    batch_[i] = {sa, sb, ia, ib};
  }
  estimator_.estimate(std::span<const series_pair<T>>(batch_), std::span<delay_estimate>(results_));

  const double us_per_sample = static_cast<double>(options_.sampling_period.count()) / 1000.0;
  window_row row;
  row.window_start = start;
  for (const row_info& r : rows_) {
    row.symbol = window_pairs_[r.pair].label;
    row.signal = r.signal;
    row.events_a = r.events_a;
    row.events_b = r.events_b;
    if (r.batch_index >= 0) {
      row.estimate = results_[static_cast<std::size_t>(r.batch_index)];
    } else {
      row.estimate = delay_estimate{};
      row.estimate.flags.set(estimate_flag::flat);
      row.estimate.second_ratio = std::numeric_limits<double>::quiet_NaN();
    }
    if (r.events_a < options_.min_events || r.events_b < options_.min_events) {
      row.estimate.flags.set(estimate_flag::few_events);
    }
    row.delay_us = row.estimate.delay * us_per_sample;
    sink(row);
  }
}

template double bin_changes<float>(std::span<const change_event>, signal_kind, std::int64_t, std::int64_t,
                                   std::span<float>);
template double bin_changes<double>(std::span<const change_event>, signal_kind, std::int64_t, std::int64_t,
                                    std::span<double>);
template class window_analyzer<float>;
template class window_analyzer<double>;

}  // namespace tde
