// event_rate_estimator against a brute-force computation of its definition: with window W and period P,
// for every period k from the first event's to the last event's, the number of events whose period lies in
// (k - W/P, k] is one sample. An event earlier than the latest one counts as at the latest one's time.
#include <itch5/stats/event_rate_estimator.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using namespace std::chrono_literals;
using itch5::stats::event_rate_estimator;
using itch5::stats::log_linear_histogram;
using std::chrono::nanoseconds;

// The exact samples, as value -> number of periods with that value.
std::map<std::uint64_t, std::uint64_t> brute_force(const std::vector<std::int64_t>& times,
                                                   std::int64_t window, std::int64_t period) {
  std::map<std::uint64_t, std::uint64_t> samples;
  if (times.empty()) return samples;
  const std::int64_t n = window / period;
  // Periods of the events, with decreasing times moved up to the latest one.
  std::vector<std::int64_t> k;
  std::int64_t latest = times.front();
  for (auto t : times) {
    latest = std::max(latest, t);
    k.push_back(latest / period);
  }
  // k is sorted; walk every period with two pointers over the events inside (p - n, p].
  std::size_t lo = 0, hi = 0;
  for (std::int64_t p = k.front(); p <= k.back(); ++p) {
    while (hi < k.size() && k[hi] <= p) ++hi;
    while (lo < hi && k[lo] <= p - n) ++lo;
    ++samples[hi - lo];
  }
  return samples;
}

std::uint64_t exact_quantile(const std::map<std::uint64_t, std::uint64_t>& samples, std::uint64_t total,
                             std::uint64_t num, std::uint64_t den) {
  std::uint64_t rank = (num * total + den - 1) / den;
  if (rank == 0) rank = 1;
  std::uint64_t seen = 0;
  for (auto [value, count] : samples) {
    seen += count;
    if (seen >= rank) return value;
  }
  return samples.rbegin()->first;
}

struct fraction {
  std::uint64_t num, den;
};
const std::vector<fraction> quantiles = {{0, 1},        {1, 10000}, {1, 1000}, {1, 100},  {25, 100},
                                         {50, 100},     {75, 100},  {90, 100}, {99, 100}, {999, 1000},
                                         {9999, 10000}, {1, 1},     {1, 3},    {2, 3}};

void check(const std::vector<std::int64_t>& times, nanoseconds window, nanoseconds period) {
  event_rate_estimator est(window, period);
  for (auto t : times) est.record(nanoseconds(t));
  est.finish();
  const log_linear_histogram& h = est.histogram();

  const auto expected = brute_force(times, window.count(), period.count());
  std::uint64_t total = 0;
  log_linear_histogram reference;  // the same samples, recorded one value at a time
  for (auto [value, count] : expected) {
    total += count;
    reference.record(value, count);
  }
  ASSERT_EQ(h.count(), total) << "one sample per period from the first event's to the last event's";
  if (times.empty()) return;
  EXPECT_EQ(h.min(), expected.begin()->first);
  EXPECT_EQ(h.max(), expected.rbegin()->first);
  for (const fraction& q : quantiles) {
    const double qd = static_cast<double>(q.num) / static_cast<double>(q.den);
    const std::uint64_t want = exact_quantile(expected, total, q.num, q.den);
    const std::uint64_t got = h.quantile(qd);
    if (want < log_linear_histogram::exact_below) {
      EXPECT_EQ(got, want) << "q=" << qd;
    } else {
      EXPECT_LE(got > want ? got - want : want - got, want / 128) << "q=" << qd;
    }
    EXPECT_EQ(got, reference.quantile(qd)) << "q=" << qd;
  }
}

TEST(EventRateEstimator, RejectsWindowNotMultipleOfPeriod) {
  EXPECT_THROW(event_rate_estimator(1500ns, 1000ns), std::invalid_argument);
  EXPECT_THROW(event_rate_estimator(1s, 3ms), std::invalid_argument);
  EXPECT_THROW(event_rate_estimator(1s, 0ns), std::invalid_argument);
  EXPECT_THROW(event_rate_estimator(0ns, 1ns), std::invalid_argument);
  EXPECT_THROW(event_rate_estimator(-1s, 1ms), std::invalid_argument);
  EXPECT_NO_THROW(event_rate_estimator(1s, 1ms));
  EXPECT_NO_THROW(event_rate_estimator(1ms, 1ms));
}

TEST(EventRateEstimator, NoEventsNoSamples) {
  event_rate_estimator est(1ms, 1us);
  est.finish();
  EXPECT_EQ(est.histogram().count(), 0u);
}

TEST(EventRateEstimator, OneEventOneSample) {
  event_rate_estimator est(1ms, 1us);
  est.record(123456789ns);
  est.finish();
  est.finish();  // a second finish adds nothing
  EXPECT_EQ(est.histogram().count(), 1u);
  EXPECT_EQ(est.histogram().max(), 1u);
  EXPECT_EQ(est.histogram().min(), 1u);
}

TEST(EventRateEstimator, HandComputed) {
  // Window 4 ns, period 1 ns; events at 10, 10, 11, 20. Periods 10..20 (11 samples):
  // 10: 2, 11: 3, 12: 3, 13: 3, 14: 1 (10 left), 15..19: 0, 20: 1.
  event_rate_estimator est(4ns, 1ns);
  for (auto t : {10ns, 10ns, 11ns, 20ns}) est.record(t);
  est.finish();
  const auto& h = est.histogram();
  ASSERT_EQ(h.count(), 11u);
  // Sorted: 0 0 0 0 0 1 1 2 3 3 3.
  EXPECT_EQ(h.quantile(0.0), 0u);
  EXPECT_EQ(h.quantile(0.25), 0u);  // rank 3
  EXPECT_EQ(h.quantile(0.50), 1u);  // rank 6
  EXPECT_EQ(h.quantile(0.75), 3u);  // rank 9
  EXPECT_EQ(h.quantile(0.60), 1u);  // rank 7
  EXPECT_EQ(h.quantile(0.65), 2u);  // rank 8
  EXPECT_EQ(h.quantile(1.0), 3u);
}

TEST(EventRateEstimator, BurstInOnePeriod) {
  std::vector<std::int64_t> t(500, 7'000'123);
  check(t, 1ms, 1us);
  t.push_back(7'000'999);
  t.push_back(7'001'000);
  check(t, 1ms, 1us);
  check(t, 1us, 1ns);
}

TEST(EventRateEstimator, GapsLongerThanTheWindow) {
  // Clusters separated by gaps of many windows: the count must drop to 0 and come back.
  std::vector<std::int64_t> t;
  for (std::int64_t c = 0; c < 5; ++c) {
    const std::int64_t base = 1'000'000 + c * 50'000;
    for (std::int64_t i = 0; i < 30; ++i) t.push_back(base + i * 7);
  }
  check(t, 1us, 1ns);
  check(t, 10us, 1us);
  check(t, 1ms, 1us);
}

TEST(EventRateEstimator, LoneEventsBetweenBursts) {
  // Events alone in their window until it passes them (the sparse case record_period counts inline and
  // finish() records), next to bursts, a repeat of a lone event's time, an earlier time after a lone event,
  // and a lone event right at the window's edge (exactly one window after the one before).
  const std::vector<std::int64_t> t = {100,    5'000,  9'000,  9'000,  20'000, 20'001, 20'002,
                                       40'000, 39'000, 41'000, 42'000, 43'000, 43'000, 44'000,
                                       45'000, 90'000, 91'000, 91'500, 200'000};
  check(t, 1us, 1ns);
  check(t, 1000ns, 10ns);
  check(t, 100ns, 1ns);
  check(t, 10us, 1us);
}

TEST(EventRateEstimator, EqualTimestamps) {
  std::vector<std::int64_t> t = {5, 5, 5, 6, 6, 9, 9, 9, 9, 30, 30};
  check(t, 3ns, 1ns);
  check(t, 10ns, 5ns);
  check(t, 1us, 1ns);
}

TEST(EventRateEstimator, DecreasingTimestampCountsAsLatest) {
  // 100, 200, 150 (-> 200), 120 (-> 200), 300.
  std::vector<std::int64_t> t = {100, 200, 150, 120, 300};
  check(t, 50ns, 1ns);
  check(t, 100ns, 10ns);
  // Hand check, window 50 ns, period 1 ns: periods 100..300; period 200..249 hold 3 events, not 1.
  event_rate_estimator est(50ns, 1ns);
  for (auto x : t) est.record(nanoseconds(x));
  est.finish();
  EXPECT_EQ(est.histogram().count(), 201u);
  EXPECT_EQ(est.histogram().max(), 3u);
}

TEST(EventRateEstimator, TimeZero) {
  check({0, 0, 1, 3}, 2ns, 1ns);
  check({0}, 1s, 1ms);
}

std::vector<std::int64_t> random_times(std::mt19937_64& rng, std::size_t n, std::int64_t start,
                                       std::int64_t span) {
  // Mix of uniform times, bursts at one instant, and a few out-of-order times.
  std::uniform_int_distribution<std::int64_t> when(start, start + span);
  std::vector<std::int64_t> t(n);
  for (auto& x : t) x = when(rng);
  std::sort(t.begin(), t.end());
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (int b = 0; b < 5; ++b) {
    const std::size_t at = pick(rng);
    t.insert(t.begin() + static_cast<std::ptrdiff_t>(at), 40, t[at]);
  }
  for (int b = 0; b < 5; ++b) {
    const std::size_t at = pick(rng);
    t[at] = std::max<std::int64_t>(0, t[at] - span / 10);  // earlier than its predecessor
  }
  return t;
}

TEST(EventRateEstimator, RandomTimesSmallWindows) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 30; ++round) {
    const auto t = random_times(rng, 200, 1000, 5000);
    SCOPED_TRACE(round);
    check(t, 16ns, 1ns);
    check(t, 100ns, 4ns);
    check(t, 1000ns, 100ns);
    check(t, 7ns, 7ns);
  }
}

TEST(EventRateEstimator, RealConfigurationOneSecondPerMillisecond) {
  std::mt19937_64 rng(12);
  check(random_times(rng, 3000, 34'200'000'000'000, 5'000'000'000), 1s, 1ms);  // 5 s from 09:30
  check(random_times(rng, 50, 0, 3'000'000'000), 1s, 1ms);                     // sparse
}

TEST(EventRateEstimator, RealConfigurationOneMillisecondPerMicrosecond) {
  std::mt19937_64 rng(13);
  check(random_times(rng, 3000, 34'200'000'000'000, 20'000'000), 1ms, 1us);  // 20 ms
  check(random_times(rng, 20, 57'600'000'000'000, 10'000'000), 1ms, 1us);
}

TEST(EventRateEstimator, RealConfigurationOneMicrosecondPerNanosecond) {
  std::mt19937_64 rng(14);
  check(random_times(rng, 3000, 34'200'000'000'000, 200'000), 1us, 1ns);  // 200 us
  check(random_times(rng, 30, 1'000'000, 500'000), 1us, 1ns);
}

TEST(EventRateEstimator, LongSpanStaysCheap) {
  // A full day at 1 ns periods: ~8.6e13 samples, recorded as weighted runs; only the count is checked.
  event_rate_estimator est(1us, 1ns);
  est.record(0ns);
  est.record(std::chrono::hours(24) - 1ns);
  est.finish();
  EXPECT_EQ(est.histogram().count(), 86'400'000'000'000u);
  EXPECT_EQ(est.histogram().max(), 1u);
  EXPECT_EQ(est.histogram().min(), 0u);
}

}  // namespace
