#include <itch5/synth/alias_table.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

namespace itch5::synth {

alias_table::alias_table(std::span<const double> weights) {
  std::size_t n = weights.size();
  if (n == 0 || n > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("alias_table: need between 1 and 2^32-1 weights");
  }
  double sum = 0;
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w))
      throw std::invalid_argument("alias_table: weights must be finite and >= 0");
    sum += w;
  }
  if (!(sum > 0)) throw std::invalid_argument("alias_table: the weights sum to 0");

  // Vose: scale to mean 1, pair each small entry with a large one.
  std::vector<double> p(n);
  std::vector<std::uint32_t> small, large;
  for (std::size_t i = 0; i < n; ++i) {
    p[i] = weights[i] * static_cast<double>(n) / sum;
    (p[i] < 1 ? small : large).push_back(static_cast<std::uint32_t>(i));
  }
  threshold_.assign(n, std::numeric_limits<std::uint64_t>::max());
  alias_.resize(n);
  for (std::size_t i = 0; i < n; ++i) alias_[i] = static_cast<std::uint32_t>(i);
  while (!small.empty() && !large.empty()) {
    std::uint32_t s = small.back();
    small.pop_back();
    std::uint32_t l = large.back();
    threshold_[s] =
        static_cast<std::uint64_t>(std::ldexp(p[s], 64) >= 0x1.0p64 ? 0x1.0p64 - 2048 : std::ldexp(p[s], 64));
    alias_[s] = l;
    p[l] = (p[l] + p[s]) - 1;
    if (p[l] < 1) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // Left-overs (rounding) keep themselves with certainty: threshold UINT64_MAX and alias = self.
}

double alias_table::probability(std::uint32_t i) const {
  double n = static_cast<double>(threshold_.size());
  auto keep = [&](std::uint32_t j) {
    return threshold_[j] == std::numeric_limits<std::uint64_t>::max()
               ? 1.0
               : std::ldexp(static_cast<double>(threshold_[j]), -64);
  };
  double p = keep(i);
  for (std::uint32_t j = 0; j < threshold_.size(); ++j) {
    if (j != i && alias_[j] == i) p += 1 - keep(j);
  }
  return p / n;
}

}  // namespace itch5::synth
