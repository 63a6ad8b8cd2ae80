#include <book_stream/depth_curve.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace book_stream {

depth_curve::depth_curve(std::vector<depth_knot> knots) : knots_(std::move(knots)) {
  if (knots_.size() < 2 || knots_.front().q != 0.0 || knots_.back().q != 1.0) {
    throw std::invalid_argument("depth_curve: knots must run from q = 0 to q = 1");
  }
  for (std::size_t i = 0; i < knots_.size(); ++i) {
    const depth_knot& k = knots_[i];
    if (!(k.depth >= 0.0 && k.depth <= 1e7)) {
      throw std::invalid_argument("depth_curve: depth outside [0, 1e7]");
    }
    if (i > 0 && !(k.q > knots_[i - 1].q && k.depth >= knots_[i - 1].depth)) {
      throw std::invalid_argument("depth_curve: q must increase and depth must not decrease");
    }
    log1p_.push_back(std::log1p(k.depth));
  }
}

depth_curve depth_curve::measured() {
  return depth_curve(
      {{0.0, 0.0}, {0.5, 1.0}, {0.75, 6.0}, {0.9, 14.0}, {0.99, 203.0}, {0.999, 2000.0}, {1.0, 20000.0}});
}

std::uint32_t depth_curve::depth_at(double u) const noexcept {
  u = std::clamp(u, 0.0, 1.0);
  std::size_t b = 1;
  while (b + 1 < knots_.size() && knots_[b].q < u) ++b;
  const depth_knot& lo = knots_[b - 1];
  const depth_knot& hi = knots_[b];
  const double t = (u - lo.q) / (hi.q - lo.q);
  const double depth = std::expm1(log1p_[b - 1] + t * (log1p_[b] - log1p_[b - 1]));
  return static_cast<std::uint32_t>(std::clamp(std::floor(depth + 0.5), lo.depth, hi.depth));
}

}  // namespace book_stream
