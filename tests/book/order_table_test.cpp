// order_table: the window of recent references, the hash table behind it and the map of far references,
// checked against std::unordered_map under every access pattern that moves orders between them. The
// window-dependent tests run with the default window (2^20 references) and with small ones (the fuzz
// target's kind of configuration, book_config::order_window_bits).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <unordered_map>

#include <itch5/book/book_config.hpp>
#include <itch5/book/detail/order_hash.hpp>
#include <itch5/book/order_table.hpp>

namespace {

using itch5::price4;
using itch5::book::order_table;
using itch5::book::side_kind;

TEST(OrderTable, WindowBitsDefaultAndClamping) {
  EXPECT_EQ(order_table().window(), std::uint64_t{1} << 20);
  EXPECT_EQ(order_table::default_window_bits, itch5::book::book_config{}.order_window_bits);
  EXPECT_EQ(order_table(4).window(), 16u);
  EXPECT_EQ(order_table(0).window(), std::uint64_t{1} << order_table::min_window_bits);
  // The constructor's window is window_for's; the largest is checked there, not built (12 GiB touched).
  for (unsigned bits : {0u, 1u, 4u, 20u})
    EXPECT_EQ(order_table(bits).window(), order_table::window_for(bits));
  EXPECT_EQ(order_table::window_for(0), std::uint64_t{1} << order_table::min_window_bits);
  EXPECT_EQ(order_table::window_for(order_table::max_window_bits),
            std::uint64_t{1} << order_table::max_window_bits);
  EXPECT_EQ(order_table::window_for(99), std::uint64_t{1} << order_table::max_window_bits);
}

// Every test below runs for each window size of the instantiation at the end (W references).
class OrderTableWindow : public ::testing::TestWithParam<unsigned> {
 protected:
  const std::uint64_t W = std::uint64_t{1} << GetParam();
};

TEST_P(OrderTableWindow, InsertFindErase) {
  order_table t(GetParam());
  ASSERT_NE(t.insert(42, 100, price4(123400), 7, side_kind::sell), nullptr);
  itch5::book::order* o = t.find(42);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->shares, 100u);
  EXPECT_EQ(o->price, price4(123400));
  EXPECT_EQ(o->locate, 7);
  EXPECT_EQ(o->side, side_kind::sell);
  EXPECT_EQ(t.find(43), nullptr);
  t.erase(42);
  EXPECT_EQ(t.find(42), nullptr);
  EXPECT_EQ(t.size(), 0u);
}

TEST_P(OrderTableWindow, ReferenceZeroIsAnOrdinaryKey) {
  order_table t(GetParam());
  ASSERT_NE(t.insert(0, 5, price4(1), 1, side_kind::buy), nullptr);
  ASSERT_NE(t.find(0), nullptr);
  EXPECT_EQ(t.find(0)->shares, 5u);
}

TEST_P(OrderTableWindow, DuplicateInsertIsRefusedAndChangesNothing) {
  order_table t(GetParam());
  ASSERT_NE(t.insert(9, 100, price4(10), 1, side_kind::buy), nullptr);
  EXPECT_EQ(t.insert(9, 555, price4(20), 2, side_kind::sell), nullptr);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.find(9)->shares, 100u);
  EXPECT_EQ(t.find(9)->locate, 1);
}

TEST_P(OrderTableWindow, OrdersLeftBehindByTheWindowStayFindable) {
  order_table t(GetParam());
  ASSERT_NE(t.insert(1, 11, price4(1), 1, side_kind::buy), nullptr);
  ASSERT_NE(t.insert(2, 22, price4(2), 2, side_kind::sell), nullptr);
  // A reference one window later moves the window past 1 and 2.
  ASSERT_NE(t.insert(W + 5, 33, price4(3), 3, side_kind::buy), nullptr);
  EXPECT_EQ(t.behind_size(), 2u);
  ASSERT_NE(t.find(1), nullptr);
  EXPECT_EQ(t.find(1)->shares, 11u);
  EXPECT_EQ(t.find(2)->side, side_kind::sell);
  EXPECT_EQ(t.insert(2, 1, price4(1), 1, side_kind::buy), nullptr) << "a duplicate behind the window";
  t.erase(1);
  EXPECT_EQ(t.find(1), nullptr);
  EXPECT_EQ(t.behind_size(), 1u);
  // An out-of-sequence reference below the window.
  ASSERT_NE(t.insert(3, 44, price4(4), 4, side_kind::buy), nullptr);
  EXPECT_EQ(t.find(3)->shares, 44u);
  EXPECT_EQ(t.size(), 3u);
}

// The window moves by 64 references (W/16 for small windows) more than a new reference needs, so that a
// run of consecutive references moves it once per step; the orders it passes stay findable behind it.
TEST_P(OrderTableWindow, TheWindowMovesInSteps) {
  const std::uint64_t step = std::min<std::uint64_t>(64, W / 16);
  order_table t(GetParam());
  for (std::uint64_t r = 0; r < W; ++r) ASSERT_NE(t.insert(r, 1, price4(1), 1, side_kind::buy), nullptr);
  EXPECT_EQ(t.behind_size(), 0u);
  ASSERT_NE(t.insert(W, 1, price4(1), 1, side_kind::buy), nullptr);  // one past the window
  EXPECT_EQ(t.behind_size(), step + 1);
  for (std::uint64_t r = W + 1; r < W + step + 1; ++r)
    ASSERT_NE(t.insert(r, 1, price4(1), 1, side_kind::buy), nullptr);
  EXPECT_EQ(t.behind_size(), step + 1) << "the step left room for these";
  ASSERT_NE(t.insert(W + step + 1, 1, price4(1), 1, side_kind::buy), nullptr);
  EXPECT_EQ(t.behind_size(), 2 * step + 2) << "the next step";
  for (std::uint64_t r = 0; r < W + step + 2; ++r) ASSERT_NE(t.find(r), nullptr) << r;
  EXPECT_EQ(t.size(), W + step + 2);
}

TEST_P(OrderTableWindow, FarReferencesWaitAheadAndEnterTheWindowWhenItArrives) {
  order_table t(GetParam());
  ASSERT_NE(t.insert(10, 1, price4(1), 1, side_kind::buy), nullptr);
  const std::uint64_t far = 10 * W;
  ASSERT_NE(t.insert(far, 2, price4(2), 2, side_kind::buy), nullptr);
  EXPECT_EQ(t.ahead_size(), 1u);
  EXPECT_EQ(t.find(far)->shares, 2u);
  EXPECT_EQ(t.insert(far, 9, price4(9), 9, side_kind::buy), nullptr) << "a duplicate far ahead";
  // Walk the window forward in steps below 2 windows until it covers `far`.
  for (std::uint64_t r = W; r <= far; r += W)
    ASSERT_NE(t.insert(r + 1, 3, price4(3), 3, side_kind::sell), nullptr);
  EXPECT_EQ(t.ahead_size(), 0u);
  ASSERT_NE(t.find(far), nullptr);
  EXPECT_EQ(t.find(far)->shares, 2u);
  EXPECT_EQ(t.insert(far, 9, price4(9), 9, side_kind::buy), nullptr) << "a duplicate now in the window";
  ASSERT_NE(t.find(10), nullptr) << "the first order went behind";
  t.erase(far);
  EXPECT_EQ(t.find(far), nullptr);
}

TEST_P(OrderTableWindow, ASustainedJumpInTheNumberingMovesTheWindow) {
  order_table t(GetParam());
  ASSERT_NE(t.insert(3, 1, price4(1), 1, side_kind::buy), nullptr);  // keeps the window from being empty
  const std::uint64_t start = 10 * W;
  for (std::uint64_t r = start; r < start + 1000; ++r)
    ASSERT_NE(t.insert(r, 2, price4(2), 2, side_kind::buy), nullptr);
  EXPECT_LE(t.ahead_size(), order_table::ahead_limit) << "the window moved instead of queueing every order";
  if (W > 2000) {
    EXPECT_EQ(t.behind_size(), 1u);  // a smaller window leaves some of the run behind too
  }
  for (std::uint64_t r = start; r < start + 1000; ++r) ASSERT_NE(t.find(r), nullptr) << r;
  ASSERT_NE(t.find(3), nullptr);
  EXPECT_EQ(t.size(), 1001u);
}

TEST_P(OrderTableWindow, AnEmptyWindowJumpsToAFarReference) {
  order_table t(GetParam());
  ASSERT_NE(t.insert(5, 1, price4(1), 1, side_kind::buy), nullptr);
  t.erase(5);
  ASSERT_NE(t.insert(1'000'000'000'000, 7, price4(7), 7, side_kind::buy), nullptr);
  EXPECT_EQ(t.ahead_size(), 0u) << "nothing live in the window: it moves, nothing waits";
  ASSERT_NE(t.insert(1'000'000'000'001, 8, price4(8), 8, side_kind::buy), nullptr);
  EXPECT_EQ(t.find(1'000'000'000'000)->shares, 7u);
}

TEST_P(OrderTableWindow, MemoryFollowsLiveOrdersNotTotalInserted) {
  // Ten million increasing references pass through, at most 1000 (or W/2) live at once: nothing piles up
  // behind.
  const std::uint64_t live = std::min<std::uint64_t>(1000, W / 2);
  order_table t(GetParam());
  for (std::uint64_t r = 0; r < 10'000'000; ++r) {
    ASSERT_NE(t.insert(r, 1, price4(1), 1, side_kind::buy), nullptr);
    if (r >= live) t.erase(r - live);
  }
  EXPECT_EQ(t.size(), live);
  EXPECT_EQ(t.peak_size(), live + 1);
  EXPECT_EQ(t.behind_size(), 0u);
}

TEST_P(OrderTableWindow, LongLivedOrdersGoBehindAndMemoryFollowsThem) {
  const std::uint64_t every = std::min<std::uint64_t>(1000, W / 4);
  order_table t(GetParam());
  for (std::uint64_t r = 0; r < 5 * W; ++r) {
    ASSERT_NE(t.insert(r, 1, price4(1), 1, side_kind::buy), nullptr);
    if (r % every != 0) t.erase(r);  // one order in a thousand (or in W/4) lives on
  }
  EXPECT_EQ(t.size(), (5 * W + every - 1) / every);
  EXPECT_GE(t.behind_size(), 4 * W / every);
  EXPECT_LT(t.memory_bytes(), std::size_t{64} << 20);
  for (std::uint64_t r = 0; r < 5 * W; r += every) ASSERT_NE(t.find(r), nullptr) << r;
}

// Every order of `ref` is live in `t` with its shares, and `t` holds nothing else.
::testing::AssertionResult holds_exactly(order_table& t,
                                         const std::unordered_map<std::uint64_t, std::uint32_t>& ref) {
  if (t.size() != ref.size())
    return ::testing::AssertionFailure() << t.size() << " orders, expected " << ref.size();
  for (const auto& [k, v] : ref) {
    const itch5::book::order* o = t.find(k);
    if (o == nullptr) return ::testing::AssertionFailure() << "order " << k << " is missing";
    if (o->shares != v)
      return ::testing::AssertionFailure() << "order " << k << " has " << o->shares << " shares";
  }
  return ::testing::AssertionSuccess();
}

// Random churn against std::unordered_map over patterns that cross every boundary: mostly increasing
// references with long-lived stragglers, out-of-sequence references, jumps of many windows, and references
// that collide in the hash table (multiples of 2^40).
TEST_P(OrderTableWindow, MatchesUnorderedMapUnderRandomChurn) {
  std::mt19937_64 rng(7);
  order_table t(GetParam());
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  std::vector<std::uint64_t> keys;
  std::uint64_t next = 1;
  for (int step = 0; step < 600'000; ++step) {
    const std::uint64_t r = rng() % 100;
    if (r < 50 || keys.empty()) {
      std::uint64_t key;
      const std::uint64_t kind = rng() % 1000;
      if (kind < 960)
        key = next++;
      else if (kind < 980)
        key = next > 5000 ? next - 1 - rng() % 5000 : next;  // out of sequence, maybe live
      else if (kind < 990)
        key = (next += W / 3 + rng() % (3 * W));  // jump
      else if (kind < 995)
        key = (rng() % 64) << 40;  // hash collisions
      else
        key = next + 3 * W + rng() % W;  // far ahead
      const auto shares = static_cast<std::uint32_t>(rng());
      const bool inserted = t.insert(key, shares, price4(1), 1, side_kind::buy) != nullptr;
      ASSERT_EQ(inserted, ref.emplace(key, shares).second) << "step " << step << " key " << key;
      if (inserted) keys.push_back(key);
    } else {
      const std::size_t k =
          rng() % 10 < 8 && keys.size() > 64 ? keys.size() - 1 - rng() % 64 : rng() % keys.size();
      const std::uint64_t key = keys[k];
      keys[k] = keys.back();
      keys.pop_back();
      itch5::book::order* o = t.find(key);
      ASSERT_NE(o, nullptr) << "step " << step << " key " << key;
      ASSERT_EQ(o->shares, ref.at(key));
      t.erase(key);
      ref.erase(key);
      ASSERT_EQ(t.find(key), nullptr);
    }
    ASSERT_EQ(t.size(), ref.size());
    if (step % 100'000 == 0) {
      ASSERT_TRUE(holds_exactly(t, ref)) << "step " << step;
    }
  }
}

// References that increase with gaps of every size around the window (a day filtered to a few symbols):
// the window moves by a gap at almost every insert, across stretches of empty slots, partly filled bitmap
// words and whole empty summary words, wrapping around the ring. Every live order must stay findable.
TEST_P(OrderTableWindow, GappedReferencesMatchUnorderedMap) {
  std::mt19937_64 rng(11);
  order_table t(GetParam());
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  std::vector<std::uint64_t> keys;
  std::uint64_t next = 1;
  for (int step = 0; step < 300'000; ++step) {
    if (rng() % 100 < 55 || keys.empty()) {
      const std::uint64_t kind = rng() % 100;
      if (kind < 40)
        next += 1;  // a run of consecutive references
      else if (kind < 80)
        next += 1 + rng() % 4500;  // within a summary word or two
      else if (kind < 97)
        next += 1 + rng() % (2 * W);  // up to two windows
      else
        next += W + rng() % (8 * W);  // beyond: the far map or a jump
      const auto shares = static_cast<std::uint32_t>(rng());
      const bool inserted = t.insert(next, shares, price4(1), 1, side_kind::sell) != nullptr;
      ASSERT_EQ(inserted, ref.emplace(next, shares).second) << "step " << step;
      if (inserted) keys.push_back(next);
    } else {
      const std::size_t k = rng() % keys.size();
      const std::uint64_t key = keys[k];
      keys[k] = keys.back();
      keys.pop_back();
      itch5::book::order* o = t.find(key);
      ASSERT_NE(o, nullptr) << "step " << step << " key " << key;
      ASSERT_EQ(o->shares, ref.at(key));
      t.erase(key);
      ref.erase(key);
    }
    ASSERT_EQ(t.size(), ref.size());
  }
  EXPECT_TRUE(holds_exactly(t, ref));
}

// The numbering turns sparse and dense again (see order_table.hpp): a stretch of widely gapped references,
// then consecutive ones, then gapped again, with orders of every stretch kept alive across the switches;
// every live order stays findable and duplicates are refused in both modes.
TEST_P(OrderTableWindow, SparseAndDenseStretchesMatchUnorderedMap) {
  std::mt19937_64 rng(13);
  order_table t(GetParam());
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  std::vector<std::uint64_t> keys;
  std::uint64_t next = 1;
  int switches = 0;
  bool was_sparse = false;
  for (int stretch = 0; stretch < 6; ++stretch) {
    const bool gapped = stretch % 2 == 0;
    for (std::uint64_t i = 0; i < 3 * order_table::epoch; ++i) {
      next += gapped ? 1 + rng() % (4 * W) : 1;
      const auto shares = static_cast<std::uint32_t>(rng());
      ASSERT_NE(t.insert(next, shares, price4(1), 1, side_kind::buy), nullptr) << "stretch " << stretch;
      ref.emplace(next, shares);
      keys.push_back(next);
      if (rng() % 8 == 0) {  // a duplicate of a live order, anywhere
        const std::uint64_t dup = keys[rng() % keys.size()];
        ASSERT_EQ(t.insert(dup, 1, price4(1), 1, side_kind::buy), nullptr) << "stretch " << stretch;
      }
      if (keys.size() > 2000 && rng() % 4 != 0) {  // most die, some live on
        const std::size_t k = rng() % keys.size();
        ASSERT_NE(t.find(keys[k]), nullptr);
        t.erase(keys[k]);
        ref.erase(keys[k]);
        keys[k] = keys.back();
        keys.pop_back();
      }
      if (t.sparse() != was_sparse) {
        was_sparse = t.sparse();
        ++switches;
      }
    }
    ASSERT_TRUE(holds_exactly(t, ref)) << "stretch " << stretch;
    if (W >= 1024) {
      EXPECT_EQ(t.sparse(), gapped) << "stretch " << stretch;
    }
  }
  if (W >= 1024) {
    EXPECT_EQ(switches, 6);
  }
}

// The default window, one large enough for whole empty summary words (2^13: two of 4,096 slots), a middle
// one and a tiny one (16 references, as small as the fuzz target's).
INSTANTIATE_TEST_SUITE_P(WindowBits, OrderTableWindow, ::testing::Values(20u, 13u, 10u, 4u),
                         [](const ::testing::TestParamInfo<unsigned>& param_info) {
                           return "W2e" + std::to_string(param_info.param);
                         });

TEST(OrderHash, GrowsAndKeepsEveryOrderUnderCollidingKeys) {
  std::mt19937_64 rng(9);
  itch5::book::detail::order_hash h(16);
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  for (int step = 0; step < 200'000; ++step) {
    const std::uint64_t key = rng() % 3 == 0 ? (rng() % 64) << 40 : rng() % 5000;
    if (rng() % 2 == 0) {
      const auto shares = static_cast<std::uint32_t>(rng());
      const bool inserted =
          h.insert(key, itch5::book::order{shares, price4(1), 1, side_kind::buy, true}) != nullptr;
      ASSERT_EQ(inserted, ref.emplace(key, shares).second);
    } else if (h.find(key) != nullptr) {
      ASSERT_EQ(h.find(key)->shares, ref.at(key));
      h.erase(key);
      ref.erase(key);
    } else {
      ASSERT_EQ(ref.count(key), 0u);
    }
    ASSERT_EQ(h.size(), ref.size());
  }
  EXPECT_GE(h.capacity(), 2 * ref.size());
}

}  // namespace

namespace {

// Growth is spread over later calls: while the old table drains, every order stays findable, erasable
// and unique, in the new table or the old one; the same operations on the at-once policy agree.
template <itch5::book::detail::rehash Policy>
void churn_through_growth() {
  std::mt19937_64 rng(13);
  itch5::book::detail::basic_order_hash<Policy> h(16);
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  std::vector<std::uint64_t> keys;
  bool seen_migrating = false;
  int full_checks_while_migrating = 0;
  std::size_t steps_into_migration = 0;
  for (int step = 0; step < 400'000; ++step) {
    if (rng() % 100 < 70 || keys.empty()) {
      const std::uint64_t key = rng() % 4 == 0 ? keys.empty() ? 1 : keys[rng() % keys.size()] : rng();
      const auto shares = static_cast<std::uint32_t>(rng());
      const bool inserted =
          h.insert(key, itch5::book::order{shares, price4(1), 1, side_kind::buy, true}) != nullptr;
      ASSERT_EQ(inserted, ref.emplace(key, shares).second) << "step " << step;
      if (inserted) keys.push_back(key);
    } else {
      const std::size_t k = rng() % keys.size();
      const std::uint64_t key = keys[k];
      keys[k] = keys.back();
      keys.pop_back();
      ASSERT_NE(h.find(key), nullptr) << "step " << step;
      ASSERT_EQ(h.find(key)->shares, ref.at(key));
      h.erase(key);
      ref.erase(key);
      ASSERT_EQ(h.find(key), nullptr);
    }
    ASSERT_EQ(h.size(), ref.size());
    steps_into_migration = h.migrating() ? steps_into_migration + 1 : 0;
    if (h.migrating()) {
      seen_migrating = true;
      if (steps_into_migration == 3) {  // a full check early in every migration, with both tables in use
        ++full_checks_while_migrating;
        for (const auto& [k, v] : ref) {
          ASSERT_NE(h.find(k), nullptr) << "step " << step << " key " << k;
          ASSERT_EQ(h.find(k)->shares, v);
        }
      }
    }
  }
  if constexpr (Policy == itch5::book::detail::rehash::incremental) {
    EXPECT_TRUE(seen_migrating) << "the table grew without an incremental migration";
    EXPECT_GE(full_checks_while_migrating, 10) << "16 -> 2^19 slots: every doubling is checked";
  } else {
    EXPECT_FALSE(seen_migrating);
  }
  EXPECT_GE(h.capacity(), 2 * ref.size());
}

// The next table is allocated at 3/8 load, ahead of the doubling that uses it; the drained table's memory
// goes back in small steps, all of it well before the next doubling: a third of the load that leads to
// it leaves only the current table.
TEST(OrderHash, HandsTheDrainedTableBackBeforeTheNextDoubling) {
  itch5::book::detail::order_hash h(1 << 12);
  const std::size_t bytes_per_slot = h.memory_bytes() / h.capacity();
  std::uint64_t key = 1;
  for (int doubling = 0; doubling < 5; ++doubling) {
    const std::size_t before = h.capacity();
    while (h.size() < before * 3 / 8)
      h.insert(key++, itch5::book::order{1, price4(1), 1, side_kind::buy, true});
    EXPECT_EQ(h.memory_bytes(), before * bytes_per_slot);
    // From 3/8 load the next table is held (its pages being touched ahead of the doubling).
    h.insert(key++, itch5::book::order{1, price4(1), 1, side_kind::buy, true});
    EXPECT_EQ(h.memory_bytes(), 3 * before * bytes_per_slot) << "doubling " << doubling;
    while (h.capacity() == before) h.insert(key++, itch5::book::order{1, price4(1), 1, side_kind::buy, true});
    ASSERT_EQ(h.capacity(), 2 * before);
    // Right after the growth both tables are held; the old one drains, then is retired.
    EXPECT_EQ(h.memory_bytes(), (before + h.capacity()) * bytes_per_slot);
    while (h.size() < h.capacity() / 3)
      h.insert(key++, itch5::book::order{1, price4(1), 1, side_kind::buy, true});
    EXPECT_FALSE(h.migrating());
    EXPECT_EQ(h.memory_bytes(), h.capacity() * bytes_per_slot) << "doubling " << doubling;
    for (std::uint64_t k = key - 10; k < key; ++k) EXPECT_NE(h.find(k), nullptr);
  }
}

TEST(OrderHash, IncrementalGrowthKeepsEveryOrder) {
  churn_through_growth<itch5::book::detail::rehash::incremental>();
}
TEST(OrderHash, AtOnceGrowthKeepsEveryOrder) { churn_through_growth<itch5::book::detail::rehash::at_once>(); }

}  // namespace
