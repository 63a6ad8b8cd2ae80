// Inter-arrival gaps of a bursty market-data stream, with a chosen mean.
//
// Real feeds are bursty: about 1% of messages arrive less than 300 ns after the previous one (bursts such
// as a sweep of several orders), most gaps are a few microseconds, and quiet periods last milliseconds. The
// model is a three-part mixture:
//   - burst (probability 0.95%): 0 ns with probability 0.3, else uniform in [1, 299] ns;
//   - busy  (80%): 300 ns + lognormal with sigma 0.9 and mean min(6 us, 0.4 * mean) - 300 ns;
//   - quiet (the rest): 300 ns + lognormal with sigma 1.6, its mean chosen so the overall mean is `mean`.
// So exactly the burst part falls under 300 ns whatever the mean, and the quiet part carries the heavy
// tail (with the default 150 us mean, about 3% of all gaps exceed 1 ms).
//
// The lognormal parts are drawn by inversion through a 4096-bucket table of their quantile function with
// linear interpolation inside a bucket (the first and last buckets, where the quantile function is
// steepest, are evaluated exactly): two random words and a few arithmetic operations per gap instead of a
// logarithm and an exponential.
//
// next() is O(1). Memory 64 KB (two tables). Immutable after construction; next() uses the caller's rng.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include <itch5/synth/rng.hpp>

namespace itch5::synth {

class gap_model {
 public:
  static constexpr std::int64_t burst_limit_ns = 300;
  static constexpr double burst_probability = 0.0095;
  static constexpr double busy_probability = 0.80;
  static constexpr std::chrono::nanoseconds min_mean{1000};

  /// `mean` >= 1 us; throws std::invalid_argument otherwise.
  explicit gap_model(std::chrono::nanoseconds mean);

  /// The next gap in nanoseconds.
  [[nodiscard]] std::int64_t next(rng& r) const noexcept {
    double u = r.uniform();
    if (u < burst_probability) {
      return r.chance(0.3) ? 0 : r.between(1, burst_limit_ns - 1);
    }
    bool busy = u < burst_probability + busy_probability;
    double x = busy ? busy_.at(r.uniform_positive()) : quiet_.at(r.uniform_positive());
    if (!(x < 1e15)) x = 1e15;  // 11.6 days: far beyond any use, keeps the conversion defined
    return burst_limit_ns + static_cast<std::int64_t>(x);
  }

  [[nodiscard]] std::chrono::nanoseconds mean() const noexcept { return mean_; }

 private:
  static constexpr double busy_sigma = 0.9;
  static constexpr double quiet_sigma = 1.6;

  // Quantile function of a lognormal, tabulated (see the header comment).
  class lognormal_quantiles {
   public:
    static constexpr std::size_t buckets = 4096;
    lognormal_quantiles() = default;
    lognormal_quantiles(double mu, double sigma);
    /// The quantile at u in (0, 1].
    [[nodiscard]] double at(double u) const noexcept {
      double x = u * buckets;
      auto j = static_cast<std::size_t>(x);
      if (j == 0 || j >= buckets - 1) return exact(u);
      double f = x - static_cast<double>(j);
      return table_[j] + f * (table_[j + 1] - table_[j]);
    }

   private:
    [[nodiscard]] double exact(double u) const noexcept;
    double mu_ = 0, sigma_ = 1;
    std::vector<double> table_;  // table_[j]: quantile at j / buckets, j = 0..buckets
  };

  std::chrono::nanoseconds mean_;
  lognormal_quantiles busy_;
  lognormal_quantiles quiet_;
};

}  // namespace itch5::synth
