#include <microbench/summary.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

namespace {

using microbench::nearest_rank;
using microbench::summary;

std::vector<std::int64_t> iota_shuffled(std::int64_t n) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 1);
  std::mt19937 rng(12345);
  std::shuffle(v.begin(), v.end(), rng);
  return v;
}

// Expected values below are the nearest-rank definition worked by hand: x[ceil(q * N)] (1-based).

TEST(NearestRank, OneToHundred) {
  auto s = summary::of(iota_shuffled(100));
  EXPECT_EQ(s.n, 100u);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.p25, 25);
  EXPECT_EQ(s.p50, 50);
  EXPECT_EQ(s.p75, 75);
  EXPECT_EQ(s.p90, 90);
  EXPECT_EQ(s.p99, 99);
  EXPECT_EQ(s.p999, 100);  // ceil(99.9) = 100
  EXPECT_EQ(s.max, 100);
}

TEST(NearestRank, OneToThousandHitsP999Exactly) {
  // 0.999 * 1000 is not exactly 999 in binary floating point; the estimator must still give x[999].
  auto s = summary::of(iota_shuffled(1000));
  EXPECT_EQ(s.p25, 250);
  EXPECT_EQ(s.p99, 990);
  EXPECT_EQ(s.p999, 999);
  EXPECT_EQ(s.max, 1000);
}

TEST(NearestRank, TenValuesRoundRanksUp) {
  std::vector<std::int64_t> v{70, 10, 100, 40, 20, 90, 60, 30, 80, 50};
  auto s = summary::of(v);
  EXPECT_EQ(s.min, 10);
  EXPECT_EQ(s.p25, 30);   // ceil(2.5) = 3
  EXPECT_EQ(s.p50, 50);   // 5: the lower middle value, no interpolation
  EXPECT_EQ(s.p75, 80);   // ceil(7.5) = 8
  EXPECT_EQ(s.p90, 90);   // 9
  EXPECT_EQ(s.p99, 100);  // ceil(9.9) = 10
  EXPECT_EQ(s.p999, 100);
  EXPECT_EQ(s.max, 100);
}

TEST(NearestRank, TiesAndSingleSample) {
  auto s = summary::of(std::vector<std::int64_t>{7, 5, 5, 5});
  EXPECT_EQ(s.p50, 5);  // x[2]
  EXPECT_EQ(s.p75, 5);  // x[3]
  EXPECT_EQ(s.p90, 7);  // ceil(3.6) = 4
  auto one = summary::of(std::vector<std::int64_t>{42});
  EXPECT_EQ(one.n, 1u);
  EXPECT_EQ(one.min, 42);
  EXPECT_EQ(one.p50, 42);
  EXPECT_EQ(one.p999, 42);
  EXPECT_EQ(one.max, 42);
}

TEST(NearestRank, Boundaries) {
  std::vector<std::int64_t> x{1, 2, 3, 4};
  EXPECT_EQ(nearest_rank(x, 0, 1), 1);             // q = 0: the minimum
  EXPECT_EQ(nearest_rank(x, 1, 4), 1);             // exactly rank 1
  EXPECT_EQ(nearest_rank(x, 250001, 1000000), 2);  // just above: next rank
  EXPECT_EQ(nearest_rank(x, 1, 2), 2);
  EXPECT_EQ(nearest_rank(x, 1, 1), 4);  // q = 1: the maximum
  std::vector<std::int64_t> y{10, 20, 30};
  EXPECT_EQ(nearest_rank(y, 1, 3), 10);  // ceil(1) = 1
  EXPECT_EQ(nearest_rank(y, 2, 3), 20);  // ceil(2) = 2
  EXPECT_EQ(nearest_rank(y, 3, 4), 30);  // ceil(2.25) = 3
}

TEST(NearestRank, FineQuantileOfLargeSample) {
  std::vector<std::int64_t> v(1'000'000);
  std::iota(v.begin(), v.end(), 1);
  EXPECT_EQ(nearest_rank(v, 999'999, 1'000'000), 999'999);
  EXPECT_EQ(nearest_rank(v, 999, 1000), 999'000);
  EXPECT_EQ(nearest_rank(v, 4'294'967'295u, 4'294'967'296u), 1'000'000);  // den at its limit
}

TEST(Summary, EmptyIsAllZero) {
  auto s = summary::of({});
  EXPECT_EQ(s.n, 0u);
  EXPECT_EQ(s.max, 0);
}

TEST(Summary, Line) {
  std::vector<std::int64_t> v{70, 10, 100, 40, 20, 90, 60, 30, 80, 50};
  auto s = summary::of(v);
  EXPECT_EQ(s.line("case"),
            "case: N 10 | ns/iter min 10 p25 30 p50 50 p75 80 p90 90 p99 100 p99.9 100 max 100");
  // 10 items per iteration: p50 50 ns -> 5 ns/item, 2e8 items/s; min 10 ns -> 1 ns/item.
  EXPECT_EQ(s.line("case", 10),
            "case: N 10 | ns/iter min 10 p25 30 p50 50 p75 80 p90 90 p99 100 p99.9 100 max 100"
            " | 10 items/iter: p50 5.000 ns/item 2e+08 items/s, min 1.000 ns/item");
}

}  // namespace
