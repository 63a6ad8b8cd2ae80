// The live orders of a session, by order reference number.
//
// An open-addressing hash table with linear probing and backward-shift deletion (no tombstones), keyed by
// the 64-bit order reference and hashed with Fibonacci hashing, so dense increasing references spread
// evenly and adversarial patterns do not cluster. It grows by doubling when it is half full and never
// shrinks, so memory follows the peak number of live orders (24 bytes per slot, at most 4 slots per live
// order right after a growth), never the number of messages.
//
// Complexity: find / insert / erase expected O(1); a growth rehashes all live orders once. Pointers
// returned by find() and insert() are invalidated by the next insert() or erase(). Not thread-safe.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

#include <itch5/price.hpp>

#include <book/side_kind.hpp>

namespace book {

struct order {
  std::uint64_t ref = 0;
  std::uint32_t shares = 0;
  itch5::price4 price{};
  std::uint16_t locate = 0;
  side_kind side = side_kind::buy;
  bool used = false;  // slot occupancy (internal)
};
static_assert(sizeof(order) == 24);

class order_table {
 public:
  explicit order_table(std::size_t initial_capacity = std::size_t{1} << 12) { reset(initial_capacity); }

  /// The live order `ref`, or nullptr.
  [[nodiscard]] order* find(std::uint64_t ref) noexcept {
    for (std::size_t i = home(ref);; i = (i + 1) & mask_) {
      order& o = slots_[i];
      if (!o.used) return nullptr;
      if (o.ref == ref) return &o;
    }
  }

  /// Inserts a new order; returns nullptr (and changes nothing) when `ref` is already live.
  order* insert(std::uint64_t ref, std::uint32_t shares, itch5::price4 price, std::uint16_t locate,
                side_kind side) {
    if ((size_ + 1) * 2 > capacity_) grow();
    std::size_t i = home(ref);
    for (;; i = (i + 1) & mask_) {
      order& o = slots_[i];
      if (!o.used) break;
      if (o.ref == ref) return nullptr;
    }
    slots_[i] = order{ref, shares, price, locate, side, true};
    ++size_;
    if (size_ > peak_) peak_ = size_;
    return &slots_[i];
  }

  /// Removes the order `o` points to (from find() or insert()).
  void erase(order* o) noexcept {
    std::size_t hole = static_cast<std::size_t>(o - slots_.get());
    for (std::size_t j = (hole + 1) & mask_;; j = (j + 1) & mask_) {
      order& next = slots_[j];
      if (!next.used) break;
      // Move `next` back into the hole unless its home lies cyclically in (hole, j].
      std::size_t h = home(next.ref);
      bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      slots_[hole] = next;
      hole = j;
    }
    slots_[hole].used = false;
    --size_;
  }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t peak_size() const noexcept { return peak_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept { return capacity_ * sizeof(order); }

 private:
  [[nodiscard]] std::size_t home(std::uint64_t ref) const noexcept {
    return static_cast<std::size_t>((ref * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void reset(std::size_t capacity) {
    capacity_ = std::bit_ceil(std::max<std::size_t>(capacity, 16));
    mask_ = capacity_ - 1;
    shift_ = 64 - std::countr_zero(capacity_);
    slots_ = std::make_unique<order[]>(capacity_);
    size_ = 0;
  }

  void grow() {
    auto old = std::move(slots_);
    std::size_t old_capacity = capacity_, live = size_;
    reset(capacity_ * 2);
    for (std::size_t k = 0; k < old_capacity; ++k) {
      const order& o = old[k];
      if (!o.used) continue;
      std::size_t i = home(o.ref);
      while (slots_[i].used) i = (i + 1) & mask_;
      slots_[i] = o;
    }
    size_ = live;
  }

  std::unique_ptr<order[]> slots_;
  std::size_t capacity_ = 0;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
  std::size_t peak_ = 0;
};

}  // namespace book
