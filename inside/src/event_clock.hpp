// The clock that times messages for the statistics' Processing columns and --slowest: the x86 time-stamp
// counter, read with a bare rdtsc and converted to nanoseconds with a factor measured against steady_clock
// when the clock is made (~2 ms, once per timed run).
//
//   const event_clock clock = event_clock::calibrated();
//   const std::uint64_t t0 = clock.now();     // ticks
//   work();
//   const std::chrono::nanoseconds took = clock.to_ns(clock.now() - t0);
//
// Why not steady_clock: it reads the same counter through the vDSO (a seqlock and a scaling multiply). On
// the project's 2-core VMs a reading costs ~65 ns, a bare rdtsc ~36 ns (a loop of 20 M readings each), and
// a 20 M-message day timed with two steady_clock readings per message spent ~2.6 s in them. The reading is
// not fenced: a fence would wait for the message's loads to finish and take from the books' thread the
// overlap of memory misses it lives on; a reading may so move by some tens of instructions against the
// work around it, small beside the ~50 ns and more that a message takes.
//
// The counter must be invariant (constant_tsc and nonstop_tsc in /proc/cpuinfo: every x86-64 of the last
// decade, also under KVM); where it is not, and on other architectures, readings are steady_clock's
// nanoseconds (factor 1).
#pragma once

#include <chrono>
#include <cstdint>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace itch5::inside {

class event_clock {
 public:
  /// Measures the counter against steady_clock for ~2 ms, or settles for steady_clock (see above).
  [[nodiscard]] static event_clock calibrated();
  /// steady_clock's nanoseconds, without calibrating (for a run that times nothing).
  [[nodiscard]] static event_clock steady() noexcept { return event_clock(false, 1.0); }

  /// Ticks of the clock.
  [[nodiscard]] std::uint64_t now() const noexcept {
#if defined(__x86_64__)
    if (tsc_) [[likely]]
      return __rdtsc();
#endif
    return static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }

  /// Nanoseconds in `ticks` (rounded to the nearest).
  [[nodiscard]] std::chrono::nanoseconds to_ns(std::uint64_t ticks) const noexcept {
    return std::chrono::nanoseconds(
        static_cast<std::int64_t>(static_cast<double>(ticks) * ns_per_tick_ + 0.5));
  }

  /// Whether now() reads the time-stamp counter, and what a tick is worth.
  [[nodiscard]] bool uses_tsc() const noexcept { return tsc_; }
  [[nodiscard]] double ns_per_tick() const noexcept { return ns_per_tick_; }

 private:
  event_clock(bool tsc, double ns_per_tick) noexcept : tsc_(tsc), ns_per_tick_(ns_per_tick) {}

  bool tsc_;
  double ns_per_tick_;
};

}  // namespace itch5::inside
