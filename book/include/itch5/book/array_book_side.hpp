// A book side as a window of price levels in an array around the inside, with an ordered map for the
// levels outside it (the idea of JayBeams' array_based_order_book_side, written anew; the window is a ring).
//
// The window holds `window_levels` consecutive grid prices (itch5/tick.hpp: $0.0001 below $1.00, $0.01
// above; rounded up to a power of two, at least 64). Its logical slot 0 is the best end: for bids the
// highest price of the window, for offers the lowest. Most book events land within a few levels of the
// inside (p90 14 levels on real days), so most operations are an array update; a bitmap of non-empty slots
// finds the next best or worst level with a few word scans. Levels beyond the window, and prices that are
// not on the tick grid (possible only in malformed data), live in the map. Correctness never depends on
// where the window is: best() and worst() compare both parts. The window re-centres (best price at 1/8 of
// the window, at most 64 slots in) when a new price beats the window's best end, when the best level
// drifts into the last quarter, or when an add falls outside a window left empty (an emptied window stays
// where it is until then: its price range is where the book was busy).
//
// The array is a ring: tick t lives at index t mod W whatever the window's position, so a re-centre moves
// no level that stays in the window; only the levels it leaves behind go to the map, and map levels it now
// covers come in. (Until 2026-11 the array was indexed by slot and a re-centre moved every level: on books
// thousands of levels deep, whose inside keeps moving the window, that was 1/6 of the time.)
//
// A book deeper than the window around where its inside moves would keep sending levels to the map and
// back at each re-centre: when that happens (levels for more than half the window moved since it last
// grew, and the side holds more than an eighth of a window of levels), the window doubles, up to 2^16
// levels (grow()). On a 20 M day whose books are thousands of levels deep this took the run from 2.4x to
// 1.0x the time of a typical day (bench/patterns.py, "deep").
//
// Complexity: add/reduce in the window O(1), plus O(W/64) bitmap scan when the best or worst level
// empties; level_span() O(1) without touching memory beyond the side; map operations O(log L); a re-centre by
// d ticks O(min(d, W)/64 + W/64 + levels moved to or from the map); a growth O(new window). Memory: 40 bytes
// for the side, plus 8 bytes per window level and W/8 bytes of bitmap, taken at construction from the
// engine's detail::level_arena (huge pages shared by all books) or else from the heap at the first add (a
// grown window: from the heap), plus the map (created when first needed). Not thread-safe.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include <itch5/tick.hpp>

#include <itch5/book/book_config.hpp>
#include <itch5/book/detail/level_arena.hpp>
#include <itch5/book/detail/prefetch.hpp>
#include <itch5/book/price_level.hpp>
#include <itch5/book/side_kind.hpp>

namespace itch5::book {

template <side_kind K>
class array_book_side {
 public:
  static constexpr side_kind kind = K;

  /// With an `arena` (which must outlive the side) the window's memory comes from it, taken now; without
  /// one, for a window too large for the arena, or while the arena has no memory ready, it is allocated
  /// from the heap at the first add (see move_to()).
  explicit array_book_side(const book_config& cfg = {}, detail::level_arena* arena = nullptr)
      : window_bits_(static_cast<std::uint8_t>(std::countr_zero(
            std::bit_ceil(std::clamp<std::uint32_t>(cfg.window_levels, 64, std::uint32_t{1} << 30))))) {
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
      window_bits_ = o.window_bits_;
      off_grid_ = o.off_grid_;
      outside_ = std::move(o.outside_);
      outside_levels_ = std::exchange(o.outside_levels_, false);
      outside_worst_ = o.outside_worst_;
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
    const std::int64_t t = itch5::tick_index(p);  // an off-grid price maps near its level: harmless
    const std::int64_t s = slot_of(t);
    if (s >= 0 && s < window()) {
      const std::size_t i = index_of(t);
      detail::prefetch(levels_ + i);
      detail::prefetch(bits() + (i >> 6));
    }
  }

  /// Adds q shares at p. Returns false when the best level is certainly unchanged (the common add behind
  /// the inside), true when it may have changed.
  bool add(itch5::price4 p, std::uint64_t q) {
    if (!itch5::on_tick_grid(p)) [[unlikely]] {
      if (map_put(p, q) && off_grid_ != sticky) ++off_grid_;
      return true;
    }
    const std::int64_t t = itch5::tick_index(p);
    if (!levels_) [[unlikely]]
      allocate();
    bool moved = false;
    if (window_count_ == 0) {
      // Nothing in the window. A price within its range goes in where the window is (every level on the
      // grid in the map is worse than that range); else the window moves, anchored at the better of this
      // price and the map's best.
      const std::int64_t s = slot_of(t);
      if (s < 0 || s >= window()) {
        std::int64_t anchor = t;
        if (!outside_empty() && better<K>(outside_->begin()->first, p)) {
          anchor = itch5::tick_index(outside_->begin()->first);
        }
        recentre(anchor);
      }
      moved = true;
    } else if (slot_of(t) < 0) {
      recentre(t);
      moved = true;
    }
    const std::int64_t s = slot_of(t);
    if (s >= 0 && s < window()) [[likely]] {
      // A level behind the window's best leaves the best alone (no map level beats the window's best
      // unless the map holds off-grid prices).
      const bool best_may_change = moved || s <= best_slot_ || off_grid_ != 0;
      const std::size_t i = index_of(t);
      std::uint64_t& level = levels_[i];
      if (level == 0) mark(s, i);
      level += q;
      return best_may_change;
    }
    map_put(p, q);
    return true;
  }

  /// Removes q shares at p. Returns false when the best level is certainly unchanged, true when it may
  /// have changed.
  bool reduce(itch5::price4 p, std::uint64_t q) {
    if (itch5::on_tick_grid(p) && levels_) [[likely]] {
      const std::int64_t t = itch5::tick_index(p);
      const std::int64_t s = slot_of(t);
      if (s >= 0 && s < window()) {
        const bool at_best = s == best_slot_ || off_grid_ != 0;
        const std::size_t i = index_of(t);
        std::uint64_t& level = levels_[i];
        if (level > q) {
          level -= q;
          return at_best;
        }
        level = 0;
        unmark(s, i);
        if (window_count_ == 0) return true;  // the window stays: the next add decides (see add())
        if (best_slot_ >= static_cast<std::int64_t>(window() - window() / 4)) {
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
      map_remove(it);
    } else {
      it->second -= q;
    }
    return true;
  }

  [[nodiscard]] price_level best() const noexcept {
    // Levels on the grid beyond the window are all worse than its levels (see recentre), so the map needs
    // a look only when the window is empty or the map may hold off-grid prices.
    if (window_count_ > 0 && off_grid_ == 0) [[likely]]
      return level_at(best_slot_);
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

  /// Price levels from the best to the worst: levels_between(best().price, worst().price), 0 when empty.
  [[nodiscard]] std::uint32_t level_span() const noexcept {
    // From the side's own fields, never a level or the map (the depth statistics ask after every event;
    // best() and worst() read the worst level, far from where the book is busy, and the map's last node:
    // ~0.3 s of the 20 M day's books' thread). The window's levels are on the grid, a tick per slot, so
    // with nothing in the map the span is the slots between the best and the worst.
    if (window_count_ > 0 && off_grid_ == 0) [[likely]] {
      if (!outside_levels_) return static_cast<std::uint32_t>(worst_slot_ - best_slot_);
      // Map levels on the grid are all worse than the window's (see recentre): the map holds the worst.
      return itch5::levels_between(tick_price_of(best_slot_), outside_worst_);
    }
    return level_span_otherwise();
  }

  [[nodiscard]] std::size_t level_count() const noexcept { return window_count_ + outside_level_count(); }
  [[nodiscard]] bool empty() const noexcept { return window_count_ == 0 && outside_empty(); }

  /// Calls f(price_level) for the levels from the best on, until f returns false or the levels end: the
  /// window's levels merged with the map's. O(levels visited) plus a bitmap scan between window levels.
  template <class F>
  void for_each_level(F&& f) const {
    const bool map_levels = !outside_empty();
    auto it = map_levels ? outside_->begin() : typename level_map::const_iterator{};
    const auto end = map_levels ? outside_->end() : typename level_map::const_iterator{};
    std::int64_t slot = window_count_ > 0 ? best_slot_ : -1;
    while (slot >= 0 || it != end) {
      price_level next;
      if (slot >= 0 && (it == end || !better<K>(it->first, tick_price_of(slot)))) {
        next = level_at(slot);
        slot = slot == worst_slot_ ? -1 : next_set(slot);
      } else {
        next = {it->first, it->second};
        ++it;
      }
      if (!f(next)) return;
    }
  }

  /// Levels held in the window and in the map (for tests and diagnostics).
  [[nodiscard]] std::size_t window_level_count() const noexcept { return window_count_; }
  [[nodiscard]] std::size_t outside_level_count() const noexcept { return outside_ ? outside_->size() : 0; }
  /// Price levels the window spans: the configured size (a power of two) or more once it grew (see grow()).
  [[nodiscard]] std::size_t window_size() const noexcept { return window(); }
  /// Price of the window's best end (slot 0).
  [[nodiscard]] itch5::price4 window_best_end() const noexcept {
    return itch5::tick_price(static_cast<std::uint32_t>(std::max<std::int32_t>(top_, 0)));
  }

 private:
  // The levels outside the window, and how many levels moved between it and the window since the window
  // last grew (kept here, off the side's hot cache line: it changes only when levels move).
  struct level_map : std::map<itch5::price4, std::uint64_t, better_first<K>> {
    std::uint64_t moved = 0;
  };

  // level_span() of an empty window or with off-grid levels: out of line, so that the common case inlines.
  [[gnu::noinline]] std::uint32_t level_span_otherwise() const noexcept {
    if (empty()) return 0;
    return itch5::levels_between(best().price, worst().price);
  }

  // The map's levels come and go through map_put() and map_remove() only, which keep outside_levels_ and
  // outside_worst_: whether the map has levels and its worst price, read without going to the map (its
  // object and the tree's last node were a miss or two on nearly every event of a book deeper than its
  // window, for level_span()).

  // Adds q shares at p to the map (a new level when p has none there); returns whether the level is new.
  bool map_put(itch5::price4 p, std::uint64_t q) {
    const auto [it, inserted] = outside().try_emplace(p, 0);
    it->second += q;
    if (inserted && (!outside_levels_ || better<K>(outside_worst_, p))) outside_worst_ = p;
    outside_levels_ = true;
    return inserted;
  }
  // Removes the map level at `it`; returns the one after it.
  typename level_map::iterator map_remove(typename level_map::iterator it) {
    const bool last = std::next(it) == outside_->end();
    it = outside_->erase(it);
    if (outside_->empty()) {
      outside_levels_ = false;
    } else if (last) {
      outside_worst_ = outside_->rbegin()->first;
    }
    return it;
  }

  // Levels in the window: a power of two >= 64 (stored as its log2, so that the side stays 40 bytes).
  [[nodiscard]] std::uint32_t window() const noexcept { return std::uint32_t{1} << window_bits_; }

  // Slot of tick t: 0 at the window's best end, growing away from the inside.
  [[nodiscard]] std::int64_t slot_of(std::int64_t t) const noexcept {
    return K == side_kind::buy ? std::int64_t{top_} - t : t - std::int64_t{top_};
  }
  [[nodiscard]] std::int64_t tick_of(std::int64_t slot) const noexcept {
    return K == side_kind::buy ? std::int64_t{top_} - slot : std::int64_t{top_} + slot;
  }
  // Array index of tick t (of any tick: the ring wraps; negative ticks, below the buy side's zero price,
  // too).
  [[nodiscard]] std::size_t index_of(std::int64_t t) const noexcept {
    return static_cast<std::size_t>(static_cast<std::uint64_t>(t) & (window() - 1));
  }
  // Slot of array index i: the inverse of index_of(tick_of(slot)) over the window.
  [[nodiscard]] std::int64_t slot_at(std::size_t i) const noexcept {
    const std::uint64_t top = static_cast<std::uint64_t>(std::int64_t{top_});
    const std::uint64_t d = K == side_kind::buy ? top - i : i - top;
    return static_cast<std::int64_t>(d & (window() - 1));
  }
  [[nodiscard]] itch5::price4 tick_price_of(std::int64_t slot) const noexcept {
    return itch5::tick_price(static_cast<std::uint32_t>(tick_of(slot)));
  }
  [[nodiscard]] price_level level_at(std::int64_t slot) const noexcept {
    const std::int64_t t = tick_of(slot);
    return {itch5::tick_price(static_cast<std::uint32_t>(t)), levels_[index_of(t)]};
  }
  [[nodiscard]] bool outside_empty() const noexcept { return !outside_levels_; }
  level_map& outside() {
    if (!outside_) outside_ = std::make_unique<level_map>();
    return *outside_;
  }
  [[nodiscard]] std::uint64_t* bits() const noexcept { return levels_ + window(); }
  // Level totals and the occupancy bitmap, in one zeroed block.
  [[nodiscard]] std::size_t block_words() const noexcept { return std::size_t{window()} + window() / 64; }

  void allocate() {
    levels_ = new std::uint64_t[block_words()]();
    owns_levels_ = true;
  }
  void release() noexcept {
    if (owns_levels_) delete[] levels_;
    levels_ = nullptr;
    owns_levels_ = false;
  }

  void mark(std::int64_t s, std::size_t i) noexcept {
    bits()[i >> 6] |= std::uint64_t{1} << (i & 63);
    if (window_count_++ == 0) {
      best_slot_ = worst_slot_ = static_cast<std::int32_t>(s);
      return;
    }
    if (s < best_slot_) best_slot_ = static_cast<std::int32_t>(s);
    if (s > worst_slot_) worst_slot_ = static_cast<std::int32_t>(s);
  }

  void unmark(std::int64_t s, std::size_t i) noexcept {
    bits()[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
    if (--window_count_ == 0) return;
    if (s == best_slot_) best_slot_ = static_cast<std::int32_t>(next_set(s));
    if (s == worst_slot_) worst_slot_ = static_cast<std::int32_t>(prev_set(s));
  }

  // The first set index at or after i going up (wrapping), and at or before i going down (wrapping). At
  // least one bit must be set.
  [[nodiscard]] std::size_t scan_up(std::size_t i) const noexcept {
    const std::uint64_t* b = bits();
    const std::size_t last_word = window() / 64 - 1;
    std::size_t w = i >> 6;
    std::uint64_t word = b[w] & (~std::uint64_t{0} << (i & 63));
    while (word == 0) word = b[w = (w + 1) & last_word];
    return (w << 6) + static_cast<std::size_t>(std::countr_zero(word));
  }
  [[nodiscard]] std::size_t scan_down(std::size_t i) const noexcept {
    const std::uint64_t* b = bits();
    const std::size_t last_word = window() / 64 - 1;
    std::size_t w = i >> 6;
    std::uint64_t word = b[w] & (~std::uint64_t{0} >> (63 - (i & 63)));
    while (word == 0) word = b[w = (w - 1) & last_word];
    return (w << 6) + 63 - static_cast<std::size_t>(std::countl_zero(word));
  }

  // First non-empty slot after s (one exists; s may be -1). Slots grow with the index for offers and
  // against it for bids.
  [[nodiscard]] std::int64_t next_set(std::int64_t s) const noexcept {
    const std::size_t from = index_of(tick_of(s + 1));
    return slot_at(K == side_kind::sell ? scan_up(from) : scan_down(from));
  }

  // Last non-empty slot before s (one exists; s may be the window size).
  [[nodiscard]] std::int64_t prev_set(std::int64_t s) const noexcept {
    const std::size_t from = index_of(tick_of(s - 1));
    return slot_at(K == side_kind::sell ? scan_down(from) : scan_up(from));
  }

  // Moves the window so that tick `anchor` sits at slot min(window/8, 64). Levels that stay in range stay
  // where they are in the ring; those the window leaves go to the map (evict), and map levels the new range
  // covers come in. Cost O(min(shift, window)/64 + window/64 + levels moved). (Sending every level through
  // the map cost ~145 us per move in bm_order_book; moving every level within an array indexed by slot cost
  // O(levels) per move, 1/6 of the time on books thousands of levels deep.)
  void recentre(std::int64_t anchor) {
    const std::int64_t w = window();
    // Room for the inside to improve before the next move; at most 64 slots, so that a grown window's
    // moves stay small (each one sends the levels of as many slots at the far end to the map).
    const std::int64_t margin = std::min<std::int64_t>(w / 8, 64);
    const std::int64_t new_top = K == side_kind::buy ? anchor + margin : anchor - margin;
    if (new_top == top_ && window_count_ > 0) return;
    const std::int64_t delta =
        K == side_kind::buy ? new_top - top_ : top_ - new_top;  // new slot = old slot + delta
    if (window_count_ > 0 && delta != 0) evict(delta);
    top_ = static_cast<std::int32_t>(new_top);
    if (window_count_ > 0) {
      best_slot_ = static_cast<std::int32_t>(next_set(-1));
      worst_slot_ = static_cast<std::int32_t>(prev_set(w));
    }
    if (outside_empty()) return;
    take_from_map();
    if (outside_->moved > window() / 2 && window() < max_grown_window && level_count() > window() / 8) {
      grow();
    }
  }

  // Map levels on the grid and inside the window's range come into it. The range in price order: from the
  // best end (slot 0) to the worst end (slot window - 1); better_first orders the map the same way.
  void take_from_map() {
    const std::int64_t best_tick = tick_of(0), worst_tick = tick_of(std::int64_t{window()} - 1);
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
      const std::int64_t t = itch5::tick_index(it->first);
      const std::size_t i = index_of(t);
      levels_[i] = it->second;
      mark(slot_of(t), i);
      ++outside_->moved;
      it = map_remove(it);
    }
  }

  // Doubles the window, its best end staying put, when re-centres keep moving levels to and from the map
  // (more than half the window since it last grew) and the side holds more than an eighth of a window of
  // levels: the book is deeper than the window around where its inside moves, and every move of the window
  // would otherwise keep sending levels to the map and back. The doubled window costs at most ~130 bytes
  // per level the side holds, about what two map nodes cost; the new block comes from the heap, not the
  // arena (whose blocks are for the default window; the old one stays unused there). O(new window).
  void grow() {
    const std::uint32_t grown = window() * 2;
    auto* const block = new std::uint64_t[std::size_t{grown} + grown / 64]();
    std::uint64_t* const grown_bits = block + grown;
    const std::uint64_t* const b = bits();
    for (std::size_t word = 0; word < window() / 64; ++word) {
      for (std::uint64_t m = b[word]; m != 0; m &= m - 1) {
        const std::size_t i = (word << 6) + static_cast<std::size_t>(std::countr_zero(m));
        const std::size_t j =
            static_cast<std::uint64_t>(tick_of(slot_at(i))) & (grown - 1);  // index_of, grown
        block[j] = levels_[i];
        grown_bits[j >> 6] |= std::uint64_t{1} << (j & 63);
      }
    }
    release();
    levels_ = block;
    owns_levels_ = true;
    window_bits_ = static_cast<std::uint8_t>(window_bits_ + 1);
    outside_->moved = 0;
    take_from_map();  // best and worst slots are the same slots (slot 0 stays); mark() widens worst
  }

  // Before the window shifts so that old slot s becomes s + delta: the levels of the slots that fall out of
  // it (s + delta outside [0, window)) go to the map. Those slots are consecutive, and so are their indices
  // in the ring (up to one wrap).
  void evict(std::int64_t delta) {
    const std::int64_t w = window();
    const std::int64_t k = std::min<std::int64_t>(delta > 0 ? delta : -delta, w);  // slots leaving
    // The leaving slots: [w - k, w) when the window moves towards better prices, [0, k) otherwise.
    const std::int64_t first = delta > 0 ? w - k : 0;
    // Their lowest index: slots grow with indices for offers, against them for bids.
    const std::size_t lo = index_of(tick_of(K == side_kind::sell ? first : first + k - 1));
    std::uint64_t* b = bits();
    auto evict_range = [&](std::size_t from, std::size_t to) {  // indices [from, to), no wrap
      for (std::size_t word = from >> 6; word < (to + 63) >> 6; ++word) {
        std::uint64_t m = b[word];
        if (word == from >> 6) m &= ~std::uint64_t{0} << (from & 63);
        if (word == (to - 1) >> 6) m &= ~std::uint64_t{0} >> (63 - ((to - 1) & 63));
        if (m == 0) continue;
        b[word] &= ~m;
        for (; m != 0; m &= m - 1) {
          const std::size_t i = (word << 6) + static_cast<std::size_t>(std::countr_zero(m));
          map_put(tick_price_of(slot_at(i)), levels_[i]);
          ++outside_->moved;
          levels_[i] = 0;
          --window_count_;
        }
      }
    };
    const std::size_t n = static_cast<std::size_t>(k);
    if (lo + n <= window()) {
      evict_range(lo, lo + n);
    } else {
      evict_range(lo, window());
      evict_range(0, lo + n - window());
    }
  }

  // Hot fields first: one cache line holds everything add/reduce/best touch besides the levels.
  std::uint64_t* levels_ = nullptr;  // window() level totals, then window() / 64 bitmap words
  std::int32_t top_ = 0;             // tick of slot 0
  std::int32_t best_slot_ = 0;
  std::int32_t worst_slot_ = 0;
  std::uint32_t window_count_ = 0;
  itch5::price4 outside_worst_{};  // the map's worst price, when outside_levels_
  // Off-grid levels in the map (malformed input only); at `sticky` the count stops and stays (the side
  // then always answers "the best may have changed").
  std::uint8_t off_grid_ = 0;
  static constexpr std::uint8_t sticky = 0xff;
  std::uint8_t window_bits_;     // log2 of the levels in the window (window(): a power of two >= 64)
  bool outside_levels_ = false;  // the map has levels
  // The largest window grow() makes: 512 KiB of levels and 8 KiB of bitmap ($655 of one-cent ticks).
  static constexpr std::uint32_t max_grown_window = std::uint32_t{1} << 16;
  bool owns_levels_ = false;            // levels_ came from the heap (else from an arena, or none)
  std::unique_ptr<level_map> outside_;  // levels outside the window or off the grid; created on use
};

}  // namespace itch5::book
