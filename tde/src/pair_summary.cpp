#include <itch5/tde/report/pair_summary.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include <itch5/tde/report/delay_summary.hpp>

#include "number_text.hpp"

namespace itch5::tde {

namespace {

using detail::nan;

using detail::append_csv_number;

// Microseconds in plain words: one decimal from 1 us, three below.
std::string us_text(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 1 ? "%.1f us" : "%.3f us", std::fabs(v));
  return buf;
}

// The seed of a (pair, signal)'s bootstrap: FNV-1a of the label, mixed with the signal.
std::uint64_t bootstrap_seed(std::string_view label, signal_kind s) {
  std::uint64_t h = 14695981039346656037ull;
  for (char c : label) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h ^ (0x9e3779b97f4a7c15ull * (static_cast<std::uint64_t>(s) + 1));
}

std::pair<std::string, std::string> sides(const std::string& label) {
  const auto colon = label.find(':');
  if (colon == std::string::npos) return {label, label};
  return {label.substr(0, colon), label.substr(colon + 1)};
}

// windows,tested,passed,delay_us,ci_low_us,ci_high_us,p_value,significant: the columns the summary and
// the lead-lag table share.
constexpr const char* verdict_columns =
    "windows,tested,passed,delay_us,ci_low_us,ci_high_us,p_value,significant";

void append_verdict_fields(std::string& out, const pair_statistics& s) {
  out += std::to_string(s.windows) + ',' + std::to_string(s.tested) + ',' + std::to_string(s.passed) + ',';
  append_csv_number(out, s.median, "%.4f");
  out += ',';
  append_csv_number(out, s.ci_low, "%.4f");
  out += ',';
  append_csv_number(out, s.ci_high, "%.4f");
  out += ',';
  append_csv_number(out, s.p_value, "%.4g");
  out += ',';
  out += s.significant ? "yes" : "no";
}

}  // namespace

double binomial_upper_tail(std::uint64_t n, std::uint64_t k, double p) {
  if (k == 0) return 1;
  if (k > n) return 0;
  if (!(p > 0)) return 0;
  if (!(p < 1)) return 1;
  const double nd = static_cast<double>(n);
  auto log_term = [&](std::uint64_t i) {
    const double id = static_cast<double>(i);
    return std::lgamma(nd + 1) - std::lgamma(id + 1) - std::lgamma(nd - id + 1) + id * std::log(p) +
           (nd - id) * std::log1p(-p);
  };
  const double odds = p / (1 - p);
  // Each tail is summed from its end nearest the mode outwards, where the terms fall: the upper tail when
  // k is above the mean, else 1 - the lower tail P(X <= k - 1).
  if (static_cast<double>(k) > nd * p) {
    double term = std::exp(log_term(k)), sum = 0;
    for (std::uint64_t i = k; i <= n && term > 0; ++i) {
      sum += term;
      if (term < sum * 1e-17) break;
      term *= static_cast<double>(n - i) / static_cast<double>(i + 1) * odds;
    }
    return std::min(1.0, sum);
  }
  double term = std::exp(log_term(k - 1)), sum = 0;
  for (std::uint64_t i = k - 1;; --i) {
    sum += term;
    if (i == 0 || term < sum * 1e-17 || term == 0) break;
    term *= static_cast<double>(i) / (static_cast<double>(n - i + 1) * odds);
  }
  return std::max(0.0, 1 - sum);
}

double weighted_median_of_counts(std::span<const std::pair<double, double>> sorted,
                                 std::span<const std::uint32_t> counts) {
  const std::size_t n = std::min(sorted.size(), counts.size());
  double total = 0;
  bool any = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (counts[i] == 0) continue;
    any = true;
    total += counts[i] * sorted[i].second;
  }
  if (!any) return nan;
  const bool equal = !(total > 0);  // every chosen weight is 0: count the rows equally
  if (equal) {
    total = 0;
    for (std::size_t i = 0; i < n; ++i) total += counts[i];
  }
  // As weighted_quantile() on the expanded multiset: copy j of value i sits at
  // (weight before + j w + w / 2) / total; between copies of one value the quantile is that value. Compared
  // in weight units (positions x total), without a division per value.
  const double target = 0.5 * total;
  double before = 0, prev_at = 0, prev_value = nan;
  bool have_prev = false;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = equal ? 1.0 : sorted[i].second;
    if (counts[i] == 0 || !(w > 0)) continue;
    const double v = sorted[i].first;
    const double k = counts[i];
    const double first = before + w / 2;
    if (target <= first) {
      if (!have_prev) return v;
      return prev_value + (v - prev_value) * (target - prev_at) / (first - prev_at);
    }
    const double last = first + (k - 1) * w;
    if (target <= last) return v;
    before += k * w;
    prev_at = last;
    prev_value = v;
    have_prev = true;
  }
  return prev_value;
}

std::pair<double, double> bootstrap_median_interval(std::span<const std::pair<double, double>> sorted,
                                                    std::size_t resamples, double confidence,
                                                    std::uint64_t seed) {
  if (sorted.empty() || resamples == 0) return {nan, nan};
  std::mt19937_64 rng(seed);
  const std::size_t n = sorted.size();
  std::vector<std::uint32_t> counts(n);
  std::vector<std::pair<double, double>> medians;
  medians.reserve(resamples);
  for (std::size_t r = 0; r < resamples; ++r) {
    std::fill(counts.begin(), counts.end(), 0u);
    for (std::size_t j = 0; j < n; ++j) {
      // floor(rng() x n / 2^64): the same index on every platform (unlike uniform_int_distribution), without
      // a division; its bias, below n / 2^64, is far under the bootstrap's own noise.
      __extension__ using u128 = unsigned __int128;
      ++counts[static_cast<std::size_t>((static_cast<u128>(rng()) * n) >> 64)];
    }
    medians.emplace_back(weighted_median_of_counts(sorted, counts), 1.0);
  }
  std::sort(medians.begin(), medians.end());
  return {weighted_quantile(medians, (1 - confidence) / 2), weighted_quantile(medians, (1 + confidence) / 2)};
}

pair_summary::pair_summary(pair_summary_options options) : options_(options) {}

void pair_summary::add(const window_row& row) {
  const bool tested =
      !row.estimate.flags.test(estimate_flag::few_events) && !row.estimate.flags.test(estimate_flag::flat);
  add(row.symbol, row.signal, tested, row.estimate.passed(), row.delay_us, row.estimate.rho);
}

void pair_summary::add(std::string_view label, signal_kind s, bool tested, bool passed, double delay_us,
                       double rho) {
  auto it = by_pair_.find(label);
  if (it == by_pair_.end()) {
    it = by_pair_.emplace(std::string(label), std::array<entry, signal_kind_count>{}).first;
  }
  auto& e = it->second[static_cast<std::size_t>(s)];
  ++e.windows;
  if (tested) ++e.tested;
  if (passed && std::isfinite(delay_us)) {
    e.passed.emplace_back(delay_us, std::max(0.0, std::isfinite(rho) ? rho : 0.0));
  }
}

std::vector<pair_statistics> pair_summary::statistics() const {
  std::vector<pair_statistics> out;
  for (const auto& [label, entries] : by_pair_) {
    for (auto s : all_signal_kinds) {
      const auto& e = entries[static_cast<std::size_t>(s)];
      if (e.windows == 0) continue;
      pair_statistics st;
      st.label = label;
      std::tie(st.a, st.b) = sides(label);
      st.signal = s;
      st.windows = e.windows;
      st.tested = std::max<std::uint64_t>(e.tested, e.passed.size());
      st.passed = e.passed.size();
      auto sorted = e.passed;
      std::sort(sorted.begin(), sorted.end());
      double total = 0;
      for (const auto& vw : sorted) total += vw.second;
      if (!(total > 0)) {
        for (auto& vw : sorted) vw.second = 1;
      }
      st.median = weighted_quantile(sorted, 0.5);
      std::tie(st.ci_low, st.ci_high) = bootstrap_median_interval(
          sorted, options_.resamples, options_.confidence, bootstrap_seed(label, s));
      st.p_value = binomial_upper_tail(st.tested, st.passed, options_.null_pass_rate);
      out.push_back(std::move(st));
    }
  }
  const double threshold = out.empty() ? 0 : options_.level / static_cast<double>(out.size());
  for (auto& st : out) st.significant = st.passed > 0 && st.p_value <= threshold;
  return out;
}

std::string summary_csv(std::span<const pair_statistics> rows) {
  std::string out = std::string("symbol,signal,") + verdict_columns + "\n";
  for (const auto& s : rows) {
    out += s.label + ',' + std::string(to_string(s.signal)) + ',';
    append_verdict_fields(out, s);
    out += '\n';
  }
  return out;
}

std::vector<pair_statistics> rank_lead_lag(std::vector<pair_statistics> rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const pair_statistics& x, const pair_statistics& y) {
    if (x.p_value != y.p_value) return x.p_value < y.p_value;
    const bool xm = !std::isnan(x.median), ym = !std::isnan(y.median);
    if (xm != ym) return xm;
    return xm && std::fabs(x.median) > std::fabs(y.median);
  });
  return rows;
}

std::string verdict(const pair_statistics& s) {
  if (!s.significant || std::isnan(s.median)) return "not significant";
  const bool holds_zero = !std::isnan(s.ci_low) && s.ci_low <= 0 && s.ci_high >= 0;
  if (holds_zero || s.median == 0) return "no clear leader (the interval holds 0)";
  std::string lead = s.a, lag = s.b;
  if (s.a == s.b) {
    lead = s.a + " in file A";
    lag = "file B";
  }
  if (s.median < 0) {
    std::swap(lead, lag);
    if (s.a == s.b) {
      lead = s.a + " in file B";
      lag = "file A";
    }
  }
  return lead + " leads " + lag + " by " + us_text(s.median);
}

std::string lead_lag_csv(std::span<const pair_statistics> ranked) {
  std::string out = std::string("rank,symbol_a,symbol_b,signal,") + verdict_columns + ",verdict\n";
  std::size_t rank = 0;
  for (const auto& s : ranked) {
    out += std::to_string(++rank) + ',' + s.a + ',' + s.b + ',' + std::string(to_string(s.signal)) + ',';
    append_verdict_fields(out, s);
    out += ',' + verdict(s) + '\n';
  }
  return out;
}

std::string lead_lag_text(std::span<const pair_statistics> ranked, std::string_view program) {
  std::string out;
  std::size_t rank = 0;
  for (const auto& s : ranked) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%llu of %llu windows passed, p %.3g",
                  static_cast<unsigned long long>(s.passed), static_cast<unsigned long long>(s.tested),
                  s.p_value);
    std::string line = std::string(program) + ": lead-lag " + std::to_string(++rank) + ". " + s.label + " " +
                       std::string(to_string(s.signal)) + ": " + verdict(s) + " (";
    if (!std::isnan(s.ci_low)) {
      char ci[128];
      std::snprintf(ci, sizeof ci, "median %.3f us, interval %.3f to %.3f us; ", s.median, s.ci_low,
                    s.ci_high);
      line += ci;
    }
    out += line + buf + ")\n";
  }
  return out;
}

}  // namespace itch5::tde
