// pair_summary: the --summary and --lead-lag verdicts against cases computed by hand: the weighted median,
// the binomial tail, the bootstrap interval, the ranking and the words.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/tde/report/delay_summary.hpp>
#include <itch5/tde/report/pair_summary.hpp>

namespace {

using itch5::tde::signal_kind;

TEST(binomial_upper_tail, matches_hand_computed_tails) {
  // n = 5, p = 0.05: P(X >= 2) = 1 - 0.95^5 - 5 x 0.05 x 0.95^4 = 1 - 0.7737809375 - 0.2036265625.
  EXPECT_NEAR(itch5::tde::binomial_upper_tail(5, 2, 0.05), 0.0225925, 1e-12);
  EXPECT_NEAR(itch5::tde::binomial_upper_tail(5, 1, 0.05), 1 - 0.7737809375, 1e-12);
  EXPECT_NEAR(itch5::tde::binomial_upper_tail(5, 5, 0.05), 3.125e-7, 1e-18);
  EXPECT_EQ(itch5::tde::binomial_upper_tail(5, 0, 0.05), 1.0);
  EXPECT_EQ(itch5::tde::binomial_upper_tail(5, 6, 0.05), 0.0);
  // Below the mean (the lower tail is summed): n = 100, p = 0.5, P(X >= 50) = 1/2 + C(100, 50) / 2^101.
  EXPECT_NEAR(itch5::tde::binomial_upper_tail(100, 50, 0.5), 0.5 + 0.5 * 0.07958923738717877, 1e-12);
  EXPECT_NEAR(itch5::tde::binomial_upper_tail(1000, 1, 0.05), 1.0, 1e-15);
  // Far in the tail: 0.05^50 x C(50, 50) = 8.88e-66.
  EXPECT_NEAR(itch5::tde::binomial_upper_tail(50, 50, 0.05) / std::pow(0.05, 50), 1.0, 1e-9);
}

TEST(weighted_median_of_counts, equals_the_weighted_median_of_the_expanded_multiset) {
  const std::vector<std::pair<double, double>> sorted{{-3, 0.5}, {1, 0.2}, {2, 0.9},
                                                      {7, 0.4},  {9, 0.0}, {12, 0.6}};
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::uint32_t> counts(sorted.size());
    std::vector<std::pair<double, double>> expanded;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      counts[i] = static_cast<std::uint32_t>(rng() % 4);
      for (std::uint32_t k = 0; k < counts[i]; ++k) expanded.push_back(sorted[i]);
    }
    const double got = itch5::tde::weighted_median_of_counts(sorted, counts);
    double total = 0;
    for (const auto& [v, w] : expanded) total += w;
    if (expanded.empty()) {
      EXPECT_TRUE(std::isnan(got));
      continue;
    }
    if (!(total > 0)) {
      for (auto& vw : expanded) vw.second = 1;
    }
    EXPECT_NEAR(got, itch5::tde::weighted_quantile(expanded, 0.5), 1e-12) << "trial " << trial;
  }
}

TEST(pair_summary, a_hand_computed_case) {
  itch5::tde::pair_summary s;  // null pass rate 0.05, 1000 resamples, 95 %
  // SPY:AAA events: 6 windows, one with few events (not tested), 2 of the other 5 passed.
  s.add("SPY:AAA", signal_kind::events, true, true, 10.0, 0.5);
  s.add("SPY:AAA", signal_kind::events, true, false, -400.0, 0.05);
  s.add("SPY:AAA", signal_kind::events, false, false, 3.0, 0.9);
  s.add("SPY:AAA", signal_kind::events, true, true, 30.0, 0.5);
  s.add("SPY:AAA", signal_kind::events, true, false, 800.0, 0.02);
  s.add("SPY:AAA", signal_kind::events, true, false, std::nan(""), 0);
  // SPY:BBB mid: weights 1, 1, 1, 5 at 10, 20, 30, 40 -> midpoints 1/16, 3/16, 5/16, 11/16 -> median 35.
  for (auto [d, w] : std::vector<std::pair<double, double>>{{40, 5}, {10, 1}, {30, 1}, {20, 1}}) {
    s.add("SPY:BBB", signal_kind::mid, true, true, d, w);
  }
  for (int i = 0; i < 6; ++i) s.add("SPY:BBB", signal_kind::mid, true, false, 0, 0);

  const auto st = s.statistics();
  ASSERT_EQ(st.size(), 2u);
  const auto& a = st[0];
  EXPECT_EQ(a.label, "SPY:AAA");
  EXPECT_EQ(a.a, "SPY");
  EXPECT_EQ(a.b, "AAA");
  EXPECT_EQ(a.signal, signal_kind::events);
  EXPECT_EQ(a.windows, 6u);
  EXPECT_EQ(a.tested, 5u);
  EXPECT_EQ(a.passed, 2u);
  EXPECT_DOUBLE_EQ(a.median, 20.0);  // two equal weights: halfway
  // Resamples of {10, 30}: {10, 10} -> 10 and {30, 30} -> 30 each a quarter of the time, so the 2.5 % and
  // 97.5 % quantiles of 1000 of them are the extremes.
  EXPECT_DOUBLE_EQ(a.ci_low, 10.0);
  EXPECT_DOUBLE_EQ(a.ci_high, 30.0);
  EXPECT_NEAR(a.p_value, 0.0225925, 1e-9);  // P(Binomial(5, 0.05) >= 2)

  const auto& b = st[1];
  EXPECT_EQ(b.label, "SPY:BBB");
  EXPECT_EQ(b.windows, 10u);
  EXPECT_EQ(b.passed, 4u);
  EXPECT_DOUBLE_EQ(b.median, 35.0);
  EXPECT_LE(b.ci_low, 35.0);
  EXPECT_GE(b.ci_high, 35.0);
  // P(Binomial(10, 0.05) >= 4) = 1 - sum_{k<4} C(10,k) 0.05^k 0.95^(10-k) = 0.00102850...
  EXPECT_NEAR(b.p_value, 1 - (0.5987369392 + 0.3151247049 + 0.0746347985 + 0.0104750594), 1e-9);
  // Two verdicts: significant when p <= 0.05 / 2.
  EXPECT_TRUE(a.significant);
  EXPECT_TRUE(b.significant);

  EXPECT_EQ(
      itch5::tde::summary_csv(st),
      "symbol,signal,windows,tested,passed,delay_us,ci_low_us,ci_high_us,p_value,significant\n"
      "SPY:AAA,events,6,5,2,20.0000,10.0000,30.0000,0.02259,yes\n"
      "SPY:BBB,mid,10,10,4,35.0000," +
          [&] {
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.4f,%.4f", b.ci_low, b.ci_high);
            return std::string(buf);
          }() +
          ",0.001028,yes\n");
  // The same rows again give the same interval: the bootstrap is seeded by the pair.
  const auto again = s.statistics();
  EXPECT_EQ(again[1].ci_low, b.ci_low);
  EXPECT_EQ(again[1].ci_high, b.ci_high);
}

TEST(pair_summary, the_interval_holds_the_median_and_shrinks_with_more_windows) {
  auto width = [](std::size_t n) {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> delay(50.0, 2.0);
    std::uniform_real_distribution<double> rho(0.3, 0.9);
    itch5::tde::pair_summary s;
    for (std::size_t i = 0; i < n; ++i) s.add("A:B", signal_kind::events, true, true, delay(rng), rho(rng));
    const auto st = s.statistics().at(0);
    EXPECT_LE(st.ci_low, st.median) << n;
    EXPECT_GE(st.ci_high, st.median) << n;
    EXPECT_LT(st.ci_low, 50.0) << n;
    EXPECT_GT(st.ci_high, 50.0) << n;
    return st.ci_high - st.ci_low;
  };
  const double w20 = width(20), w500 = width(500);
  EXPECT_GT(w20, 0.5);
  // The width falls as 1 / sqrt(n): 5x from 20 to 500 windows; at least 2.5x allows for the noise.
  EXPECT_LT(w500 * 2.5, w20) << w20 << " " << w500;
}

TEST(pair_summary, without_a_passed_window_there_is_no_delay_and_no_significance) {
  itch5::tde::pair_summary s;
  for (int i = 0; i < 20; ++i) s.add("X", signal_kind::events, true, false, 1.0, 0.5);
  const auto st = s.statistics().at(0);
  EXPECT_EQ(st.passed, 0u);
  EXPECT_TRUE(std::isnan(st.median));
  EXPECT_TRUE(std::isnan(st.ci_low));
  EXPECT_EQ(st.p_value, 1.0);
  EXPECT_FALSE(st.significant);
  EXPECT_EQ(itch5::tde::summary_csv(s.statistics()),
            "symbol,signal,windows,tested,passed,delay_us,ci_low_us,ci_high_us,p_value,significant\n"
            "X,events,20,20,0,,,,1,no\n");
}

itch5::tde::pair_statistics verdict_row(std::string a, std::string b, double median, double lo, double hi,
                                        double p, bool significant) {
  itch5::tde::pair_statistics s;
  s.a = a;
  s.b = b;
  s.label = a == b ? a : a + ":" + b;
  s.median = median;
  s.ci_low = lo;
  s.ci_high = hi;
  s.p_value = p;
  s.significant = significant;
  s.windows = s.tested = 10;
  s.passed = 5;
  return s;
}

TEST(lead_lag, ranks_by_p_value_then_by_the_size_of_the_delay_and_says_it_in_words) {
  std::vector<itch5::tde::pair_statistics> rows{
      verdict_row("SPY", "C", 3.0, -1.0, 7.0, 0.2, false),
      verdict_row("SPY", "A", 12.34, 11.0, 13.0, 1e-9, true),
      verdict_row("SPY", "B", -250.0, -251.0, -249.0, 1e-9, true),
      verdict_row("SPY", "D", 0.5, -0.2, 1.1, 1e-4, true),
      verdict_row("AAPL", "AAPL", 0.25, 0.2, 0.3, 1e-3, true),
  };
  const auto ranked = itch5::tde::rank_lead_lag(rows);
  ASSERT_EQ(ranked.size(), 5u);
  EXPECT_EQ(ranked[0].b, "B");  // same p as A, larger |delay|
  EXPECT_EQ(ranked[1].b, "A");
  EXPECT_EQ(ranked[2].b, "D");
  EXPECT_EQ(ranked[3].b, "AAPL");
  EXPECT_EQ(ranked[4].b, "C");
  EXPECT_EQ(itch5::tde::verdict(ranked[0]), "B leads SPY by 250.0 us");
  EXPECT_EQ(itch5::tde::verdict(ranked[1]), "SPY leads A by 12.3 us");
  EXPECT_EQ(itch5::tde::verdict(ranked[2]), "no clear leader (the interval holds 0)");
  EXPECT_EQ(itch5::tde::verdict(ranked[3]), "AAPL in file A leads file B by 0.250 us");
  EXPECT_EQ(itch5::tde::verdict(ranked[4]), "not significant");
  const std::string csv = itch5::tde::lead_lag_csv(ranked);
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')),
      "rank,symbol_a,symbol_b,signal,windows,tested,passed,delay_us,ci_low_us,ci_high_us,p_value,significant,"
      "verdict");
  EXPECT_NE(csv.find("\n2,SPY,A,events,10,10,5,12.3400,11.0000,13.0000,1e-09,yes,SPY leads A by 12.3 us\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\n5,SPY,C,events,10,10,5,3.0000,-1.0000,7.0000,0.2,no,not significant\n"),
            std::string::npos)
      << csv;
  const std::string text = itch5::tde::lead_lag_text(ranked, "itch5tde");
  EXPECT_EQ(
      text.substr(0, text.find('\n')),
      "itch5tde: lead-lag 1. SPY:B events: B leads SPY by 250.0 us (median -250.000 us, interval -251.000 to "
      "-249.000 us; 5 of 10 windows passed, p 1e-09)");
}

}  // namespace
