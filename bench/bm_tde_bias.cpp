// bm_tde_bias: the delay estimator's accuracy, not its speed. Prints tables of the bias and spread of the
// estimated delay against the true one, and of how often the significance test calls a pair significant,
// through the path itch5tde takes (itch5::tde::bin_changes, then delay_estimator<double> with the options
// analysis_options gives: smoothing of one sampling period, alpha 0.01).
//
// Each window holds N = 1024 samples; A's changes are Poisson arrivals at whole nanoseconds, each with a
// value per signal (events 1; about half move the bid/offer by 1 to 3 ticks; sizes move by 100 to 900); B is
// A delayed by (20 + fraction) periods, rounded to the nanosecond, plus a uniform jitter of +-J periods, with
// a fraction of the changes dropped. Unrelated pairs are two independent draws. Seeded: the same options
// print the same tables.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <itch5/tde/estimate/delay_estimator.hpp>
#include <itch5/tde/windows/feed_events.hpp>
#include <itch5/tde/windows/signal_kind.hpp>
#include <itch5/tde/windows/window_analyzer.hpp>

#include <itch5/cli/options.hpp>

#include "shifted_pair.hpp"  // tests/tde: the same window pairs as estimator_bias_test

namespace {

using itch5::tde::change_event;
using itch5::tde::signal_kind;

using tde_test::base_delay;
using tde_test::make_pair;
using tde_test::max_lag;
using tde_test::pair_config;
using tde_test::samples;
using tde_test::window_pair;

struct result {
  double bias = 0, sd = 0, worst = 0, significant = 0;
  int windows = 0;
};

result run(const pair_config& c, signal_kind s, bool related, int windows, std::uint64_t seed) {
  itch5::tde::analysis_options o;
  o.sampling_period = std::chrono::nanoseconds(c.period_ns);
  o.window = o.sampling_period * static_cast<std::int64_t>(samples);
  o.max_lag = o.sampling_period * static_cast<std::int64_t>(max_lag);
  o.validate();
  itch5::tde::delay_estimator<double> estimator(o.estimator());
  std::mt19937_64 rng(seed);
  std::vector<double> a(samples), b(samples), err;
  result r;
  int significant = 0;
  for (int i = 0; i < windows; ++i) {
    const window_pair w = make_pair(c, rng);
    const double ia = itch5::tde::bin_changes<double>(w.a, s, 0, c.period_ns, a);
    const double ib =
        itch5::tde::bin_changes<double>(related ? w.b : make_pair(c, rng).a, s, 0, c.period_ns, b);
    const itch5::tde::delay_estimate e = estimator.estimate(a, b, ia, ib);
    if (std::isnan(e.delay)) continue;
    ++r.windows;
    if (e.p_value <= o.alpha) ++significant;
    err.push_back(e.delay - (base_delay + c.fraction));
  }
  if (r.windows == 0) return r;
  for (double x : err) r.bias += x;
  r.bias /= static_cast<double>(err.size());
  for (double x : err) {
    r.sd += (x - r.bias) * (x - r.bias);
    r.worst = std::max(r.worst, std::abs(x));
  }
  r.sd = err.size() > 1 ? std::sqrt(r.sd / static_cast<double>(err.size() - 1)) : 0;
  r.significant = static_cast<double>(significant) / r.windows;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t windows = 50, changes = 150, seed = 1;
  itch5::cli::options opts(
      "bm_tde_bias", "[options]",
      "Prints the delay estimator's bias and spread against the true delay over a grid of sampling "
      "periods, fractional delays, jitter and drop rates and signals (in sampling periods), then "
      "the fraction of unrelated pairs it calls significant (the false-positive rate).");
  opts.add("windows", windows, "Windows per grid cell.", 2, 100000);
  opts.add("changes", changes, "Mean number of A's changes per window of the bias grid.", 1, 1000000);
  opts.add("seed", seed, "Seed of the generator.", 0, UINT64_MAX);
  if (auto rc = opts.parse(argc, argv)) return *rc;
  const auto w = static_cast<int>(windows);

  std::printf(
      "# bias grid: %d windows of %zu samples per cell, ~%llu changes per window, delay 20 + fraction "
      "periods; bias, sd and worst |error| in periods; sig = fraction with p_value <= 0.01\n",
      w, samples, static_cast<unsigned long long>(changes));
  std::printf("%-10s %-6s %-6s %-5s %-10s %8s %7s %7s %5s\n", "period_ns", "frac", "jitter", "drop", "signal",
              "bias", "sd", "worst", "sig");
  std::uint64_t cell = seed;
  for (std::int64_t p : {std::int64_t{1'000}, std::int64_t{10'000}, std::int64_t{100'000}}) {
    for (double jitter : {0.0, 0.5, 2.0}) {
      for (double drop : {0.0, 0.3}) {
        if (jitter == 0 && drop != 0) continue;
        for (double f : {0.0, 0.1, 0.25, 0.5, 0.75, 0.9}) {
          for (signal_kind s : {signal_kind::events, signal_kind::mid, signal_kind::bid_size}) {
            const pair_config c{p, f, jitter, drop, static_cast<double>(changes)};
            const result r = run(c, s, true, w, cell++ * 7919);
            std::printf("%-10lld %-6.2f %-6.1f %-5.1f %-10s %+8.4f %7.4f %7.4f %5.2f\n",
                        static_cast<long long>(p), f, jitter, drop,
                        std::string(itch5::tde::to_string(s)).c_str(), r.bias, r.sd, r.worst, r.significant);
          }
        }
      }
    }
  }
  std::printf(
      "\n# unrelated pairs (independent draws): fraction of windows with p_value <= 0.01, %d windows "
      "per cell, 10 us period\n",
      4 * w);
  std::printf("%-8s %-10s %6s\n", "changes", "signal", "sig");
  for (double n : {5.0, 10.0, 30.0, 100.0, 300.0, 1000.0}) {
    for (signal_kind s : {signal_kind::events, signal_kind::mid, signal_kind::bid_size}) {
      const pair_config c{10'000, 0.3, 0, 0, n};
      const result r = run(c, s, false, 4 * w, cell++ * 7919);
      std::printf("%-8.0f %-10s %6.3f\n", n, std::string(itch5::tde::to_string(s)).c_str(), r.significant);
    }
  }
  return 0;
}
