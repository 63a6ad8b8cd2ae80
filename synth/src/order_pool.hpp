// Storage for the generator's live orders: fixed 24-byte slots in 64 Ki-slot chunks, recycled through a
// free list.
//
// The generator never looks an order up by reference number: it reaches orders through its price levels
// (book_side), so a slot holds only what the stream needs (reference, shares, the FIFO links of its level
// and a flag for the delayed copy). Chunks are never moved or freed during a run, so growth costs one
// allocation per 65,536 orders of new peak and nothing in steady state.
//
// allocate/release/operator[] O(1). Memory 24 bytes per slot up to the peak of live orders. Not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace itch5::synth::detail {

inline constexpr std::uint32_t no_order = 0xffffffffu;

struct order_slot {
  std::uint64_t ref = 0;          ///< order reference number
  std::uint32_t shares = 0;       ///< shares still open
  std::uint32_t prev = no_order;  ///< older order at the same level
  std::uint32_t next = no_order;  ///< newer order at the same level (free-list link when released)
  std::uint32_t dropped = 0;      ///< 1: missing from the delayed copy
};
static_assert(sizeof(order_slot) == 24);

class order_pool {
 public:
  static constexpr unsigned chunk_bits = 16;
  static constexpr std::uint32_t chunk_size = 1u << chunk_bits;

  [[nodiscard]] std::uint32_t allocate() {
    ++live_;
    if (free_ != no_order) {
      std::uint32_t i = free_;
      free_ = (*this)[i].next;
      return i;
    }
    if (used_ == chunks_.size() * std::size_t{chunk_size}) {
      chunks_.push_back(std::make_unique_for_overwrite<order_slot[]>(chunk_size));
    }
    return static_cast<std::uint32_t>(used_++);
  }

  void release(std::uint32_t i) noexcept {
    --live_;
    (*this)[i].next = free_;
    free_ = i;
  }

  [[nodiscard]] order_slot& operator[](std::uint32_t i) noexcept {
    return chunks_[i >> chunk_bits][i & (chunk_size - 1)];
  }

  [[nodiscard]] std::uint64_t live() const noexcept { return live_; }

 private:
  std::vector<std::unique_ptr<order_slot[]>> chunks_;
  std::size_t used_ = 0;
  std::uint32_t free_ = no_order;
  std::uint64_t live_ = 0;
};

}  // namespace itch5::synth::detail
