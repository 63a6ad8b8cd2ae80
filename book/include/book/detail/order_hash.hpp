// Internal: an open-addressing hash table of orders keyed by reference number, for the orders the
// order_table does not hold in its window (see order_table.hpp).
//
// Linear probing with Fibonacci hashing of the whole reference (no locality is expected here: these are
// old or out-of-sequence orders) and backward-shift deletion (no tombstones). Grows by doubling at half
// load, never shrinks. Pointers are invalidated by the next insert() or erase().
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

#include <book/order.hpp>

namespace book::detail {

class order_hash {
 public:
  explicit order_hash(std::size_t initial_capacity = 256) { reset(initial_capacity); }

  [[nodiscard]] order* find(std::uint64_t ref) noexcept {
    if (size_ == 0) return nullptr;
    for (std::size_t i = home(ref);; i = (i + 1) & mask_) {
      entry& e = slots_[i];
      if (!e.value.used) return nullptr;
      if (e.ref == ref) return &e.value;
    }
  }

  /// Inserts `o` (o.used must be true); nullptr when `ref` is already present.
  order* insert(std::uint64_t ref, const order& o) {
    if ((size_ + 1) * 2 > capacity_) grow();
    std::size_t i = home(ref);
    for (;; i = (i + 1) & mask_) {
      entry& e = slots_[i];
      if (!e.value.used) break;
      if (e.ref == ref) return nullptr;
    }
    slots_[i] = entry{ref, o};
    ++size_;
    return &slots_[i].value;
  }

  /// Removes `ref`, which must be present.
  void erase(std::uint64_t ref) noexcept {
    std::size_t hole = home(ref);
    while (slots_[hole].ref != ref || !slots_[hole].value.used) hole = (hole + 1) & mask_;
    for (std::size_t j = (hole + 1) & mask_;; j = (j + 1) & mask_) {
      entry& next = slots_[j];
      if (!next.value.used) break;
      // Move `next` back into the hole unless its home lies cyclically in (hole, j].
      const std::size_t h = home(next.ref);
      const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
      if (stays) continue;
      slots_[hole] = next;
      hole = j;
    }
    slots_[hole].value.used = false;
    --size_;
  }

  /// Starts loading the home slot of `ref` into the cache.
  void prefetch(std::uint64_t ref) const noexcept { __builtin_prefetch(&slots_[home(ref)]); }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept { return capacity_ * sizeof(entry); }

 private:
  struct entry {
    std::uint64_t ref = 0;
    order value;
  };

  [[nodiscard]] std::size_t home(std::uint64_t ref) const noexcept {
    return static_cast<std::size_t>((ref * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  void reset(std::size_t capacity) {
    capacity_ = std::bit_ceil(std::max<std::size_t>(capacity, 16));
    mask_ = capacity_ - 1;
    shift_ = 64 - std::countr_zero(capacity_);
    slots_ = std::make_unique<entry[]>(capacity_);
    size_ = 0;
  }

  void grow() {
    auto old = std::move(slots_);
    const std::size_t old_capacity = capacity_, live = size_;
    reset(capacity_ * 2);
    for (std::size_t k = 0; k < old_capacity; ++k) {
      if (!old[k].value.used) continue;
      std::size_t i = home(old[k].ref);
      while (slots_[i].value.used) i = (i + 1) & mask_;
      slots_[i] = old[k];
    }
    size_ = live;
  }

  std::unique_ptr<entry[]> slots_;
  std::size_t capacity_ = 0;
  std::size_t mask_ = 0;
  int shift_ = 64;
  std::size_t size_ = 0;
};

}  // namespace book::detail
