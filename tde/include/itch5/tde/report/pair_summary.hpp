// pair_summary: one verdict per (symbol pair, signal) of a run, from its window rows: the rho-weighted
// median delay, a bootstrap confidence interval over windows, and the pair's significance; and the
// lead-lag table that ranks those verdicts.
//
// Per (pair, signal): `windows` rows; `tested` = rows that could pass (neither few_events nor flat);
// `passed` = rows with no flag. The median is delay_summary's weighted median (weights rho clamped to >= 0,
// equal weights if all are 0) over the passed rows. The confidence interval is a percentile bootstrap:
// `resamples` times, draw `passed` rows with replacement from the passed rows and take the weighted median;
// the interval is the ((1 - c) / 2, (1 + c) / 2) quantiles of those medians (Hazen). The generator is
// seeded from the pair's label and signal, so the output is the same on every run and does not depend on
// the other pairs. Significance: p = P(Binomial(tested, null_pass_rate) >= passed), the chance that a pair
// whose windows each pass with probability null_pass_rate (the per-window test's false-pass rate) passes
// as many; it assumes independent windows (overlapping windows, hop < window, make it too small).
//
// add() is O(1) amortised (one map look-up by label); statistics() is O(R log R + resamples x R) per
// (pair, signal) with R passed rows, no allocation per resample. Memory: two doubles per passed row. One
// thread at a time.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <itch5/tde/windows/signal_kind.hpp>
#include <itch5/tde/windows/window_analyzer.hpp>

namespace itch5::tde {

struct pair_summary_options {
  /// The fraction of windows an unrelated pair passes (the per-window test's level).
  double null_pass_rate = 0.05;
  /// Bootstrap resamples for the confidence interval (0: no interval).
  std::size_t resamples = 1000;
  /// Confidence level of the interval.
  double confidence = 0.95;
  /// Family-wise level of `significant`: p <= level / (number of (pair, signal) verdicts) (Bonferroni).
  double level = 0.05;
};

/// The verdict on one (symbol pair, signal). Delays in microseconds, > 0: B lags A; NaN when none passed.
struct pair_statistics {
  std::string label;  ///< "SYM" or "SYMA:SYMB", as in the CSV's symbol column
  std::string a, b;   ///< the symbol in file A and in file B
  signal_kind signal = signal_kind::events;
  std::uint64_t windows = 0, tested = 0, passed = 0;
  double median = 0, ci_low = 0, ci_high = 0;
  double p_value = 1;
  bool significant = false;
};

/// P(X >= k) for X ~ Binomial(n, p), 0 <= p <= 1 (1 when k = 0, 0 when k > n).
[[nodiscard]] double binomial_upper_tail(std::uint64_t n, std::uint64_t k, double p);

/// The weighted median (weighted_quantile at 0.5) of the multiset holding counts[i] copies of sorted[i]
/// (sorted by value, weights >= 0), without building it; equal weights if every chosen weight is 0. NaN
/// when every count is 0. O(size).
[[nodiscard]] double weighted_median_of_counts(std::span<const std::pair<double, double>> sorted,
                                               std::span<const std::uint32_t> counts);

/// The percentile bootstrap interval of the weighted median of `sorted` (as above): `resamples` resamples
/// with replacement drawn by a 64-bit Mersenne twister seeded with `seed`. (NaN, NaN) when `sorted` is
/// empty or resamples is 0.
[[nodiscard]] std::pair<double, double> bootstrap_median_interval(
    std::span<const std::pair<double, double>> sorted, std::size_t resamples, double confidence,
    std::uint64_t seed);

class pair_summary {
 public:
  explicit pair_summary(pair_summary_options options = {});

  void add(const window_row& row);
  /// `tested`: the row could pass (not few_events, not flat).
  void add(std::string_view label, signal_kind s, bool tested, bool passed, double delay_us, double rho);

  /// One entry per (pair, signal) with rows: pairs by label (byte order), then signals in signal_kind
  /// order.
  [[nodiscard]] std::vector<pair_statistics> statistics() const;

  [[nodiscard]] const pair_summary_options& options() const noexcept { return options_; }

 private:
  struct entry {
    std::uint64_t windows = 0, tested = 0;
    std::vector<std::pair<double, double>> passed;  // (delay_us, weight)
  };
  pair_summary_options options_;
  std::map<std::string, std::array<entry, signal_kind_count>, std::less<>> by_pair_;
};

/// The --summary CSV: a column-name line, then one line per entry in the given order.
[[nodiscard]] std::string summary_csv(std::span<const pair_statistics> rows);

/// The entries ranked for a lead-lag table: by p_value, then by |median| (larger first), entries without a
/// median last; ties keep their order.
[[nodiscard]] std::vector<pair_statistics> rank_lead_lag(std::vector<pair_statistics> rows);

/// The plain-words verdict: "SPY leads A by 12.3 us" (B lags A when the median is > 0), "A leads SPY by
/// 4.10 us", "no clear leader (the interval holds 0)" when significant but the interval contains 0, or
/// "not significant".
[[nodiscard]] std::string verdict(const pair_statistics& s);

/// The --lead-lag CSV of ranked entries: rank, the summary's columns (symbol_a, symbol_b instead of the
/// label), then verdict.
[[nodiscard]] std::string lead_lag_csv(std::span<const pair_statistics> ranked);

/// The ranked table as text lines for stderr, each starting with `program`.
[[nodiscard]] std::string lead_lag_text(std::span<const pair_statistics> ranked, std::string_view program);

}  // namespace itch5::tde
