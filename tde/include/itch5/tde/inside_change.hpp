// inside_change: one line of an inside-change file (itch5inside's output), parsed.
//
// Line format, space separated (runs of spaces or tabs accepted, a trailing '\r' ignored):
//   <timestamp ns since midnight> <stock locate> <symbol> <bid px> <bid qty> <offer px> <offer qty>
// Prices are integer Price(4) units ($0.0001). An empty bid is "0 0", an empty offer "2000000000 0".
// parse_inside_line() is O(line length), allocation-free and thread-safe; the record's symbol is a view
// into the parsed line and lives as long as it.
#pragma once

#include <cstdint>
#include <string_view>

namespace itch5::tde {

/// The offer price of an empty offer side.
inline constexpr std::int64_t empty_offer_price = 2'000'000'000;

struct inside_change {
  std::int64_t timestamp = 0;  ///< nanoseconds since midnight
  std::uint16_t locate = 0;
  std::string_view symbol;  ///< 1 to 8 characters; a view into the line (see the reader for its lifetime)
  std::int64_t bid_price = 0;
  std::int64_t bid_qty = 0;
  std::int64_t offer_price = empty_offer_price;
  std::int64_t offer_qty = 0;

  [[nodiscard]] bool has_bid() const noexcept { return bid_qty > 0 && bid_price > 0; }
  [[nodiscard]] bool has_offer() const noexcept { return offer_qty > 0 && offer_price < empty_offer_price; }
};

/// Parses one line (without its newline) into `out`. Returns an empty view on success, otherwise the
/// reason it is malformed (static text naming the field, e.g. "bid qty: expected a non-negative integer",
/// or saying that the line is binary data, as when an ITCH file is given instead of an inside-change file).
[[nodiscard]] std::string_view parse_inside_line(std::string_view line, inside_change& out) noexcept;

}  // namespace itch5::tde
