// The mwcb_status table: one row per ITCH 'W' message, Market-Wide Circuit Breaker status: a decline level
// was breached (market-wide: locate 0).
//
// Columns: timestamp, locate, breached_level, breached_level_meaning. Codes are a letter column (empty for
// the specification's space, "not available") followed by a `_meaning` text column saying what the code means
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

inline constexpr std::array<code_meaning, 3> breached_levels{{
    {'1', "level 1"},
    {'2', "level 2"},
    {'3', "level 3"},
}};

struct mwcb_status_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  letter breached_level{};
  text breached_level_meaning{};
};

struct mwcb_status_table {
  static constexpr std::string_view name =
      "mwcb_status";  ///< also the kind's name for --event-kinds and its file
  using row = mwcb_status_row;
  using message = itch5::mwcb_status;  ///< the 'W' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate (0: the whole market)"}, r.locate);
    v({"breached_level", "the level breached: 1, 2 or 3"}, r.breached_level);
    v({"breached_level_meaning",
       "what breached_level means, in words (empty for a code the specification does not define)"},
      r.breached_level_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.breached_level = code_letter(m.breached_level);
    r.breached_level_meaning = meaning_of(breached_levels, m.breached_level);
    return r;
  }
};

}  // namespace itch5::tables::events
