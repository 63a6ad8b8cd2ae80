// Tests of the generator's random building blocks (itch5/synth/rng.hpp, det_math.hpp, alias_table.hpp,
// quantile_curve.hpp, gap_model.hpp) against independent references: a transcription of the published
// xoshiro256** / splitmix64 algorithms, the C library's log and exp, and exact distribution targets.
#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/synth/alias_table.hpp>
#include <itch5/synth/detail/det_math.hpp>
#include <itch5/synth/gap_model.hpp>
#include <itch5/synth/quantile_curve.hpp>
#include <itch5/synth/rng.hpp>

namespace {

using itch5::synth::rng;

// xoshiro256** and splitmix64 as published by Blackman and Vigna (prng.di.unimi.it), written out here.
struct reference_xoshiro {
  std::uint64_t s[4];
  explicit reference_xoshiro(std::uint64_t seed) {
    for (auto& w : s) {
      std::uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      w = z ^ (z >> 31);
    }
  }
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
};

TEST(SynthRng, MatchesThePublishedAlgorithm) {
  for (std::uint64_t seed : {0ull, 1ull, 42ull, 0xdeadbeefcafef00dull}) {
    rng r(seed);
    reference_xoshiro ref(seed);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(r.next(), ref.next()) << "seed " << seed << " draw " << i;
  }
}

TEST(SynthRng, SplitMix64KnownValues) {
  // First outputs of splitmix64 seeded with 1234567 (the test vector of the reference implementation).
  std::uint64_t x = 1234567;
  EXPECT_EQ(rng::splitmix64(x), 6457827717110365317ull);
  EXPECT_EQ(rng::splitmix64(x), 3203168211198807973ull);
  EXPECT_EQ(rng::splitmix64(x), 9817491932198370423ull);
}

TEST(SynthRng, BoundedDrawsAreInRangeAndUniform) {
  rng r(9);
  constexpr std::uint64_t n = 7;
  std::vector<int> hits(n);
  for (int i = 0; i < 700'000; ++i) {
    std::uint64_t v = r.below(n);
    ASSERT_LT(v, n);
    ++hits[v];
  }
  for (int h : hits) EXPECT_NEAR(h, 100'000, 1'500);
  for (int i = 0; i < 10'000; ++i) {
    auto v = r.between(-3, 3);
    ASSERT_GE(v, -3);
    ASSERT_LE(v, 3);
    double u = r.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(SynthRng, ContinuousDistributionsHaveTheirMoments) {
  rng r(11);
  constexpr int n = 400'000;
  double sum_e = 0, sum_n = 0, sum_n2 = 0;
  std::vector<double> logn;
  for (int i = 0; i < n; ++i) {
    sum_e += r.exponential(3.0);
    double z = r.normal();
    sum_n += z;
    sum_n2 += z * z;
    logn.push_back(r.lognormal(1.0, 0.5));
  }
  EXPECT_NEAR(sum_e / n, 3.0, 0.03);
  EXPECT_NEAR(sum_n / n, 0.0, 0.01);
  EXPECT_NEAR(sum_n2 / n, 1.0, 0.01);
  std::nth_element(logn.begin(), logn.begin() + n / 2, logn.end());
  EXPECT_NEAR(logn[n / 2], std::exp(1.0), 0.02);  // median of a lognormal is e^mu
}

TEST(SynthDetMath, AgreesWithTheCLibraryToAFewUlp) {
  using itch5::synth::detail::det_exp;
  using itch5::synth::detail::det_log;
  rng r(5);
  for (int i = 0; i < 200'000; ++i) {
    double x = (r.uniform() - 0.5) * 1400;
    double e = std::exp(x);
    if (e > 1e-300 && e < 1e300) {
      ASSERT_NEAR(det_exp(x) / e, 1.0, 4e-15) << x;
    }
    double y = std::ldexp(r.uniform_positive(), static_cast<int>(r.below(2000)) - 1000);
    ASSERT_NEAR(det_log(y), std::log(y), 4e-15 * std::max(1.0, std::fabs(std::log(y)))) << y;
  }
  EXPECT_EQ(det_log(1.0), 0.0);
  EXPECT_EQ(det_exp(0.0), 1.0);
  EXPECT_TRUE(std::isinf(det_exp(1000.0)));
  EXPECT_EQ(det_exp(-1000.0), 0.0);
}

TEST(SynthDetMath, NormalQuantileMatchesReferenceValues) {
  using itch5::synth::detail::det_normal_quantile;
  // Python's statistics.NormalDist().inv_cdf.
  EXPECT_NEAR(det_normal_quantile(0.5), 0.0, 1e-8);
  EXPECT_NEAR(det_normal_quantile(0.975), 1.959963984540054, 1e-8);
  EXPECT_NEAR(det_normal_quantile(0.001), -3.090232306167813, 1e-8);
  EXPECT_NEAR(det_normal_quantile(1e-6), -4.753424308822899, 1e-8);
  EXPECT_NEAR(det_normal_quantile(0.9999), 3.719016485455709, 1e-8);
  EXPECT_TRUE(std::isinf(det_normal_quantile(0.0)));
  EXPECT_TRUE(std::isinf(det_normal_quantile(1.0)));
}

TEST(SynthAliasTable, SamplesInProportionToTheWeights) {
  std::vector<double> w = {1, 0, 3, 6, 0.5, 9.5};
  itch5::synth::alias_table t(w);
  double total = 20;
  double sum_p = 0;
  for (std::uint32_t i = 0; i < w.size(); ++i) {
    EXPECT_NEAR(t.probability(i), w[i] / total, 1e-12);
    sum_p += t.probability(i);
  }
  EXPECT_NEAR(sum_p, 1.0, 1e-12);
  rng r(3);
  std::vector<int> hits(w.size());
  constexpr int n = 1'000'000;
  for (int i = 0; i < n; ++i) ++hits[t.sample(r)];
  EXPECT_EQ(hits[1], 0);
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_NEAR(hits[i] / double(n), w[i] / total, 0.002) << i;
  EXPECT_THROW(itch5::synth::alias_table(std::vector<double>{0, 0}), std::invalid_argument);
  EXPECT_THROW(itch5::synth::alias_table(std::vector<double>{1, -1}), std::invalid_argument);
}

TEST(SynthQuantileCurve, ReproducesItsKnotsAndInterpolatesLogLinearly) {
  itch5::synth::quantile_curve c{{0.0, 0},  {0.3, 0},    {0.5, 1},   {0.75, 6},
                                 {0.9, 14}, {0.99, 203}, {1.0, 2000}};
  EXPECT_EQ(c.at(0.0), 0u);
  EXPECT_EQ(c.at(0.29), 0u);
  EXPECT_EQ(c.at(0.5), 1u);
  EXPECT_EQ(c.at(0.75), 6u);
  EXPECT_EQ(c.at(0.9), 14u);
  EXPECT_EQ(c.at(0.99), 203u);
  // u = 0.999: 90% of the way from 0.99 -> 203 to 1 -> 2000, so log(1 + v) = log 204 + 0.9 (log 2001 -
  // log 204): v = 1591.52 (computed with Python's math.log/exp), rounded 1592.
  EXPECT_EQ(c.at(0.999), 1592u);
  EXPECT_EQ(c.at(0.9999999999), 2000u);
  // Halfway between knots 0.9 -> 14 and 0.99 -> 203 in u, log(1 + v) is halfway: sqrt(15 * 204) - 1 = 54.3.
  EXPECT_EQ(c.at(0.945), 54u);
  std::uint32_t prev = 0;
  for (int i = 0; i < 100'000; ++i) {
    std::uint32_t v = c.at(i / 100'000.0);
    ASSERT_GE(v, prev);
    prev = v;
  }
  // Sampled quantiles.
  rng r(2);
  std::vector<std::uint32_t> s(500'000);
  for (auto& v : s) v = c.sample(r);
  std::sort(s.begin(), s.end());
  EXPECT_EQ(s[s.size() / 2], 1u);
  EXPECT_NEAR(s[s.size() * 3 / 4], 6, 1);
  EXPECT_NEAR(s[s.size() * 9 / 10], 14, 1);
  EXPECT_NEAR(s[s.size() * 99 / 100], 203, 10);
  EXPECT_THROW(itch5::synth::quantile_curve({{0.1, 0}, {1.0, 1}}), std::invalid_argument);
  EXPECT_THROW(itch5::synth::quantile_curve({{0.0, 5}, {1.0, 1}}), std::invalid_argument);
}

TEST(SynthGapModel, MeanAndBurstFraction) {
  for (auto mean : {std::chrono::nanoseconds(150'000), std::chrono::nanoseconds(47'000),
                    std::chrono::nanoseconds(2'000)}) {
    itch5::synth::gap_model g(mean);
    rng r(4);
    constexpr int n = 2'000'000;
    double sum = 0;
    int under = 0, over_ms = 0;
    for (int i = 0; i < n; ++i) {
      std::int64_t x = g.next(r);
      ASSERT_GE(x, 0);
      sum += static_cast<double>(x);
      under += x < 300;
      over_ms += x > 1'000'000;
    }
    EXPECT_NEAR(sum / n / static_cast<double>(mean.count()), 1.0, 0.05) << mean.count();
    EXPECT_NEAR(under / double(n), 0.0095, 0.001) << mean.count();
    if (mean.count() == 150'000) {
      EXPECT_GT(over_ms / double(n), 0.01);
    }
  }
  EXPECT_THROW(itch5::synth::gap_model(std::chrono::nanoseconds(500)), std::invalid_argument);
}

}  // namespace
