// The threaded block source's read-ahead ring (a chunk_ring whose consumer holds the previous block) on its
// smallest ring, 3 slots, with tiny blocks: every byte arrives once and in order, and the previous block is
// unchanged after the next one is returned (the message reader copies its carry from there). The consumer
// pauses now and then, so the producer finds the ring full as well as empty.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <thread>
#include <vector>

#include <itch5/io/block_source.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::bytes;

TEST(ThreadedBlockSource, PreviousBlockStaysValidOnTheSmallestRing) {
  bytes input(200'000);
  std::mt19937_64 rng(7);
  for (std::byte& b : input) b = static_cast<std::byte>(rng());
  for (std::size_t slots : {3u, 4u}) {
    for (std::size_t max_read : {SIZE_MAX, std::size_t{3}}) {  // whole blocks, or short reads as from a pipe
      SCOPED_TRACE(testing::Message() << slots << " slots, reads of at most " << max_read << " bytes");
      itch5::io::block_options options;
      options.block_size = 7;
      options.slots = slots;
      auto source = itch5::io::make_block_source(std::make_unique<itch5_test::memory_stream>(input, max_read),
                                                 options);
      std::size_t pos = 0, blocks = 0, previous_changed = 0, wrong = 0;
      std::span<const std::byte> previous;
      bytes previous_copy;
      for (;;) {
        if (rng() % 8 == 0) std::this_thread::yield();
        if (rng() % 512 == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
        const std::span<const std::byte> block = source->next_block();
        if (!std::ranges::equal(previous, previous_copy)) ++previous_changed;
        if (block.empty()) break;
        ++blocks;
        if (block.size() > input.size() - pos ||
            !std::ranges::equal(block, std::span(input).subspan(pos, block.size()))) {
          ++wrong;
          break;
        }
        pos += block.size();
        previous = block;
        previous_copy.assign(block.begin(), block.end());
      }
      EXPECT_EQ(wrong, 0u) << "a block that is not the next bytes of the input";
      EXPECT_EQ(previous_changed, 0u) << "the previous block changed while the next one was read";
      EXPECT_EQ(pos, input.size());
      EXPECT_GE(blocks, input.size() / 7);
      EXPECT_EQ(source->consumed(), input.size());
    }
  }
}

}  // namespace
