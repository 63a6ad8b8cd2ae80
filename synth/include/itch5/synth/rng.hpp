// The generator's pseudo-random number generator: xoshiro256** seeded through splitmix64, with the few
// distributions the generator needs implemented here rather than taken from <random>.
//
// The standard distributions (std::uniform_int_distribution, std::normal_distribution, ...) are allowed to
// use different algorithms in different standard libraries, so the same seed would give different data
// with libstdc++ and libc++. Everything here is specified by this code: integers by Lemire's
// multiply-shift with rejection, doubles from the top 53 bits, the exponential by inversion, the normal by
// Marsaglia's polar method, all on det_log()/det_exp() (bit-identical across platforms).
//
// Complexity O(1) per draw (the polar method and below() loop with expected < 1.3 iterations).
// Memory 40 bytes. Not thread-safe: one rng per thread or per purpose; fork() derives independent streams.
#pragma once

#include <cmath>
#include <cstdint>

#include <itch5/synth/detail/det_math.hpp>

namespace itch5::synth {

namespace detail {
__extension__ typedef unsigned __int128 uint128;  // GCC and Clang; __extension__ keeps -Wpedantic quiet
}  // namespace detail

class rng {
 public:
  /// Seeds the four state words from splitmix64(seed), as the xoshiro authors recommend.
  explicit rng(std::uint64_t seed) noexcept {
    std::uint64_t x = seed;
    for (auto& w : s_) w = splitmix64(x);
  }

  /// splitmix64 step: advances `x` and returns the next output.
  static constexpr std::uint64_t splitmix64(std::uint64_t& x) noexcept {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }

  /// An independent generator for purpose `stream` (derived from this one's state, which is not advanced).
  [[nodiscard]] rng fork(std::uint64_t stream) const noexcept {
    std::uint64_t x = s_[0] ^ (s_[1] << 1) ^ (s_[2] << 2) ^ (s_[3] << 3) ^ (stream * 0xd1342543de82ef95ull);
    return rng(splitmix64(x));
  }

  /// 64 uniformly random bits (xoshiro256**).
  std::uint64_t next() noexcept {
    std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n), n > 0, unbiased (Lemire 2019).
  std::uint64_t below(std::uint64_t n) noexcept {
    detail::uint128 m = static_cast<detail::uint128>(next()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<detail::uint128>(next()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  /// Uniform integer in [lo, hi] (lo <= hi).
  std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
    return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo) + 1));
  }

  /// Uniform double in [0, 1) with 53 random bits.
  double uniform() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// Uniform double in (0, 1].
  double uniform_positive() noexcept { return static_cast<double>((next() >> 11) + 1) * 0x1.0p-53; }

  /// True with probability p.
  bool chance(double p) noexcept { return uniform() < p; }

  /// Exponential with the given mean.
  double exponential(double mean) noexcept { return -mean * detail::det_log(uniform_positive()); }

  /// Standard normal (Marsaglia's polar method; the second value of each pair is kept for the next call).
  double normal() noexcept {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u, v, s;
    do {
      u = 2 * uniform() - 1;
      v = 2 * uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s == 0);
    double f = std::sqrt(-2 * detail::det_log(s) / s);  // sqrt is correctly rounded by IEEE 754
    spare_ = v * f;
    has_spare_ = true;
    return u * f;
  }

  /// Lognormal: exp(mu + sigma * N(0,1)).
  double lognormal(double mu, double sigma) noexcept { return detail::det_exp(mu + sigma * normal()); }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }

  std::uint64_t s_[4];
  double spare_ = 0;
  bool has_spare_ = false;
};

}  // namespace itch5::synth
