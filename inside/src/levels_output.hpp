// The N-level book table's part of table_outputs (--book-levels, --levels N, --every): after each book
// event of a wanted symbol, whether its top N levels (price, shares or order count, either side) changed,
// and a row of both sides' top N if so; or, with `every`, each symbol's top N at every grid time.
//
// Per symbol it keeps the top N of each side as last seen (with order counts), and changes them by what the
// event did (book_event: the order's price, the shares moved, whether the order left; a replace as its
// removal then its add). Only the side the event touched can change, and an event on a price worse than
// the Nth level of a full top N changes nothing (one comparison); otherwise the level is found among the N
// and changed, inserted or removed. When a level leaves a full top N, the next one comes from the book's
// side (for_each_level, skipping the N - 1 levels kept), its order count from level_counts (the book sides
// keep shares only), which holds the counts of the levels beyond the kept ones: an event in the top N
// changes the kept level's count and touches no hash (on the 20 M day that hash's cache misses were ~0.5 s
// of the books' thread), a deeper one updates its level's count there, and a level moves between the two
// when it enters or leaves the top N. Per event: O(N) at most in the top N, one hash update for a deeper
// order event or a level that leaves or enters, and O(N) to refill; a row is O(N) to copy.
//
// With `every` (a duration D > 0): before an event at or after the next grid time g (g a multiple of D in
// [from, to)), a row per symbol seen so far, in locate order, with the top N as of after every message
// before g (the event not yet applied), stamped g; again for each grid time the event passes. A grid time
// after the last event of the wanted symbols has no rows.
//
// Rows go to the table's sink in batches of ~2 MiB (8 MiB in all with the sink thread's 4 buffers): a
// hand-over, with its lock and often a futex wake of the sleeping writer, every ~1,300 rows of 1.6 KB rather
// than every 160. Used by the books' thread only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <itch5/price.hpp>
#include <itch5/stock_symbol.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/book_event.hpp>
#include <itch5/book/detail/prefetch.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/book/side_kind.hpp>

#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/table_sink.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "level_counts.hpp"
#include "symbol_filter.hpp"

namespace itch5::inside {

class levels_output {
 public:
  using row = tables::levels_row;

  explicit levels_output(const inside_options& opt)
      : levels_(opt.tables.levels),
        every_(opt.tables.every.count()),
        to_(opt.to.count()),
        batch_(*opt.tables.book_levels, batch_rows(), opt.tables.writer),
        slot_(std::size_t{1} << 16, none) {
    check(opt.tables);
    if (every_ > 0) {
      const std::int64_t from = std::max<std::int64_t>(opt.from.count(), 0);
      next_grid_ = (from + every_ - 1) / every_ * every_;
    }
  }

  /// Throws std::invalid_argument when `t` asks for a table this output cannot make: levels outside 1 to
  /// max_levels, a grid of a negative duration or one longer than a day.
  static void check(const table_options& t) {
    if (t.levels < 1 || t.levels > tables::max_levels) {
      throw std::invalid_argument("levels must be between 1 and " + std::to_string(tables::max_levels) +
                                  ", not " + std::to_string(t.levels));
    }
    if (t.every.count() < 0 || t.every > itch5::one_day) {
      throw std::invalid_argument("every must be between 1 ns and a day (0: a row per change)");
    }
  }

  static bool wanted(const inside_options& opt) { return opt.tables.book_levels != nullptr; }

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    step(e, b, true);
  }

  template <class Book>
  void outside_range(const book::book_event& e, const book::order_book<Book>& b) {
    step(e, b, false);
  }

  void finish(const inside_options&, const name_function&, inside_result&) { batch_.finish(); }

 private:
  static constexpr std::uint32_t none = 0xffffffff;

  // Rows per batch: ~2 MiB of them (a row holds room for max_levels levels).
  static std::size_t batch_rows() {
    return std::max<std::size_t>(16, (std::size_t{2048} << 10) / sizeof(row));
  }

  // Per symbol followed: its symbol, and the top N of each side (levels_ entries each, best first).
  struct symbol_state {
    itch5::stock_symbol symbol{};
    std::uint16_t locate = 0;
    std::uint32_t bids = 0;  // levels kept in the bid top N
    std::uint32_t asks = 0;
  };

  template <class Book>
  void step(const book::book_event& e, const book::order_book<Book>& b, bool in_range) {
    if (every_ > 0 && e.timestamp.count() >= next_grid_) [[unlikely]]
      grid_rows(e.timestamp.count());
    std::uint32_t k = slot_[e.locate];
    if (k == none) [[unlikely]]
      k = follow(e.locate);
    symbol_state& s = states_[k];
    s.symbol = b.symbol;
    bool changed;
    if (e.side == book::side_kind::buy) {
      changed = apply<book::side_kind::buy>(e, b.bids, top(k, book::side_kind::buy), s.bids);
    } else {
      changed = apply<book::side_kind::sell>(e, b.offers, top(k, book::side_kind::sell), s.asks);
    }
    if (changed && in_range && every_ == 0) write_row(e.timestamp, k);
  }

  [[nodiscard]] tables::book_level* top(std::uint32_t k, book::side_kind side) noexcept {
    return levels_store_.data() + (std::size_t{k} * 2 + (side == book::side_kind::sell ? 1 : 0)) * levels_;
  }

  // Starts following `locate` (its first event): its state, and its place in locate order.
  [[gnu::noinline, gnu::cold]] std::uint32_t follow(std::uint16_t locate) {
    const auto k = static_cast<std::uint32_t>(states_.size());
    states_.push_back({});
    states_.back().locate = locate;
    levels_store_.resize(levels_store_.size() + std::size_t{2} * levels_);
    slot_[locate] = k;
    order_.insert(std::upper_bound(order_.begin(), order_.end(), locate), locate);
    return k;
  }

  template <book::side_kind K>
  static bool better(itch5::price4 a, itch5::price4 b) noexcept {
    return K == book::side_kind::buy ? a > b : a < b;
  }

  // Changes the side's kept top N (`top`, `n` levels) by what event `e` did to `side`; true when it changed.
  template <book::side_kind K, class Side>
  bool apply(const book::book_event& e, const Side& side, tables::book_level* top, std::uint32_t& n) {
    bool deeper = n == levels_;  // the side may have levels beyond the kept ones
    bool changed = false;
    bool lost = false;  // a kept level found inconsistent with the event: rebuild from the book
    const auto change = [&](itch5::price4 p, std::int64_t shares, int orders) {
      // Past the last kept level (the common case of a deep event): nothing kept changes, unless the
      // kept levels are the whole side and this is a new worst level with room for it. The order counts
      // of the levels beyond the kept ones are in counts_ (the kept ones carry theirs).
      if (n == 0 || better<K>(top[n - 1].price, p)) {
        if (!deeper) {
          if (shares <= 0) {
            lost = true;
            return;
          }
          if (n < levels_) {
            top[n++] = {p, static_cast<std::uint32_t>(orders), static_cast<std::uint64_t>(shares)};
            changed = true;
            return;
          }
          deeper = true;
        }
        if (orders != 0) counts_.add(e.locate, K, p, orders);
        return;
      }
      std::uint32_t i = 0;
      while (better<K>(top[i].price, p)) ++i;  // stops at n - 1 at the latest
      changed = true;
      tables::book_level& l = top[i];
      if (l.price == p) {
        if (shares < 0 && static_cast<std::uint64_t>(-shares) >= l.shares) {
          std::copy(top + i + 1, top + n, top + i);  // the level is gone
          --n;
          return;
        }
        l.shares = static_cast<std::uint64_t>(static_cast<std::int64_t>(l.shares) + shares);
        l.count = static_cast<std::uint32_t>(static_cast<std::int64_t>(l.count) + orders);
        return;
      }
      if (shares <= 0) {
        lost = true;
        return;
      }
      // A new level between kept ones: the last kept one drops out of a full top N, its count to counts_.
      if (n == levels_) {
        --n;
        counts_.add(e.locate, K, top[n].price, static_cast<int>(top[n].count));
        deeper = true;
      }
      std::copy_backward(top + i, top + n, top + n + 1);
      top[i] = {p, static_cast<std::uint32_t>(orders), static_cast<std::uint64_t>(shares)};
      ++n;
    };
    switch (e.type) {
      case 'A':
      case 'F': change(e.price, e.shares, 1); break;
      case 'E':
      case 'C':
      case 'X': change(e.price, -static_cast<std::int64_t>(e.shares), e.remaining == 0 ? -1 : 0); break;
      case 'D': change(e.price, -static_cast<std::int64_t>(e.shares), -1); break;
      case 'U':
        if (e.shares == e.old_shares && e.price == e.old_price) return false;  // the same order again
        change(e.old_price, -static_cast<std::int64_t>(e.old_shares), -1);
        if (e.shares != 0) change(e.price, e.shares, 1);
        break;
      default: return false;
    }
    if (lost) [[unlikely]] {
      rebuild<K>(e.locate, side, top, n);
      return true;
    }
    if (deeper && n < levels_) changed |= refill<K>(e.locate, side, top, n);
    return changed;
  }

  // Appends the side's levels after the n kept ones, up to N, with their order counts (out of counts_).
  template <book::side_kind K, class Side>
  bool refill(std::uint16_t locate, const Side& side, tables::book_level* top, std::uint32_t& n) {
    const std::uint32_t had = n;
    std::uint32_t seen = 0;
    side.for_each_level([&](const book::price_level& l) {
      if (seen++ < had) return true;
      top[n++] = {l.price, counts_.take(locate, K, l.price), l.shares};
      return n < levels_;
    });
    return n != had;
  }

  // The side's top N from the book and the counts, the kept levels' counts given back to counts_ first
  // (never needed on consistent events; kept for safety).
  template <book::side_kind K, class Side>
  [[gnu::noinline, gnu::cold]] void rebuild(std::uint16_t locate, const Side& side, tables::book_level* top,
                                            std::uint32_t& n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      if (top[i].count != 0) counts_.add(locate, K, top[i].price, static_cast<int>(top[i].count));
    }
    n = 0;
    refill<K>(locate, side, top, n);
  }

  void write_row(itch5::timestamp ts, std::uint32_t k) {
    const symbol_state& s = states_[k];
    if (row* const later = batch_.ahead(8)) {
      // The slot 8 rows on was last read by the sink thread on the other core: ask for its lines, for
      // writing, before they are needed.
      book::detail::prefetch_for_write(later);
      const auto* const bid = reinterpret_cast<const char*>(later->bid.data());
      const auto* const ask = reinterpret_cast<const char*>(later->ask.data());
      for (std::size_t at = 0; at < levels_ * sizeof(tables::book_level); at += 64) {
        book::detail::prefetch_for_write(bid + at);
        book::detail::prefetch_for_write(ask + at);
      }
    }
    row& r = batch_.next();
    r.timestamp = ts;
    r.locate = s.locate;
    r.symbol = s.symbol;
    r.levels = levels_;
    const tables::book_level* bids = top(k, book::side_kind::buy);
    const tables::book_level* asks = top(k, book::side_kind::sell);
    std::copy(bids, bids + s.bids, r.bid.begin());
    std::fill(r.bid.begin() + s.bids, r.bid.begin() + levels_, tables::book_level{});
    std::copy(asks, asks + s.asks, r.ask.begin());
    std::fill(r.ask.begin() + s.asks, r.ask.begin() + levels_, tables::book_level{});
  }

  // The rows of every grid time up to `ts` (and before --to): each symbol followed, in locate order.
  [[gnu::noinline]] void grid_rows(std::int64_t ts) {
    while (next_grid_ <= ts && next_grid_ < to_) {
      for (const std::uint16_t locate : order_) write_row(itch5::timestamp(next_grid_), slot_[locate]);
      next_grid_ += every_;
    }
    if (next_grid_ >= to_) next_grid_ = std::numeric_limits<std::int64_t>::max();
  }

  std::uint32_t levels_;
  std::int64_t every_;
  std::int64_t to_;
  std::int64_t next_grid_ = std::numeric_limits<std::int64_t>::max();
  tables::row_batch<tables::levels_table> batch_;
  level_counts counts_;
  std::vector<std::uint32_t> slot_;               // per locate: its state's index, or none
  std::vector<symbol_state> states_;              // per symbol followed, in the order first seen
  std::vector<tables::book_level> levels_store_;  // per symbol followed: bid top N, then ask top N
  std::vector<std::uint16_t> order_;              // the locates followed, ascending (grid rows)
};

}  // namespace itch5::inside
