// A book side as a window of price levels in an array around the inside, with an ordered map for the
// levels outside it (the design of JayBeams' array_based_order_book_side, written anew).
//
// The window holds `window_levels` consecutive grid prices (itch5/tick.hpp: $0.0001 below $1.00, $0.01
// above), slot 0 being the best end: for bids the highest price of the window, for offers the lowest. Most
// book events land within a few levels of the inside (p90 14 levels on real days), so most operations are
// an array update; a bitmap of non-empty slots finds the next best or worst level with a few word scans.
// Levels beyond the window, and prices that are not on the tick grid (possible only in malformed data),
// live in the map. Correctness never depends on where the window is: best() and worst() compare both
// parts. The window re-centres (best price at 1/8 of the window) when a new price beats the window's best
// end, when the best level drifts into the last quarter, or when the window empties while the map holds
// levels.
//
// Complexity: add/reduce in the window O(1), plus O(W/64) bitmap scan when the best or worst level
// empties; map operations O(log L); a re-centre O(W/64 + levels in the window + levels moved to or from
// the map). Memory: 40 bytes for the side,
// plus 8 bytes per window level and W/8 bytes of bitmap, taken at construction from the engine's
// detail::level_arena (huge pages shared by all books) or else from the heap at the first add, plus the map
// (created when first needed). Not thread-safe.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include <itch5/tick.hpp>

#include <book/book_config.hpp>
#include <book/detail/level_arena.hpp>
#include <book/detail/prefetch.hpp>
#include <book/price_level.hpp>
#include <book/side_kind.hpp>

namespace book {

template <side_kind K>
class array_book_side {
 public:
  static constexpr side_kind kind = K;

  /// With an `arena` (which must outlive the side) the window's memory comes from it, taken now; without
  /// one, for a window too large for the arena, or while the arena has no memory ready, it is allocated
  /// from the heap at the first add (see move_to()).
  explicit array_book_side(const book_config& cfg = {}, detail::level_arena* arena = nullptr)
      : window_((std::max<std::uint32_t>(cfg.window_levels, 64) + 63) / 64 * 64) {
    if (arena != nullptr) levels_ = arena->allocate(block_words());
  }

  array_book_side(array_book_side&& o) noexcept { *this = std::move(o); }
  array_book_side& operator=(array_book_side&& o) noexcept {
    if (this != &o) {
      release();
      levels_ = std::exchange(o.levels_, nullptr);
      owns_levels_ = std::exchange(o.owns_levels_, false);
      top_ = o.top_;
      best_slot_ = o.best_slot_;
      worst_slot_ = o.worst_slot_;
      window_count_ = std::exchange(o.window_count_, 0);
      window_ = o.window_;
      off_grid_ = o.off_grid_;
      outside_ = std::move(o.outside_);
    }
    return *this;
  }
  array_book_side(const array_book_side&) = delete;
  array_book_side& operator=(const array_book_side&) = delete;
  ~array_book_side() { release(); }

  /// Whether the window is not (yet) in arena memory though an arena could hold it: move_to() would move it.
  [[nodiscard]] bool wants_arena() const noexcept {
    return (levels_ == nullptr || owns_levels_) && detail::level_arena::fits(block_words());
  }

  /// Moves the window (levels and bitmap, or nothing yet) into a block of `arena`, which must outlive the
  /// side. Returns false, changing nothing, when the arena has no block ready. O(window).
  bool move_to(detail::level_arena& arena) {
    std::uint64_t* block = arena.allocate(block_words());
    if (block == nullptr) return false;
    if (levels_ != nullptr) std::copy(levels_, levels_ + block_words(), block);
    release();
    levels_ = block;
    return true;
  }

  /// Starts loading the window level of price `p` and its occupancy word into the cache (the lines add()
  /// or reduce() at `p` read first; the word changes when the level fills or empties); nothing when `p` is
  /// outside the window. Changes nothing.
  void prefetch(itch5::price4 p) const noexcept {
    if (levels_ == nullptr) return;
    const std::int64_t s = slot_of(itch5::tick_index(p));  // an off-grid price maps near its level: harmless
    if (s >= 0 && s < window_) {
      detail::prefetch(levels_ + s);
      detail::prefetch(bits() + (s >> 6));
    }
  }

  /// Adds q shares at p. Returns false when the best level is certainly unchanged (the common add behind
  /// the inside), true when it may have changed.
  bool add(itch5::price4 p, std::uint64_t q) {
    if (!itch5::on_tick_grid(p)) [[unlikely]] {
      const auto [it, inserted] = outside().try_emplace(p, 0);
      it->second += q;
      if (inserted && off_grid_ != sticky) ++off_grid_;
      return true;
    }
    const std::int64_t t = itch5::tick_index(p);
    if (!levels_) [[unlikely]] allocate();
    bool moved = false;
    if (window_count_ == 0) {
      // Nothing in the window: anchor it at the better of this price and the map's best.
      std::int64_t anchor = t;
      if (!outside_empty() && better<K>(outside_->begin()->first, p)) anchor = itch5::tick_index(outside_->begin()->first);
      recentre(anchor);
      moved = true;
    } else if (slot_of(t) < 0) {
      recentre(t);
      moved = true;
    }
    const std::int64_t s = slot_of(t);
    if (s >= 0 && s < window_) [[likely]] {
      // A level behind the window's best leaves the best alone (no map level beats the window's best
      // unless the map holds off-grid prices).
      const bool best_may_change = moved || s <= best_slot_ || off_grid_ != 0;
      std::uint64_t& level = levels_[static_cast<std::size_t>(s)];
      if (level == 0) mark(s);
      level += q;
      return best_may_change;
    }
    outside()[p] += q;
    return true;
  }

  /// Removes q shares at p. Returns false when the best level is certainly unchanged, true when it may
  /// have changed.
  bool reduce(itch5::price4 p, std::uint64_t q) {
    if (itch5::on_tick_grid(p) && levels_) [[likely]] {
      const std::int64_t s = slot_of(itch5::tick_index(p));
      if (s >= 0 && s < window_) {
        const bool at_best = s == best_slot_ || off_grid_ != 0;
        std::uint64_t& level = levels_[static_cast<std::size_t>(s)];
        if (level > q) {
          level -= q;
          return at_best;
        }
        level = 0;
        unmark(s);
        if (window_count_ == 0) {
          if (!outside_empty()) recentre(itch5::tick_index(outside_->begin()->first));
          return true;
        }
        if (best_slot_ >= static_cast<std::int64_t>(window_ - window_ / 4)) {
          recentre(tick_of(best_slot_));
          return true;
        }
        return at_best;
      }
    }
    if (outside_empty()) return true;  // precondition violated; the engine never does this
    auto it = outside_->find(p);
    if (it == outside_->end()) return true;
    if (it->second <= q) {
      if (!itch5::on_tick_grid(p) && off_grid_ != sticky) --off_grid_;
      outside_->erase(it);
    } else {
      it->second -= q;
    }
    return true;
  }

  [[nodiscard]] price_level best() const noexcept {
    // Levels on the grid beyond the window are all worse than its levels (see recentre), so the map needs
    // a look only when the window is empty or the map may hold off-grid prices.
    if (window_count_ > 0 && off_grid_ == 0) [[likely]] return level_at(best_slot_);
    price_level w = window_count_ > 0 ? level_at(best_slot_) : price_level{};
    if (outside_empty()) return w;
    price_level o{outside_->begin()->first, outside_->begin()->second};
    return (w.shares == 0 || better<K>(o.price, w.price)) ? o : w;
  }

  [[nodiscard]] price_level worst() const noexcept {
    price_level w = window_count_ > 0 ? level_at(worst_slot_) : price_level{};
    if (outside_empty()) return w;
    price_level o{outside_->rbegin()->first, outside_->rbegin()->second};
    return (w.shares == 0 || better<K>(w.price, o.price)) ? o : w;
  }

  [[nodiscard]] std::size_t level_count() const noexcept { return window_count_ + outside_level_count(); }
  [[nodiscard]] bool empty() const noexcept { return window_count_ == 0 && outside_empty(); }

  /// Levels held in the window and in the map (for tests and diagnostics).
  [[nodiscard]] std::size_t window_level_count() const noexcept { return window_count_; }
  [[nodiscard]] std::size_t outside_level_count() const noexcept { return outside_ ? outside_->size() : 0; }
  /// Price of the window's best end (slot 0).
  [[nodiscard]] itch5::price4 window_best_end() const noexcept {
    return itch5::tick_price(static_cast<std::uint32_t>(std::max<std::int32_t>(top_, 0)));
  }

 private:
  using level_map = std::map<itch5::price4, std::uint64_t, better_first<K>>;

  // Slot of tick t: 0 at the window's best end, growing away from the inside.
  [[nodiscard]] std::int64_t slot_of(std::int64_t t) const noexcept {
    return K == side_kind::buy ? std::int64_t{top_} - t : t - std::int64_t{top_};
  }
  [[nodiscard]] std::int64_t tick_of(std::int64_t slot) const noexcept {
    return K == side_kind::buy ? std::int64_t{top_} - slot : std::int64_t{top_} + slot;
  }
  [[nodiscard]] price_level level_at(std::int64_t slot) const noexcept {
    return {itch5::tick_price(static_cast<std::uint32_t>(tick_of(slot))), levels_[static_cast<std::size_t>(slot)]};
  }
  [[nodiscard]] bool outside_empty() const noexcept { return !outside_ || outside_->empty(); }
  level_map& outside() {
    if (!outside_) outside_ = std::make_unique<level_map>();
    return *outside_;
  }
  [[nodiscard]] std::uint64_t* bits() const noexcept { return levels_ + window_; }
  // Level totals and the occupancy bitmap, in one zeroed block.
  [[nodiscard]] std::size_t block_words() const noexcept { return std::size_t{window_} + window_ / 64; }

  void allocate() {
    levels_ = new std::uint64_t[block_words()]();
    owns_levels_ = true;
  }
  void release() noexcept {
    if (owns_levels_) delete[] levels_;
    levels_ = nullptr;
    owns_levels_ = false;
  }

  void mark(std::int64_t s) noexcept {
    bits()[s >> 6] |= std::uint64_t{1} << (s & 63);
    if (window_count_++ == 0) {
      best_slot_ = worst_slot_ = static_cast<std::int32_t>(s);
      return;
    }
    if (s < best_slot_) best_slot_ = static_cast<std::int32_t>(s);
    if (s > worst_slot_) worst_slot_ = static_cast<std::int32_t>(s);
  }

  void unmark(std::int64_t s) noexcept {
    bits()[s >> 6] &= ~(std::uint64_t{1} << (s & 63));
    if (--window_count_ == 0) return;
    if (s == best_slot_) best_slot_ = static_cast<std::int32_t>(next_set(s));
    if (s == worst_slot_) worst_slot_ = static_cast<std::int32_t>(prev_set(s));
  }

  // First non-empty slot after s (one exists: window_count_ > 0 and s was the best).
  [[nodiscard]] std::int64_t next_set(std::int64_t s) const noexcept {
    const std::uint64_t* b = bits();
    std::int64_t w = (s + 1) >> 6;
    std::uint64_t word = (s + 1) < window_ ? b[w] & (~std::uint64_t{0} << ((s + 1) & 63)) : 0;
    while (word == 0) word = b[++w];
    return (w << 6) + std::countr_zero(word);
  }

  // Last non-empty slot before s (one exists).
  [[nodiscard]] std::int64_t prev_set(std::int64_t s) const noexcept {
    const std::uint64_t* b = bits();
    std::int64_t w = (s - 1) >> 6;
    std::uint64_t word = b[w] & (~std::uint64_t{0} >> (63 - ((s - 1) & 63)));
    while (word == 0) word = b[--w];
    return (w << 6) + 63 - std::countl_zero(word);
  }

  // Moves the window so that tick `anchor` sits at slot window/8. Non-empty levels that stay in range move
  // to their new slots in place; only those leaving the window go to the map, and map levels the new range
  // covers come in. Cost O(window/64 + levels). (Sending every level through the map instead cost ~145 us
  // per move in bm_order_book; shifting the whole array cost O(window) even for a nearly empty window.)
  void recentre(std::int64_t anchor) {
    const std::int64_t w = window_;
    const std::int64_t margin = w / 8;
    const std::int64_t new_top = K == side_kind::buy ? anchor + margin : anchor - margin;
    if (new_top == top_ && window_count_ > 0) return;
    const std::int64_t delta = K == side_kind::buy ? new_top - top_ : top_ - new_top;  // new slot = old slot + delta
    if (window_count_ > 0 && delta != 0) relocate(delta);
    top_ = static_cast<std::int32_t>(new_top);
    if (outside_empty()) return;
    // Map levels on the grid and inside the new range come into the window. The range in price order:
    // from the best end (slot 0) to the worst end (slot window - 1); better_first orders the map the same way.
    const std::int64_t best_tick = tick_of(0), worst_tick = tick_of(w - 1);
    if (K == side_kind::sell ? worst_tick < 0 : best_tick < 0) return;
    auto clamp_price = [](std::int64_t t) {
      return itch5::tick_price(static_cast<std::uint32_t>(std::max<std::int64_t>(t, 0)));
    };
    auto it = outside_->lower_bound(clamp_price(best_tick));
    const itch5::price4 last = clamp_price(worst_tick);
    while (it != outside_->end() && !better<K>(last, it->first)) {
      if (!itch5::on_tick_grid(it->first)) {
        ++it;
        continue;
      }
      const std::int64_t slot = slot_of(itch5::tick_index(it->first));
      levels_[static_cast<std::size_t>(slot)] = it->second;
      mark(slot);
      it = outside_->erase(it);
    }
  }

  // Moves every non-empty slot s to s + delta, or to the map when that falls outside the window. Slots are
  // visited against the direction of the move (highest first when moving up), so a destination is never a
  // slot still waiting to move. Then the count and the best and worst slots are recomputed.
  void relocate(std::int64_t delta) {
    std::uint64_t* b = bits();
    const std::int64_t w = window_;
    auto move_one = [&](std::int64_t from) {
      std::uint64_t& src = levels_[static_cast<std::size_t>(from)];
      const std::uint64_t shares = src;
      src = 0;
      b[from >> 6] &= ~(std::uint64_t{1} << (from & 63));
      const std::int64_t to = from + delta;
      if (to >= 0 && to < w) {
        levels_[static_cast<std::size_t>(to)] = shares;
        b[to >> 6] |= std::uint64_t{1} << (to & 63);
      } else {
        outside().emplace(itch5::tick_price(static_cast<std::uint32_t>(tick_of(from))), shares);
      }
    };
    const std::int64_t words = w / 64;
    if (delta > 0) {
      for (std::int64_t word = words - 1; word >= 0; --word) {
        for (std::uint64_t snap = b[word]; snap != 0; snap &= ~(std::uint64_t{1} << (63 - std::countl_zero(snap)))) {
          move_one(word * 64 + 63 - std::countl_zero(snap));
        }
      }
    } else {
      for (std::int64_t word = 0; word < words; ++word) {
        for (std::uint64_t snap = b[word]; snap != 0; snap &= snap - 1) move_one(word * 64 + std::countr_zero(snap));
      }
    }
    window_count_ = 0;
    for (std::int64_t word = 0; word < words; ++word) {
      const std::uint64_t x = b[word];
      if (x == 0) continue;
      if (window_count_ == 0) best_slot_ = static_cast<std::int32_t>(word * 64 + std::countr_zero(x));
      worst_slot_ = static_cast<std::int32_t>(word * 64 + 63 - std::countl_zero(x));
      window_count_ += static_cast<std::uint32_t>(std::popcount(x));
    }
  }

  // Hot fields first: one cache line holds everything add/reduce/best touch besides the levels.
  std::uint64_t* levels_ = nullptr;          // window_ level totals, then window_ / 64 bitmap words
  std::int32_t top_ = 0;                     // tick of slot 0
  std::int32_t best_slot_ = 0;
  std::int32_t worst_slot_ = 0;
  std::uint32_t window_count_ = 0;
  std::uint32_t window_;                     // levels in the window, a multiple of 64
  // Off-grid levels in the map (malformed input only); at `sticky` the count stops and stays (the side
  // then always answers "the best may have changed").
  std::uint16_t off_grid_ = 0;
  static constexpr std::uint16_t sticky = 0xffff;
  bool owns_levels_ = false;                 // levels_ came from the heap (else from an arena, or none)
  std::unique_ptr<level_map> outside_;       // levels outside the window or off the grid; created on use
};

}  // namespace book
