// The distribution of event depth (price levels between an event's price and the best price of its side
// just before it, docs/design.md) as an inverse CDF through quantile knots, for synthetic streams.
//
//   const auto curve = book_stream::depth_curve::measured();   // p50 1, p75 6, p90 14, p99 203, p99.9 2000
//   std::uint32_t depth = curve.depth_at(u);                    // u uniform in [0, 1)
//
// Between two knots (q_a, d_a) and (q_b, d_b) the curve is linear in log(1 + depth) (log-linear, the shape
// of a heavy tail on a log axis; the 1 + lets depth 0 be a knot), and the result is rounded to the nearest
// integer. A sample drawn with u uniform therefore has, in the limit, nearest-rank quantile d_k at q_k for
// every knot with an integer depth, and P(depth <= x) interpolated log-linearly in between.
//
// measured() uses the quantiles measured on real days (p50 1, p75 6, p90 14, p99 203, p99.9 ~2000 levels)
// with two end knots that were not measured: 0 at q = 0 (by definition the smallest depth; it makes 29% of
// events land at the inside) and 20,000 at q = 1 (ten times p99.9, as p99.9 is ten times p99).
//
// Complexity: depth_at() O(knots) with one log-linear evaluation. Thread-safety: immutable after
// construction. Deterministic for a given C library (std::log1p, std::expm1).
#pragma once

#include <cstdint>
#include <vector>

namespace book_stream {

/// A point of the inverse CDF: the q-quantile of depth is `depth`.
struct depth_knot {
  double q;
  double depth;
};

class depth_curve {
 public:
  /// Knots in increasing q from exactly 0 to exactly 1, depths non-decreasing, in [0, 1e7]. Throws
  /// std::invalid_argument otherwise.
  explicit depth_curve(std::vector<depth_knot> knots);

  /// The distribution measured on real days (see the header comment).
  [[nodiscard]] static depth_curve measured();

  /// The depth at cumulative probability u (clamped to [0, 1]).
  [[nodiscard]] std::uint32_t depth_at(double u) const noexcept;

  [[nodiscard]] const std::vector<depth_knot>& knots() const noexcept { return knots_; }

 private:
  std::vector<depth_knot> knots_;
  std::vector<double> log1p_;  // log(1 + depth) of every knot
};

}  // namespace book_stream
