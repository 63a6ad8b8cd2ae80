#include <itch5/tde/fft/fft_plan.hpp>

#include <stdexcept>
#include <string>

namespace itch5::tde {

namespace detail {
std::mutex& planner_mutex() noexcept {
  static std::mutex m;
  return m;
}
}  // namespace detail

std::string_view to_string(plan_rigor r) noexcept {
  switch (r) {
    case plan_rigor::estimate: return "estimate";
    case plan_rigor::measure: return "measure";
    case plan_rigor::patient: return "patient";
    case plan_rigor::exhaustive: return "exhaustive";
  }
  return "?";
}

plan_rigor parse_plan_rigor(std::string_view text) {
  for (auto r : {plan_rigor::estimate, plan_rigor::measure, plan_rigor::patient, plan_rigor::exhaustive}) {
    if (text == to_string(r)) return r;
  }
  throw std::invalid_argument("unknown plan rigor '" + std::string(text) +
                              "' (expected estimate, measure, patient or exhaustive)");
}

unsigned fftw_flags(plan_rigor r, bool wisdom_only) noexcept {
  unsigned f = FFTW_ESTIMATE;
  switch (r) {
    case plan_rigor::estimate: f = FFTW_ESTIMATE; break;
    case plan_rigor::measure: f = FFTW_MEASURE; break;
    case plan_rigor::patient: f = FFTW_PATIENT; break;
    case plan_rigor::exhaustive: f = FFTW_EXHAUSTIVE; break;
  }
  if (wisdom_only) f |= FFTW_WISDOM_ONLY;
  return f;
}

template class fft_plan<float, fft_direction::r2c>;
template class fft_plan<float, fft_direction::c2r>;
template class fft_plan<double, fft_direction::r2c>;
template class fft_plan<double, fft_direction::c2r>;

}  // namespace itch5::tde
