// delay_estimate: the result of one cross-correlation delay estimate, with its confidence measures and
// quality flags.
//
// Sign convention everywhere in tde: a positive delay means the second series (b, file B) lags the first
// (a, file A): b[n] ~ a[n - delay]. Plain value type; O(1); thread-compatible.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace itch5::tde {

/// Reasons an estimate is not trusted. Any flag set means the estimate did not pass.
enum class estimate_flag : std::uint32_t {
  few_events = 1u << 0,  ///< fewer events than the minimum in a or b (set by the caller that knows events)
  edge = 1u << 1,     ///< the peak is at the edge of the +-max_lag search range: the true delay may be beyond
  flat = 1u << 2,     ///< a or b has no variation after mean removal: no correlation to measure
  low_rho = 1u << 3,  ///< normalised correlation below the minimum
  low_psr = 1u << 4,  ///< peak-to-sidelobe ratio below the minimum
  ambiguous = 1u << 5,        ///< a second peak nearly as high as the main one
  not_significant = 1u << 6,  ///< p_value above the significance level: unrelated series could give this peak
};

/// A set of estimate_flag values.
class estimate_flags {
 public:
  constexpr estimate_flags() noexcept = default;
  constexpr void set(estimate_flag f) noexcept { bits_ |= static_cast<std::uint32_t>(f); }
  [[nodiscard]] constexpr bool test(estimate_flag f) const noexcept {
    return (bits_ & static_cast<std::uint32_t>(f)) != 0;
  }
  [[nodiscard]] constexpr bool none() const noexcept { return bits_ == 0; }
  [[nodiscard]] constexpr std::uint32_t bits() const noexcept { return bits_; }
  /// "ok" when empty, otherwise the names joined with '|', e.g. "few_events|edge".
  [[nodiscard]] std::string to_string() const;
  /// Appends to_string() to `out` without a temporary.
  void append_to(std::string& out) const;

 private:
  std::uint32_t bits_ = 0;
};

/// The name of one flag ("few_events", "edge", "flat", "low_rho", "low_psr", "ambiguous", "not_significant").
[[nodiscard]] const char* to_string(estimate_flag f) noexcept;

struct delay_estimate {
  /// Integer lag in samples at the correlation peak, in [-max_lag, max_lag]; > 0: b lags a.
  std::int64_t lag = 0;
  /// Refined delay in samples (sub-sample); NaN when there is no peak (flag flat).
  double delay = std::numeric_limits<double>::quiet_NaN();
  /// Normalised correlation coefficient at the peak: sum a*b(shifted) / sqrt(sum a^2 * sum b^2) after mean
  /// removal (and smoothing, when enabled). 1 for identical, aligned series; ~0 for unrelated ones.
  double rho = 0;
  /// Peak-to-sidelobe ratio: (peak - mean) / stddev of the correlation over the search range outside the
  /// main lobe (the monotonically falling region around the peak). Infinite when nothing is outside it.
  double psr = 0;
  /// Highest correlation outside the main lobe divided by the peak (1: a rival peak as high as the main one).
  double second_ratio = 0;
  /// The peak in standard deviations of the correlation expected between unrelated series of the same
  /// spectra (Bartlett's variance: sum_j R_a(j) R_b(j) / N). 0 without an estimate.
  double z = 0;
  /// Probability that unrelated series with these spectra and amplitudes give a peak this high anywhere in
  /// the searched lags: a Bennett tail bound (heavy-tailed for sparse series) times the number of
  /// independent lags searched; conservative, see delay_estimator.hpp. 1 without an estimate.
  double p_value = 1;
  estimate_flags flags;

  [[nodiscard]] bool passed() const noexcept { return flags.none(); }
};

}  // namespace itch5::tde
