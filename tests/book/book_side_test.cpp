// One typed suite run on every book side implementation, for both sides, plus a randomized comparison of
// each against a plain std::map. The array side is given a 64-level window so that the tests cross its
// edges and force re-centring in both directions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include <itch5/tick.hpp>

#include <itch5/book/array_book_side.hpp>
#include <itch5/book/book_side.hpp>
#include <itch5/book/map_book_side.hpp>

namespace {

using itch5::price4;
using itch5::book::side_kind;

template <class S>
class BookSideTest : public ::testing::Test {
 protected:
  static constexpr side_kind K = S::kind;
  itch5::book::book_config cfg{64};
  S side{cfg};

  // A price `levels` cent ticks away from `base` towards the inside (better) or away from it (worse).
  static price4 better_by(price4 base, std::uint32_t cents) {
    return K == side_kind::buy ? price4(base.units() + 100 * cents) : price4(base.units() - 100 * cents);
  }
  static price4 worse_by(price4 base, std::uint32_t cents) {
    return K == side_kind::buy ? price4(base.units() - 100 * cents) : price4(base.units() + 100 * cents);
  }
};

using side_types =
    ::testing::Types<itch5::book::array_book_side<side_kind::buy>,
                     itch5::book::array_book_side<side_kind::sell>,
                     itch5::book::map_book_side<side_kind::buy>, itch5::book::map_book_side<side_kind::sell>>;
TYPED_TEST_SUITE(BookSideTest, side_types);

const price4 ten{100000};  // $10.0000

TYPED_TEST(BookSideTest, EmptySideHasNoLevels) {
  EXPECT_TRUE(this->side.empty());
  EXPECT_EQ(this->side.level_count(), 0u);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{}));
  EXPECT_EQ(this->side.worst(), (itch5::book::price_level{}));
}

TYPED_TEST(BookSideTest, AddsAtOnePriceAggregate) {
  this->side.add(ten, 100);
  this->side.add(ten, 250);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{ten, 350}));
  EXPECT_EQ(this->side.worst(), (itch5::book::price_level{ten, 350}));
  EXPECT_EQ(this->side.level_count(), 1u);
  EXPECT_FALSE(this->side.empty());
}

TYPED_TEST(BookSideTest, BestIsTheBetterPriceOfTheSide) {
  const price4 worse = this->worse_by(ten, 3);
  this->side.add(worse, 100);
  this->side.add(ten, 200);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{ten, 200}));
  EXPECT_EQ(this->side.worst(), (itch5::book::price_level{worse, 100}));
  EXPECT_EQ(this->side.level_count(), 2u);
}

TYPED_TEST(BookSideTest, PartialReduceKeepsTheLevelAndFullReduceRemovesIt) {
  const price4 worse = this->worse_by(ten, 1);
  this->side.add(ten, 300);
  this->side.add(worse, 100);
  this->side.reduce(ten, 100);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{ten, 200}));
  this->side.reduce(ten, 200);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{worse, 100}));
  EXPECT_EQ(this->side.level_count(), 1u);
  this->side.reduce(worse, 100);
  EXPECT_TRUE(this->side.empty());
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{}));
}

TYPED_TEST(BookSideTest, SubDollarPricesUseHundredthOfCentTicks) {
  const price4 a{5000}, b{5001}, c{4999};  // $0.5000, $0.5001, $0.4999: three distinct levels
  this->side.add(a, 1);
  this->side.add(b, 2);
  this->side.add(c, 3);
  EXPECT_EQ(this->side.level_count(), 3u);
  if constexpr (TypeParam::kind == side_kind::buy) {
    EXPECT_EQ(this->side.best(), (itch5::book::price_level{b, 2}));
    EXPECT_EQ(this->side.worst(), (itch5::book::price_level{c, 3}));
  } else {
    EXPECT_EQ(this->side.best(), (itch5::book::price_level{c, 3}));
    EXPECT_EQ(this->side.worst(), (itch5::book::price_level{b, 2}));
  }
  this->side.reduce(b, 2);
  this->side.reduce(c, 3);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{a, 1}));
}

TYPED_TEST(BookSideTest, LevelsAcrossOneDollar) {
  const price4 below{9999}, dollar{10000}, above{10100};
  this->side.add(below, 10);
  this->side.add(above, 30);
  this->side.add(dollar, 20);
  EXPECT_EQ(this->side.level_count(), 3u);
  const price4 best = TypeParam::kind == side_kind::buy ? above : below;
  const price4 worst = TypeParam::kind == side_kind::buy ? below : above;
  EXPECT_EQ(this->side.best().price, best);
  EXPECT_EQ(this->side.worst().price, worst);
  this->side.reduce(best, this->side.best().shares);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{dollar, 20}));
}

TYPED_TEST(BookSideTest, NewBestFarBeyondTheWindowEdge) {
  // 64-level window: a price 200 ticks better must move the window (array) and become the best.
  const price4 far = this->better_by(ten, 200);
  this->side.add(ten, 100);
  this->side.add(far, 5);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{far, 5}));
  EXPECT_EQ(this->side.worst(), (itch5::book::price_level{ten, 100}));
  this->side.reduce(far, 5);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{ten, 100}));
  EXPECT_EQ(this->side.level_count(), 1u);
}

TYPED_TEST(BookSideTest, InsideWalksAwayThroughManyLevels) {
  // 300 consecutive levels from $10.00 away from the inside; removing them best-first must walk the best
  // through the window and into the levels held beyond it.
  for (std::uint32_t i = 0; i < 300; ++i) this->side.add(this->worse_by(ten, i), i + 1);
  EXPECT_EQ(this->side.level_count(), 300u);
  EXPECT_EQ(this->side.worst(), (itch5::book::price_level{this->worse_by(ten, 299), 300}));
  for (std::uint32_t i = 0; i < 300; ++i) {
    ASSERT_EQ(this->side.best(), (itch5::book::price_level{this->worse_by(ten, i), i + 1})) << "step " << i;
    this->side.reduce(this->worse_by(ten, i), i + 1);
  }
  EXPECT_TRUE(this->side.empty());
}

TYPED_TEST(BookSideTest, InsideWalksTowardsBetterPricesLevelByLevel) {
  for (std::uint32_t i = 0; i < 300; ++i) {
    this->side.add(this->better_by(ten, i), 7);
    ASSERT_EQ(this->side.best(), (itch5::book::price_level{this->better_by(ten, i), 7}));
    ASSERT_EQ(this->side.worst(), (itch5::book::price_level{ten, 7}));
  }
  // Remove from the worst end: the best stays put, the worst moves towards it.
  for (std::uint32_t i = 0; i < 299; ++i) {
    this->side.reduce(this->better_by(ten, i), 7);
    ASSERT_EQ(this->side.worst(), (itch5::book::price_level{this->better_by(ten, i + 1), 7}));
    ASSERT_EQ(this->side.best(), (itch5::book::price_level{this->better_by(ten, 299), 7}));
  }
}

TYPED_TEST(BookSideTest, PricesOffTheCentGridAreDistinctLevels) {
  // $10.0050 is not a whole cent; malformed data may still carry it. It must neither merge with $10.00
  // nor with $10.01.
  const price4 off{100050}, cent_up{100100};
  this->side.add(ten, 1);
  this->side.add(off, 2);
  this->side.add(cent_up, 3);
  EXPECT_EQ(this->side.level_count(), 3u);
  if constexpr (TypeParam::kind == side_kind::buy) {
    EXPECT_EQ(this->side.best(), (itch5::book::price_level{cent_up, 3}));
    this->side.reduce(cent_up, 3);
    EXPECT_EQ(this->side.best(), (itch5::book::price_level{off, 2}));
  } else {
    EXPECT_EQ(this->side.best(), (itch5::book::price_level{ten, 1}));
    this->side.reduce(ten, 1);
    EXPECT_EQ(this->side.best(), (itch5::book::price_level{off, 2}));
  }
}

TYPED_TEST(BookSideTest, EmptiedAndRefilledFarAway) {
  this->side.add(ten, 1);
  this->side.reduce(ten, 1);
  const price4 far{5000000};  // $500.00
  this->side.add(far, 9);
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{far, 9}));
  this->side.add(price4(50), 4);  // $0.0050
  EXPECT_EQ(this->side.level_count(), 2u);
  EXPECT_EQ(this->side.best().price, TypeParam::kind == side_kind::buy ? far : price4(50));
}

// Random operations compared with a plain ordered map after every step: a random walk of the inside,
// heavy-tailed distances (up to thousands of levels), sub-dollar and dollar prices, and with `off_grid`
// dollar prices mostly off the cent grid. Returns how many operations said "the best is unchanged".
template <class Side>
void random_operations_match_a_plain_map(Side& side, bool off_grid, int& unchanged_claims) {
  using TypeParam = Side;
  std::mt19937_64 rng(12345);
  std::map<price4, std::uint64_t, itch5::book::better_first<TypeParam::kind>> ref;
  std::int64_t centre = 1'000'000;  // $100.00
  unchanged_claims = 0;
  for (int step = 0; step < 200'000; ++step) {
    if (step % 50'000 == 0) centre = step == 100'000 ? 9'000 : 1'000'000 + step;  // also visit sub-dollar
    // The walk moves by one Price(4) unit, so that with off_grid most dollar prices are off the grid, and
    // by one tick without.
    centre += (static_cast<std::int64_t>(rng() % 3) - 1) * (off_grid || centre < 10000 ? 1 : 100);
    const bool do_add = ref.empty() || rng() % 100 < 52;
    const itch5::book::price_level best_before = side.best();
    bool best_may_change = false;
    if (do_add) {
      const std::uint64_t r = rng() % 1000;
      std::int64_t dist = r < 600   ? static_cast<std::int64_t>(rng() % 5)
                          : r < 950 ? static_cast<std::int64_t>(rng() % 100)
                                    : static_cast<std::int64_t>(rng() % 3000);
      if (rng() % 10 == 0) dist = -dist;  // better than the centre
      const std::int64_t tick = centre < 10000 ? 1 : 100;
      std::int64_t units = centre + (TypeParam::kind == side_kind::buy ? -dist : dist) * tick;
      if (rng() % 200 == 0 && off_grid) units += 37;  // off the grid
      units = std::clamp<std::int64_t>(units, 1, 2'000'000'000);
      const price4 p(static_cast<std::uint32_t>(units));
      const std::uint64_t q = 1 + rng() % 500;
      best_may_change = side.add(p, q);
      ref[p] += q;
    } else {
      auto it = ref.begin();
      std::advance(it, static_cast<std::ptrdiff_t>(
                           rng() % std::min<std::size_t>(ref.size(), rng() % 8 == 0 ? ref.size() : 4)));
      const std::uint64_t q = rng() % 3 == 0 ? it->second : 1 + rng() % it->second;
      best_may_change = side.reduce(it->first, q);
      if ((it->second -= q) == 0) ref.erase(it);
    }
    unchanged_claims += best_may_change ? 0 : 1;
    ASSERT_EQ(side.level_count(), ref.size()) << "step " << step;
    const itch5::book::price_level best =
        ref.empty() ? itch5::book::price_level{}
                    : itch5::book::price_level{ref.begin()->first, ref.begin()->second};
    const itch5::book::price_level worst =
        ref.empty() ? itch5::book::price_level{}
                    : itch5::book::price_level{ref.rbegin()->first, ref.rbegin()->second};
    ASSERT_EQ(side.best(), best) << "step " << step;
    ASSERT_EQ(side.worst(), worst) << "step " << step;
    // The book depth of the depth statistics: the levels from the best price to the worst.
    ASSERT_EQ(side.level_span(), ref.empty() ? 0u : itch5::levels_between(best.price, worst.price))
        << "step " << step;
    if (step % 97 == 0) {  // for_each_level: the first levels from the best, in order, and stopping
      std::vector<itch5::book::price_level> top;
      side.for_each_level([&](const itch5::book::price_level& l) {
        top.push_back(l);
        return top.size() < 12;
      });
      std::vector<itch5::book::price_level> expected;
      for (auto it = ref.begin(); it != ref.end() && expected.size() < 12; ++it)
        expected.push_back({it->first, it->second});
      ASSERT_EQ(top, expected) << "step " << step;
    }
    // add() and reduce() may say "the best may have changed" too often, never "unchanged" wrongly.
    if (!best_may_change) {
      ASSERT_EQ(best, best_before) << "step " << step;
    }
  }
}

// The side's fields fit in 40 bytes (its header says so, and two sides and the last inside fill the
// book's two cache lines): the map's cached worst price took the room of the window's size, now its log2.
static_assert(sizeof(itch5::book::array_book_side<side_kind::buy>) == 40);
static_assert(sizeof(itch5::book::array_book_side<side_kind::sell>) == 40);

TYPED_TEST(BookSideTest, MatchesPlainMapOnRandomOperations) {
  int unchanged = 0;
  random_operations_match_a_plain_map(this->side, false, unchanged);
  // add() and reduce() do say "unchanged" for most operations behind the inside (the engine relies on it
  // to skip best()); here somewhat over half of the operations are behind it.
  EXPECT_GT(unchanged, 200'000 / 3);
}

TYPED_TEST(BookSideTest, MatchesPlainMapOnRandomOperationsWithOffGridPrices) {
  int unchanged = 0;
  random_operations_match_a_plain_map(this->side, true, unchanged);
}

// The answer of add() and reduce() for the plain cases: at the best (or better) the best may change,
// behind it it does not.
TYPED_TEST(BookSideTest, AddAndReduceTellWhetherTheBestMayHaveChanged) {
  const price4 worse = this->worse_by(ten, 3);
  EXPECT_TRUE(this->side.add(ten, 100));                    // first level: the new best
  EXPECT_FALSE(this->side.add(worse, 100));                 // behind the best
  EXPECT_FALSE(this->side.add(worse, 50));                  // again
  EXPECT_TRUE(this->side.add(ten, 10));                     // at the best: its size changes
  EXPECT_FALSE(this->side.reduce(worse, 50));               // behind the best
  EXPECT_TRUE(this->side.reduce(ten, 10));                  // at the best
  EXPECT_TRUE(this->side.add(this->better_by(ten, 1), 5));  // a better price
  EXPECT_EQ(this->side.best(), (itch5::book::price_level{this->better_by(ten, 1), 5}));
}

TEST(ArrayBookSide, KeepsLevelsNearTheInsideInTheWindow) {
  // The first level anchors the 128-level window with the best at slot 128/8 = 16; the 99 worse levels
  // below it take slots 17..115, all inside the window.
  itch5::book::array_book_side<side_kind::buy> side(itch5::book::book_config{128});
  for (std::uint32_t i = 0; i < 100; ++i) side.add(price4(1000000 - 100 * i), 1);  // from $100.00 down
  EXPECT_EQ(side.window_level_count(), 100u);
  EXPECT_EQ(side.outside_level_count(), 0u);
  side.add(price4(1000000 - 100 * 5000), 1);  // $50.00, 5000 levels deep: beyond the window
  EXPECT_EQ(side.window_level_count(), 100u);
  EXPECT_EQ(side.outside_level_count(), 1u);
  EXPECT_EQ(side.best().price, price4(1000000));
}

TEST(ArrayBookSide, WindowSizeIsRoundedUpToAPowerOfTwo) {
  itch5::book::array_book_side<side_kind::sell> side(itch5::book::book_config{130});
  for (std::uint32_t i = 0; i < 256; ++i) side.add(price4(100000 + 100 * i), 1);
  // 130 rounds up to 256 levels (the window is a ring indexed by tick mod its size); the best sits at slot
  // 32, so 224 of these levels fit the window.
  EXPECT_EQ(side.window_level_count(), 224u);
  EXPECT_EQ(side.outside_level_count(), 32u);
}

// A book deeper than the window whose inside keeps moving the window back and forth (a new best far
// better than the window, gone again): each move sends levels to the map and the next one brings them
// back, until the window has grown enough that it no longer moves. The side matches a plain map at every
// step.
TEST(ArrayBookSide, GrowsWhenItsMovesKeepSendingLevelsToTheMap) {
  itch5::book::array_book_side<side_kind::sell> side(itch5::book::book_config{64});
  std::map<price4, std::uint64_t> ref;
  auto add = [&](price4 p, std::uint64_t q) {
    side.add(p, q);
    ref[p] += q;
  };
  auto reduce = [&](price4 p, std::uint64_t q) {
    side.reduce(p, q);
    if ((ref[p] -= q) == 0) ref.erase(p);
  };
  for (std::uint32_t i = 0; i < 500; ++i) add(price4(1'000'000 + 100 * i), i + 1);  // $100.00 up, 500 levels
  EXPECT_EQ(side.window_size(), 64u);
  EXPECT_EQ(side.window_level_count(), 56u);  // slots 8..63
  std::vector<std::size_t> sizes{side.window_size()};
  std::vector<price4> window_ends;
  for (int round = 0; round < 400; ++round) {
    const price4 spike(1'000'000 - 100 * 300);  // 300 ticks better than the best: the window follows it
    add(spike, 5);
    ASSERT_EQ(side.best(), (itch5::book::price_level{spike, 5}));
    reduce(spike, 5);
    // The old best is the best again, 300 ticks behind the window's best end: in the last quarter of a
    // window below 512 levels, which then comes back.
    add(price4(1'000'000), 1);
    reduce(price4(1'000'000), 1);
    ASSERT_EQ(side.level_count(), ref.size()) << round;
    ASSERT_EQ(side.best(), (itch5::book::price_level{ref.begin()->first, ref.begin()->second})) << round;
    ASSERT_EQ(side.worst(), (itch5::book::price_level{ref.rbegin()->first, ref.rbegin()->second})) << round;
    if (side.window_size() != sizes.back()) sizes.push_back(side.window_size());
    window_ends.push_back(side.window_best_end());
  }
  // The window doubled until the old best, 300 ticks behind the spike, no longer falls in its last quarter
  // once the window has followed the spike: then it stays with the spike, and holds every level of its range.
  EXPECT_GT(sizes.size(), 1u);
  for (std::size_t i = 1; i < sizes.size(); ++i) EXPECT_GT(sizes[i], sizes[i - 1]);
  EXPECT_GE(side.window_size() * 3 / 4, 300u);
  EXPECT_LE(side.window_size(), 1024u);
  EXPECT_TRUE(std::all_of(window_ends.end() - 300, window_ends.end(), [&](price4 p) {
    return p == window_ends.back();
  })) << "the window still moves";
  const auto in_window = std::count_if(ref.begin(), ref.end(), [&](const auto& level) {
    return level.first.units() >= side.window_best_end().units() &&
           level.first.units() < side.window_best_end().units() + 100 * side.window_size();
  });
  EXPECT_EQ(side.window_level_count(), static_cast<std::size_t>(in_window));
  EXPECT_EQ(side.outside_level_count(), ref.size() - static_cast<std::size_t>(in_window));
}

// When the window empties while the map holds levels, it stays where it is: the map answers best() until
// the next add, and an add within the window's range goes in without moving it (the deep levels stay in
// the map instead of coming in, to be sent back by the next better price).
TEST(ArrayBookSide, EmptiedWindowStaysUntilAnAddNeedsItElsewhere) {
  itch5::book::array_book_side<side_kind::buy> side(itch5::book::book_config{64});
  side.add(price4(1'000'000), 5);              // $100.00 anchors the window: slots 8..63 down to $99.45
  side.add(price4(1'000'000 - 100 * 500), 7);  // $95.00: in the map
  const price4 end = side.window_best_end();
  side.reduce(price4(1'000'000), 5);
  EXPECT_EQ(side.window_level_count(), 0u);
  EXPECT_EQ(side.window_best_end(), end);
  EXPECT_EQ(side.best(), (itch5::book::price_level{price4(1'000'000 - 100 * 500), 7}));
  EXPECT_TRUE(side.add(price4(1'000'000 - 100 * 3), 2));  // in range: the best changes, the window stays
  EXPECT_EQ(side.window_best_end(), end);
  EXPECT_EQ(side.best(), (itch5::book::price_level{price4(1'000'000 - 100 * 3), 2}));
  EXPECT_EQ(side.outside_level_count(), 1u);
  side.reduce(price4(1'000'000 - 100 * 3), 2);
  side.add(price4(1'000'000 - 100 * 600), 1);  // worse than the map's best: the window moves to that best
  EXPECT_EQ(side.best(), (itch5::book::price_level{price4(1'000'000 - 100 * 500), 7}));
  EXPECT_EQ(side.window_level_count(), 1u);
  EXPECT_EQ(side.outside_level_count(), 1u);
}

// A shallow side whose inside travels far moves its window often, but few levels with it: no growth.
TEST(ArrayBookSide, ShallowBookThatTravelsKeepsItsWindowSize) {
  itch5::book::array_book_side<side_kind::buy> side(itch5::book::book_config{64});
  for (std::uint32_t step = 0; step < 20'000; ++step) {
    const price4 p(1'000'000 + 100 * step);  // the bid climbs a cent at a time, 20,000 cents
    side.add(p, 1);
    if (step >= 10) side.reduce(price4(p.units() - 1000), 1);  // ten levels live
  }
  EXPECT_EQ(side.level_count(), 10u);
  EXPECT_EQ(side.window_size(), 64u);
}

// With an arena, the window comes from it; a window too large for the arena's blocks falls back to the
// heap, and both behave the same.
TEST(ArrayBookSide, TakesItsWindowFromAnArenaOrTheHeap) {
  itch5::book::detail::level_arena arena;
  for (std::uint32_t levels : {256u, 1u << 14}) {
    itch5::book::array_book_side<side_kind::buy> side(itch5::book::book_config{levels}, &arena);
    for (std::uint32_t i = 0; i < 300; ++i) side.add(price4(1000000 - 100 * i), i + 1);
    side.reduce(price4(1000000), 1);
    EXPECT_EQ(side.level_count(), 299u) << levels;
    EXPECT_EQ(side.best(), (itch5::book::price_level{price4(999900), 2})) << levels;
    EXPECT_EQ(side.worst(), (itch5::book::price_level{price4(1000000 - 100 * 299), 300})) << levels;
    itch5::book::array_book_side<side_kind::buy> moved(std::move(side));
    EXPECT_EQ(moved.best(), (itch5::book::price_level{price4(999900), 2})) << levels;
  }
  EXPECT_EQ(arena.mapped_bytes(),
            itch5::book::detail::level_arena::chunk_bytes);  // only the 256-level window
}

// A window on the heap (taken while the arena had nothing ready) moves into the arena with its levels; a
// side that never had one takes a zeroed block; either way the side goes on as before.
TEST(ArrayBookSide, MovesItsWindowIntoTheArena) {
  itch5::book::detail::level_arena arena;
  itch5::book::array_book_side<side_kind::sell> used(itch5::book::book_config{256});
  itch5::book::array_book_side<side_kind::sell> fresh(itch5::book::book_config{256});
  for (std::uint32_t i = 0; i < 50; ++i) used.add(price4(500000 + 100 * i), i + 1);
  used.add(price4(500000 + 100 * 1000), 7);  // beyond the window: in the map
  EXPECT_TRUE(used.wants_arena());
  EXPECT_TRUE(fresh.wants_arena());
  ASSERT_TRUE(used.move_to(arena));
  ASSERT_TRUE(fresh.move_to(arena));
  EXPECT_FALSE(used.wants_arena());
  EXPECT_FALSE(fresh.wants_arena());
  EXPECT_EQ(used.level_count(), 51u);
  EXPECT_EQ(used.window_level_count(), 50u);
  EXPECT_EQ(used.best(), (itch5::book::price_level{price4(500000), 1}));
  EXPECT_EQ(used.worst(), (itch5::book::price_level{price4(500000 + 100 * 1000), 7}));
  used.reduce(price4(500000), 1);  // the best level empties: the bitmap moved too
  EXPECT_EQ(used.best(), (itch5::book::price_level{price4(500100), 2}));
  EXPECT_TRUE(fresh.empty());
  fresh.add(price4(500000), 3);
  EXPECT_EQ(fresh.best(), (itch5::book::price_level{price4(500000), 3}));
  // A window too large for the arena stays on the heap.
  itch5::book::array_book_side<side_kind::buy> large(itch5::book::book_config{1u << 14});
  EXPECT_FALSE(large.wants_arena());
}

static_assert(itch5::book::book_side<itch5::book::array_book_side<side_kind::buy>>);
static_assert(itch5::book::book_side<itch5::book::map_book_side<side_kind::sell>>);

}  // namespace
