// The reg_sho table: one row per ITCH 'Y' message, Reg SHO Short Sale Price Test Restricted Indicator:
// whether a symbol's short sales are under the price test.
//
// Columns: timestamp, locate, symbol, reg_sho_action, reg_sho_action_meaning. Codes are a letter column
// (empty for the specification's space, "not available") followed by a `_meaning` text column saying what the
// code means (the lists below). Row built by from() from the decoded message, O(columns); constant data and
// plain rows: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

inline constexpr std::array<code_meaning, 3> reg_sho_actions{{
    {'0', "no price test in place"},
    {'1', "short sale price test restriction in effect (intra-day price drop)"},
    {'2', "short sale price test restriction remains in effect"},
}};

struct reg_sho_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter reg_sho_action{};
  text reg_sho_action_meaning{};
};

struct reg_sho_table {
  static constexpr std::string_view name =
      "reg_sho";  ///< also the kind's name for --event-kinds and its file
  using row = reg_sho_row;
  using message = itch5::reg_sho_restriction;  ///< the 'Y' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"reg_sho_action",
       "0: no price test, 1: price test in effect (intra-day drop), 2: price test remains in effect"},
      r.reg_sho_action);
    v({"reg_sho_action_meaning",
       "what reg_sho_action means, in words (empty for a code the specification does not define)"},
      r.reg_sho_action_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.reg_sho_action = code_letter(m.reg_sho_action);
    r.reg_sho_action_meaning = meaning_of(reg_sho_actions, m.reg_sho_action);
    return r;
  }
};

}  // namespace itch5::tables::events
