// Synthetic series with known delays for the tde tests. Everything is computed from closed forms (sums of
// sinusoids, event times), never with the code under test.
#pragma once

#include <cmath>
#include <cstddef>
#include <numbers>
#include <random>
#include <vector>

namespace tde_test {

/// A band-limited signal: a sum of `tones` sinusoids with random frequencies in [fmin, fmax] cycles per
/// sample, evaluated at i - shift for i in [0, n). shift(x, d) is x delayed by d samples (any real d).
struct band_limited {
  struct tone {
    double freq, phase, amplitude;
  };
  std::vector<tone> tones;

  explicit band_limited(unsigned seed, int count = 40, double fmin = 0.002, double fmax = 0.08) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> f(fmin, fmax), ph(0, 2 * std::numbers::pi), amp(0.5, 1.5);
    for (int i = 0; i < count; ++i) tones.push_back({f(rng), ph(rng), amp(rng)});
  }

  template <class T>
  [[nodiscard]] std::vector<T> samples(std::size_t n, double shift, double offset = 0) const {
    std::vector<T> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      double t = static_cast<double>(i) - shift;
      double v = offset;
      for (const auto& tn : tones) {
        v += tn.amplitude * std::cos(2 * std::numbers::pi * tn.freq * t + tn.phase);
      }
      out[i] = static_cast<T>(v);
    }
    return out;
  }
};

/// Adds Gaussian noise of standard deviation `sigma`.
template <class T>
void add_noise(std::vector<T>& v, double sigma, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, sigma);
  for (auto& x : v) x = static_cast<T>(static_cast<double>(x) + noise(rng));
}

/// White Gaussian noise.
template <class T>
std::vector<T> white_noise(std::size_t n, unsigned seed) {
  std::vector<T> v(n, T(0));
  add_noise(v, 1.0, seed);
  return v;
}

/// Root mean square of a vector.
template <class T>
double rms(const std::vector<T>& v) {
  double s = 0;
  for (auto x : v) s += static_cast<double>(x) * static_cast<double>(x);
  return std::sqrt(s / static_cast<double>(v.size()));
}

}  // namespace tde_test
