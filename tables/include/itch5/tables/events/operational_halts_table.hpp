// The operational_halts table: one row per ITCH 'h' message, Operational Halt: a symbol operationally halted,
// or resumed, on one Nasdaq market.
//
// Columns: timestamp, locate, symbol, market_code, market_code_meaning, halt_action, halt_action_meaning.
// Codes are a letter column (empty for the specification's space, "not available") followed by a `_meaning`
// text column saying what the code means (the lists below). Row built by from() from the decoded message,
// O(columns); constant data and plain rows: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

inline constexpr std::array<code_meaning, 3> market_codes{{
    {'Q', "Nasdaq"},
    {'B', "BX"},
    {'X', "PSX"},
}};

inline constexpr std::array<code_meaning, 2> halt_actions{{
    {'H', "operationally halted on the market"},
    {'T', "operational halt lifted, trading resumed"},
}};

struct operational_halts_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter market_code{};
  text market_code_meaning{};
  letter halt_action{};
  text halt_action_meaning{};
};

struct operational_halts_table {
  static constexpr std::string_view name =
      "operational_halts";  ///< also the kind's name for --event-kinds and its file
  using row = operational_halts_row;
  using message = itch5::operational_halt;  ///< the 'h' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"market_code", "Q Nasdaq, B BX, X PSX"}, r.market_code);
    v({"market_code_meaning",
       "what market_code means, in words (empty for a code the specification does not define)"},
      r.market_code_meaning);
    v({"halt_action", "H: operationally halted, T: halt lifted"}, r.halt_action);
    v({"halt_action_meaning",
       "what halt_action means, in words (empty for a code the specification does not define)"},
      r.halt_action_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.market_code = code_letter(m.market_code);
    r.market_code_meaning = meaning_of(market_codes, m.market_code);
    r.halt_action = code_letter(m.halt_action);
    r.halt_action_meaning = meaning_of(halt_actions, m.halt_action);
    return r;
  }
};

}  // namespace itch5::tables::events
