// huge_buffer: the zeroed, huge-page backed memory under the order table's ring and the level arena.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <utility>

#include <itch5/book/detail/huge_buffer.hpp>

#include <unistd.h>

namespace {

using itch5::book::detail::huge_buffer;

TEST(HugeBuffer, IsZeroedAndAlignedToHugePagesWhenLarge) {
  huge_buffer b(3 * huge_buffer::huge_page + 5);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 4 * huge_buffer::huge_page);  // rounded up to whole huge pages
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b.data()) % huge_buffer::huge_page, 0u);
  EXPECT_TRUE(std::all_of(b.data(), b.data() + b.size(), [](std::byte x) { return x == std::byte{0}; }));
  b.data()[b.size() - 1] = std::byte{7};  // every byte is writable
}

// fault::now maps every page in the constructor: the process's resident memory grows by the whole buffer
// before anything is written to it (lazily it does not), and the bytes are still zero.
TEST(HugeBuffer, FaultNowMapsEveryPageUpFront) {
  auto resident = [] {
    std::ifstream statm("/proc/self/statm");
    std::size_t size = 0, pages = 0;
    statm >> size >> pages;
    return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  };
  const std::size_t bytes = 8 * huge_buffer::huge_page;
  const std::size_t before_lazy = resident();
  huge_buffer lazy(bytes);
  EXPECT_LT(resident() - before_lazy, bytes / 2);
  const std::size_t before = resident();
  huge_buffer now(bytes, huge_buffer::fault::now);
  EXPECT_GE(resident() - before, bytes);
  EXPECT_TRUE(
      std::all_of(now.data(), now.data() + now.size(), [](std::byte x) { return x == std::byte{0}; }));
}

TEST(HugeBuffer, SmallBuffersAreOrdinaryPages) {
  huge_buffer b(100);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 100u);
  b.data()[99] = std::byte{1};
  EXPECT_EQ(huge_buffer(0).data(), nullptr);
}

TEST(HugeBuffer, MovesOwnership) {
  huge_buffer a(huge_buffer::huge_page);
  std::byte* p = a.data();
  huge_buffer b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  huge_buffer c(10);
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.size(), huge_buffer::huge_page);
}

}  // namespace
