// Order statistics of a benchmark's per-iteration times: the nearest-rank percentile estimator and the
// summary line (min, p25, p50, p75, p90, p99, p99.9, max, N; deliberately no mean, which hides the tail).
//
// Estimator (nearest rank, Hyndman & Fan type 1, numpy's "inverted_cdf"): for N sorted samples
// x[1] <= ... <= x[N] and a quantile q = num/den in (0, 1], the q-quantile is x[k] with
// k = ceil(q * N), computed exactly in integers; q = 0 gives x[1] (the minimum). The result is always
// one of the samples, never an interpolation, so p50 of an even count is the lower of the two middle
// samples and p99.9 of fewer than 1000 samples is the maximum.
//
// Complexity: nearest_rank() is O(1) on sorted input; summary::of() copies and sorts, O(N log N).
// Thread-safety: plain values and pure functions; no shared state.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace microbench {

/// The num/den quantile of `sorted` (ascending) by nearest rank, see the header comment.
/// Preconditions: `sorted` is not empty and sorted ascending, 0 < den <= 2^32, num <= den.
[[nodiscard]] std::int64_t nearest_rank(std::span<const std::int64_t> sorted, std::uint64_t num,
                                        std::uint64_t den) noexcept;

/// The order statistics of one test case's samples (nanoseconds per iteration).
struct summary {
  std::uint64_t n = 0;
  std::int64_t min = 0;
  std::int64_t p25 = 0;
  std::int64_t p50 = 0;
  std::int64_t p75 = 0;
  std::int64_t p90 = 0;
  std::int64_t p99 = 0;
  std::int64_t p999 = 0;  ///< p99.9
  std::int64_t max = 0;

  /// Summarises `samples` (any order; they are copied, not modified). All zero when empty.
  [[nodiscard]] static summary of(std::span<const std::int64_t> samples);

  /// One line, without newline:
  ///   NAME: N 1000 | ns/iter min 10 p25 11 p50 12 p75 13 p90 14 p99 20 p99.9 25 max 30
  /// and, when items_per_iteration > 0, the throughput derived from p50 and min:
  ///   | 100 items/iter: p50 0.120 ns/item 8.33e+09 items/s, min 0.100 ns/item
  /// `unit` replaces "iter" in "ns/iter" (the per-item mode says "item").
  [[nodiscard]] std::string line(std::string_view name, std::uint64_t items_per_iteration = 0,
                                 std::string_view unit = "iter") const;
};

}  // namespace microbench
