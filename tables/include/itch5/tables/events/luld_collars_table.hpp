// The luld_collars table: one row per ITCH 'J' message, LULD Auction Collar: the price collars of a
// re-opening auction after a LULD trading pause.
//
// Columns: timestamp, locate, symbol, reference_price, upper_price, lower_price, extension. Codes are a
// letter column (empty for the specification's space, "not available") followed by a `_meaning` text column
// saying what the code means (the lists below). Row built by from() from the decoded message, O(columns);
// constant data and plain rows: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

struct luld_collars_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  itch5::price4 reference_price{};
  itch5::price4 upper_price{};
  itch5::price4 lower_price{};
  std::uint32_t extension{};
};

struct luld_collars_table {
  static constexpr std::string_view name =
      "luld_collars";  ///< also the kind's name for --event-kinds and its file
  using row = luld_collars_row;
  using message = itch5::luld_auction_collar;  ///< the 'J' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"reference_price", "auction collar reference price, Price(4)"}, r.reference_price);
    v({"upper_price", "upper auction collar price, Price(4)"}, r.upper_price);
    v({"lower_price", "lower auction collar price, Price(4)"}, r.lower_price);
    v({"extension", "how many times the collar was extended"}, r.extension);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.reference_price = m.reference_price;
    r.upper_price = m.upper_price;
    r.lower_price = m.lower_price;
    r.extension = m.extension;
    return r;
  }
};

}  // namespace itch5::tables::events
