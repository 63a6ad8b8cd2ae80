// The per-item timer's calibration and conversion, and the cache disturber.
#include <microbench/cache_disturber.hpp>
#include <microbench/cycle_timer.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace {

using microbench::cache_disturber;
using microbench::cycle_timer;
using microbench::timer_calibration;

TEST(TimerCalibration, ToNsSubtractsTheMedianOverheadAndScales) {
  timer_calibration cal;
  cal.ticks_per_ns = 2.0;
  cal.overhead_p50 = 60;
  EXPECT_EQ(cal.to_ns(60), 0);   // an empty region
  EXPECT_EQ(cal.to_ns(40), 0);   // faster than the median empty region: clamped, never negative
  EXPECT_EQ(cal.to_ns(80), 10);  // 20 ticks at 2 ticks/ns
  EXPECT_EQ(cal.to_ns(63), 2);   // 1.5 rounds to 2
  EXPECT_EQ(cal.to_ns(2'000'060), 1'000'000);
}

TEST(TimerCalibration, MeasuredValuesAreConsistent) {
  const auto cal = timer_calibration::measure(std::chrono::milliseconds(5));
  EXPECT_GT(cal.ticks_per_ns, 0.05);  // any counter from 50 MHz ...
  EXPECT_LT(cal.ticks_per_ns, 20.0);  // ... to 20 GHz
  EXPECT_GE(cal.resolution, 1);
  EXPECT_LE(cal.overhead_min, cal.overhead_p50);
  EXPECT_LE(cal.overhead_p50, cal.overhead_p99);
  // A timed region costs nanoseconds, not microseconds.
  EXPECT_LT(static_cast<double>(cal.overhead_p50) / cal.ticks_per_ns, 2000.0);
  EXPECT_NE(cal.describe().find(" ticks/ns against steady_clock, resolution "), std::string::npos)
      << cal.describe();
}

// The timer, converted with a measured calibration, agrees with steady_clock on the same sleep. Load cannot
// make this fail: however late the sleep ends, the timed region lies inside the steady_clock bracket, so
// only the calibration's error (both clocks run on during a preemption, so it stays small) enters the
// bounds, and they leave 10% for it.
TEST(TimerCalibration, ASleepReadsItsLengthWithinASteadyClockBracket) {
  using clock = std::chrono::steady_clock;
  const auto cal = timer_calibration::measure(std::chrono::milliseconds(20));
  const auto outer_start = clock::now();
  const std::uint64_t a = cycle_timer::start();
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const std::uint64_t b = cycle_timer::stop();
  const auto outer = std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - outer_start).count();
  const std::int64_t ns = cal.to_ns(static_cast<std::int64_t>(b - a));
  EXPECT_GE(ns, 4'500'000);  // sleep_for sleeps at least 5 ms, whatever the load
  EXPECT_LE(static_cast<double>(ns), 1.1 * static_cast<double>(outer))  // and no longer than the bracket
      << "timer " << ns << " ns, steady_clock bracket " << outer << " ns";
}

TEST(CacheDisturber, ReadsEveryLineOfAWholeNumberOfLines) {
  cache_disturber d(1000);  // rounded up to 16 lines of 64 bytes
  EXPECT_EQ(d.size(), 1024u);
  // Word i holds i; line k starts at word 8k: the sum of 8k over k < 16 is 8 * 120.
  EXPECT_EQ(d.touch(), 960u);
  EXPECT_EQ(d.touch(), 960u);  // reading changes nothing
}

TEST(CacheDisturber, DefaultIsTwiceTheLastLevelCache) {
  const std::uint64_t llc = cache_disturber::last_level_cache_bytes();
  EXPECT_GE(llc, 64u << 10);  // no machine this runs on has a last level under 64 KiB
  cache_disturber d(0);
  EXPECT_EQ(d.size(), 2 * llc);
  const std::uint64_t lines = d.size() / cache_disturber::line;
  EXPECT_EQ(d.touch(), 8 * (lines * (lines - 1) / 2));
}

}  // namespace
