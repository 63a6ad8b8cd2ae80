// The threaded block source's read-ahead ring (a chunk_ring whose consumer holds the previous block) on its
// smallest ring, 3 slots, with tiny blocks: every byte arrives once and in order, and the previous block is
// unchanged after the next one is returned (the message reader copies its carry from there). The consumer
// pauses now and then, so the producer finds the ring full as well as empty. And a source destroyed early
// over memory its caller owns waits for its producer's read in progress (byte_stream::borrows_memory).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
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
      auto source =
          itch5::io::make_block_source(std::make_unique<itch5_test::memory_stream>(input, max_read), options);
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

// A stream over memory "owned by the test" whose reads are slow; it says when a read is in progress.
class slow_borrowing_stream final : public itch5::io::byte_stream {
 public:
  slow_borrowing_stream(bool borrows, std::atomic<int>& reading) : borrows_(borrows), reading_(reading) {}
  std::size_t read(std::byte* dst, std::size_t n) override {
    reading_.fetch_add(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::fill_n(dst, n, std::byte{1});
    reading_.fetch_sub(1);
    pos_ += n;
    return n;
  }
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return pos_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return 0; }
  [[nodiscard]] bool borrows_memory() const noexcept override { return borrows_; }

 private:
  bool borrows_;
  std::atomic<int>& reading_;
  std::uint64_t pos_ = 0;
};

// Destroyed while its producer reads ahead, a source over borrowed memory returns only once that read is
// over (the caller may free the memory next); over a stream of its own it returns at once, leaving the
// read to finish on the detached producer (a pipe may never deliver).
TEST(ThreadedBlockSource, DestroyedEarlyWaitsOnlyForAReadOfBorrowedMemory) {
  for (bool borrows : {true, false}) {
    SCOPED_TRACE(borrows ? "borrowed memory" : "a stream of its own");
    static std::atomic<int> reading{0};  // static: outlives a detached producer
    while (reading.load() != 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    itch5::io::block_options options;
    options.block_size = 16;
    options.slots = 3;
    auto source =
        itch5::io::make_block_source(std::make_unique<slow_borrowing_stream>(borrows, reading), options);
    ASSERT_EQ(source->next_block().size(), 16u);
    while (reading.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // reading ahead
    source.reset();
    if (borrows) {
      EXPECT_EQ(reading.load(), 0) << "a read of borrowed memory still runs after the source is gone";
    } else {
      EXPECT_EQ(reading.load(), 1) << "the source waited for a read of a stream of its own";
    }
  }
}

}  // namespace
