#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

#include <book/order_table.hpp>

namespace {

using book::order_table;
using book::side_kind;
using itch5::price4;

TEST(OrderTable, InsertFindErase) {
  order_table t;
  ASSERT_NE(t.insert(42, 100, price4(123400), 7, side_kind::sell), nullptr);
  book::order* o = t.find(42);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->ref, 42u);
  EXPECT_EQ(o->shares, 100u);
  EXPECT_EQ(o->price, price4(123400));
  EXPECT_EQ(o->locate, 7);
  EXPECT_EQ(o->side, side_kind::sell);
  EXPECT_EQ(t.find(43), nullptr);
  t.erase(o);
  EXPECT_EQ(t.find(42), nullptr);
  EXPECT_EQ(t.size(), 0u);
}

TEST(OrderTable, ReferenceZeroIsAnOrdinaryKey) {
  order_table t;
  ASSERT_NE(t.insert(0, 5, price4(1), 1, side_kind::buy), nullptr);
  ASSERT_NE(t.find(0), nullptr);
  EXPECT_EQ(t.find(0)->shares, 5u);
}

TEST(OrderTable, DuplicateInsertIsRefusedAndChangesNothing) {
  order_table t;
  ASSERT_NE(t.insert(9, 100, price4(10), 1, side_kind::buy), nullptr);
  EXPECT_EQ(t.insert(9, 555, price4(20), 2, side_kind::sell), nullptr);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(t.find(9)->shares, 100u);
  EXPECT_EQ(t.find(9)->locate, 1);
}

TEST(OrderTable, GrowsAndKeepsEveryOrder) {
  order_table t(16);
  for (std::uint64_t r = 1; r <= 100'000; ++r) ASSERT_NE(t.insert(r * 7, static_cast<std::uint32_t>(r), price4(1), 1, side_kind::buy), nullptr);
  EXPECT_EQ(t.size(), 100'000u);
  EXPECT_GE(t.capacity(), 200'000u);
  for (std::uint64_t r = 1; r <= 100'000; ++r) {
    auto* o = t.find(r * 7);
    ASSERT_NE(o, nullptr);
    ASSERT_EQ(o->shares, r);
  }
  EXPECT_EQ(t.peak_size(), 100'000u);
}

TEST(OrderTable, MemoryFollowsLiveOrdersNotTotalInserted) {
  // Ten million orders pass through, at most 1000 live at once: the table stays small.
  order_table t(16);
  for (std::uint64_t r = 0; r < 10'000'000; ++r) {
    ASSERT_NE(t.insert(r, 1, price4(1), 1, side_kind::buy), nullptr);
    if (r >= 1000) t.erase(t.find(r - 1000));
  }
  EXPECT_EQ(t.size(), 1000u);
  EXPECT_LE(t.capacity(), 4096u);
}

TEST(OrderTable, MatchesUnorderedMapUnderRandomChurnWithCollidingKeys) {
  // Keys drawn from a small range and multiples of large powers of two, so probe chains are long and
  // backward-shift deletion is exercised across the wrap-around of the table.
  std::mt19937_64 rng(7);
  order_table t(16);
  std::unordered_map<std::uint64_t, std::uint32_t> ref;
  for (int step = 0; step < 400'000; ++step) {
    std::uint64_t key = rng() % 3 == 0 ? (rng() % 64) << 40 : rng() % 5000;
    if (rng() % 2 == 0) {
      auto shares = static_cast<std::uint32_t>(rng());
      bool inserted = t.insert(key, shares, price4(1), 1, side_kind::buy) != nullptr;
      ASSERT_EQ(inserted, ref.emplace(key, shares).second);
    } else if (auto* o = t.find(key)) {
      ASSERT_EQ(ref.count(key), 1u);
      t.erase(o);
      ref.erase(key);
    } else {
      ASSERT_EQ(ref.count(key), 0u);
    }
    ASSERT_EQ(t.size(), ref.size());
    if (step % 50'000 == 0) {
      for (auto& [k, v] : ref) {
        auto* o = t.find(k);
        ASSERT_NE(o, nullptr);
        ASSERT_EQ(o->shares, v);
      }
    }
  }
}

}  // namespace
