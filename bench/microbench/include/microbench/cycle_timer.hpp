// The timer of the per-item mode: the x86 time-stamp counter read between fences, and its calibration
// (ticks per nanosecond against steady_clock, resolution, overhead of an empty timed region).
//
//   const auto cal = microbench::timer_calibration::measure();   // ~20 ms, before the run
//   const auto a = microbench::cycle_timer::start();
//   work();
//   const auto b = microbench::cycle_timer::stop();
//   std::int64_t ns = cal.to_ns(static_cast<std::int64_t>(b - a));  // overhead subtracted, after the run
//
// Why not steady_clock: it reads the same counter through the vDSO (a seqlock and a scaling multiply, no
// fence after the reading), so timed work can overlap the reading, and a pair of readings costs more (p50
// 40 ns against 30 ns for a fenced pair on the project's 2-core KVM guest). start() is `lfence; rdtsc;
// lfence` (earlier work finishes before the reading, later work starts after it), stop() is `rdtscp; lfence`
// (the timed work finishes before the reading, nothing after it starts early). The counter must be invariant
// (constant_tsc, nonstop_tsc in /proc/cpuinfo), as on every x86-64 of the last decade; under a hypervisor it
// is usually not trapped. Its resolution may be coarser than one tick (AMD Zen counts in steps of 20 or
// more).
//
// The overhead of an empty timed region (the fences and the readings themselves) is measured as a
// distribution; to_ns() subtracts its median and clamps at zero, so an empty item reads 0 or one
// resolution step. On other architectures start() and stop() read steady_clock in nanoseconds.
//
// Complexity: start()/stop() O(1), no system call; measure() spins ~20 ms. Thread-safety: start()/stop()
// read the calling CPU's counter (pin the thread when comparing readings across a migration matters).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace microbench {

struct cycle_timer {
#if defined(__x86_64__) || defined(__i386__)
  static constexpr std::string_view name = "rdtsc";
  [[nodiscard]] static std::uint64_t start() noexcept {
    _mm_lfence();
    const std::uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
  }
  [[nodiscard]] static std::uint64_t stop() noexcept {
    unsigned aux;
    const std::uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
  }
#else
  static constexpr std::string_view name = "steady_clock";
  [[nodiscard]] static std::uint64_t start() noexcept { return now(); }
  [[nodiscard]] static std::uint64_t stop() noexcept { return now(); }

 private:
  static std::uint64_t now() noexcept {
    return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now().time_since_epoch())
                                          .count());
  }
#endif
};

/// What a tick of cycle_timer is worth and what a timed region costs when it times nothing.
struct timer_calibration {
  double ticks_per_ns = 1.0;      ///< counter frequency in GHz
  std::int64_t resolution = 1;    ///< step of the counter, ticks (gcd of the empty-region lengths)
  std::int64_t overhead_min = 0;  ///< empty start()/stop() region, ticks: minimum,
  std::int64_t overhead_p50 = 0;  ///< median (subtracted by to_ns()),
  std::int64_t overhead_p99 = 0;  ///< and 99th percentile

  /// Nanoseconds of a region that read `ticks`: (ticks - overhead_p50) / ticks_per_ns, rounded to the
  /// nearest integer, at least 0.
  [[nodiscard]] std::int64_t to_ns(std::int64_t ticks) const noexcept;

  /// "rdtsc, 1.996 ticks/ns against steady_clock, resolution 10.0 ns, empty region min 30.0 p50 30.0 p99
  /// 40.0 ns, p50 subtracted from every item"
  [[nodiscard]] std::string describe() const;

  /// Calibrates cycle_timer: frequency over `spin` of steady_clock, then 100,000 empty regions.
  [[nodiscard]] static timer_calibration measure(
      std::chrono::nanoseconds spin = std::chrono::milliseconds(20));
};

}  // namespace microbench
