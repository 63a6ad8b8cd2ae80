// The bias and spread of the delay estimate against the true delay, over a grid of fractional delays,
// sampling periods, jitter levels and drop rates, and the significance test's false-positive rate on
// unrelated series and power on related ones, through the library path itch5tde takes: changes binned by
// bin_changes() and estimated with the options analysis_options gives (default smoothing: one sampling
// period, default alpha). The series are built here from a seeded generator (Poisson arrivals, B = A shifted
// by an exact number of nanoseconds, plus jitter and drops); the expected values are the shifts put in.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/tde/estimate/delay_estimator.hpp>
#include <itch5/tde/windows/feed_events.hpp>
#include <itch5/tde/windows/signal_kind.hpp>
#include <itch5/tde/windows/window_analyzer.hpp>

#include "shifted_pair.hpp"

namespace {

using namespace std::chrono_literals;
using itch5::tde::change_event;
using itch5::tde::signal_kind;

using tde_test::base_delay;
using tde_test::make_pair;
using tde_test::max_lag;
using tde_test::pair_config;
using tde_test::samples;
using tde_test::window_pair;

itch5::tde::analysis_options options_for(std::int64_t period_ns) {
  itch5::tde::analysis_options o;  // default smoothing
  o.sampling_period = std::chrono::nanoseconds(period_ns);
  o.window = o.sampling_period * static_cast<std::int64_t>(samples);
  o.max_lag = o.sampling_period * static_cast<std::int64_t>(max_lag);
  o.validate();
  return o;
}

struct errors {
  double mean = 0, sd = 0, worst = 0;
  int estimated = 0;
  /// Mean over the windows of the effective number of A's changes in the correlation, (sum v^2)^2 / sum v^4
  /// for values v: the count for events, fewer for unequal sizes.
  double changes = 0;
};

// Estimates `windows` independent windows of `c` for signal `s`; the errors are in periods.
errors measure(const pair_config& c, signal_kind s, int windows, unsigned seed) {
  const itch5::tde::analysis_options o = options_for(c.period_ns);
  itch5::tde::delay_estimator<double> estimator(o.estimator());
  std::mt19937_64 rng(seed);
  std::vector<double> a(samples), b(samples), err;
  errors out;
  for (int i = 0; i < windows; ++i) {
    const window_pair w = make_pair(c, rng);
    double v2 = 0, v4 = 0;
    for (const auto& e : w.a) {
      v2 += e[s] * e[s];
      v4 += e[s] * e[s] * e[s] * e[s];
    }
    out.changes += v2 * v2 / v4 / windows;
    const double ia = itch5::tde::bin_changes<double>(w.a, s, 0, c.period_ns, a);
    const double ib = itch5::tde::bin_changes<double>(w.b, s, 0, c.period_ns, b);
    const itch5::tde::delay_estimate r = estimator.estimate(a, b, ia, ib);
    if (std::isnan(r.delay)) continue;
    ++out.estimated;
    err.push_back(r.delay - (base_delay + c.fraction));
  }
  for (double e : err) out.mean += e;
  out.mean /= static_cast<double>(err.size());
  for (double e : err) {
    out.sd += (e - out.mean) * (e - out.mean);
    out.worst = std::max(out.worst, std::abs(e));
  }
  out.sd = std::sqrt(out.sd / static_cast<double>(err.size() - 1));
  return out;
}

constexpr std::int64_t periods_ns[] = {1'000, 10'000, 100'000};
constexpr double fractions[] = {0, 0.1, 0.25, 0.5, 0.75, 0.9};

std::string describe(const pair_config& c, signal_kind s) {
  return std::string(itch5::tde::to_string(s)) + " period " + std::to_string(c.period_ns) + " ns, delay " +
         std::to_string(base_delay + c.fraction) + " periods, jitter " + std::to_string(c.jitter) +
         ", drop " + std::to_string(c.drop);
}

TEST(estimator_bias, an_exact_off_grid_shift_is_found_within_five_hundredths_of_a_period_for_every_signal) {
  unsigned seed = 1;
  for (std::int64_t p : periods_ns) {
    for (double f : fractions) {
      for (signal_kind s : itch5::tde::all_signal_kinds) {
        const pair_config c{p, f, 0, 0};
        const errors e = measure(c, s, 8, seed++);
        SCOPED_TRACE(describe(c, s));
        ASSERT_EQ(e.estimated, 8);
        EXPECT_LE(std::abs(e.mean), 0.05) << "bias";
        EXPECT_LE(e.worst, 0.05) << "every window, not only on average";
      }
    }
  }
}

TEST(estimator_bias, jitter_and_drops_leave_the_bias_small_and_the_spread_bounded) {
  // Uniform jitter of +-J periods moves each matched change by J / sqrt(3) rms; the delay averages K of them,
  // so its spread is about J / sqrt(3 K), K the effective number of matched changes (weighted by the values
  // squared: ~150 x (1 - drop) for events, fewer for sizes and prices). The bound allows twice that, plus
  // the 0.05-period floor of the exact case.
  unsigned seed = 1000;
  for (std::int64_t p : periods_ns) {
    for (double f : {0.0, 0.25, 0.5, 0.9}) {
      for (double jitter : {0.5, 2.0}) {
        for (double drop : {0.0, 0.3}) {
          for (signal_kind s : {signal_kind::events, signal_kind::mid, signal_kind::bid_size}) {
            const pair_config c{p, f, jitter, drop};
            const int windows = 12;
            const errors e = measure(c, s, windows, seed++);
            SCOPED_TRACE(describe(c, s));
            ASSERT_EQ(e.estimated, windows);
            const double spread = jitter / std::sqrt(3 * e.changes * (1 - drop));
            EXPECT_LE(e.sd, 2 * spread + 0.05);
            EXPECT_LE(std::abs(e.mean), 0.05 + 3 * spread / std::sqrt(windows)) << "sd " << e.sd;
          }
        }
      }
    }
  }
}

TEST(estimator_bias, the_old_path_floor_binning_without_smoothing_is_biased_towards_the_grid) {
  // What the defaults replaced: every change in the sample its time falls in, no smoothing. A shift of
  // 20.25 periods puts 3/4 of the changes at lag 20 and 1/4 at lag 21; the parabola through the peak then
  // reads about 20.1, not 20.25. This shows that the grid above can fail.
  const pair_config c{10'000, 0.25, 0, 0};
  itch5::tde::analysis_options o = options_for(c.period_ns);
  o.smooth = 0ns;
  itch5::tde::delay_estimator<double> estimator(o.estimator());
  std::mt19937_64 rng(7);
  std::vector<double> a(samples), b(samples);
  double sum = 0;
  const int windows = 8;
  for (int i = 0; i < windows; ++i) {
    const window_pair w = make_pair(c, rng);
    std::fill(a.begin(), a.end(), 0.0);
    std::fill(b.begin(), b.end(), 0.0);
    for (const auto& e : w.a) a[static_cast<std::size_t>(e.timestamp / c.period_ns)] += 1;
    for (const auto& e : w.b) b[static_cast<std::size_t>(e.timestamp / c.period_ns)] += 1;
    sum += estimator.estimate(a, b).delay;
  }
  EXPECT_GT(std::abs(sum / windows - 20.25), 0.05);
}

struct significance {
  int windows = 0, significant = 0, passed = 0;
};

// `windows` windows of A and B from `c`; with `related` false, B is a second, independent draw.
significance test_significance(const pair_config& c, signal_kind s, bool related, int windows,
                               unsigned seed) {
  const itch5::tde::analysis_options o = options_for(c.period_ns);
  itch5::tde::delay_estimator<double> estimator(o.estimator());
  std::mt19937_64 rng(seed);
  std::vector<double> a(samples), b(samples);
  significance out;
  for (int i = 0; i < windows; ++i) {
    const window_pair w = make_pair(c, rng);
    const double ia = itch5::tde::bin_changes<double>(w.a, s, 0, c.period_ns, a);
    const double ib =
        itch5::tde::bin_changes<double>(related ? w.b : make_pair(c, rng).a, s, 0, c.period_ns, b);
    const itch5::tde::delay_estimate r = estimator.estimate(a, b, ia, ib);
    if (r.flags.test(itch5::tde::estimate_flag::flat)) continue;
    ++out.windows;
    if (r.p_value <= o.alpha) ++out.significant;
    if (r.passed()) ++out.passed;
  }
  return out;
}

TEST(estimator_significance, unrelated_series_are_significant_in_at_most_five_percent_of_windows) {
  // Sparse series are the hard case: with a few changes each, coincidences at some lag are likely and the
  // correlation is far from Gaussian (a Gaussian null calls most 10-change pairs significant).
  unsigned seed = 5000;
  for (std::int64_t p : {std::int64_t{1'000}, std::int64_t{100'000}}) {
    for (double changes : {2.0, 4.0, 10.0, 30.0, 100.0, 1000.0}) {
      for (signal_kind s : {signal_kind::events, signal_kind::mid, signal_kind::bid_size}) {
        const pair_config c{p, 0.3, 0, 0, changes};
        const significance r = test_significance(c, s, false, 200, seed++);
        SCOPED_TRACE(std::string(itch5::tde::to_string(s)) + ", " + std::to_string(changes) +
                     " changes, period " + std::to_string(p) + " ns");
        ASSERT_GE(r.windows, 50);  // a window without a change on one side has no estimate
        EXPECT_LE(r.significant, r.windows / 20);
        EXPECT_LE(r.passed, r.windows / 20);
      }
    }
  }
}

TEST(estimator_significance, related_series_with_a_real_delay_are_significant) {
  // At least ~20 changes that carry the signal (about half the changes move the mid): B has 10% fewer and
  // +-0.5 period of jitter. With 10 such changes, about 90% of the windows are significant.
  unsigned seed = 6000;
  for (double changes : {40.0, 100.0, 300.0}) {
    for (signal_kind s : {signal_kind::events, signal_kind::mid, signal_kind::bid_size}) {
      const pair_config c{10'000, 0.3, 0.5, 0.1, changes};
      const significance r = test_significance(c, s, true, 100, seed++);
      SCOPED_TRACE(std::string(itch5::tde::to_string(s)) + ", " + std::to_string(changes) + " changes");
      ASSERT_GE(r.windows, 95);
      EXPECT_GE(r.significant, r.windows * 95 / 100);
    }
  }
}

TEST(bin_changes, splits_each_change_between_its_two_samples) {
  std::vector<change_event> events;
  auto add = [&](std::int64_t t, double v) {
    change_event e{t, {}};
    e.value[static_cast<std::size_t>(signal_kind::mid)] = v;
    events.push_back(e);
  };
  add(1000, 2);    // on sample 1 exactly
  add(2250, 4);    // a quarter past sample 2: 3 to sample 2, 1 to sample 3
  add(4900, -10);  // 0.9 past the last sample: its 0.9 share is left out
  std::vector<double> out(5, 99.0);
  EXPECT_EQ(itch5::tde::bin_changes<double>(events, signal_kind::mid, 0, 1000, out), 10)
      << "the largest |value|";
  EXPECT_EQ(out, (std::vector<double>{0, 2, 3, 1, -1}));
  // The same first two changes in a window that starts 500 ns earlier: 1500 -> 1 and 1 to samples 1 and
  // 2; 2750 -> 1 and 3 to samples 2 and 3.
  events.pop_back();
  std::vector<float> shifted(5, 99.0F);
  itch5::tde::bin_changes<float>(events, signal_kind::mid, -500, 1000, shifted);
  EXPECT_EQ(shifted, (std::vector<float>{0, 1, 2, 3, 0}));
}

}  // namespace
