// The dlcr table: one row per ITCH 'O' message, Direct Listing with Capital Raise price discovery (DLCR
// securities only).
//
// Columns: timestamp, locate, symbol, open_eligibility, open_eligibility_meaning, min_allowable_price,
// max_allowable_price, near_execution_price, near_execution_time, lower_price_range_collar,
// upper_price_range_collar. Codes are a letter column (empty for the specification's space, "not available")
// followed by a `_meaning` text column saying what the code means (the lists below). Row built by from() from
// the decoded message, O(columns); constant data and plain rows: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

inline constexpr std::array<code_meaning, 2> open_eligibility_codes{{
    {'N', "not eligible to be released for trading"},
    {'Y', "eligible to be released for trading"},
}};

struct dlcr_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter open_eligibility{};
  text open_eligibility_meaning{};
  itch5::price4 min_allowable_price{};
  itch5::price4 max_allowable_price{};
  itch5::price4 near_execution_price{};
  std::uint64_t near_execution_time{};
  itch5::price4 lower_price_range_collar{};
  itch5::price4 upper_price_range_collar{};
};

struct dlcr_table {
  static constexpr std::string_view name = "dlcr";  ///< also the kind's name for --event-kinds and its file
  using row = dlcr_row;
  using message = itch5::dlcr_price_discovery;  ///< the 'O' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"open_eligibility", "Y: eligible to be released for trading, N: not"}, r.open_eligibility);
    v({"open_eligibility_meaning",
       "what open_eligibility means, in words (empty for a code the specification does not define)"},
      r.open_eligibility_meaning);
    v({"min_allowable_price", "minimum allowable price, Price(4)"}, r.min_allowable_price);
    v({"max_allowable_price", "maximum allowable price, Price(4)"}, r.max_allowable_price);
    v({"near_execution_price", "near execution price, Price(4)"}, r.near_execution_price);
    v({"near_execution_time",
       "when the near execution price was determined, the message's 8-byte integer as it is"},
      r.near_execution_time);
    v({"lower_price_range_collar", "lower price range collar, Price(4)"}, r.lower_price_range_collar);
    v({"upper_price_range_collar", "upper price range collar, Price(4)"}, r.upper_price_range_collar);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.open_eligibility = code_letter(m.open_eligibility);
    r.open_eligibility_meaning = meaning_of(open_eligibility_codes, m.open_eligibility);
    r.min_allowable_price = m.min_allowable_price;
    r.max_allowable_price = m.max_allowable_price;
    r.near_execution_price = m.near_execution_price;
    r.near_execution_time = m.near_execution_time;
    r.lower_price_range_collar = m.lower_price_range_collar;
    r.upper_price_range_collar = m.upper_price_range_collar;
    return r;
  }
};

}  // namespace itch5::tables::events
