// One side of one symbol's book inside the generator: its populated price levels, each a FIFO of orders.
//
// Levels are kept in a vector sorted by key, where a larger key is a better price (bids: key = tick index,
// offers: key = -tick index), so the best level is the last element and most inserts and erases, which
// happen near the inside, move only a few elements. Orders of a level form a doubly linked list through
// order_pool slots, oldest first.
//
// Find a level O(log L); insert/erase a level O(L - position), small near the inside; order link/unlink
// O(1). Memory 16 bytes per populated level. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "order_pool.hpp"

namespace itch5::synth::detail {

struct level {
  std::int32_t key;
  std::uint32_t head;   ///< oldest order
  std::uint32_t tail;   ///< newest order
  std::uint32_t count;  ///< orders at this level
};

class book_side {
 public:
  [[nodiscard]] bool empty() const noexcept { return levels_.empty(); }
  [[nodiscard]] std::size_t size() const noexcept { return levels_.size(); }
  [[nodiscard]] std::int32_t best_key() const noexcept { return levels_.back().key; }
  [[nodiscard]] const level& at(std::size_t i) const noexcept { return levels_[i]; }
  [[nodiscard]] std::size_t best_index() const noexcept { return levels_.size() - 1; }
  /// Live orders on this side.
  [[nodiscard]] std::uint32_t orders() const noexcept { return orders_; }

  /// Index of the populated level nearest to `target` at or beyond it (key <= target); the deepest level
  /// when every level is better than `target`. Precondition: !empty().
  [[nodiscard]] std::size_t at_or_beyond(std::int32_t target) const noexcept {
    auto it = std::upper_bound(levels_.begin(), levels_.end(), target,
                               [](std::int32_t t, const level& l) { return t < l.key; });
    return it == levels_.begin() ? 0 : static_cast<std::size_t>(it - levels_.begin()) - 1;
  }

  /// Appends order `i` (newest) at `key`, creating the level if needed.
  void push(std::int32_t key, std::uint32_t i, order_pool& pool) {
    auto it = levels_.end();
    // Most adds land within a few levels of the best: scan back a little before searching.
    int steps = 0;
    while (it != levels_.begin() && (it - 1)->key > key && ++steps < 8) --it;
    if (it != levels_.begin() && (it - 1)->key > key) {
      it = std::lower_bound(levels_.begin(), it, key,
                            [](const level& l, std::int32_t k) { return l.key < k; });
    } else if (it != levels_.begin() && (it - 1)->key == key) {
      --it;
    }
    ++orders_;
    order_slot& o = pool[i];
    o.next = no_order;
    if (it != levels_.end() && it->key == key) {
      o.prev = it->tail;
      pool[it->tail].next = i;
      it->tail = i;
      ++it->count;
    } else {
      o.prev = no_order;
      levels_.insert(it, level{key, i, i, 1});
    }
  }

  /// Unlinks order `i` from level `li`; erases the level when it empties.
  void unlink(std::size_t li, std::uint32_t i, order_pool& pool) noexcept {
    --orders_;
    level& l = levels_[li];
    order_slot& o = pool[i];
    if (o.prev != no_order)
      pool[o.prev].next = o.next;
    else
      l.head = o.next;
    if (o.next != no_order)
      pool[o.next].prev = o.prev;
    else
      l.tail = o.prev;
    if (--l.count == 0) levels_.erase(levels_.begin() + static_cast<std::ptrdiff_t>(li));
  }

 private:
  std::vector<level> levels_;
  std::uint32_t orders_ = 0;
};

}  // namespace itch5::synth::detail
