#include <itch5/tde/estimate/delay_estimate.hpp>

namespace itch5::tde {

const char* to_string(estimate_flag f) noexcept {
  switch (f) {
    case estimate_flag::few_events: return "few_events";
    case estimate_flag::edge: return "edge";
    case estimate_flag::flat: return "flat";
    case estimate_flag::low_rho: return "low_rho";
    case estimate_flag::low_psr: return "low_psr";
    case estimate_flag::ambiguous: return "ambiguous";
    case estimate_flag::not_significant: return "not_significant";
  }
  return "?";
}

void estimate_flags::append_to(std::string& out) const {
  if (bits_ == 0) {
    out += "ok";
    return;
  }
  bool first = true;
  for (std::uint32_t bit = 1; bit != 0 && bit <= bits_; bit <<= 1) {
    if ((bits_ & bit) == 0) continue;
    if (!first) out += '|';
    out += tde::to_string(static_cast<estimate_flag>(bit));
    first = false;
  }
}

std::string estimate_flags::to_string() const {
  std::string s;
  append_to(s);
  return s;
}

}  // namespace itch5::tde
