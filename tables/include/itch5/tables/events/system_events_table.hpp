// The system_events table: one row per ITCH 'S' message, System Event: the start and end of the day's
// messages, system hours and market hours (market-wide: locate 0).
//
// Columns: timestamp, locate, event_code, event_code_meaning. Codes are a letter column (empty for the
// specification's space, "not available") followed by a `_meaning` text column saying what the code means
// (the lists below). Row built by from() from the decoded message, O(columns); constant data and plain rows:
// safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

inline constexpr std::array<code_meaning, 6> system_event_codes{{
    {'O', "start of messages"},
    {'S', "start of system hours"},
    {'Q', "start of market hours"},
    {'M', "end of market hours"},
    {'E', "end of system hours"},
    {'C', "end of messages"},
}};

struct system_events_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  letter event_code{};
  text event_code_meaning{};
};

struct system_events_table {
  static constexpr std::string_view name =
      "system_events";  ///< also the kind's name for --event-kinds and its file
  using row = system_events_row;
  using message = itch5::system_event;  ///< the 'S' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate (0: the whole market)"}, r.locate);
    v({"event_code", "the event (O, S, Q, M, E, C)"}, r.event_code);
    v({"event_code_meaning",
       "what event_code means, in words (empty for a code the specification does not define)"},
      r.event_code_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.event_code = code_letter(m.event_code);
    r.event_code_meaning = meaning_of(system_event_codes, m.event_code);
    return r;
  }
};

}  // namespace itch5::tables::events
