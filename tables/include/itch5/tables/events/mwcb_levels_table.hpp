// The mwcb_levels table: one row per ITCH 'V' message, Market-Wide Circuit Breaker decline levels of the day
// (market-wide: locate 0), kept exact in Price(8).
//
// Columns: timestamp, locate, level1, level2, level3. Codes are a letter column (empty for the
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

struct mwcb_levels_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::price8 level1{};
  itch5::price8 level2{};
  itch5::price8 level3{};
};

struct mwcb_levels_table {
  static constexpr std::string_view name =
      "mwcb_levels";  ///< also the kind's name for --event-kinds and its file
  using row = mwcb_levels_row;
  using message = itch5::mwcb_decline_level;  ///< the 'V' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate (0: the whole market)"}, r.locate);
    v({"level1", "level 1 of the S&P 500, in $0.00000001 (Price(8), exact as the message has it)"}, r.level1);
    v({"level2", "level 2, Price(8)"}, r.level2);
    v({"level3", "level 3, Price(8)"}, r.level3);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.level1 = m.level1;
    r.level2 = m.level2;
    r.level3 = m.level3;
    return r;
  }
};

}  // namespace itch5::tables::events
