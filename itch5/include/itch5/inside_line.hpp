// inside_line: one line of an inside-change file (itch5inside's output, itch5tde's input), the format's one
// home: its fields, the values of empty sides, a formatter and a parser.
//
//   <timestamp ns since midnight> <stock locate> <symbol> <bid px> <bid qty> <offer px> <offer qty>\n
//
// Compatible with JayBeams' itch5inside output. Prices are integer Price(4) units ($0.0001). An empty bid
// is "0 0"; an empty offer is "2000000000 0" (the largest Price(4)).
//
// format_inside_line() writes into the caller's buffer: O(1), no allocation. parse_inside_line() also
// accepts runs of spaces or tabs and a trailing '\r'; it is O(line length), allocation-free, and the
// parsed symbol is a view into the line (it lives as long as the line does). Both are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include <itch5/detail/decimal.hpp>
#include <itch5/price.hpp>

namespace itch5 {

/// Upper bound on the bytes format_inside_line() writes.
inline constexpr std::size_t max_inside_line = 128;

/// The bid price printed for an empty bid ("0 0").
inline constexpr std::int64_t empty_bid_price = 0;
/// The offer price printed for an empty offer ("2000000000 0"): the largest Price(4).
inline constexpr std::int64_t empty_offer_price = 2'000'000'000;
static_assert(empty_offer_price == static_cast<std::int64_t>(max_price4.units()));

/// The fields of one line. Formatted, every field must be non-negative (as parsed ones are); a side with
/// zero shares prints as empty whatever its price.
struct inside_line {
  std::int64_t timestamp = 0;  ///< nanoseconds since midnight
  std::uint16_t locate = 0;
  std::string_view symbol;  ///< 1 to 8 characters, no spaces; parsed: a view into the line
  std::int64_t bid_price = empty_bid_price;
  std::int64_t bid_qty = 0;
  std::int64_t offer_price = empty_offer_price;
  std::int64_t offer_qty = 0;

  [[nodiscard]] bool has_bid() const noexcept { return bid_qty > 0 && bid_price > 0; }
  [[nodiscard]] bool has_offer() const noexcept { return offer_qty > 0 && offer_price < empty_offer_price; }
};

/// "<bid px> <bid qty>", "0 0" for an empty bid (no shares). `out` needs 48 bytes.
inline char* format_inside_bid(char* out, std::uint64_t price, std::uint64_t shares) noexcept {
  out = detail::format_decimal(out, shares == 0 ? std::uint64_t{empty_bid_price} : price);
  *out++ = ' ';
  return detail::format_decimal(out, shares);
}

/// "<offer px> <offer qty>", "2000000000 0" for an empty offer (no shares). `out` needs 48 bytes.
inline char* format_inside_offer(char* out, std::uint64_t price, std::uint64_t shares) noexcept {
  out = detail::format_decimal(out, shares == 0 ? std::uint64_t{empty_offer_price} : price);
  *out++ = ' ';
  return detail::format_decimal(out, shares);
}

/// Writes one line (with its newline) at `out` and returns the end. `out` needs max_inside_line bytes.
inline char* format_inside_line(char* out, const inside_line& line) noexcept {
  out = detail::format_decimal(out, static_cast<std::uint64_t>(line.timestamp));
  *out++ = ' ';
  out = detail::format_decimal(out, line.locate);
  *out++ = ' ';
  std::memcpy(out, line.symbol.data(), line.symbol.size());
  out += line.symbol.size();
  *out++ = ' ';
  out = format_inside_bid(out, static_cast<std::uint64_t>(line.bid_price),
                          static_cast<std::uint64_t>(line.bid_qty));
  *out++ = ' ';
  out = format_inside_offer(out, static_cast<std::uint64_t>(line.offer_price),
                            static_cast<std::uint64_t>(line.offer_qty));
  *out++ = '\n';
  return out;
}

/// Parses one line (without its newline) into `out`. Returns an empty view on success, otherwise the
/// reason it is malformed (static text naming the field, e.g. "bid qty: expected a non-negative integer",
/// or inside_line_binary_reason, as when an ITCH file is given instead of an inside-change file).
[[nodiscard]] std::string_view parse_inside_line(std::string_view text, inside_line& out) noexcept;

/// True when `text` holds control bytes other than tab and carriage return, which do not occur in text:
/// the input is binary (an ITCH file given by mistake, a compressed format other than gzip).
[[nodiscard]] bool looks_binary(std::string_view text) noexcept;

/// The reason parse_inside_line() gives for binary data.
inline constexpr std::string_view inside_line_binary_reason =
    "binary data, not an inside-change line (an ITCH file? itch5inside turns one into inside changes)";

}  // namespace itch5
