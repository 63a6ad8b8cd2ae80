// What the machine alone does to a latency: the floor under any latency quantile that a path needing some
// CPUs can show, from the stalls a thread that does nothing but read the clock sees on each of them
// (bm_machine_stalls.cpp measures them; bench/live_latency.py reports them beside the wire-to-inside
// latencies of issue 34).
//
// A thread spinning on a CPU sees a gap between two clock readings whenever the kernel (an interrupt, a
// kernel thread) or the hypervisor (the virtual CPU descheduled on the host) takes the CPU away. Work due at
// a random moment of such a gap waits for the rest of it: over a probe of length T with gaps g_i, the
// fraction of moments at which the wait exceeds x is
//
//   P(wait > x) = sum_i max(0, g_i - x) / T                                        (exceedance)
//
// A packet that needs a CPU (the sender's to go out on time, the receiver's to be read and applied) is
// late by at least that CPU's wait at the moment it is due, so its latency's q-quantile is at least the
// smallest x with P(wait > x) <= 1 - q on the CPU that stalls most (floor_worst), and, if the CPUs' stalls
// are independent, the smallest x with 1 - prod_c (1 - P_c(wait > x)) <= 1 - q (floor_independent).
//
//   machine_stalls::profile cpu0{std::chrono::seconds(10), {gaps...}};
//   const std::int64_t p9999 = machine_stalls::floor_worst(profiles, 0.9999);   // ns
//
// Gaps shorter than the probe's threshold are not recorded, so a floor below the threshold means "under
// the threshold", not its value.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

namespace machine_stalls {

struct profile {
  std::chrono::nanoseconds span{0};  // how long the probe ran
  std::vector<std::int64_t> gaps;    // every gap of at least the threshold (ns), in any order

  /// P(wait > x_ns): the fraction of the span at which work due then waits more than x_ns for the CPU.
  [[nodiscard]] double exceedance(std::int64_t x_ns) const noexcept {
    if (span.count() <= 0) return 0;
    double late = 0;
    for (const std::int64_t g : gaps) {
      if (g > x_ns) late += static_cast<double>(g - x_ns);
    }
    return late / static_cast<double>(span.count());
  }
};

namespace detail {

// The smallest x >= 0 (ns) with exceeds(x) <= limit, exceeds non-increasing and 0 at the longest gap.
template <class F>
std::int64_t smallest_within(std::int64_t longest, double limit, F exceeds) {
  std::int64_t lo = 0, hi = longest;  // exceeds(hi) == 0 <= limit
  if (exceeds(lo) <= limit) return lo;
  while (hi - lo > 1) {  // invariant: exceeds(lo) > limit >= exceeds(hi)
    const std::int64_t mid = lo + (hi - lo) / 2;
    (exceeds(mid) <= limit ? hi : lo) = mid;
  }
  return hi;
}

inline std::int64_t longest_gap(std::span<const profile> cpus) noexcept {
  std::int64_t longest = 0;
  for (const profile& p : cpus) {
    for (const std::int64_t g : p.gaps) longest = std::max(longest, g);
  }
  return longest;
}

}  // namespace detail

/// The floor (ns) under the q-quantile (0 < q < 1) of a latency that needs every CPU of `cpus`, from the CPU
/// whose stalls are worst at each x: no path that needs all of them can do better, whatever else is true.
[[nodiscard]] inline std::int64_t floor_worst(std::span<const profile> cpus, double q) {
  return detail::smallest_within(detail::longest_gap(cpus), 1 - q, [&](std::int64_t x) {
    double worst = 0;
    for (const profile& p : cpus) worst = std::max(worst, p.exceedance(x));
    return worst;
  });
}

/// The same with the CPUs' stalls taken as independent (a moment is late if any CPU is stalled then): the
/// floor when stalls on different CPUs do not come together.
[[nodiscard]] inline std::int64_t floor_independent(std::span<const profile> cpus, double q) {
  return detail::smallest_within(detail::longest_gap(cpus), 1 - q, [&](std::int64_t x) {
    double on_time = 1;
    for (const profile& p : cpus) on_time *= 1 - p.exceedance(x);
    return 1 - on_time;
  });
}

}  // namespace machine_stalls
