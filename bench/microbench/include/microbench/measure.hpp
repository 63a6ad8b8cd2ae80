// The timed loops: warm-up iterations, then either one clock reading before and after every timed
// iteration (measure) or before and after every item of every timed iteration (measure_items), each
// duration stored into memory the caller allocated before the run.
//
//   std::vector<std::int64_t> samples(cfg.iterations);      // allocated and touched before the run
//   microbench::measure(f, cfg.warmup, samples);            // f.run() called warmup + size() times
//
//   std::vector<std::int64_t> ticks(cfg.iterations * f.items_per_iteration());
//   microbench::measure_items(f, cfg.warmup, ticks);        // cycle_timer ticks per run_item() call
//   for (auto& t : ticks) t = calibration.to_ns(t);         // after the run
//
// Inside the loops there is no I/O, no allocation, no virtual call: run(), run_item() and reset() are
// called on the concrete type. reset(), prepare_item() and cache_disturber::touch() are outside the timed
// regions. The clock (timer) is a template parameter so tests can substitute a deterministic one;
// benchmarks use std::chrono::steady_clock per iteration and cycle_timer per item.
//
// Complexity: warmup + samples.size() calls of run() (measure), warmup calls of run() and
// ticks.size() calls of run_item() (measure_items); two clock reads per sample.
// Thread-safety: runs on the calling thread; `f` and `samples` must not be shared during the call.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <type_traits>

#include <microbench/cache_disturber.hpp>
#include <microbench/cycle_timer.hpp>
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

template <itemwise F>
inline void run_item_once(F& f, std::uint64_t i) {
  if constexpr (std::is_void_v<decltype(f.run_item(i))>) {
    f.run_item(i);
  } else {
    do_not_optimize(f.run_item(i));
  }
}

template <runnable F>
inline void warm_up(F& f, std::uint64_t warmup) {
  for (std::uint64_t i = 0; i < warmup; ++i) {
    if constexpr (resettable<F>) f.reset();
    run_once(f);
  }
}
}  // namespace detail

/// Calls f.run() `warmup` times untimed, then once per element of `samples`, storing each iteration's
/// duration in nanoseconds. With a `disturb`er, its touch() precedes every timed iteration (after reset()).
template <class Clock = std::chrono::steady_clock, runnable F>
void measure(F& f, std::uint64_t warmup, std::span<std::int64_t> samples,
             cache_disturber* disturb = nullptr) {
  detail::warm_up(f, warmup);
  for (std::int64_t& sample : samples) {
    if constexpr (resettable<F>) f.reset();
    if (disturb != nullptr) do_not_optimize(disturb->touch());
    clobber_memory();
    const auto start = Clock::now();
    clobber_memory();
    detail::run_once(f);
    clobber_memory();
    const auto stop = Clock::now();
    sample = std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count();
  }
}

/// Calls f.run() `warmup` times untimed, then, for each of the ticks.size() / items timed iterations
/// (items = f.items_per_iteration(); a remainder of ticks is left untouched), reset() and f.run_item(i)
/// for every item i in order, storing Timer::stop() - Timer::start() around each call, in timer ticks.
/// With a `disturb`er, its touch() precedes every item; then f.prepare_item(i), if the fixture has it.
template <class Timer = cycle_timer, itemwise F>
void measure_items(F& f, std::uint64_t warmup, std::span<std::int64_t> ticks,
                   cache_disturber* disturb = nullptr) {
  detail::warm_up(f, warmup);
  const auto items = static_cast<std::uint64_t>(f.items_per_iteration());
  if (items == 0) return;
  std::int64_t* out = ticks.data();
  for (std::uint64_t k = ticks.size() / items; k > 0; --k) {
    if constexpr (resettable<F>) f.reset();
    for (std::uint64_t i = 0; i < items; ++i) {
      if (disturb != nullptr) do_not_optimize(disturb->touch());
      if constexpr (prepares_items<F>) f.prepare_item(i);
      clobber_memory();
      const std::uint64_t start = Timer::start();
      clobber_memory();
      detail::run_item_once(f, i);
      clobber_memory();
      const std::uint64_t stop = Timer::stop();
      *out++ = static_cast<std::int64_t>(stop - start);
    }
  }
}

}  // namespace microbench
