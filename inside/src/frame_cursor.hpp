// The prefetching frame cursor of the books' thread when it reads the stream itself (run_loop): it stays
// about `distance` frames ahead of the reader inside its current block, handing each frame it passes to a
// prefetch function once. It never reads beyond the block; at a block boundary it simply starts again from
// the reader's position. O(1) amortised per message, no allocation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <itch5/message_reader.hpp>
#include <itch5/peek.hpp>

namespace itch5::inside {

// How many messages ahead of the one being handled each prefetch stage of book_engine looks (run_loop,
// run_decoded and the book threads of run_sharded).
inline constexpr int prefetch_far_distance = 16;
inline constexpr int prefetch_level_distance = 5;

template <int distance>
class frame_cursor {
 public:
  template <class F>
  void advance(const itch5::message_reader& reader, F&& prefetch) {
    const std::span<const std::byte> unread = reader.lookahead();
    const std::byte* const begin = unread.data();
    const std::byte* const end = begin + unread.size();
    if (reader.block_number() != block_ || at_ < begin) {
      block_ = reader.block_number();
      at_ = begin;
      ahead_ = 0;
    } else if (ahead_ > 0) {
      --ahead_;  // the reader took one frame
    }
    constexpr std::size_t prefix = itch5::frame_length_size;
    while (ahead_ < distance && static_cast<std::size_t>(end - at_) >= prefix) {
      const std::size_t len = itch5::peek_frame_length(at_);
      if (len == 0 || static_cast<std::size_t>(end - at_) < len + prefix) break;
      prefetch(std::span<const std::byte>(at_ + prefix, len));
      at_ += len + prefix;
      ++ahead_;
    }
  }

 private:
  std::uint64_t block_ = ~std::uint64_t{0};
  const std::byte* at_ = nullptr;
  int ahead_ = 0;
};

}  // namespace itch5::inside
