// The participant_positions table: one row per ITCH 'L' message, Market Participant Position: a market
// maker's status in a symbol.
//
// Columns: timestamp, locate, symbol, mpid, primary_market_maker, primary_market_maker_meaning,
// market_maker_mode, market_maker_mode_meaning, participant_state, participant_state_meaning. Codes are a
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

inline constexpr std::array<code_meaning, 2> primary_market_maker_codes{{
    {'Y', "primary market maker"},
    {'N', "not a primary market maker"},
}};

inline constexpr std::array<code_meaning, 5> market_maker_modes{{
    {'N', "normal"},
    {'P', "passive"},
    {'S', "syndicate"},
    {'R', "pre-syndicate"},
    {'L', "penalty"},
}};

inline constexpr std::array<code_meaning, 5> participant_states{{
    {'A', "active"},
    {'E', "excused"},
    {'W', "withdrawn"},
    {'S', "suspended"},
    {'D', "deleted"},
}};

struct participant_positions_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  itch5::stock_symbol mpid{};
  letter primary_market_maker{};
  text primary_market_maker_meaning{};
  letter market_maker_mode{};
  text market_maker_mode_meaning{};
  letter participant_state{};
  text participant_state_meaning{};
};

struct participant_positions_table {
  static constexpr std::string_view name =
      "participant_positions";  ///< also the kind's name for --event-kinds and its file
  using row = participant_positions_row;
  using message = itch5::market_participant_position;  ///< the 'L' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"mpid", "the market participant's identifier, up to 4 characters"}, r.mpid);
    v({"primary_market_maker", "Y: primary market maker, N: not"}, r.primary_market_maker);
    v({"primary_market_maker_meaning",
       "what primary_market_maker means, in words (empty for a code the specification does not define)"},
      r.primary_market_maker_meaning);
    v({"market_maker_mode", "N normal, P passive, S syndicate, R pre-syndicate, L penalty"},
      r.market_maker_mode);
    v({"market_maker_mode_meaning",
       "what market_maker_mode means, in words (empty for a code the specification does not define)"},
      r.market_maker_mode_meaning);
    v({"participant_state", "A active, E excused, W withdrawn, S suspended, D deleted"}, r.participant_state);
    v({"participant_state_meaning",
       "what participant_state means, in words (empty for a code the specification does not define)"},
      r.participant_state_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.mpid = code_word(m.mpid);
    r.primary_market_maker = code_letter(m.primary_market_maker);
    r.primary_market_maker_meaning = meaning_of(primary_market_maker_codes, m.primary_market_maker);
    r.market_maker_mode = code_letter(m.market_maker_mode);
    r.market_maker_mode_meaning = meaning_of(market_maker_modes, m.market_maker_mode);
    r.participant_state = code_letter(m.participant_state);
    r.participant_state_meaning = meaning_of(participant_states, m.participant_state);
    return r;
  }
};

}  // namespace itch5::tables::events
