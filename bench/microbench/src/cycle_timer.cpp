#include <microbench/cycle_timer.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include <microbench/summary.hpp>

namespace microbench {

std::int64_t timer_calibration::to_ns(std::int64_t ticks) const noexcept {
  const std::int64_t net = ticks - overhead_p50;
  if (net <= 0) return 0;
  return std::llround(static_cast<double>(net) / ticks_per_ns);
}

std::string timer_calibration::describe() const {
  char buf[320];
  const auto ns = [&](std::int64_t ticks) { return static_cast<double>(ticks) / ticks_per_ns; };
  std::snprintf(
      buf, sizeof buf,
      "%.*s, %.4f ticks/ns against steady_clock, resolution %.1f ns, empty region min %.1f p50 %.1f "
      "p99 %.1f ns, p50 subtracted from every item",
      static_cast<int>(cycle_timer::name.size()), cycle_timer::name.data(), ticks_per_ns, ns(resolution),
      ns(overhead_min), ns(overhead_p50), ns(overhead_p99));
  return buf;
}

timer_calibration timer_calibration::measure(std::chrono::nanoseconds spin) {
  using clock = std::chrono::steady_clock;
  timer_calibration cal;

  // Frequency: both clocks over the same spin, each pair of readings taken back to back.
  const auto t0 = clock::now();
  const std::uint64_t c0 = cycle_timer::start();
  auto t1 = t0;
  while ((t1 = clock::now()) - t0 < spin) {
  }
  const std::uint64_t c1 = cycle_timer::stop();
  const double elapsed =
      static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
  if (elapsed > 0 && c1 > c0) cal.ticks_per_ns = static_cast<double>(c1 - c0) / elapsed;

  // Overhead from empty regions, the same code as a timed item with nothing inside. The resolution is the
  // greatest common divisor of their lengths: a counter that moves in steps of 20 gives lengths 60, 80, ...
  constexpr std::size_t n = 100'000;
  std::vector<std::int64_t> empty(n);
  std::int64_t step = 0;
  for (auto& e : empty) {
    const std::uint64_t a = cycle_timer::start();
    const std::uint64_t b = cycle_timer::stop();
    e = static_cast<std::int64_t>(b - a);
    step = std::gcd(step, e);
  }
  cal.resolution = step > 0 ? step : 1;
  std::sort(empty.begin(), empty.end());
  cal.overhead_min = empty.front();
  cal.overhead_p50 = nearest_rank(empty, 50, 100);
  cal.overhead_p99 = nearest_rank(empty, 99, 100);
  return cal;
}

}  // namespace microbench
