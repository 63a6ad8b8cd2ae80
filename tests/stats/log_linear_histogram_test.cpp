// log_linear_histogram against exact nearest-rank quantiles of known samples, and the bucket arithmetic
// behind its stated error bound (exact below 128, within 1/128 of the true value above).
#include <itch5/stats/log_linear_histogram.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

using itch5::stats::log_linear_histogram;

constexpr std::uint64_t u64_max = std::numeric_limits<std::uint64_t>::max();

// A quantile as a decimal fraction num/den, so the expected rank ceil(q * N) is computed exactly in integers.
struct fraction {
  std::uint64_t num;
  std::uint64_t den;
  [[nodiscard]] double value() const { return static_cast<double>(num) / static_cast<double>(den); }
};

// Every quantile the statistics CSVs ask for, plus a few others.
const std::vector<fraction> quantiles = {{0, 1},    {1, 10000},  {1, 1000},     {1, 100},  {5, 100},
                                         {10, 100}, {25, 100},   {50, 100},     {75, 100}, {90, 100},
                                         {99, 100}, {999, 1000}, {9999, 10000}, {1, 1},    {1, 3},
                                         {2, 3},    {37, 100},   {63, 100},     {1, 2},    {123, 1000}};

// The exact nearest-rank quantile: the element of rank ceil(q * N) (1-based) of the sorted samples; the
// minimum for q = 0.
std::uint64_t exact_quantile(const std::vector<std::uint64_t>& sorted, fraction q) {
  const auto n = static_cast<std::uint64_t>(sorted.size());
  std::uint64_t rank = (q.num * n + q.den - 1) / q.den;  // ceil(q * N); q.num * n stays far below 2^64 here
  if (rank == 0) rank = 1;
  return sorted[rank - 1];
}

// Exact below 128; otherwise within 1/128 of the true value: 128 * |got - want| <= want.
void expect_close(std::uint64_t got, std::uint64_t want, double q) {
  if (want < log_linear_histogram::exact_below) {
    EXPECT_EQ(got, want) << "q=" << q;
  } else {
    const std::uint64_t diff = got > want ? got - want : want - got;
    EXPECT_LE(diff, want / 128) << "q=" << q << " got " << got << " want " << want;
  }
}

void check_against_exact(std::vector<std::uint64_t> samples) {
  log_linear_histogram h;
  for (auto v : samples) h.record(v);
  std::sort(samples.begin(), samples.end());
  ASSERT_EQ(h.count(), samples.size());
  EXPECT_EQ(h.min(), samples.front());
  EXPECT_EQ(h.max(), samples.back());
  for (const fraction& q : quantiles)
    expect_close(h.quantile(q.value()), exact_quantile(samples, q), q.value());
}

// Values spread over all magnitudes: a random bit width, then a random value of that width.
std::vector<std::uint64_t> log_uniform(std::mt19937_64& rng, std::size_t n, int max_bits = 64) {
  std::uniform_int_distribution<int> bits(0, max_bits);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) {
    const int b = bits(rng);
    if (b == 0) {
      x = 0;
    } else {
      const std::uint64_t top = std::uint64_t{1} << (b - 1);
      x = top | (rng() & (top - 1));
    }
  }
  return v;
}

TEST(LogLinearHistogram, EmptyHistogram) {
  log_linear_histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  for (const fraction& q : quantiles) EXPECT_EQ(h.quantile(q.value()), 0u);
}

TEST(LogLinearHistogram, RankIsExactForDecimalQuantiles) {
  // 0.07 * 100 is 7.000000000000001 in binary floating point; the nearest rank is still 7.
  log_linear_histogram h;
  for (std::uint64_t v = 1; v <= 100; ++v) h.record(v);
  EXPECT_EQ(h.quantile(0.07), 7u);
  EXPECT_EQ(h.quantile(0.29), 29u);
  EXPECT_EQ(h.quantile(0.57), 57u);
  log_linear_histogram big;
  big.record(1, 9'999);
  big.record(2, 1);
  EXPECT_EQ(big.quantile(0.9999), 1u);  // rank 9,999 of 10,000
}

TEST(LogLinearHistogram, SmallValuesAreExact) {
  // Every value below 128 has its own bucket, so every quantile is exact.
  std::mt19937_64 rng(1);
  for (std::size_t n : {1u, 2u, 3u, 7u, 10u, 100u, 1000u, 4321u}) {
    std::uniform_int_distribution<std::uint64_t> small(0, 127);
    std::vector<std::uint64_t> v(n);
    for (auto& x : v) x = small(rng);
    SCOPED_TRACE(n);
    check_against_exact(v);
  }
}

TEST(LogLinearHistogram, HandPickedSamples) {
  // 10 samples: ranks for p25 = 3, p50 = 5, p75 = 8, p90 = 9, p99 = 10.
  log_linear_histogram h;
  for (std::uint64_t v : {5u, 1u, 9u, 3u, 7u, 2u, 8u, 4u, 6u, 10u}) h.record(v);
  EXPECT_EQ(h.quantile(0.0), 1u);
  EXPECT_EQ(h.quantile(0.25), 3u);
  EXPECT_EQ(h.quantile(0.50), 5u);
  EXPECT_EQ(h.quantile(0.75), 8u);
  EXPECT_EQ(h.quantile(0.90), 9u);
  EXPECT_EQ(h.quantile(0.99), 10u);
  EXPECT_EQ(h.quantile(1.0), 10u);
}

TEST(LogLinearHistogram, WideValuesWithinRelativeError) {
  std::mt19937_64 rng(2);
  for (std::size_t n : {1u, 2u, 5u, 50u, 1000u, 20000u}) {
    SCOPED_TRACE(n);
    check_against_exact(log_uniform(rng, n));
  }
}

TEST(LogLinearHistogram, ManyQuantilesInOneCallMatchTheExactOnes) {
  // quantiles() walks the buckets once for increasing q's and again from the start when a q is smaller
  // than the one before: both orders must give each q's exact nearest-rank value (within the error bound).
  std::mt19937_64 rng(7);
  std::vector<fraction> increasing = quantiles;
  std::sort(increasing.begin(), increasing.end(),
            [](const fraction& a, const fraction& b) { return a.num * b.den < b.num * a.den; });
  std::vector<fraction> shuffled = quantiles;
  std::shuffle(shuffled.begin(), shuffled.end(), rng);
  for (std::size_t n : {0u, 1u, 2u, 10u, 1000u, 20000u}) {
    std::vector<std::uint64_t> samples = log_uniform(rng, n, 40);
    log_linear_histogram h;
    for (auto v : samples) h.record(v);
    std::sort(samples.begin(), samples.end());
    for (const auto* order : {&increasing, &shuffled}) {
      std::vector<double> qs;
      for (const fraction& q : *order) qs.push_back(q.value());
      std::vector<std::uint64_t> got(qs.size(), 12345);
      h.quantiles(qs, got);
      for (std::size_t i = 0; i < qs.size(); ++i) {
        SCOPED_TRACE(n);
        if (n == 0) {
          EXPECT_EQ(got[i], 0u);
        } else {
          expect_close(got[i], exact_quantile(samples, (*order)[i]), qs[i]);
        }
      }
    }
  }
}

TEST(LogLinearHistogram, NarrowClusterAboveExactRange) {
  // Many distinct values inside a few buckets: the quantile must still be within 1/128 of the exact one.
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<std::uint64_t> d(1'000'000, 1'040'000);
  std::vector<std::uint64_t> v(5000);
  for (auto& x : v) x = d(rng);
  check_against_exact(v);
}

TEST(LogLinearHistogram, MinAndMaxExactInsideBuckets) {
  // 1000 and 1001 share a bucket of width 8; min and max must still be the exact values.
  log_linear_histogram h;
  h.record(1001);
  h.record(1000);
  EXPECT_EQ(log_linear_histogram::bucket_of(1000), log_linear_histogram::bucket_of(1001));
  EXPECT_EQ(h.min(), 1000u);
  EXPECT_EQ(h.max(), 1001u);
  EXPECT_EQ(h.quantile(0.0), 1000u);
  EXPECT_EQ(h.quantile(1.0), 1001u);
  // Both samples are in one bucket; any quantile is clamped into [min, max].
  EXPECT_GE(h.quantile(0.5), 1000u);
  EXPECT_LE(h.quantile(0.5), 1001u);
}

TEST(LogLinearHistogram, ExtremeValues) {
  log_linear_histogram h;
  h.record(0);
  h.record(u64_max);
  EXPECT_EQ(h.count(), 2u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), u64_max);
  EXPECT_EQ(h.quantile(0.0), 0u);
  EXPECT_EQ(h.quantile(0.5), 0u);  // rank 1
  EXPECT_EQ(h.quantile(1.0), u64_max);
  expect_close(h.quantile(0.75), u64_max, 0.75);  // rank 2: the top bucket
  // Only UINT64_MAX itself.
  log_linear_histogram top;
  top.record(u64_max, 3);
  for (const fraction& q : quantiles) EXPECT_EQ(top.quantile(q.value()), u64_max);
  // Only zero.
  log_linear_histogram zero;
  zero.record(0, 5);
  for (const fraction& q : quantiles) EXPECT_EQ(zero.quantile(q.value()), 0u);
  EXPECT_EQ(zero.max(), 0u);
}

TEST(LogLinearHistogram, ZeroWeightIsIgnored) {
  log_linear_histogram h;
  h.record(1000, 0);
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.max(), 0u);
  h.record(5);
  h.record(1000, 0);
  EXPECT_EQ(h.count(), 1u);
  EXPECT_EQ(h.max(), 5u);
}

// Compares every observable of two histograms over a fine grid of quantiles.
void expect_same(const log_linear_histogram& a, const log_linear_histogram& b) {
  ASSERT_EQ(a.count(), b.count());
  EXPECT_EQ(a.min(), b.min());
  EXPECT_EQ(a.max(), b.max());
  for (int k = 0; k <= 1000; ++k) {
    const double q = k / 1000.0;
    ASSERT_EQ(a.quantile(q), b.quantile(q)) << "q=" << q;
  }
  for (const fraction& q : quantiles) EXPECT_EQ(a.quantile(q.value()), b.quantile(q.value()));
}

TEST(LogLinearHistogram, WeightedEqualsRepeated) {
  std::mt19937_64 rng(4);
  const auto values = log_uniform(rng, 200, 40);
  std::uniform_int_distribution<std::uint64_t> w(1, 20);
  log_linear_histogram weighted, repeated;
  std::vector<std::uint64_t> all;
  for (auto v : values) {
    const std::uint64_t n = w(rng);
    weighted.record(v, n);
    for (std::uint64_t i = 0; i < n; ++i) {
      repeated.record(v);
      all.push_back(v);
    }
  }
  expect_same(weighted, repeated);
  std::sort(all.begin(), all.end());
  for (const fraction& q : quantiles)
    expect_close(weighted.quantile(q.value()), exact_quantile(all, q), q.value());
}

TEST(LogLinearHistogram, RecordAllEqualsRecordingEach) {
  std::mt19937_64 rng(6);
  // Runs that grow the counters below and above what is stored (the out-of-line path, which moves the
  // counters the run's locals point at), runs inside the stored range, an empty run, and runs into a
  // histogram that already holds samples.
  const auto mixed = log_uniform(rng, 2000);
  const auto narrow = log_uniform(rng, 500, 10);
  std::vector<std::uint64_t> falling(300);
  for (std::size_t i = 0; i < falling.size(); ++i) falling[i] = std::uint64_t{1} << (50 - i % 50);
  struct wrapped {
    std::uint64_t v;
  };
  log_linear_histogram each, all;
  const std::vector<const std::vector<std::uint64_t>*> runs = {&narrow, &mixed, &falling, &narrow};
  for (const std::vector<std::uint64_t>* run : runs) {
    std::vector<wrapped> samples;
    for (auto v : *run) samples.push_back(wrapped{v});
    for (auto v : *run) each.record(v);
    all.record_all(samples.begin(), samples.end(), [](const wrapped& w) { return w.v; });
    expect_same(all, each);
  }
  const std::vector<wrapped> none;
  all.record_all(none.begin(), none.end(), [](const wrapped& w) { return w.v; });
  expect_same(all, each);
  log_linear_histogram empty;
  empty.record_all(none.begin(), none.end(), [](const wrapped& w) { return w.v; });
  expect_same(empty, log_linear_histogram{});
  EXPECT_EQ(empty.count(), 0u);
  EXPECT_EQ(empty.min(), 0u);
}

TEST(LogLinearHistogram, MergeEqualsRecordingEverything) {
  std::mt19937_64 rng(5);
  // Disjoint ranges in both orders (the merged-in histogram below, then above the target's buckets),
  // overlapping ranges, and empty operands.
  const auto low = log_uniform(rng, 300, 12);
  std::vector<std::uint64_t> high(300);
  std::uniform_int_distribution<std::uint64_t> hd(1ull << 40, 1ull << 50);
  for (auto& x : high) x = hd(rng);
  const auto mixed = log_uniform(rng, 500);

  auto build = [](std::initializer_list<const std::vector<std::uint64_t>*> parts) {
    log_linear_histogram h;
    for (const auto* p : parts) {
      for (auto v : *p) h.record(v);
    }
    return h;
  };
  const std::vector<std::uint64_t> none;
  struct pair_case {
    const std::vector<std::uint64_t>* a;
    const std::vector<std::uint64_t>* b;
  };
  for (pair_case c :
       {pair_case{&low, &high}, pair_case{&high, &low}, pair_case{&mixed, &low}, pair_case{&low, &mixed},
        pair_case{&none, &mixed}, pair_case{&mixed, &none}, pair_case{&none, &none}}) {
    log_linear_histogram a = build({c.a});
    const log_linear_histogram b = build({c.b});
    a.merge(b);
    expect_same(a, build({c.a, c.b}));
  }
}

TEST(LogLinearHistogram, BucketsTileTheWholeRange) {
  // Buckets are contiguous from 0 to UINT64_MAX, each value maps to the bucket whose bounds hold it, and
  // above the exact range a bucket is at most 1/64 of its lower bound wide.
  const std::size_t last = log_linear_histogram::bucket_of(u64_max);
  EXPECT_EQ(log_linear_histogram::bucket_upper(last), u64_max);
  EXPECT_EQ(log_linear_histogram::bucket_lower(0), 0u);
  EXPECT_LE(last + 1, 3776u);  // the stated maximum number of counters
  for (std::size_t i = 0; i <= last; ++i) {
    const std::uint64_t lo = log_linear_histogram::bucket_lower(i);
    const std::uint64_t hi = log_linear_histogram::bucket_upper(i);
    ASSERT_LE(lo, hi) << i;
    ASSERT_EQ(log_linear_histogram::bucket_of(lo), i);
    ASSERT_EQ(log_linear_histogram::bucket_of(hi), i);
    if (i + 1 <= last) {
      ASSERT_EQ(log_linear_histogram::bucket_lower(i + 1), hi + 1) << i;
    }
    if (lo < log_linear_histogram::exact_below) {
      ASSERT_EQ(lo, hi) << i;
    } else {
      ASSERT_LE((hi - lo + 1) * 64, lo) << i;  // width / lower <= 1/64
    }
  }
  std::mt19937_64 rng(6);
  for (auto v : log_uniform(rng, 100000)) {
    const std::size_t i = log_linear_histogram::bucket_of(v);
    ASSERT_LE(log_linear_histogram::bucket_lower(i), v);
    ASSERT_GE(log_linear_histogram::bucket_upper(i), v);
  }
  for (int b = 0; b < 64; ++b) {
    for (std::uint64_t v :
         {(std::uint64_t{1} << b) - 1, std::uint64_t{1} << b, (std::uint64_t{1} << b) + 1}) {
      const std::size_t i = log_linear_histogram::bucket_of(v);
      ASSERT_LE(log_linear_histogram::bucket_lower(i), v);
      ASSERT_GE(log_linear_histogram::bucket_upper(i), v);
    }
  }
}

TEST(LogLinearHistogram, MemoryStaysWithinStatedBound) {
  // "at most 3,776 counters (30 KB) whatever the values": growing upwards one power of two at a time,
  // downwards, and spanning the whole range at once.
  constexpr std::size_t bound = 3776 * sizeof(std::uint64_t);
  log_linear_histogram up, down, both;
  for (int b = 0; b < 64; ++b) up.record(std::uint64_t{1} << b);
  up.record(u64_max);
  for (int b = 63; b >= 0; --b) down.record(std::uint64_t{1} << b);
  down.record(0);
  both.record(0);
  both.record(u64_max);
  EXPECT_LE(up.memory_bytes(), bound);
  EXPECT_LE(down.memory_bytes(), bound);
  EXPECT_LE(both.memory_bytes(), bound);
  log_linear_histogram merged;
  merged.merge(up);
  merged.merge(down);
  EXPECT_LE(merged.memory_bytes(), bound);
}

}  // namespace
