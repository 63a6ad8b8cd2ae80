#include "event_clock.hpp"

#include <fstream>
#include <string>

namespace itch5::inside {
namespace {

// Whether /proc/cpuinfo names an invariant time-stamp counter (constant_tsc and nonstop_tsc).
bool invariant_tsc() {
#if defined(__x86_64__)
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0) {
      const auto has = [&](const char* flag) {
        return (line + " ").find(std::string(" ") + flag + " ") != std::string::npos;
      };
      return has("constant_tsc") && has("nonstop_tsc");
    }
  }
#endif
  return false;
}

}  // namespace

event_clock event_clock::calibrated() {
#if defined(__x86_64__)
  if (invariant_tsc()) {
    using namespace std::chrono;
    const auto s0 = steady_clock::now();
    const std::uint64_t t0 = __rdtsc();
    auto s1 = s0;
    std::uint64_t t1 = t0;
    while (s1 - s0 < milliseconds(2)) {
      s1 = steady_clock::now();
      t1 = __rdtsc();
    }
    const double ns = static_cast<double>(duration_cast<nanoseconds>(s1 - s0).count());
    if (t1 > t0 && ns > 0) return event_clock(true, ns / static_cast<double>(t1 - t0));
  }
#endif
  return event_clock(false, 1.0);
}

}  // namespace itch5::inside
