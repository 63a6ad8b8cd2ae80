// book_stream: the depth curve hits its knots, and a generated stream, replayed on an independent naive
// side, is book-consistent and has the target event-depth distribution (docs/design.md's definition,
// measured here, not taken from the generator), a drifting inside that makes the array window re-centre,
// and the same final book on every implementation.
#include <book_stream/depth_curve.hpp>
#include <book_stream/side_stream.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

#include <itch5/tick.hpp>

#include <itch5/book/array_book_side.hpp>
#include <itch5/book/map_book_side.hpp>
#include <itch5/book/side_kind.hpp>

namespace {

using book_stream::depth_curve;
using book_stream::op_kind;
using book_stream::side_stream;
using itch5::book::side_kind;

TEST(DepthCurve, MeasuredCurveHitsEveryKnot) {
  const auto c = depth_curve::measured();
  EXPECT_EQ(c.depth_at(0.0), 0u);
  EXPECT_EQ(c.depth_at(0.5), 1u);
  EXPECT_EQ(c.depth_at(0.75), 6u);
  EXPECT_EQ(c.depth_at(0.9), 14u);
  EXPECT_EQ(c.depth_at(0.99), 203u);
  EXPECT_EQ(c.depth_at(0.999), 2000u);
  EXPECT_EQ(c.depth_at(1.0), 20000u);
  EXPECT_EQ(c.depth_at(-1.0), 0u);  // clamped
  EXPECT_EQ(c.depth_at(2.0), 20000u);
}

TEST(DepthCurve, LogLinearBetweenKnotsAndMonotone) {
  const auto c = depth_curve::measured();
  // Halfway between (0.99, 203) and (0.999, 2000) in q: exp((log 204 + log 2001) / 2) - 1 = 637.9.
  EXPECT_EQ(c.depth_at(0.9945), 638u);
  // Depth 0 up to q where 2^(2q) - 1 = 0.5, i.e. q = log2(1.5) / 2 = 0.2925.
  EXPECT_EQ(c.depth_at(0.2920), 0u);
  EXPECT_EQ(c.depth_at(0.2930), 1u);
  std::uint32_t last = 0;
  for (int i = 0; i <= 100000; ++i) {
    const std::uint32_t d = c.depth_at(i / 100000.0);
    EXPECT_GE(d, last) << i;
    last = d;
  }
}

TEST(DepthCurve, RejectsBadKnots) {
  EXPECT_THROW(depth_curve({{0.0, 0.0}}), std::invalid_argument);
  EXPECT_THROW(depth_curve({{0.1, 0.0}, {1.0, 5.0}}), std::invalid_argument);              // not from 0
  EXPECT_THROW(depth_curve({{0.0, 0.0}, {0.9, 5.0}}), std::invalid_argument);              // not to 1
  EXPECT_THROW(depth_curve({{0.0, 3.0}, {0.5, 2.0}, {1.0, 5.0}}), std::invalid_argument);  // depth decreases
  EXPECT_THROW(depth_curve({{0.0, 0.0}, {0.5, 2.0}, {0.5, 3.0}, {1.0, 5.0}}), std::invalid_argument);
  EXPECT_THROW(depth_curve({{0.0, -1.0}, {1.0, 5.0}}), std::invalid_argument);
  EXPECT_NO_THROW(depth_curve({{0.0, 0.0}, {1.0, 0.0}}));
}

// Nearest-rank quantile num/den of sorted values: x[ceil(q * N)], in integers.
std::uint32_t quantile(const std::vector<std::uint32_t>& sorted, std::uint64_t num, std::uint64_t den) {
  const std::uint64_t n = sorted.size();
  std::uint64_t k = (num * n + den - 1) / den;
  return sorted[std::max<std::uint64_t>(k, 1) - 1];
}

// What replaying a stream on a plain ordered map shows: the event depth of every operation and the
// book-consistency violations, counted rather than asserted one by one.
struct replay {
  std::vector<std::uint32_t> depth;  // per operation, in order
  std::uint64_t bad_price = 0;       // zero, off the grid, or above $200,000
  std::uint64_t bad_shares = 0;      // an add or reduce of 0 shares
  std::uint64_t reduce_missing = 0;  // a reduce of a price with no level
  std::uint64_t reduce_too_much = 0;
  std::uint64_t full = 0;  // reductions that emptied their level
  std::uint64_t partial = 0;
  std::uint64_t adds = 0;
  std::uint32_t best_min = UINT32_MAX, best_max = 0;  // range of the best price, in ticks
  std::size_t final_levels = 0;
  itch5::book::price_level final_best, final_worst;
};

template <side_kind K>
replay replay_on_map(const side_stream& s) {
  replay r;
  std::map<itch5::price4, std::uint64_t, itch5::book::better_first<K>> levels;
  itch5::price4 last{};
  for (const auto& l : s.initial) {
    EXPECT_GT(l.shares, 0u);
    if (!levels.empty()) {
      EXPECT_TRUE(itch5::book::better<K>(last, l.price)) << "initial levels must be best first";
    }
    levels[l.price] += l.shares;
    last = l.price;
  }
  r.depth.reserve(s.operations.size());
  for (const auto& op : s.operations) {
    if (op.price.units() == 0 || !itch5::on_tick_grid(op.price) || op.price > itch5::max_price4) {
      ++r.bad_price;
    }
    if (op.shares == 0) ++r.bad_shares;
    // docs/design.md: levels between the price and the best before the event; 0 at or better than it.
    std::uint32_t d = 0;
    if (!levels.empty() && itch5::book::better<K>(levels.begin()->first, op.price)) {
      d = itch5::levels_between(op.price, levels.begin()->first);
    }
    r.depth.push_back(d);
    if (op.kind == op_kind::add) {
      ++r.adds;
      levels[op.price] += op.shares;
    } else {
      auto it = levels.find(op.price);
      if (it == levels.end()) {
        ++r.reduce_missing;
        continue;
      }
      if (op.shares > it->second) ++r.reduce_too_much;
      if (op.shares >= it->second) {
        ++r.full;
        levels.erase(it);
      } else {
        ++r.partial;
        it->second -= op.shares;
      }
    }
    if (!levels.empty()) {
      const std::uint32_t t = itch5::tick_index(levels.begin()->first);
      r.best_min = std::min(r.best_min, t);
      r.best_max = std::max(r.best_max, t);
    }
  }
  r.final_levels = levels.size();
  if (!levels.empty()) {
    r.final_best = {levels.begin()->first, levels.begin()->second};
    r.final_worst = {levels.rbegin()->first, levels.rbegin()->second};
  }
  return r;
}

// Replays on a real side; returns how many operations moved an array side's window.
template <class Side>
std::uint64_t replay_on(Side& side, const side_stream& s) {
  for (const auto& l : s.initial) side.add(l.price, l.shares);
  std::uint64_t moves = 0;
  for (const auto& op : s.operations) {
    if constexpr (requires { side.window_best_end(); }) {
      const auto before = side.window_best_end();
      op.kind == op_kind::add ? side.add(op.price, op.shares) : side.reduce(op.price, op.shares);
      moves += side.window_best_end() != before ? 1 : 0;
    } else {
      op.kind == op_kind::add ? side.add(op.price, op.shares) : side.reduce(op.price, op.shares);
    }
  }
  return moves;
}

template <class T>
class BookStream : public ::testing::Test {};
struct buy_side : std::integral_constant<side_kind, side_kind::buy> {};
struct sell_side : std::integral_constant<side_kind, side_kind::sell> {};
using sides = ::testing::Types<buy_side, sell_side>;
TYPED_TEST_SUITE(BookStream, sides);

constexpr std::uint64_t long_stream = 400'000;

// The depth distribution of 400,000 operations, measured by replaying them. Tolerances: the fraction F(x)
// of N draws at or below x has a standard deviation of sqrt(q (1 - q) / N) around its expectation q; the
// test allows 3 of them (0.0024 at p50 ... 0.00015 at p99.9) plus 0.0001 for the rounding to whole levels.
// For p50, p75 and p90 that is far less than the probability of one level there, so the nearest-rank
// quantiles must be exact. Beyond p99 one level is a small step of probability and the quantile itself
// swings: above p99.9 the curve rises to 20,000 in the last 0.1%, so one standard deviation of rank moves
// the measured p99.9 by ~12%; the quantiles are checked within 5% (p99) and 20% (p99.9), and their
// exactness through F. P(depth 0) is log2(1.5) / 2 = 0.2925 by the curve.
TYPED_TEST(BookStream, FollowsTheMeasuredDepthDistribution) {
  constexpr side_kind K = TypeParam::value;
  book_stream::stream_config cfg;
  cfg.operations = long_stream;
  cfg.seed = 11;
  const auto s = book_stream::generate(K, cfg);
  ASSERT_EQ(s.operations.size(), long_stream);
  EXPECT_EQ(s.side, K);
  EXPECT_EQ(s.clamped, 0u);
  const replay r = replay_on_map<K>(s);
  std::vector<std::uint32_t> d = r.depth;
  std::sort(d.begin(), d.end());
  const auto n = static_cast<double>(d.size());
  const auto fraction_at_or_below = [&](std::uint32_t x) {
    return static_cast<double>(std::upper_bound(d.begin(), d.end(), x) - d.begin()) / n;
  };
  const auto tolerance = [&](double q) { return 3 * std::sqrt(q * (1 - q) / n) + 1e-4; };
  EXPECT_EQ(d.front(), 0u);
  EXPECT_EQ(quantile(d, 50, 100), 1u);
  EXPECT_EQ(quantile(d, 75, 100), 6u);
  EXPECT_EQ(quantile(d, 90, 100), 14u);
  EXPECT_NEAR(quantile(d, 99, 100), 203.0, 203 * 0.05);
  EXPECT_NEAR(quantile(d, 999, 1000), 2000.0, 2000 * 0.20);
  EXPECT_NEAR(fraction_at_or_below(0), 0.2925, tolerance(0.2925));
  EXPECT_NEAR(fraction_at_or_below(203), 0.99, tolerance(0.99));
  EXPECT_NEAR(fraction_at_or_below(2000), 0.999, tolerance(0.999));
  EXPECT_LE(d.back(), 20000u);
}

TYPED_TEST(BookStream, IsBookConsistent) {
  constexpr side_kind K = TypeParam::value;
  book_stream::stream_config cfg;
  cfg.operations = long_stream;
  cfg.seed = 12;
  const auto s = book_stream::generate(K, cfg);
  const replay r = replay_on_map<K>(s);
  EXPECT_EQ(r.bad_price, 0u);
  EXPECT_EQ(r.bad_shares, 0u);
  EXPECT_EQ(r.reduce_missing, 0u);
  EXPECT_EQ(r.reduce_too_much, 0u);
  // The generator's own counts agree with what the replay saw.
  EXPECT_EQ(r.adds, s.adds);
  EXPECT_EQ(r.full, s.full_reductions);
  EXPECT_EQ(r.partial, s.partial_reductions);
  EXPECT_EQ(r.final_levels, s.final_level_count);
  EXPECT_EQ(r.final_best, (itch5::book::price_level{s.final_best.price, s.final_best.shares}));
  EXPECT_EQ(r.final_worst, (itch5::book::price_level{s.final_worst.price, s.final_worst.shares}));
  // A mix of adds, partial and full reductions (about 53%, 32%, 15%), on a book of thousands of levels.
  const auto n = static_cast<double>(s.operations.size());
  EXPECT_NEAR(static_cast<double>(s.adds) / n, 0.53, 0.05);
  EXPECT_NEAR(static_cast<double>(s.partial_reductions) / n, 0.32, 0.05);
  EXPECT_NEAR(static_cast<double>(s.full_reductions) / n, 0.15, 0.05);
  EXPECT_GT(s.initial.size(), 500u);
  EXPECT_GT(r.final_levels, 500u);
}

TYPED_TEST(BookStream, TheInsideDriftsAndTheArrayWindowRecentresNowAndThen) {
  constexpr side_kind K = TypeParam::value;
  book_stream::stream_config cfg;
  cfg.operations = long_stream;
  cfg.seed = 13;
  const auto s = book_stream::generate(K, cfg);
  const replay r = replay_on_map<K>(s);
  // The target moves 400,000 / 32 = 12,500 steps, within +-2,000 levels of the start: the best covers
  // hundreds of levels.
  EXPECT_GT(r.best_max - r.best_min, 300u);
  EXPECT_NEAR(static_cast<double>(s.best_changes) / static_cast<double>(s.operations.size()), 0.10, 0.03);

  itch5::book::array_book_side<K> array;  // the default window (book_config)
  itch5::book::map_book_side<K> map;
  const std::uint64_t recentres = replay_on(array, s);
  replay_on(map, s);
  EXPECT_GE(recentres, 5u);                          // now ...
  EXPECT_LE(recentres, s.operations.size() / 1000);  // ... and then
  // Every implementation ends with the reference's book.
  for (const auto& side_best : {array.best(), map.best()}) {
    EXPECT_EQ(side_best, r.final_best);
  }
  EXPECT_EQ(array.worst(), r.final_worst);
  EXPECT_EQ(map.worst(), r.final_worst);
  EXPECT_EQ(array.level_count(), r.final_levels);
  EXPECT_EQ(map.level_count(), r.final_levels);
}

TEST(BookStream, DeterministicPerSeedAndSide) {
  book_stream::stream_config cfg;
  cfg.operations = 5000;
  cfg.seed = 3;
  const auto a = book_stream::generate(side_kind::buy, cfg);
  const auto b = book_stream::generate(side_kind::buy, cfg);
  const auto same = [](const side_stream& x, const side_stream& y) {
    if (x.operations.size() != y.operations.size() || x.initial.size() != y.initial.size()) return false;
    for (std::size_t i = 0; i < x.operations.size(); ++i) {
      const auto &p = x.operations[i], &q = y.operations[i];
      if (p.price != q.price || p.shares != q.shares || p.kind != q.kind) return false;
    }
    for (std::size_t i = 0; i < x.initial.size(); ++i) {
      if (x.initial[i].price != y.initial[i].price || x.initial[i].shares != y.initial[i].shares) {
        return false;
      }
    }
    return true;
  };
  EXPECT_TRUE(same(a, b));
  cfg.seed = 4;
  EXPECT_FALSE(same(a, book_stream::generate(side_kind::buy, cfg)));
  // --size changes only the length: a shorter stream is a prefix of a longer one.
  cfg.seed = 3;
  cfg.operations = 2000;
  const auto shorter = book_stream::generate(side_kind::buy, cfg);
  ASSERT_EQ(shorter.operations.size(), 2000u);
  EXPECT_TRUE(
      std::equal(shorter.operations.begin(), shorter.operations.end(), a.operations.begin(),
                 [](const auto& p, const auto& q) { return p.price == q.price && p.shares == q.shares; }));
}

TEST(BookStream, SidesStartAroundTheStartPriceOnTheirOwnSide) {
  book_stream::stream_config cfg;
  cfg.operations = 100;
  const auto buy = book_stream::generate(side_kind::buy, cfg);
  const auto sell = book_stream::generate(side_kind::sell, cfg);
  const std::uint32_t start = itch5::tick_index(cfg.start_price);
  // The best of each side is within the drift bound of the start; bids extend down, offers up.
  EXPECT_LE(itch5::levels_between(buy.initial.front().price, cfg.start_price), cfg.drift_bound + 4);
  EXPECT_LE(itch5::levels_between(sell.initial.front().price, cfg.start_price), cfg.drift_bound + 4);
  EXPECT_LT(itch5::tick_index(buy.initial.back().price), start - 1000);
  EXPECT_GT(itch5::tick_index(sell.initial.back().price), start + 1000);
}

TEST(BookStream, RejectsABadConfig) {
  book_stream::stream_config cfg;
  cfg.start_price = itch5::price4(1'000'050);  // $100.005: not on the grid
  EXPECT_THROW((void)book_stream::generate(side_kind::buy, cfg), std::invalid_argument);
  cfg = {};
  cfg.drift_interval = 0;
  EXPECT_THROW((void)book_stream::generate(side_kind::sell, cfg), std::invalid_argument);
}

}  // namespace
