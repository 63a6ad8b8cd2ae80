// level_arena: the memory of the array books' windows.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include <itch5/book/detail/level_arena.hpp>

namespace {

using itch5::book::detail::level_arena;

// A block, waiting (up to 30 s) while the arena's helper maps the next chunk.
std::uint64_t* allocate_waiting(level_arena& arena, std::size_t words) {
  std::uint64_t* p = arena.allocate(words);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (p == nullptr && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    p = arena.allocate(words);
  }
  return p;
}

TEST(LevelArena, BlocksAreZeroedAlignedAndDisjoint) {
  level_arena arena;
  const std::size_t words = 256 + 4;  // the default window and its bitmap
  std::vector<std::uint64_t*> blocks;
  // Enough blocks to fill several chunks.
  const std::size_t count = 3 * level_arena::chunk_bytes / (words * 8) + 10;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t* p = allocate_waiting(arena, words);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u);
    for (std::size_t w = 0; w < words; ++w) ASSERT_EQ(p[w], 0u) << "block " << i << " word " << w;
    std::fill(p, p + words, ~std::uint64_t{0});  // would show in a later block if blocks overlapped
    blocks.push_back(p);
  }
  std::sort(blocks.begin(), blocks.end());
  for (std::size_t i = 1; i < blocks.size(); ++i)
    EXPECT_GE(blocks[i] - blocks[i - 1], static_cast<std::ptrdiff_t>(words));
  EXPECT_GE(arena.mapped_bytes(), 4 * level_arena::chunk_bytes);
}

// The first chunk is mapped by the constructor; every later one by a helper while the one before fills
// up. allocate() never waits for it: when the current chunk is full and the next is not ready it returns
// nullptr, and a later call gets a block. Blocks from every chunk are zeroed.
TEST(LevelArena, MapsEachLaterChunkAheadAndNeverWaits) {
  level_arena arena;
  EXPECT_EQ(arena.mapped_bytes(), level_arena::chunk_bytes);
  const std::size_t words = 256 + 4;
  std::size_t blocks = 0;
  while (arena.mapped_bytes() < 3 * level_arena::chunk_bytes) {
    std::uint64_t* p = allocate_waiting(arena, words);
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(*std::max_element(p, p + words), 0u) << "block " << blocks;
    ++blocks;
  }
  EXPECT_EQ(arena.chunks_mapped_ahead(), 2u);
  const std::size_t block_bytes = (words * 8 + 63) / 64 * 64;
  EXPECT_EQ(blocks,
            2 * (level_arena::chunk_bytes / block_bytes) + 1);  // two chunks full, one block in the third
}

TEST(LevelArena, MapsNothingUntilNeededWhenAsked) {
  level_arena arena(false);
  EXPECT_EQ(arena.mapped_bytes(), 0u);
  EXPECT_NE(arena.allocate(8), nullptr);  // the first chunk is mapped here, without a helper
  EXPECT_EQ(arena.mapped_bytes(), level_arena::chunk_bytes);
  EXPECT_EQ(arena.chunks_mapped_ahead(), 0u);
}

TEST(LevelArena, RefusesBlocksAboveTheLimit) {
  level_arena arena;
  EXPECT_NE(arena.allocate(level_arena::max_block_bytes / 8), nullptr);
  EXPECT_EQ(arena.allocate(level_arena::max_block_bytes / 8 + 1), nullptr);
  EXPECT_EQ(arena.allocate(0), nullptr);
  EXPECT_TRUE(level_arena::fits(level_arena::max_block_bytes / 8));
  EXPECT_FALSE(level_arena::fits(level_arena::max_block_bytes / 8 + 1));
  EXPECT_FALSE(level_arena::fits(0));
}

}  // namespace
