// The timed loop: warm-up iterations, then one clock reading before and after every timed iteration,
// each duration stored into memory the caller allocated before the run.
//
//   std::vector<std::int64_t> samples(cfg.iterations);      // allocated and touched before the run
//   microbench::measure(f, cfg.warmup, samples);            // f.run() called warmup + size() times
//
// Inside the loop there is no I/O, no allocation, no virtual call: run() (and reset(), if the fixture
// has one) is called on the concrete type. reset() is outside the timed region. The clock is a template
// parameter so tests can substitute a deterministic one; benchmarks use std::chrono::steady_clock.
//
// Complexity: warmup + samples.size() calls of run(), two clock reads per timed iteration.
// Thread-safety: runs on the calling thread; `f` and `samples` must not be shared during the call.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <type_traits>

#include <microbench/do_not_optimize.hpp>
#include <microbench/fixture.hpp>

namespace microbench {

namespace detail {
template <runnable F>
inline void run_once(F& f) {
  if constexpr (std::is_void_v<decltype(f.run())>) {
    f.run();
  } else {
    do_not_optimize(f.run());
  }
}
}  // namespace detail

/// Calls f.run() `warmup` times untimed, then once per element of `samples`, storing each iteration's
/// duration in nanoseconds.
template <class Clock = std::chrono::steady_clock, runnable F>
void measure(F& f, std::uint64_t warmup, std::span<std::int64_t> samples) {
  for (std::uint64_t i = 0; i < warmup; ++i) {
    if constexpr (resettable<F>) f.reset();
    detail::run_once(f);
  }
  for (std::int64_t& sample : samples) {
    if constexpr (resettable<F>) f.reset();
    clobber_memory();
    const auto start = Clock::now();
    clobber_memory();
    detail::run_once(f);
    clobber_memory();
    const auto stop = Clock::now();
    sample = std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count();
  }
}

}  // namespace microbench
