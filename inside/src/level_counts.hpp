// How many orders rest at each price level of each side of each book, for the N-level book table
// (levels_output.hpp): the book sides keep shares per level only, and the table's rows need the order
// count of every level that is or may come into the top N. levels_output keeps here the levels beyond the
// top N it holds (each kept level carries its own count): a level that comes into the top N is taken out,
// one that drops out is added back.
//
// An open-addressing hash table (linear probing, deletion by backward shift, so no tombstones) from
// (locate, side, price) to the count; a level's entry goes when its count reaches 0 or take() takes it.
// O(1) expected per change; memory 16 bytes per slot, at most twice the live levels of the symbols followed
// (it doubles at half full and never shrinks; no allocation but when it grows). Not thread-safe (the
// books' thread's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <itch5/price.hpp>

#include <itch5/book/side_kind.hpp>

namespace itch5::inside {

class level_counts {
 public:
  level_counts() : slots_(std::size_t{1} << min_bits), bits_(min_bits) {}

  /// Adds `delta` (+1: an order came to the level, -1: one left) to the count of `price` on `side` of
  /// `locate`'s book. A count never goes below 0 (a -1 on a level without orders changes nothing).
  void add(std::uint16_t locate, book::side_kind side, itch5::price4 price, int delta) {
    const std::uint64_t k = key(locate, side, price);
    const std::size_t i = find(k);
    slot& s = slots_[i];
    if (s.key == 0) {
      if (delta <= 0) return;
      s.key = k;
      s.count = static_cast<std::uint32_t>(delta);
      if (++used_ * 2 > slots_.size()) grow();
      return;
    }
    if (delta < 0 && s.count <= static_cast<std::uint32_t>(-delta)) {
      erase(i);
      return;
    }
    s.count = static_cast<std::uint32_t>(static_cast<std::int64_t>(s.count) + delta);
  }

  /// The orders at `price` on `side` of `locate`'s book (0 for a level without orders), and the level's
  /// entry gone.
  std::uint32_t take(std::uint16_t locate, book::side_kind side, itch5::price4 price) {
    const std::size_t i = find(key(locate, side, price));
    if (slots_[i].key == 0) return 0;
    const std::uint32_t count = slots_[i].count;
    erase(i);
    return count;
  }

  /// Levels with orders.
  [[nodiscard]] std::size_t size() const noexcept { return used_; }

 private:
  struct slot {
    std::uint64_t key = 0;  // 0: free (a real key has a price of at least 1 unit)
    std::uint32_t count = 0;
  };
  static constexpr unsigned min_bits = 12;

  static std::uint64_t key(std::uint16_t locate, book::side_kind side, itch5::price4 price) noexcept {
    return (std::uint64_t{locate} << 33) | (std::uint64_t{side == book::side_kind::sell} << 32) |
           std::uint64_t{price.units()};
  }
  [[nodiscard]] std::size_t home(std::uint64_t k) const noexcept {
    return static_cast<std::size_t>((k * 0x9E3779B97F4A7C15ull) >> (64 - bits_));
  }

  // The slot holding key k, or the free slot that ends its probe run.
  [[nodiscard]] std::size_t find(std::uint64_t k) const noexcept {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = home(k);
    while (slots_[i].key != 0 && slots_[i].key != k) i = (i + 1) & mask;
    return i;
  }

  // Removes slot i, moving later entries of its probe run back so that every entry stays reachable.
  void erase(std::size_t i) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (slots_[j].key == 0) break;
      const std::size_t h = home(slots_[j].key);
      // Entry j may move to i if its home is not in (i, j] (cyclically).
      const bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = slot{};
    --used_;
  }

  [[gnu::noinline, gnu::cold]] void grow() {
    std::vector<slot> old(std::size_t{2} << bits_);
    old.swap(slots_);
    ++bits_;
    const std::size_t mask = slots_.size() - 1;
    for (const slot& s : old) {
      if (s.key == 0) continue;
      std::size_t i = home(s.key);
      while (slots_[i].key != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::vector<slot> slots_;
  unsigned bits_;
  std::size_t used_ = 0;
};

}  // namespace itch5::inside
