// The trade statistics table (itch5inside --trade-stats): one row per symbol with rows in the trades table
// (trades_table.hpp), written at the end of the run, in stock locate order. Built by trade_stats_builder.
//
// Which prints count (trades, volume, notional, VWAP, first/last/high/low): E; C when printable; P; Q with
// shares (a cross of 0 shares only names a price). That is what the spec says belongs in time-and-sales and
// volume: a non-printable C is left out (its shares are in the non_printable columns; a cross's executions
// of displayed orders are typically marked so, and the Q that follows carries their total). A B (broken
// trade) is counted in `breaks` and does not undo its print: the B carries only the match number, and
// finding the print would mean keeping every print of the day. The trades table has both rows, joined by
// match_number.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <itch5/price.hpp>
#include <itch5/stock_symbol.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/tables/column.hpp>

namespace itch5::tables {

struct trade_stats_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  std::uint64_t trades = 0;
  std::uint64_t volume = 0;
  std::uint64_t notional = 0;
  std::optional<itch5::price4> vwap;
  std::optional<itch5::price4> first_price;
  std::optional<itch5::price4> last_price;
  std::optional<itch5::price4> high_price;
  std::optional<itch5::price4> low_price;
  std::uint64_t cross_volume = 0;
  std::uint64_t non_printable_trades = 0;
  std::uint64_t non_printable_volume = 0;
  std::uint64_t breaks = 0;

  friend bool operator==(const trade_stats_row&, const trade_stats_row&) = default;
};

struct trade_stats_table {
  static constexpr std::string_view name = "trade_stats";
  using row = trade_stats_row;

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight of the symbol's last row in the trades table"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the stock"}, r.symbol);
    v({"trades", "prints counted: E, printable C, P, Q of more than 0 shares"}, r.trades);
    v({"volume", "shares of the prints counted"}, r.volume);
    v({"notional",
       "sum of price x shares of the prints counted, exact, in $0.0001 (price4 units times shares: divide by "
       "10000 for dollars); 18446744073709551615 if the sum does not fit"},
      r.notional);
    v({"vwap",
       "notional / volume: the volume-weighted average price, rounded half up to $0.0001; empty without "
       "prints"},
      r.vwap);
    v({"first_price", "price of the first print counted (feed order)"}, r.first_price);
    v({"last_price", "price of the last print counted"}, r.last_price);
    v({"high_price", "highest price of the prints counted"}, r.high_price);
    v({"low_price", "lowest price of the prints counted"}, r.low_price);
    v({"cross_volume", "shares of the Q (cross) prints, included in volume"}, r.cross_volume);
    v({"non_printable_trades", "non-printable C executions, not counted above"}, r.non_printable_trades);
    v({"non_printable_volume", "their shares"}, r.non_printable_volume);
    v({"breaks", "B messages (broken trades) of the symbol; their prints stay counted above"}, r.breaks);
  }
};

}  // namespace itch5::tables
