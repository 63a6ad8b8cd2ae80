// LOBSTER's two files (lobsterdata.com, "data structure"), as tables: the message file (one row per event)
// and the orderbook file (the book `levels` deep after each event), written by itch5lobster per symbol
// (inside/lobster.hpp) without a header, times as seconds after midnight (lobster_csv.hpp).
//
// Message row: time, event type (1 new order, 2 partial cancel, 3 full delete, 4 visible execution, 5
// hidden execution, 6 cross, 7 trading halt), order id, size, price (integer $0.0001; -1/0/1 for type 7),
// direction (1 buy, -1 sell). Orderbook row: per level from the best, ask price, ask size, bid price, bid
// size; a level the side does not have is written as LOBSTER writes it (ask price 9999999999, bid price
// -9999999999, size 0). The orderbook row's column count follows its `levels` (1 to lobster_max_levels):
// schema_of takes a prototype row with `levels` set.
//
// Plain data; rows are small to copy (the orderbook row holds lobster_max_levels levels, 1.6 KB).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/timestamp.hpp>

#include <itch5/tables/column.hpp>

namespace itch5::tables {

/// The most levels a LOBSTER orderbook row holds (itch5lobster --levels 1 to this).
inline constexpr unsigned lobster_max_levels = 50;
/// The price LOBSTER writes for a level the ask side does not have, and for one the bid side does not have.
inline constexpr std::int64_t lobster_empty_ask_price = 9'999'999'999;
inline constexpr std::int64_t lobster_empty_bid_price = -9'999'999'999;

/// LOBSTER's event types (message file, column 2).
enum lobster_event : std::int64_t {
  lobster_new_order = 1,
  lobster_partial_cancel = 2,
  lobster_full_delete = 3,
  lobster_visible_execution = 4,
  lobster_hidden_execution = 5,
  lobster_cross = 6,
  lobster_trading_halt = 7,
};

struct lobster_message_row {
  itch5::timestamp time{};
  std::int64_t event_type = 0;
  std::int64_t order_id = 0;
  std::uint64_t size = 0;
  std::int64_t price = 0;
  std::int64_t direction = 0;
};

struct lobster_message_table {
  static constexpr std::string_view name = "lobster_message";
  using row = lobster_message_row;
  template <class V>
  static void visit(V& v, const row& r) {
    v({"time", "the message's timestamp (LOBSTER file: seconds after midnight, nanosecond decimals)"},
      r.time);
    v({"event_type",
       "1 new order (A, F; a replace's new order), 2 partial cancel (X), 3 full delete (D; a replace's old "
       "order), 4 visible execution (E, C), 5 hidden execution (P), 6 cross (Q), 7 trading halt (H)"},
      r.event_type);
    v({"order_id",
       "the order's reference number (P: the message's, 0 on Nasdaq since 2010; Q: -1 opening, -2 closing, "
       "-3 IPO or halt, -4 intraday cross; H: 0)"},
      r.order_id);
    v({"size", "shares added, cancelled, deleted or executed (Q: the cross's shares; H: 0)"}, r.size);
    v({"price",
       "the order's price in $0.0001 (E and C: the resting order's; P, Q: the print's); H: -1 halted or "
       "paused, 0 quotation only, 1 trading"},
      r.price);
    v({"direction", "1 buy order, -1 sell order (P: as the message says, B since 2014; Q and H: -1)"},
      r.direction);
  }
};

struct lobster_level {
  std::int64_t ask_price = lobster_empty_ask_price;
  std::uint64_t ask_size = 0;
  std::int64_t bid_price = lobster_empty_bid_price;
  std::uint64_t bid_size = 0;
  friend bool operator==(const lobster_level&, const lobster_level&) = default;
};

struct lobster_orderbook_row {
  /// How many levels the row has (1 to lobster_max_levels): not a column, it shapes the columns.
  std::uint32_t levels = 10;
  std::array<lobster_level, lobster_max_levels> level{};
};

struct lobster_orderbook_table {
  static constexpr std::string_view name = "lobster_orderbook";
  using row = lobster_orderbook_row;
  template <class V>
  static void visit(V& v, const row& r) {
    for (unsigned i = 0; i < r.levels; ++i) {
      const int n = static_cast<int>(i) + 1;
      const lobster_level& l = r.level[i];
      v({"ask_price_", "level n's ask price in $0.0001 (n = 1 the best; none: 9999999999)", n}, l.ask_price);
      v({"ask_size_", "shares at that ask price (none: 0)", n}, l.ask_size);
      v({"bid_price_", "level n's bid price in $0.0001 (n = 1 the best; none: -9999999999)", n}, l.bid_price);
      v({"bid_size_", "shares at that bid price (none: 0)", n}, l.bid_size);
    }
  }
};

}  // namespace itch5::tables
