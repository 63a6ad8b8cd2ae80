// The trades table (itch5inside --trades): one row per print and per broken trade, in feed order.
//
//   E  Order Executed: a displayed order traded at its own price, which only the book knows (the engine's
//      book_event gives the resting order's price and side);
//   C  Order Executed With Price: a displayed order traded at another price, with its printable flag;
//   P  Trade (non-cross): a non-displayed order traded;
//   Q  Cross Trade: a Nasdaq cross (opening, closing, IPO/halt, intraday) with its total shares;
//   B  Broken Trade: the print with this match number is void (its other columns are empty).
//
// Rows are plain values (column.hpp): formatting a row is O(columns), no allocation. The statistics of the
// same prints per symbol are trade_stats_table.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <itch5/price.hpp>
#include <itch5/stock_symbol.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/tables/column.hpp>

namespace itch5::tables {

struct trade_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter kind{};
  std::optional<itch5::price4> price;
  std::optional<std::uint64_t> shares;
  std::optional<letter> side;
  std::uint64_t match_number = 0;
  std::optional<std::uint64_t> order_ref;
  std::optional<bool> printable;
  std::optional<letter> cross_type;

  friend bool operator==(const trade_row&, const trade_row&) = default;
};

struct trades_table {
  static constexpr std::string_view name = "trades";
  using row = trade_row;

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the stock (B: its locate's, from the stock directory)"}, r.symbol);
    v({"kind",
       "the message: E (execution at the resting order's price), C (execution with price), P (trade of a "
       "non-displayed order), Q (cross trade), B (broken trade)"},
      r.kind);
    v({"price",
       "the trade price: E the resting order's price (from the book), C the execution price, P the match "
       "price, Q the cross price; empty for B"},
      r.price);
    v({"shares",
       "shares traded (E, C: what left the order; Q: the cross's total, which may be 0); empty for B"},
      r.shares);
    v({"side",
       "E, C: the side of the resting order that traded, B (buy) or S (sell); the aggressor took the other "
       "side (S: a buyer took a resting sell). P: the message's indicator, which Nasdaq has sent as B for "
       "every P since 2014-07-14 whatever the resting side (so it says nothing). Empty for Q and B"},
      r.side);
    v({"match_number", "the day-unique match number (B: of the print it breaks)"}, r.match_number);
    v({"order_ref",
       "E, C: the resting order's reference; P: the message's when not 0 (Nasdaq sends 0 since 2010-12-06); "
       "empty otherwise"},
      r.order_ref);
    v({"printable",
       "C only: 1 printable, 0 not (the spec: a non-printable execution is not to be shown in time and sales "
       "or counted in volume); empty for the other kinds"},
      r.printable);
    v({"cross_type",
       "Q only: O opening cross, C closing cross, H IPO or halted/paused security, I intraday or post-close "
       "cross; empty for the other kinds"},
      r.cross_type);
  }
};

}  // namespace itch5::tables
