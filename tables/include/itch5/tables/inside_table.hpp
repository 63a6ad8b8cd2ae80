// The inside table: one row per change of a symbol's best bid or offer (price or size), the inside file's
// columns as a table (itch5/inside_line.hpp). An empty bid is price 0 size 0 and an empty offer price
// 2000000000 size 0, as in the inside file, so that a row and the file's line hold the same numbers.
// Rows are plain data; visit() is O(columns). Thread-safety: none needed (no state).
#pragma once

#include <cstdint>
#include <string_view>

#include <itch5/price.hpp>
#include <itch5/stock_symbol.hpp>
#include <itch5/timestamp.hpp>

namespace itch5::tables {

struct inside_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  itch5::price4 bid_price{};
  std::uint64_t bid_size = 0;
  itch5::price4 ask_price{};
  std::uint64_t ask_size = 0;
};

struct inside_table {
  static constexpr std::string_view name = "inside";
  using row = inside_row;
  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "nanoseconds since midnight of the message that changed the inside"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the stock's symbol"}, r.symbol);
    v({"bid_price", "best bid price in $0.0001; 0 when there is no bid"}, r.bid_price);
    v({"bid_size", "shares at the best bid; 0 when there is no bid"}, r.bid_size);
    v({"ask_price", "best offer price in $0.0001; 2000000000 when there is no offer"}, r.ask_price);
    v({"ask_size", "shares at the best offer; 0 when there is no offer"}, r.ask_size);
  }
};

}  // namespace itch5::tables
