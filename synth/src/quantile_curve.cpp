#include <itch5/synth/quantile_curve.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <itch5/synth/detail/det_math.hpp>

namespace itch5::synth {

quantile_curve::quantile_curve(std::vector<knot> knots) : knots_(std::move(knots)) {
  if (knots_.size() < 2 || knots_.front().u != 0 || knots_.back().u != 1) {
    throw std::invalid_argument(
        "quantile_curve: need at least two knots, the first at u=0 and the last at u=1");
  }
  std::vector<double> log1p;
  for (std::size_t i = 0; i < knots_.size(); ++i) {
    const knot& k = knots_[i];
    if (!(k.value >= 0) || !std::isfinite(k.value) || k.value > 1e8) {
      throw std::invalid_argument("quantile_curve: values must be in [0, 1e8]");
    }
    if (i > 0 && (k.u < knots_[i - 1].u || k.value < knots_[i - 1].value)) {
      throw std::invalid_argument("quantile_curve: knots must be non-decreasing in u and in value");
    }
    log1p.push_back(detail::det_log(1 + k.value));
  }

  // Breakpoints: the curve reaches v - 0.5 (so rounds to v) where log(1 + value) = log(v + 0.5).
  first_ = static_cast<std::uint32_t>(std::floor(knots_.front().value + 0.5));
  auto last = static_cast<std::uint32_t>(std::floor(knots_.back().value + 0.5));
  breakpoint_.assign(last - first_ + 1, 0.0);
  std::size_t seg = 1;
  for (std::uint32_t v = first_ + 1; v <= last; ++v) {
    double target = detail::det_log(v + 0.5);
    while (seg + 1 < knots_.size() && log1p[seg] < target) ++seg;
    const knot& a = knots_[seg - 1];
    const knot& b = knots_[seg];
    double u = log1p[seg] > log1p[seg - 1]
                   ? a.u + (target - log1p[seg - 1]) / (log1p[seg] - log1p[seg - 1]) * (b.u - a.u)
                   : b.u;  // a jump at b.u
    breakpoint_[v - first_] = std::clamp(u, breakpoint_[v - first_ - 1], 1.0);
  }
  guide_.resize(guide_size + 1);
  std::uint32_t v = first_;
  for (std::size_t j = 0; j <= guide_size; ++j) {
    double u = static_cast<double>(j) / guide_size;
    while (v < last && breakpoint_[v + 1 - first_] <= u) ++v;
    guide_[j] = v;
  }
  guide_[guide_size] = last;  // the last bucket's upper bound (u < 1 never reaches past it)
}

}  // namespace itch5::synth
