// The cross-correlation delay estimator on synthetic series with known delays. Expected values come from
// how the inputs were built (the delay put in) or from brute-force time-domain sums, never from the
// estimator itself.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/tde/estimate/delay_estimator.hpp>
#include <itch5/tde/fft/fast_length.hpp>

#include "test_signals.hpp"

namespace {

using itch5::tde::estimate_flag;
using tde_test::band_limited;

template <class T>
class estimator_test : public ::testing::Test {};
using real_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(estimator_test, real_types);

itch5::tde::estimator_options options(std::size_t n, std::size_t max_lag, double smooth = 0,
                                      std::size_t upsample = 0) {
  itch5::tde::estimator_options o;
  o.length = n;
  o.max_lag = max_lag;
  o.smooth_sigma = smooth;
  o.upsample = upsample;
  return o;
}

// Mean-removed copy.
std::vector<double> centred(const auto& v) {
  double mean = 0;
  for (auto x : v) mean += static_cast<double>(x);
  mean /= static_cast<double>(v.size());
  std::vector<double> out;
  for (auto x : v) out.push_back(static_cast<double>(x) - mean);
  return out;
}

// Brute-force normalised linear cross-correlation sum_n a[n] b[n+k] / sqrt(sum a^2 sum b^2) over the
// overlap, after mean removal; sequences are zero outside [0, size).
double brute_rho(const std::vector<double>& a, const std::vector<double>& b, std::int64_t k) {
  double s = 0, ea = 0, eb = 0;
  for (double x : a) ea += x * x;
  for (double x : b) eb += x * x;
  for (std::int64_t n = 0; n < static_cast<std::int64_t>(a.size()); ++n) {
    std::int64_t m = n + k;
    if (m >= 0 && m < static_cast<std::int64_t>(b.size())) s += a[n] * b[m];
  }
  return s / std::sqrt(ea * eb);
}

TYPED_TEST(estimator_test, fft_length_is_fast_and_long_enough_for_linear_correlation) {
  for (std::size_t n : {100u, 2048u, 16384u}) {
    for (std::size_t lag : {0u, 10u, 99u}) {
      for (double s : {0.0, 3.5}) {
        auto o = options(n, lag, s);
        std::size_t m = itch5::tde::delay_estimator<TypeParam>::fft_length_for(o);
        EXPECT_GE(m, n + lag + 1 + static_cast<std::size_t>(std::ceil(8 * s)));
        EXPECT_TRUE(itch5::tde::is_fast_length(m));
      }
    }
  }
  itch5::tde::delay_estimator<TypeParam> e(options(16384, 1000));
  EXPECT_EQ(e.fft_length(), itch5::tde::next_fast_length(16384 + 1001));
}

TYPED_TEST(estimator_test, rejects_inconsistent_options_and_series) {
  using T = TypeParam;
  EXPECT_THROW(itch5::tde::delay_estimator<T>(options(100, 100)), std::invalid_argument);
  EXPECT_THROW(itch5::tde::delay_estimator<T>(options(1, 0)), std::invalid_argument);
  EXPECT_THROW(itch5::tde::delay_estimator<T>(options(100, 10, -1)), std::invalid_argument);
  itch5::tde::delay_estimator<T> e(options(100, 10));
  std::vector<T> a(100), b(99);
  EXPECT_THROW((void)e.estimate(a, b), std::invalid_argument);
}

TYPED_TEST(estimator_test, integer_delays_positive_means_b_lags_a) {
  using T = TypeParam;
  const std::size_t n = 4096;
  itch5::tde::delay_estimator<T> e(options(n, 200));
  band_limited sig(11);
  for (int d : {-150, -37, -1, 0, 1, 5, 120, 200}) {
    auto a = sig.samples<T>(n, 0);
    auto b = sig.samples<T>(n, d);  // b[i] = a[i - d]
    auto r = e.estimate(a, b);
    EXPECT_EQ(r.lag, d);
    EXPECT_NEAR(r.delay, d, 0.05) << "d=" << d;
    EXPECT_EQ(r.flags.test(estimate_flag::edge), d == 200) << "d=" << d;
  }
}

TYPED_TEST(estimator_test, fractional_delays_within_five_hundredths_of_a_sample) {
  using T = TypeParam;
  const std::size_t n = 4096;
  for (std::size_t upsample : {0u, 8u}) {
    itch5::tde::delay_estimator<T> e(options(n, 100, 0, upsample));
    for (unsigned seed : {1u, 2u, 3u}) {
      band_limited sig(seed);
      for (double d : {-63.75, -12.3, -0.5, 0.25, 3.7, 41.45, 99.1}) {
        auto r = e.estimate(sig.samples<T>(n, 0), sig.samples<T>(n, d));
        EXPECT_NEAR(r.delay, d, 0.05) << "d=" << d << " seed=" << seed << " upsample=" << upsample;
        EXPECT_LE(std::abs(static_cast<double>(r.lag) - d), 0.5 + 1e-9) << "d=" << d;
        EXPECT_TRUE(r.passed()) << r.flags.to_string();
      }
    }
  }
}

TYPED_TEST(estimator_test, upsampling_is_tighter_than_the_parabola_on_a_narrow_peak) {
  using T = TypeParam;
  // Wide-band tones make a narrow correlation peak, where the parabola through three samples is biased and
  // the band-limited interpolation is not.
  const std::size_t n = 8192;
  itch5::tde::delay_estimator<T> parabola(options(n, 50, 0, 0));
  itch5::tde::delay_estimator<T> upsampled(options(n, 50, 0, 16));
  double worst_parabola = 0, worst_upsampled = 0;
  for (unsigned seed = 1; seed <= 4; ++seed) {
    band_limited sig(seed, 60, 0.01, 0.35);
    for (double d : {-7.3, 2.5, 10.2, 20.85}) {
      auto a = sig.samples<T>(n, 0), b = sig.samples<T>(n, d);
      worst_parabola = std::max(worst_parabola, std::abs(parabola.estimate(a, b).delay - d));
      worst_upsampled = std::max(worst_upsampled, std::abs(upsampled.estimate(a, b).delay - d));
    }
  }
  EXPECT_LT(worst_upsampled, 0.05);
  EXPECT_LT(worst_upsampled, worst_parabola);
}

TYPED_TEST(estimator_test, noisy_delays_are_recovered) {
  using T = TypeParam;
  const std::size_t n = 8192;
  itch5::tde::delay_estimator<T> e(options(n, 300, 0, 8));
  int checked = 0;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    band_limited sig(seed * 17);
    for (double d : {-211.4, -3.3, 0.0, 57.5, 250.2}) {
      auto a = sig.samples<T>(n, 0), b = sig.samples<T>(n, d);
      double level = tde_test::rms(a);  // noise as strong as the signal: 0 dB
      tde_test::add_noise(a, level, seed * 1000 + 1);
      tde_test::add_noise(b, level, seed * 1000 + 2);
      auto r = e.estimate(a, b);
      EXPECT_NEAR(r.delay, d, 1.0) << "d=" << d << " seed=" << seed;
      EXPECT_GT(r.rho, 0.3);
      EXPECT_LT(r.rho, 0.7) << "noise at 0 dB halves the correlation";
      EXPECT_TRUE(r.passed()) << r.flags.to_string();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 30);
}

TYPED_TEST(estimator_test, correlation_matches_a_brute_force_linear_correlation) {
  using T = TypeParam;
  const std::size_t n = 300, max_lag = 120;
  auto a = tde_test::white_noise<T>(n, 5);
  auto b = tde_test::white_noise<T>(n, 6);
  for (std::size_t i = 0; i + 40 < n; ++i) {
    b[i + 40] += static_cast<T>(0.5) * a[i] + T(3);  // partly a, delayed 40
  }
  itch5::tde::delay_estimator<T> e(options(n, max_lag));
  auto r = e.estimate(a, b);
  auto ca = centred(a), cb = centred(b);
  const double tol = std::is_same_v<T, float> ? 2e-5 : 1e-12;
  std::int64_t best = 0;
  const auto lim = static_cast<std::int64_t>(max_lag);
  for (std::int64_t k = -lim - 1; k <= lim + 1; ++k) {
    double expected = brute_rho(ca, cb, k);
    EXPECT_NEAR(e.correlation(k), expected, tol) << "lag " << k;
    if (k >= -lim && k <= lim && expected > brute_rho(ca, cb, best)) best = k;
  }
  EXPECT_EQ(r.lag, best);
  EXPECT_NEAR(r.rho, brute_rho(ca, cb, best), tol);
}

TYPED_TEST(estimator_test, correlation_is_linear_not_circular) {
  using T = TypeParam;
  // A strong burst sits at the end of a and at the start of b: 800 samples apart in the "b leads" direction,
  // beyond max_lag. A circular correlation over N samples wraps it to lag +200, inside the search range,
  // where it would dwarf the true, weaker relation at lag +50.
  const std::size_t n = 1000, max_lag = 400;
  const int true_lag = 50;
  auto a = tde_test::white_noise<T>(n, 21);
  std::vector<T> b(n, T(0));
  for (std::size_t i = 0; i + true_lag < n; ++i) b[i + true_lag] = a[i];
  auto extra = tde_test::white_noise<T>(n, 22);
  for (std::size_t i = 0; i < n; ++i) b[i] += extra[i];
  for (std::size_t i = 0; i < 10; ++i) {
    T burst = static_cast<T>(i % 2 == 0 ? 40 : -40);
    a[900 + i] += burst;
    b[100 + i] += burst;
  }
  // The circular correlation (what an FFT without padding computes) peaks at the wrapped burst.
  auto ca = centred(a), cb = centred(b);
  auto circular = [&](std::int64_t k) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += ca[i] * cb[(i + n + static_cast<std::size_t>(k + 1000)) % n];
    return s;
  };
  std::int64_t circular_peak = -400;
  for (std::int64_t k = -400; k <= 400; ++k) {
    if (circular(k) > circular(circular_peak)) circular_peak = k;
  }
  ASSERT_EQ(circular_peak, 200) << "the test input must defeat a circular correlation";

  itch5::tde::delay_estimator<T> e(options(n, max_lag));
  auto r = e.estimate(a, b);
  EXPECT_EQ(r.lag, true_lag);
  EXPECT_NEAR(e.correlation(200), brute_rho(ca, cb, 200), 1e-4);
}

TYPED_TEST(estimator_test, peak_at_the_search_edge_is_flagged) {
  using T = TypeParam;
  const std::size_t n = 4096;
  band_limited sig(4, 40, 0.0005, 0.004);  // a correlation peak hundreds of samples wide
  auto a = sig.samples<T>(n, 0), b = sig.samples<T>(n, 60);
  itch5::tde::delay_estimator<T> narrow(options(n, 40));
  auto r = narrow.estimate(a, b);
  EXPECT_EQ(r.lag, 40);
  EXPECT_TRUE(r.flags.test(estimate_flag::edge));
  EXPECT_FALSE(r.passed());
  itch5::tde::delay_estimator<T> wide(options(n, 80));
  auto w = wide.estimate(a, b);
  // The shrinking overlap pulls a peak this broad a little towards 0.
  EXPECT_NEAR(w.delay, 60, 1.5);
  EXPECT_FALSE(w.flags.test(estimate_flag::edge));
  // The same from the other side.
  auto rn = narrow.estimate(b, a);
  EXPECT_EQ(rn.lag, -40);
  EXPECT_TRUE(rn.flags.test(estimate_flag::edge));
}

TYPED_TEST(estimator_test, rho_and_psr_are_high_for_shifted_copies_and_low_for_independent_noise) {
  using T = TypeParam;
  const std::size_t n = 16384;
  itch5::tde::delay_estimator<T> e(options(n, 500));
  auto base = tde_test::white_noise<T>(n + 10, 31);
  std::vector<T> a(base.begin() + 10, base.end()), b(base.begin(), base.end() - 10);  // b[i] = a[i - 10]
  auto same = e.estimate(a, b);
  EXPECT_EQ(same.lag, 10);
  EXPECT_GT(same.rho, 0.99);
  EXPECT_LE(same.rho, 1.0 + 1e-6);
  EXPECT_GT(same.psr, 50);
  EXPECT_LT(same.second_ratio, 0.1);
  EXPECT_TRUE(same.passed());

  for (unsigned seed = 1; seed <= 5; ++seed) {
    auto x = tde_test::white_noise<T>(n, 100 + seed), y = tde_test::white_noise<T>(n, 200 + seed);
    auto r = e.estimate(x, y);
    EXPECT_LT(std::abs(r.rho), 0.05) << "seed " << seed;
    EXPECT_LT(r.psr, 6) << "seed " << seed;
    EXPECT_GT(r.second_ratio, 0.6) << "noise has many near-equal peaks";
    EXPECT_TRUE(r.flags.test(estimate_flag::low_rho));
    EXPECT_TRUE(r.flags.test(estimate_flag::low_psr));
  }
}

TYPED_TEST(estimator_test, a_flat_series_is_flagged_not_estimated) {
  using T = TypeParam;
  itch5::tde::delay_estimator<T> e(options(256, 20));
  std::vector<T> flat(256, T(7)), noise = tde_test::white_noise<T>(256, 1);
  for (auto r : {e.estimate(flat, noise), e.estimate(noise, flat), e.estimate(flat, flat)}) {
    EXPECT_TRUE(r.flags.test(estimate_flag::flat));
    EXPECT_TRUE(std::isnan(r.delay));
    EXPECT_FALSE(r.passed());
  }
  EXPECT_TRUE(std::isnan(e.correlation(0)));
}

// Linear convolution with a sampled unit-area Gaussian of `sigma` samples; the output keeps the full
// support (6 sigma margin on either side), so nothing is cut off.
std::vector<double> gaussian_smooth(const std::vector<double>& x, double sigma, std::size_t margin) {
  const auto r = static_cast<std::int64_t>(margin);
  std::vector<double> kernel;
  for (std::int64_t j = -r; j <= r; ++j) {
    double t = static_cast<double>(j) / sigma;
    kernel.push_back(std::exp(-0.5 * t * t) / (sigma * std::sqrt(2 * std::numbers::pi)));
  }
  std::vector<double> out(x.size() + 2 * margin, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i) {
    for (std::size_t j = 0; j < kernel.size(); ++j) out[i + j] += x[i] * kernel[j];
  }
  return out;
}

TYPED_TEST(estimator_test, spectral_smoothing_equals_time_domain_gaussian_smoothing) {
  using T = TypeParam;
  const std::size_t n = 500, max_lag = 60;
  const double sigma = 2.5;
  auto a = tde_test::white_noise<T>(n, 41), b = tde_test::white_noise<T>(n, 42);
  for (std::size_t i = 0; i + 7 < n; ++i) b[i + 7] += a[i];
  itch5::tde::delay_estimator<T> e(options(n, max_lag, sigma));
  auto r = e.estimate(a, b);
  const std::size_t margin = static_cast<std::size_t>(std::ceil(7 * sigma));
  auto sa = gaussian_smooth(centred(a), sigma, margin), sb = gaussian_smooth(centred(b), sigma, margin);
  const double tol = std::is_same_v<T, float> ? 2e-5 : 1e-7;
  for (std::int64_t k = -static_cast<std::int64_t>(max_lag); k <= static_cast<std::int64_t>(max_lag); ++k) {
    EXPECT_NEAR(e.correlation(k), brute_rho(sa, sb, k), tol) << "lag " << k;
  }
  EXPECT_EQ(r.lag, 7);
}

// Sparse events (0 or 1 per sample); b has each event of a delayed by `delay` plus a uniform jitter in
// [-jitter, jitter] samples.
template <class T>
void jittered_events(std::size_t n, double rate, int delay, int jitter, unsigned seed, std::vector<T>& a,
                     std::vector<T>& b) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution event(rate);
  std::uniform_int_distribution<int> jit(-jitter, jitter);
  a.assign(n, T(0));
  b.assign(n, T(0));
  for (std::size_t i = 0; i < n; ++i) {
    if (!event(rng)) continue;
    a[i] += T(1);
    auto j = static_cast<std::int64_t>(i) + delay + jit(rng);
    if (j >= 0 && j < static_cast<std::int64_t>(n)) b[static_cast<std::size_t>(j)] += T(1);
  }
}

TYPED_TEST(estimator_test, smoothing_at_the_jitter_scale_restores_a_peak_jitter_destroyed) {
  using T = TypeParam;
  const std::size_t n = 16384;
  const int delay = 73, jitter = 20;
  itch5::tde::delay_estimator<T> raw(options(n, 300));
  itch5::tde::delay_estimator<T> smooth(options(n, 300, jitter / 2.0));
  int raw_right = 0;
  for (unsigned seed = 1; seed <= 8; ++seed) {
    std::vector<T> a, b;
    jittered_events(n, 0.02, delay, jitter, seed, a, b);
    auto r = raw.estimate(a, b);
    auto s = smooth.estimate(a, b);
    if (std::abs(r.delay - delay) < 3 && r.passed()) ++raw_right;
    EXPECT_NEAR(s.delay, delay, 5) << "seed " << seed;  // a quarter of the jitter's half-width of 20
    EXPECT_TRUE(s.passed()) << s.flags.to_string() << " seed " << seed;
    EXPECT_GT(s.rho, 3 * r.rho);
  }
  EXPECT_LE(raw_right, 2) << "raw impulses 20 samples apart rarely line up";
}

TYPED_TEST(estimator_test, batch_gives_the_same_results_as_separate_estimators) {
  using T = TypeParam;
  const std::size_t n = 2048, count = 12;
  std::vector<std::vector<T>> as, bs;
  std::vector<double> delays;
  for (std::size_t i = 0; i < count; ++i) {
    band_limited sig(static_cast<unsigned>(i + 1));
    double d = -90.0 + 15.3 * static_cast<double>(i);
    as.push_back(sig.samples<T>(n, 0));
    bs.push_back(sig.samples<T>(n, d));
    tde_test::add_noise(bs.back(), 0.3, static_cast<unsigned>(i));
    delays.push_back(d);
  }
  std::vector<itch5::tde::series_pair<T>> batch;
  for (std::size_t i = 0; i < count; ++i) batch.push_back({as[i], bs[i]});
  std::vector<itch5::tde::delay_estimate> out(count);
  itch5::tde::delay_estimator<T> e(options(n, 100, 1.0, 4));
  e.estimate(batch, out);
  for (std::size_t i = 0; i < count; ++i) {
    itch5::tde::delay_estimator<T> fresh(options(n, 100, 1.0, 4));
    auto one = fresh.estimate(as[i], bs[i]);
    EXPECT_EQ(out[i].lag, one.lag);
    EXPECT_DOUBLE_EQ(out[i].delay, one.delay);
    EXPECT_DOUBLE_EQ(out[i].rho, one.rho);
    EXPECT_NEAR(out[i].delay, delays[i], 0.1);
  }
  std::vector<itch5::tde::delay_estimate> wrong(count - 1);
  EXPECT_THROW(e.estimate(batch, wrong), std::invalid_argument);
}

TYPED_TEST(estimator_test, estimators_move) {
  using T = TypeParam;
  static_assert(!std::is_copy_constructible_v<itch5::tde::delay_estimator<T>>);
  static_assert(std::is_nothrow_move_constructible_v<itch5::tde::delay_estimator<T>>);
  itch5::tde::delay_estimator<T> e(options(1024, 50));
  itch5::tde::delay_estimator<T> moved(std::move(e));
  band_limited sig(9);
  auto r = moved.estimate(sig.samples<T>(1024, 0), sig.samples<T>(1024, -17));
  EXPECT_EQ(r.lag, -17);
}

// The circular autocorrelation sum_n x[n] x[(n + j) mod m] of x zero-padded to m samples, j in [0, m).
std::vector<double> circular_autocorrelation(const std::vector<double>& x, std::size_t m) {
  std::vector<double> pad(m, 0.0), r(m, 0.0);
  std::copy(x.begin(), x.end(), pad.begin());
  for (std::size_t j = 0; j < m; ++j) {
    for (std::size_t n = 0; n < m; ++n) r[j] += pad[n] * pad[(n + j) % m];
  }
  return r;
}

// |DFT|^2 of x zero-padded to m, by the definition.
std::vector<double> power_spectrum(const std::vector<double>& x, std::size_t m) {
  std::vector<double> p(m);
  for (std::size_t k = 0; k < m; ++k) {
    std::complex<double> s = 0;
    for (std::size_t n = 0; n < x.size(); ++n) {
      s += x[n] *
           std::polar(1.0, -2 * std::numbers::pi * static_cast<double>(k * n % m) / static_cast<double>(m));
    }
    p[k] = std::norm(s);
  }
  return p;
}

TYPED_TEST(estimator_test, z_and_p_value_follow_bartletts_variance_and_bennetts_bound) {
  using T = TypeParam;
  // White noise, b weakly related to a (the p-values then fall between 0 and 1), no smoothing: everything
  // from brute-force sums over the padded series (the estimator pads to M, so its autocorrelations are the
  // circular ones of length M).
  const std::size_t n = 400, max_lag = 50;
  itch5::tde::delay_estimator<T> e(options(n, max_lag));
  const std::size_t m = e.fft_length();
  for (unsigned seed = 1; seed <= 4; ++seed) {
    auto a = tde_test::white_noise<T>(n, 60 + seed), b = tde_test::white_noise<T>(n, 70 + seed);
    const double coupling[] = {0.1, 0.3, 0.35, 0.5};
    for (std::size_t i = 0; i + 9 < n; ++i) b[i + 9] += static_cast<T>(coupling[seed - 1]) * a[i];
    auto r = e.estimate(a, b);
    auto ca = centred(a), cb = centred(b);
    const auto ra = circular_autocorrelation(ca, m), rb = circular_autocorrelation(cb, m);
    double sum_rr = 0;
    for (std::size_t j = 0; j < m; ++j) sum_rr += ra[j] * rb[j];
    const double v = sum_rr / static_cast<double>(n);  // Bartlett: Var c[k] under the null
    const double c = brute_rho(ca, cb, r.lag) * std::sqrt(ra[0] * rb[0]);
    const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-9;
    EXPECT_NEAR(r.z, c / std::sqrt(v), tol * std::abs(r.z)) << "seed " << seed;

    // Bennett's tail with B = max|a| max|b|, times the independent lags by Rice's formula.
    double peak_a = 0, peak_b = 0;
    for (double x : ca) peak_a = std::max(peak_a, std::abs(x));
    for (double x : cb) peak_b = std::max(peak_b, std::abs(x));
    const double bound = peak_a * peak_b, u = bound * c / v;
    const double tail = std::exp(-(v / (bound * bound)) * ((1 + u) * std::log1p(u) - u));
    const auto pa = power_spectrum(ca, m), pb = power_spectrum(cb, m);
    double s0 = 0, s2 = 0;
    for (std::size_t k = 0; k < m; ++k) {
      const double f =
          2 * std::numbers::pi * static_cast<double>(k <= m / 2 ? k : m - k) / static_cast<double>(m);
      s0 += pa[k] * pb[k];
      s2 += f * f * pa[k] * pb[k];
    }
    const double lags = 2.0 * max_lag + 1;
    const double independent = std::min(
        lags, 1 + (lags - 1) * std::sqrt(s2 / s0) * std::max(r.z, 1.0) / std::sqrt(2 * std::numbers::pi));
    const double expected = std::min(1.0, independent * tail);
    EXPECT_NEAR(r.p_value, expected, (std::is_same_v<T, float> ? 1e-3 : 1e-7) * expected) << "seed " << seed;
    EXPECT_EQ(r.flags.test(estimate_flag::not_significant), r.p_value > 0.01);
  }
}

TYPED_TEST(estimator_test, a_related_pair_is_significant_and_alpha_one_never_flags) {
  using T = TypeParam;
  const std::size_t n = 2048;
  auto base = tde_test::white_noise<T>(n + 30, 81);
  std::vector<T> a(base.begin() + 30, base.end()), b(base.begin(), base.end() - 30);  // b lags a by 30
  tde_test::add_noise(b, 2.0, 82);                                                    // rho ~ 0.45
  itch5::tde::delay_estimator<T> e(options(n, 100));
  auto r = e.estimate(a, b);
  EXPECT_EQ(r.lag, 30);
  EXPECT_GT(r.z, 15);
  EXPECT_LT(r.p_value, 1e-10);
  EXPECT_FALSE(r.flags.test(estimate_flag::not_significant));

  auto x = tde_test::white_noise<T>(n, 83), y = tde_test::white_noise<T>(n, 84);
  auto strict = e.estimate(x, y);
  EXPECT_GT(strict.p_value, 0.01);
  EXPECT_TRUE(strict.flags.test(estimate_flag::not_significant));
  auto o = options(n, 100);
  o.alpha = 1;
  itch5::tde::delay_estimator<T> lenient(o);
  EXPECT_FALSE(lenient.estimate(x, y).flags.test(estimate_flag::not_significant));
  o.alpha = 0;
  EXPECT_THROW(itch5::tde::delay_estimator<T>{o}, std::invalid_argument);
}

TEST(estimate_flags, names) {
  itch5::tde::estimate_flags f;
  EXPECT_EQ(f.to_string(), "ok");
  f.set(estimate_flag::few_events);
  f.set(estimate_flag::edge);
  EXPECT_EQ(f.to_string(), "few_events|edge");
  EXPECT_TRUE(f.test(estimate_flag::edge));
  EXPECT_FALSE(f.test(estimate_flag::flat));
  f.set(estimate_flag::not_significant);
  EXPECT_EQ(f.to_string(), "few_events|edge|not_significant");
}

}  // namespace
