// detail::locate_array: entries constructed in locate order never move, destructors run for exactly the
// constructed ones, a zeroed table reads zero at every locate and keeps what is written, and a table can
// be moved. Runs under ASan in CI, where a read or write outside the mapped pages would show.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <itch5/book/detail/locate_array.hpp>

namespace {

struct counted {
  explicit counted(int v, int& live) : value(v), live_(&live) { ++*live_; }
  counted(const counted&) = delete;
  ~counted() { --*live_; }
  alignas(64) int value;
  int* live_;
};

TEST(LocateArray, EntriesAreMadeInOrderAndNeverMove) {
  int live = 0;
  {
    itch5::book::detail::locate_array<counted> a;
    EXPECT_EQ(a.size(), 0u);
    std::vector<const counted*> where;
    for (int i = 0; i < 10'000; ++i) where.push_back(&a.emplace_back(i, live));
    EXPECT_EQ(a.size(), 10'000u);
    EXPECT_EQ(live, 10'000);
    for (int i = 0; i < 10'000; ++i) {
      ASSERT_EQ(&a[static_cast<std::size_t>(i)], where[static_cast<std::size_t>(i)]) << i;
      ASSERT_EQ(a[static_cast<std::size_t>(i)].value, i);
      ASSERT_EQ(reinterpret_cast<std::uintptr_t>(where[static_cast<std::size_t>(i)]) % 64, 0u);
    }
  }
  EXPECT_EQ(live, 0);  // every constructed entry destroyed, no other
}

TEST(LocateArray, ZeroedTableHasEveryLocate) {
  auto a = itch5::book::detail::locate_array<std::uint64_t>::zeroed();
  EXPECT_EQ(a.size(), itch5::book::detail::locate_array<std::uint64_t>::capacity);
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{65535}})
    EXPECT_EQ(a[i], 0u) << i;
  a[65535] = 7;
  a[0] = 3;
  auto b = std::move(a);
  EXPECT_EQ(b[65535], 7u);
  EXPECT_EQ(b[0], 3u);
  EXPECT_EQ(b[1], 0u);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from table is empty
}

}  // namespace
