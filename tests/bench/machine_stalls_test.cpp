// bench/machine_stalls.hpp: the exceedance of a stall profile and the floors under latency quantiles, on
// profiles worked by hand.
#include "machine_stalls.hpp"

#include <chrono>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace {

using machine_stalls::floor_independent;
using machine_stalls::floor_worst;
using machine_stalls::profile;

double ns(std::int64_t floor) { return static_cast<double>(floor); }

// One second with a stall of 100 us and one of 1 ms: work due in the first waits up to 100 us, in the
// second up to 1 ms.
profile two_stalls() { return profile{std::chrono::seconds(1), {100'000, 1'000'000}}; }

TEST(MachineStalls, ExceedanceIsTheShareOfMomentsThatWaitLonger) {
  const profile p = two_stalls();
  EXPECT_DOUBLE_EQ(p.exceedance(0), 1.1e-3);  // the time in stalls
  // Beyond 40 us: 60 us of the first stall and 960 us of the second.
  EXPECT_DOUBLE_EQ(p.exceedance(40'000), 1.02e-3);
  EXPECT_DOUBLE_EQ(p.exceedance(100'000), 0.9e-3);  // the first stall no longer counts
  EXPECT_DOUBLE_EQ(p.exceedance(600'000), 0.4e-3);
  EXPECT_DOUBLE_EQ(p.exceedance(1'000'000), 0);
  EXPECT_DOUBLE_EQ(p.exceedance(5'000'000), 0);
  EXPECT_DOUBLE_EQ(profile{}.exceedance(0), 0);  // no probe, no stall
}

TEST(MachineStalls, FloorOfOneCpuIsItsWaitQuantile) {
  const std::vector<profile> one{two_stalls()};
  // 1.1 ms of stalls in a second: 99.89% of moments do not wait, so p50 to p99 have no floor.
  EXPECT_EQ(floor_worst(one, 0.5), 0);
  EXPECT_EQ(floor_worst(one, 0.99), 0);
  // p99.9: (1.1 ms - 2x) / 1 s <= 0.1% from x = 50 us (both stalls still longer than x).
  EXPECT_NEAR(ns(floor_worst(one, 0.999)), 50'000, 1);
  // p99.99: past the first stall, (1 ms - x) / 1 s <= 0.01% from x = 900 us.
  EXPECT_NEAR(ns(floor_worst(one, 0.9999)), 900'000, 1);
  // Beyond every stall's share: the longest stall is the floor of the highest quantiles.
  EXPECT_NEAR(ns(floor_worst(one, 0.999999)), 999'000, 1);
  EXPECT_EQ(floor_independent(one, 0.999), floor_worst(one, 0.999));  // one CPU: the same
}

TEST(MachineStalls, WorstCpuAndIndependentCpus) {
  const profile quiet{std::chrono::seconds(1), {10'000}};  // 10 us in a second
  const std::vector<profile> two{two_stalls(), quiet};
  // The worst CPU at each x is the one with the long stalls: the floor is its own.
  EXPECT_NEAR(ns(floor_worst(two, 0.999)), 50'000, 1);
  // Two CPUs like two_stalls(), independent: 1 - (1 - f)^2 <= 0.1% needs f <= 1 - sqrt(0.999) =
  // 5.00125e-4, reached past the first stall at 1 ms - 500.125 us.
  const std::vector<profile> same{two_stalls(), two_stalls()};
  EXPECT_NEAR(ns(floor_independent(same, 0.999)), 499'875, 1);
  EXPECT_NEAR(ns(floor_worst(same, 0.999)), 50'000, 1);  // either one alone
  EXPECT_GE(floor_independent(two, 0.999), floor_worst(two, 0.999));
}

TEST(MachineStalls, NoStallsNoFloor) {
  const std::vector<profile> idle{profile{std::chrono::seconds(1), {}}, profile{std::chrono::seconds(1), {}}};
  EXPECT_EQ(floor_worst(idle, 0.9999), 0);
  EXPECT_EQ(floor_independent(idle, 0.9999), 0);
  EXPECT_EQ(floor_worst(std::vector<profile>{}, 0.99), 0);
}

}  // namespace
