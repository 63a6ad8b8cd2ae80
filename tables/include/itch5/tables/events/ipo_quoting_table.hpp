// The ipo_quoting table: one row per ITCH 'K' message, IPO Quoting Period Update: when an IPO security is
// expected to be released for quotation.
//
// Columns: timestamp, locate, symbol, release_time, release_qualifier, release_qualifier_meaning, ipo_price.
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

inline constexpr std::array<code_meaning, 2> release_qualifiers{{
    {'A', "anticipated quotation release time"},
    {'C', "IPO release canceled or postponed"},
}};

struct ipo_quoting_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  itch5::timestamp release_time{};
  letter release_qualifier{};
  text release_qualifier_meaning{};
  itch5::price4 ipo_price{};
};

struct ipo_quoting_table {
  static constexpr std::string_view name =
      "ipo_quoting";  ///< also the kind's name for --event-kinds and its file
  using row = ipo_quoting_row;
  using message = itch5::ipo_quoting_period_update;  ///< the 'K' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"release_time",
       "the anticipated quotation release time, ns since midnight (the message's seconds x 10^9)"},
      r.release_time);
    v({"release_qualifier", "A: anticipated release time, C: release canceled or postponed"},
      r.release_qualifier);
    v({"release_qualifier_meaning",
       "what release_qualifier means, in words (empty for a code the specification does not define)"},
      r.release_qualifier_meaning);
    v({"ipo_price", "the IPO price, Price(4)"}, r.ipo_price);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.release_time = itch5::timestamp(std::int64_t{m.release_time} * 1'000'000'000);
    r.release_qualifier = code_letter(m.release_qualifier);
    r.release_qualifier_meaning = meaning_of(release_qualifiers, m.release_qualifier);
    r.ipo_price = m.ipo_price;
    return r;
  }
};

}  // namespace itch5::tables::events
