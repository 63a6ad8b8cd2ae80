// The rpii table: one row per ITCH 'N' message, Retail Price Improvement Indicator: on which sides retail
// price improving orders are available.
//
// Columns: timestamp, locate, symbol, interest_flag, interest_flag_meaning. Codes are a letter column (empty
// for the specification's space, "not available") followed by a `_meaning` text column saying what the code
// means (the lists below). Row built by from() from the decoded message, O(columns); constant data and plain
// rows: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

inline constexpr std::array<code_meaning, 4> interest_flags{{
    {'B', "RPI orders available on the buy side"},
    {'S', "RPI orders available on the sell side"},
    {'A', "RPI orders available on both sides"},
    {'N', "no RPI orders available"},
}};

struct rpii_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter interest_flag{};
  text interest_flag_meaning{};
};

struct rpii_table {
  static constexpr std::string_view name = "rpii";  ///< also the kind's name for --event-kinds and its file
  using row = rpii_row;
  using message = itch5::rpii;  ///< the 'N' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"interest_flag", "B buy side, S sell side, A both, N none"}, r.interest_flag);
    v({"interest_flag_meaning",
       "what interest_flag means, in words (empty for a code the specification does not define)"},
      r.interest_flag_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.interest_flag = code_letter(m.interest_flag);
    r.interest_flag_meaning = meaning_of(interest_flags, m.interest_flag);
    return r;
  }
};

}  // namespace itch5::tables::events
