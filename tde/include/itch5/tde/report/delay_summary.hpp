// delay_summary: the overall delay of a run, per signal, from its window rows: confidence-weighted median,
// IQR, p10/p90 and the fraction of rows that passed.
//
// Only rows that passed (no flag) contribute delays, each weighted by its rho (clamped to >= 0; equal
// weights if every rho is 0). Quantiles interpolate between the weighted midpoints of the sorted delays
// (with equal weights: the Hazen definition, median of 1..100 = 50.5). add() is amortised O(1); the
// statistics sort, O(R log R) for R passed rows. Memory: two doubles per passed row. One thread at a time.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <itch5/tde/windows/signal_kind.hpp>
#include <itch5/tde/windows/window_analyzer.hpp>

namespace itch5::tde {

struct delay_statistics {
  std::uint64_t rows = 0;
  std::uint64_t passed = 0;
  double pass_fraction = 0;  ///< passed / rows (NaN without rows)
  /// In microseconds; delay > 0: B lags A. NaN when no row passed.
  double median = 0, p10 = 0, p25 = 0, p75 = 0, p90 = 0, iqr = 0;
};

/// The q-quantile (0 <= q <= 1) of values with weights, given as (value, weight) pairs sorted by value
/// with weights >= 0 and a positive total. NaN for an empty input.
[[nodiscard]] double weighted_quantile(std::span<const std::pair<double, double>> sorted, double q);

class delay_summary {
 public:
  void add(const window_row& row);
  void add(signal_kind s, double delay_us, double rho, bool passed);

  [[nodiscard]] delay_statistics statistics(signal_kind s) const;
  /// The signals with rows, in signal_kind order.
  [[nodiscard]] std::vector<signal_kind> signals() const;

  /// One line per signal for stderr, each starting with `program`.
  [[nodiscard]] std::string text(std::string_view program) const;
  /// A YAML document with the options' key values and the statistics per signal.
  [[nodiscard]] std::string yaml(const analysis_options& options) const;

 private:
  struct per_signal {
    std::uint64_t rows = 0;
    std::vector<std::pair<double, double>> passed;  // (delay_us, weight)
  };
  std::array<per_signal, signal_kind_count> by_signal_;
};

}  // namespace itch5::tde
