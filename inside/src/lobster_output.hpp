// The LOBSTER part of the table outputs (table_outputs.hpp; inside_options::tables.lobster, lobster.hpp):
// per chosen symbol, a message row for each event in the time range and the book row after it.
//
// Each symbol keeps its last book row; an order event refreshes only its side's levels (an event acts on one
// side), walking the side's top `levels` from the best (for_each_level); after events outside the range
// (which change the book without a row) the next row refreshes both sides. A replace's in-between row (the
// book after the old order left, before the new one came) is the book after the replace without the new
// order's shares at its price, from the side's top `levels` + 1. P, Q and H rows repeat the last book row,
// and so do events beyond the levels shown (a side showing `levels` levels, a price worse than the last).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <itch5/messages.hpp>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/tables/lobster_table.hpp>
#include <itch5/tables/table_sink.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>
#include <itch5/inside/lobster.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

class lobster_output {
 public:
  explicit lobster_output(const inside_options& opt) : levels_(opt.tables.lobster->levels) {
    for (const lobster_symbol& s : opt.tables.lobster->symbols) {
      states_.push_back(std::make_unique<symbol_state>(s, levels_, opt.tables.writer));
      by_name_.emplace(upper_case(s.symbol), states_.back().get());
    }
  }

  static bool wanted(const inside_options& opt) { return opt.tables.lobster != nullptr; }

  void on_symbol(std::uint16_t locate, std::string_view name) {
    const auto it = by_name_.find(upper_case(name));
    if (it == by_name_.end()) return;
    if (by_locate_.size() <= locate) by_locate_.resize(std::size_t{locate} + 1, nullptr);
    by_locate_[locate] = it->second;
  }

  template <class Book>
  void outside_range(const book::book_event& e, const book::order_book<Book>&) {
    if (symbol_state* s = state_of(e.locate)) s->stale = true;
  }

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    symbol_state* s = state_of(e.locate);
    if (s == nullptr) return;
    const std::int64_t direction = e.side == book::side_kind::buy ? 1 : -1;
    const auto price = static_cast<std::int64_t>(e.price.units());
    // An event beyond the levels shown (a full side, at a worse price than its last level) leaves the row.
    const bool unchanged =
        !s->stale && s->beyond(e.side, price) &&
        (e.type != 'U' || s->beyond(e.side, static_cast<std::int64_t>(e.old_price.units())));
    switch (e.type) {
      case 'A':
      case 'F':
        s->message(e.timestamp, tables::lobster_new_order, e.order_ref, e.shares, price, direction);
        break;
      case 'X':
        s->message(e.timestamp, tables::lobster_partial_cancel, e.order_ref, e.shares, price, direction);
        break;
      case 'D':
        s->message(e.timestamp, tables::lobster_full_delete, e.order_ref, e.shares, price, direction);
        break;
      case 'E':
      case 'C':
        s->message(e.timestamp, tables::lobster_visible_execution, e.order_ref, e.shares, price, direction);
        break;
      case 'U':
        s->message(e.timestamp, tables::lobster_full_delete, e.old_ref, e.old_shares,
                   static_cast<std::int64_t>(e.old_price.units()), direction);
        if (e.shares != 0) {  // the new order was added: the book between the two, then the add
          if (unchanged) {
            s->emit(s->last);
          } else {
            s->book_without(b, e.side, e.price, e.shares);
          }
          s->message(e.timestamp, tables::lobster_new_order, e.order_ref, e.shares, price, direction);
        }
        break;
      default: return;
    }
    if (unchanged) {
      s->emit(s->last);
    } else {
      s->book_after(b, e.side);
    }
  }

  template <class Book>
  void on_message(const itch5::trade& m, const book::order_book<Book>* b) {
    if (symbol_state* s = state_of(m.header.stock_locate)) {
      s->message(m.header.timestamp, tables::lobster_hidden_execution, m.order_ref, m.shares,
                 static_cast<std::int64_t>(m.price.units()), m.side == 'S' ? -1 : 1);
      s->book_unchanged(b);
    }
  }

  template <class Book>
  void on_message(const itch5::cross_trade& m, const book::order_book<Book>* b) {
    if (symbol_state* s = state_of(m.header.stock_locate)) {
      s->message(m.header.timestamp, tables::lobster_cross, cross_order_id(m.cross_type), m.shares,
                 static_cast<std::int64_t>(m.cross_price.units()), -1);
      s->book_unchanged(b);
    }
  }

  template <class Book>
  void on_message(const itch5::stock_trading_action& m, const book::order_book<Book>* b) {
    if (symbol_state* s = state_of(m.header.stock_locate)) {
      s->message(m.header.timestamp, tables::lobster_trading_halt, 0, 0, halt_price(m.trading_state), -1);
      s->book_unchanged(b);
    }
  }

  void finish(const inside_options&, const name_function&, inside_result&) {
    for (auto& s : states_) {
      s->messages.finish();
      s->orderbook.finish();
    }
  }

  /// LOBSTER's pseudo order id of a cross: -1 opening, -2 closing, -3 IPO or halt, -4 intraday (and any
  /// other cross type).
  static std::int64_t cross_order_id(char cross_type) noexcept {
    switch (cross_type) {
      case 'O': return -1;
      case 'C': return -2;
      case 'H': return -3;
      default: return -4;
    }
  }

  /// LOBSTER's type-7 price of a trading state: -1 halted or paused, 0 quotation only, 1 trading (and any
  /// other state).
  static std::int64_t halt_price(char trading_state) noexcept {
    switch (trading_state) {
      case 'H':
      case 'P': return -1;
      case 'Q': return 0;
      default: return 1;
    }
  }

 private:
  struct symbol_state {
    // Book rows in batches of ~1 MiB, or of ~256 KiB each of a writer's four buffers.
    symbol_state(const lobster_symbol& s, unsigned levels, tables::sink_thread* writer)
        : messages(*s.messages, 4096, writer),
          orderbook(*s.orderbook,
                    std::max<std::size_t>(64, ((writer ? std::size_t{256} : std::size_t{1024}) << 10) /
                                                  sizeof(tables::lobster_orderbook_row)),
                    writer) {
      last.levels = levels;
    }

    void message(itch5::timestamp t, std::int64_t type, std::int64_t id, std::uint64_t size,
                 std::int64_t price, std::int64_t direction) {
      tables::lobster_message_row& r = messages.next();
      r.time = t;
      r.event_type = type;
      r.order_id = id;
      r.size = size;
      r.price = price;
      r.direction = direction;
    }

    // Whether `price` on `side` is beyond the levels the last row shows: the side shows all its levels and
    // the price is worse than the last one's.
    [[nodiscard]] bool beyond(book::side_kind side, std::int64_t price) const noexcept {
      const tables::lobster_level& l = last.level[last.levels - 1];
      if (side == book::side_kind::sell) return l.ask_size != 0 && price > l.ask_price;
      return l.bid_size != 0 && price < l.bid_price;
    }

    // The book row after an event on `side` of `b`.
    template <class Book>
    void book_after(const book::order_book<Book>& b, book::side_kind side) {
      if (stale) {
        fill_asks(b.offers, last);
        fill_bids(b.bids, last);
        stale = false;
      } else if (side == book::side_kind::sell) {
        fill_asks(b.offers, last);
      } else {
        fill_bids(b.bids, last);
      }
      emit(last);
    }

    // The book row of a message that does not change the book (P, Q, H): the last one.
    template <class Book>
    void book_unchanged(const book::order_book<Book>* b) {
      if (stale && b != nullptr) {
        fill_asks(b->offers, last);
        fill_bids(b->bids, last);
        stale = false;
      }
      emit(last);
    }

    // The book row of `b` without `shares` at `price` on `side` (a replace's row between its delete and add).
    template <class Book>
    void book_without(const book::order_book<Book>& b, book::side_kind side, itch5::price4 price,
                      std::uint64_t shares) {
      tables::lobster_orderbook_row& r = orderbook.next();
      r.levels = last.levels;
      if (side == book::side_kind::sell) {
        fill_asks(b.offers, r, price, shares);
        if (stale) {
          fill_bids(b.bids, r);
        } else {
          for (unsigned i = 0; i < r.levels; ++i) copy_bid(r.level[i], last.level[i]);
        }
      } else {
        fill_bids(b.bids, r, price, shares);
        if (stale) {
          fill_asks(b.offers, r);
        } else {
          for (unsigned i = 0; i < r.levels; ++i) copy_ask(r.level[i], last.level[i]);
        }
      }
    }

    void emit(const tables::lobster_orderbook_row& row) {
      tables::lobster_orderbook_row& r = orderbook.next();
      r.levels = row.levels;
      std::copy_n(row.level.begin(), row.levels, r.level.begin());
    }

    static void copy_bid(tables::lobster_level& to, const tables::lobster_level& from) noexcept {
      to.bid_price = from.bid_price;
      to.bid_size = from.bid_size;
    }
    static void copy_ask(tables::lobster_level& to, const tables::lobster_level& from) noexcept {
      to.ask_price = from.ask_price;
      to.ask_size = from.ask_size;
    }

    // The top r.levels of a side into r, from the best; without `minus` shares at `minus_price`.
    template <class Side>
    static void fill_asks(const Side& side, tables::lobster_orderbook_row& r, itch5::price4 minus_price = {},
                          std::uint64_t minus = 0) {
      unsigned i = 0;
      side.for_each_level([&](const book::price_level& l) {
        const std::uint64_t shares = l.price == minus_price ? l.shares - std::min(l.shares, minus) : l.shares;
        if (shares == 0) return true;
        r.level[i].ask_price = static_cast<std::int64_t>(l.price.units());
        r.level[i].ask_size = shares;
        return ++i < r.levels;
      });
      for (; i < r.levels; ++i) {
        r.level[i].ask_price = tables::lobster_empty_ask_price;
        r.level[i].ask_size = 0;
      }
    }
    template <class Side>
    static void fill_bids(const Side& side, tables::lobster_orderbook_row& r, itch5::price4 minus_price = {},
                          std::uint64_t minus = 0) {
      unsigned i = 0;
      side.for_each_level([&](const book::price_level& l) {
        const std::uint64_t shares = l.price == minus_price ? l.shares - std::min(l.shares, minus) : l.shares;
        if (shares == 0) return true;
        r.level[i].bid_price = static_cast<std::int64_t>(l.price.units());
        r.level[i].bid_size = shares;
        return ++i < r.levels;
      });
      for (; i < r.levels; ++i) {
        r.level[i].bid_price = tables::lobster_empty_bid_price;
        r.level[i].bid_size = 0;
      }
    }

    tables::row_batch<tables::lobster_message_table> messages;
    tables::row_batch<tables::lobster_orderbook_table> orderbook;
    tables::lobster_orderbook_row last;  // the book row after the last event in the range
    bool stale = true;                   // the book changed since `last` (or `last` was never filled)
  };

  symbol_state* state_of(std::uint16_t locate) const noexcept {
    return locate < by_locate_.size() ? by_locate_[locate] : nullptr;
  }

  unsigned levels_;
  std::vector<std::unique_ptr<symbol_state>> states_;
  std::unordered_map<std::string, symbol_state*> by_name_;
  std::vector<symbol_state*> by_locate_;
};

}  // namespace itch5::inside
