// level_arena: the memory of the array books' windows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <book/detail/level_arena.hpp>

namespace {

using book::detail::level_arena;

TEST(LevelArena, BlocksAreZeroedAlignedAndDisjoint) {
  level_arena arena;
  const std::size_t words = 256 + 4;  // the default window and its bitmap
  std::vector<std::uint64_t*> blocks;
  // Enough blocks to fill several chunks.
  const std::size_t count = 3 * level_arena::chunk_bytes / (words * 8) + 10;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t* p = arena.allocate(words);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
    for (std::size_t w = 0; w < words; ++w) ASSERT_EQ(p[w], 0u) << "block " << i << " word " << w;
    std::fill(p, p + words, ~std::uint64_t{0});  // would show in a later block if blocks overlapped
    blocks.push_back(p);
  }
  std::sort(blocks.begin(), blocks.end());
  for (std::size_t i = 1; i < blocks.size(); ++i) EXPECT_GE(blocks[i] - blocks[i - 1], static_cast<std::ptrdiff_t>(words));
  EXPECT_GE(arena.mapped_bytes(), 4 * level_arena::chunk_bytes);
}

TEST(LevelArena, RefusesBlocksAboveTheLimit) {
  level_arena arena;
  EXPECT_NE(arena.allocate(level_arena::max_block_bytes / 8), nullptr);
  EXPECT_EQ(arena.allocate(level_arena::max_block_bytes / 8 + 1), nullptr);
  EXPECT_EQ(arena.allocate(0), nullptr);
}

}  // namespace
