// A distribution of non-negative integers given by a few of its quantiles: a piecewise log-linear inverse
// CDF.
//
// The generator knows the measured distribution of event depths only through quantiles (p50 1, p75 6,
// p90 14, p99 203, p99.9 ~2000). A quantile_curve passes through knots (u_i, v_i) and, between two knots,
// interpolates log(1 + v) linearly in u; a draw is the inverse CDF at a uniform u, rounded to the nearest
// integer. Rounding is monotone, so the q-quantile of the draws is the curve's value at q: the knots are
// reproduced exactly. The log-linear shape puts the mass of each interval towards its smaller end, as a
// heavy tail does. The first knot must be at u = 0 and the last at u = 1.
//
// Sampling does not evaluate the curve: the construction computes, for every integer v in the range, the
// smallest u at which the curve rounds to v or more (its breakpoint), and a draw counts the breakpoints at
// or below u, found through a 4096-bucket guide table and a binary search inside the bucket.
//
// Sample O(1) expected (O(log V) in buckets holding many breakpoints, i.e. the steep tail). Memory
// 8 bytes per integer value in the range (80 KB for 0..10000) plus 16 KB. Immutable after construction;
// thread-safe for const use.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include <itch5/synth/rng.hpp>

namespace itch5::synth {

class quantile_curve {
 public:
  struct knot {
    double u;      ///< cumulative probability, 0..1, strictly increasing (equal u allowed for jumps)
    double value;  ///< value at u, >= 0, non-decreasing
  };

  /// Throws std::invalid_argument if the knots do not describe an inverse CDF (see the header comment).
  explicit quantile_curve(std::vector<knot> knots);
  quantile_curve(std::initializer_list<knot> knots) : quantile_curve(std::vector<knot>(knots)) {}

  /// The curve at u in [0, 1], rounded to the nearest integer.
  [[nodiscard]] std::uint32_t at(double u) const noexcept {
    auto j = static_cast<std::size_t>(u * guide_size);
    if (j >= guide_size) j = guide_size - 1;
    std::uint32_t lo = guide_[j], hi = guide_[j + 1];  // at(u) is in [lo, hi]
    // Count the breakpoints of lo+1 .. hi that are <= u.
    while (lo < hi) {
      std::uint32_t mid = lo + (hi - lo + 1) / 2;
      if (breakpoint_[mid - first_] <= u)
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  }

  /// A draw: at(uniform).
  [[nodiscard]] std::uint32_t sample(rng& r) const noexcept { return at(r.uniform()); }

  [[nodiscard]] const std::vector<knot>& knots() const noexcept { return knots_; }

 private:
  static constexpr std::size_t guide_size = 4096;

  std::vector<knot> knots_;
  std::uint32_t first_ = 0;           // value at u = 0
  std::vector<double> breakpoint_;    // [v - first_]: smallest u where the curve rounds to >= v
  std::vector<std::uint32_t> guide_;  // [j]: at(j / guide_size), guide_size + 1 entries
};

}  // namespace itch5::synth
