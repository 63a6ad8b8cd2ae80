#include <itch5/synth/generator_stats.hpp>

#include <cmath>

namespace itch5::synth {

std::uint64_t generator_stats::depth_events() const noexcept {
  std::uint64_t n = 0;
  for (std::uint64_t c : depth_histogram) n += c;
  return n;
}

std::uint32_t generator_stats::depth_quantile(double q) const noexcept {
  std::uint64_t n = depth_events();
  if (n == 0) return 0;
  auto need = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n)));
  if (need == 0) need = 1;
  std::uint64_t seen = 0;
  for (std::size_t d = 0; d < depth_histogram.size(); ++d) {
    seen += depth_histogram[d];
    if (seen >= need) return static_cast<std::uint32_t>(d);
  }
  return static_cast<std::uint32_t>(depth_histogram.size() - 1);
}

}  // namespace itch5::synth
