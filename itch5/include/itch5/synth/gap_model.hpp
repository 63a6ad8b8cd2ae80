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
// next() is O(1) (one normal draw at most, det_exp). Memory: a few doubles. Not thread-safe (uses the
// caller's rng).
#pragma once

#include <chrono>
#include <cstdint>

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
    double x = u < burst_probability + busy_probability ? r.lognormal(busy_mu_, busy_sigma)
                                                        : r.lognormal(quiet_mu_, quiet_sigma);
    if (!(x < 1e15)) x = 1e15;  // 11.6 days: far beyond any use, keeps the conversion defined
    return burst_limit_ns + static_cast<std::int64_t>(x);
  }

  [[nodiscard]] std::chrono::nanoseconds mean() const noexcept { return mean_; }

 private:
  static constexpr double busy_sigma = 0.9;
  static constexpr double quiet_sigma = 1.6;
  std::chrono::nanoseconds mean_;
  double busy_mu_;
  double quiet_mu_;
};

}  // namespace itch5::synth
