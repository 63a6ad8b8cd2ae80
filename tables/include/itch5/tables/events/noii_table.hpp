// The noii table: one row per ITCH 'I' message, Net Order Imbalance Indicator: the state of a cross (opening,
// closing, IPO/halt) as it forms; every field of the message.
//
// Columns: timestamp, locate, symbol, paired_shares, imbalance_shares, imbalance_direction,
// imbalance_direction_meaning, far_price, near_price, current_reference_price, cross_type,
// cross_type_meaning, price_variation_indicator, price_variation_indicator_meaning. Codes are a letter column
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

inline constexpr std::array<code_meaning, 5> imbalance_directions{{
    {'B', "buy imbalance"},
    {'S', "sell imbalance"},
    {'N', "no imbalance"},
    {'O', "insufficient orders to calculate"},
    {'P', "paused"},
}};

inline constexpr std::array<code_meaning, 4> noii_cross_types{{
    {'O', "Nasdaq opening cross"},
    {'C', "Nasdaq closing cross"},
    {'H', "cross for IPO and halted or paused securities"},
    {'A', "extended trading close"},
}};

inline constexpr std::array<code_meaning, 14> price_variations{{
    {'L', "less than 1%"},
    {'1', "1% to 1.99%"},
    {'2', "2% to 2.99%"},
    {'3', "3% to 3.99%"},
    {'4', "4% to 4.99%"},
    {'5', "5% to 5.99%"},
    {'6', "6% to 6.99%"},
    {'7', "7% to 7.99%"},
    {'8', "8% to 8.99%"},
    {'9', "9% to 9.99%"},
    {'A', "10% to 19.99%"},
    {'B', "20% to 29.99%"},
    {'C', "30% or more"},
    {' ', "cannot be calculated"},
}};

struct noii_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  std::uint64_t paired_shares{};
  std::uint64_t imbalance_shares{};
  letter imbalance_direction{};
  text imbalance_direction_meaning{};
  itch5::price4 far_price{};
  itch5::price4 near_price{};
  itch5::price4 current_reference_price{};
  letter cross_type{};
  text cross_type_meaning{};
  letter price_variation_indicator{};
  text price_variation_indicator_meaning{};
};

struct noii_table {
  static constexpr std::string_view name = "noii";  ///< also the kind's name for --event-kinds and its file
  using row = noii_row;
  using message = itch5::noii;  ///< the 'I' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"paired_shares", "shares matched at the current reference price"}, r.paired_shares);
    v({"imbalance_shares", "shares not paired at the current reference price"}, r.imbalance_shares);
    v({"imbalance_direction", "B buy, S sell, N none, O insufficient orders, P paused"},
      r.imbalance_direction);
    v({"imbalance_direction_meaning",
       "what imbalance_direction means, in words (empty for a code the specification does not define)"},
      r.imbalance_direction_meaning);
    v({"far_price", "far (cross orders only) indicative price, Price(4)"}, r.far_price);
    v({"near_price", "near (cross and continuous orders) indicative price, Price(4)"}, r.near_price);
    v({"current_reference_price", "the price at which paired and imbalance shares are computed, Price(4)"},
      r.current_reference_price);
    v({"cross_type", "O opening, C closing, H IPO or halted/paused, A extended trading close"}, r.cross_type);
    v({"cross_type_meaning",
       "what cross_type means, in words (empty for a code the specification does not define)"},
      r.cross_type_meaning);
    v({"price_variation_indicator",
       "how far the near price is from the reference: L, 1-9, A, B, C (empty: cannot be calculated)"},
      r.price_variation_indicator);
    v({"price_variation_indicator_meaning",
       "what price_variation_indicator means, in words (empty for a code the specification does not define)"},
      r.price_variation_indicator_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.paired_shares = m.paired_shares;
    r.imbalance_shares = m.imbalance_shares;
    r.imbalance_direction = code_letter(m.imbalance_direction);
    r.imbalance_direction_meaning = meaning_of(imbalance_directions, m.imbalance_direction);
    r.far_price = m.far_price;
    r.near_price = m.near_price;
    r.current_reference_price = m.current_reference_price;
    r.cross_type = code_letter(m.cross_type);
    r.cross_type_meaning = meaning_of(noii_cross_types, m.cross_type);
    r.price_variation_indicator = code_letter(m.price_variation_indicator);
    r.price_variation_indicator_meaning = meaning_of(price_variations, m.price_variation_indicator);
    return r;
  }
};

}  // namespace itch5::tables::events
