// The synthetic window pairs of the delay estimator's accuracy checks, shared by
// tests/tde/estimator_bias_test.cpp and bench/bm_tde_bias.cpp: A's changes at Poisson times in one window of
// N samples, B = A shifted by an exact number of nanoseconds, plus jitter and drops. Seeded by the caller's
// generator.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <itch5/tde/windows/feed_events.hpp>
#include <itch5/tde/windows/signal_kind.hpp>

namespace tde_test {

using itch5::tde::change_event;
using itch5::tde::signal_kind;

inline constexpr std::size_t samples = 1024;  // N per window
inline constexpr std::size_t max_lag = 64;    // samples
inline constexpr double base_delay = 20;      // whole periods, plus the fraction under test
inline constexpr double events_per_window = 150;

struct pair_config {
  std::int64_t period_ns;
  double fraction;                     // of a period, added to base_delay
  double jitter;                       // uniform in [-jitter, +jitter] periods, per change of B
  double drop;                         // probability that a change of A is missing from B
  double changes = events_per_window;  // mean number of A's changes in the window
};

struct window_pair {
  std::vector<change_event> a, b;
};

// One window [0, N periods): A's changes at Poisson times (whole nanoseconds), each with a value for every
// signal (events 1; price changes of +-1 to 3 ticks on about half the changes; size changes of +-100 to 900);
// B = A's changes delayed by (base_delay + fraction) periods, rounded to the nanosecond, plus the jitter,
// with a fraction `drop` missing; changes of B past the window's end are not in it, as in itch5tde.
inline window_pair make_pair(const pair_config& c, std::mt19937_64& rng) {
  const double window_ns = static_cast<double>(samples) * static_cast<double>(c.period_ns);
  const auto delay_ns =
      static_cast<std::int64_t>(std::llround((base_delay + c.fraction) * static_cast<double>(c.period_ns)));
  const auto jitter_ns = static_cast<std::int64_t>(std::llround(c.jitter * static_cast<double>(c.period_ns)));
  std::exponential_distribution<double> gap(c.changes / window_ns);
  std::uniform_int_distribution<std::int64_t> jitter(-jitter_ns, jitter_ns);
  std::uniform_int_distribution<int> ticks(1, 3), lots(1, 9), coin(0, 1);
  std::bernoulli_distribution dropped(c.drop);
  window_pair w;
  for (double t = gap(rng); t < window_ns; t += gap(rng)) {
    change_event e{static_cast<std::int64_t>(t), {}};
    auto set = [&](signal_kind s, double v) { e.value[static_cast<std::size_t>(s)] = v; };
    auto sign = [&] { return coin(rng) == 0 ? -1.0 : 1.0; };
    set(signal_kind::events, 1);
    if (coin(rng) == 0) {
      const double bid = sign() * 100 * ticks(rng), offer = coin(rng) == 0 ? bid : sign() * 100 * ticks(rng);
      set(signal_kind::bid, bid);
      set(signal_kind::offer, offer);
      set(signal_kind::mid, 0.5 * (bid + offer));
    }
    set(signal_kind::bid_size, sign() * 100 * lots(rng));
    set(signal_kind::offer_size, sign() * 100 * lots(rng));
    w.a.push_back(e);
    const bool gone = dropped(rng);
    const std::int64_t shifted = e.timestamp + delay_ns + (jitter_ns > 0 ? jitter(rng) : 0);
    if (gone || shifted < 0 || static_cast<double>(shifted) >= window_ns) continue;
    e.timestamp = shifted;
    w.b.push_back(e);
  }
  std::sort(w.b.begin(), w.b.end(),
            [](const change_event& x, const change_event& y) { return x.timestamp < y.timestamp; });
  return w;
}

}  // namespace tde_test
