// Logarithm and exponential that give the same bits on every IEEE-754 platform.
//
// std::log and std::exp are not required to be correctly rounded, and C libraries differ in the last bit,
// which would change the generator's output from one platform to another. These versions use only
// operations IEEE 754 defines exactly (+ - * /, conversions, exponent manipulation) with fixed polynomial
// coefficients, so a given input always yields the same double. Accuracy is within a few ulp, which is
// far more than the distributions need. The library compiles with -ffp-contract=off (no fused
// multiply-add) so every compiler evaluates the same operations; FLT_EVAL_METHOD must be 0 (no x87
// extended precision).
//
// Complexity O(1) (about 12 multiply-adds each); no state; thread-safe.
#pragma once

#include <bit>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

namespace itch5::synth::detail {

static_assert(std::numeric_limits<double>::is_iec559, "the generator needs IEEE-754 doubles");
static_assert(FLT_EVAL_METHOD == 0, "the generator needs double arithmetic evaluated in double precision");

inline constexpr double ln2_hi = 6.93147180369123816490e-01;  // upper bits of ln 2 (exact product with k)
inline constexpr double ln2_lo = 1.90821492927058770002e-10;  // ln 2 - ln2_hi
inline constexpr double ln2 = 0.693147180559945309417232121458;
inline constexpr double inv_ln2 = 1.44269504088896340735992468100;

/// x * 2^k, exactly as std::ldexp (scaling by a power of two is exact unless the result is subnormal or
/// overflows), without a library call in the common range.
[[nodiscard]] inline double scale_by_power_of_2(double x, int k) noexcept {
  if (k >= -1022 && k <= 1023) return x * std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
  return std::ldexp(x, k);
}

/// Natural logarithm of x > 0 (finite). Returns -inf for 0 and NaN for negative input.
[[nodiscard]] inline double det_log(double x) noexcept {
  if (!(x > 0))
    return x == 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (x == std::numeric_limits<double>::infinity()) return x;
  // x = m * 2^e with m in [0.5, 1): std::frexp, done on the bits for normal numbers.
  int e = 0;
  double m;
  auto bits = std::bit_cast<std::uint64_t>(x);
  if (x >= std::numeric_limits<double>::min()) {
    e = static_cast<int>((bits >> 52) & 0x7ff) - 1022;
    m = std::bit_cast<double>((bits & 0x000fffffffffffffull) | 0x3fe0000000000000ull);
  } else {
    m = std::frexp(x, &e);
  }
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }
  // log(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| <= 0.1716: the odd series 2 s (1 + s^2/3 + s^4/5
  // + ... + s^20/21) is exact to below an ulp; its polynomial in z = s^2 is evaluated in Estrin's order
  // (short dependency chains), which is as deterministic as Horner's.
  double s = (m - 1) / (m + 1);
  double z = s * s;
  double z2 = z * z;
  double z4 = z2 * z2;
  double z8 = z4 * z4;
  double p01 = 1.0 + z * (1.0 / 3);
  double p23 = 1.0 / 5 + z * (1.0 / 7);
  double p45 = 1.0 / 9 + z * (1.0 / 11);
  double p67 = 1.0 / 13 + z * (1.0 / 15);
  double p89 = 1.0 / 17 + z * (1.0 / 19);
  double p03 = p01 + z2 * p23;
  double p47 = p45 + z2 * p67;
  double p8a = p89 + z2 * (1.0 / 21);
  double p = (p03 + z4 * p47) + z8 * p8a;
  double k = e;
  return k * ln2_hi + (k * ln2_lo + 2 * s * p);
}

namespace exp_table {
// 2^(j/32) for j = 0..31, computed at compile time with IEEE double operations (Taylor series of e^x at
// x = j ln2 / 32, enough terms to converge), so every compiler produces the same table.
constexpr double slow_exp(double x) {
  double term = 1, sum = 1;
  for (int n = 1; n < 40; ++n) {
    term = term * x / n;
    sum = sum + term;
  }
  return sum;
}
constexpr auto make() {
  struct table {
    double v[32];
  } t{};
  for (int j = 0; j < 32; ++j) t.v[j] = slow_exp(j * (ln2 / 32));
  return t;
}
inline constexpr auto powers = make();
}  // namespace exp_table

/// e^x. Overflows to +inf above ~709.78 and underflows to 0 below ~-745.
[[nodiscard]] inline double det_exp(double x) noexcept {
  if (x != x) return x;
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = (32 m + j) ln2 / 32 + r with |r| <= ln2 / 64; e^x = 2^m * 2^(j/32) * e^r.
  double t = x * (32 * inv_ln2);
  auto n = static_cast<std::int64_t>(t < 0 ? t - 0.5 : t + 0.5);  // nearest, ties away from zero
  double kn = static_cast<double>(n);
  double r = (x - kn * (ln2_hi / 32)) - kn * (ln2_lo / 32);
  // e^r by its Taylor series to r^7 / 7! (|r| <= 0.0109: error below 1e-19 relative).
  double r2 = r * r;
  double q = (1.0 + r) + r2 * ((0.5 + r * (1.0 / 6)) +
                               r2 * ((1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720 + r * (1.0 / 5040))));
  auto j = static_cast<int>(n & 31);
  auto m = static_cast<int>((n - j) / 32);
  return scale_by_power_of_2(exp_table::powers.v[j] * q, m);
}

/// The standard normal quantile (inverse CDF) at p in (0, 1): Acklam's rational approximation (absolute
/// error below 1e-8), on det_log and sqrt only. Returns -inf / +inf at 0 / 1.
[[nodiscard]] inline double det_normal_quantile(double p) noexcept {
  constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                          1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                          6.680131188771972e+01, -1.328068155288572e+01};
  constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                          -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                          3.754408661907416e+00};
  constexpr double p_low = 0.02425;
  if (!(p > 0)) return -std::numeric_limits<double>::infinity();
  if (!(p < 1)) return std::numeric_limits<double>::infinity();
  auto tail = [&](double q) {
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  };
  if (p < p_low) return tail(std::sqrt(-2 * det_log(p)));
  if (p > 1 - p_low) return -tail(std::sqrt(-2 * det_log(1 - p)));
  double q = p - 0.5;
  double r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

}  // namespace itch5::synth::detail
