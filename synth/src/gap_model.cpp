#include <itch5/synth/gap_model.hpp>

#include <algorithm>
#include <stdexcept>

#include <itch5/synth/detail/det_math.hpp>

namespace itch5::synth {

gap_model::gap_model(std::chrono::nanoseconds mean) : mean_(mean) {
  if (mean < min_mean) throw std::invalid_argument("the mean gap must be at least 1us");
  double m = static_cast<double>(mean.count());
  double burst_mean = 0.7 * 150.0;
  double busy_mean = std::min(6000.0, 0.4 * m);  // floor included
  double quiet_probability = 1 - burst_probability - busy_probability;
  double quiet_mean = (m - burst_probability * burst_mean - busy_probability * busy_mean) / quiet_probability;
  // lognormal mean = exp(mu + sigma^2 / 2), for the part above the 300 ns floor.
  auto mu_for = [](double mean_above_floor, double sigma) {
    return detail::det_log(mean_above_floor) - sigma * sigma / 2;
  };
  busy_ = lognormal_quantiles(mu_for(busy_mean - burst_limit_ns, busy_sigma), busy_sigma);
  quiet_ = lognormal_quantiles(mu_for(quiet_mean - burst_limit_ns, quiet_sigma), quiet_sigma);
}

gap_model::lognormal_quantiles::lognormal_quantiles(double mu, double sigma) : mu_(mu), sigma_(sigma) {
  table_.resize(buckets + 1);
  table_[0] = 0;
  for (std::size_t j = 1; j < buckets; ++j) table_[j] = exact(static_cast<double>(j) / buckets);
  table_[buckets] = table_[buckets - 1];  // never interpolated towards (the last bucket is exact)
}

double gap_model::lognormal_quantiles::exact(double u) const noexcept {
  return detail::det_exp(mu_ + sigma_ * detail::det_normal_quantile(u));
}

}  // namespace itch5::synth
