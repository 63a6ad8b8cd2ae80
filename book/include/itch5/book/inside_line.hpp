// The inside-change line of itch5inside, compatible with JayBeams' itch5inside output:
//
//   <timestamp ns since midnight> <stock locate> <symbol> <bid px> <bid qty> <offer px> <offer qty>\n
//
// Prices are integer Price(4) units ($0.0001). An empty bid prints "0 0"; an empty offer prints
// "2000000000 0" (the largest Price(4)). Written into the caller's buffer; no allocation.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include <itch5/detail/decimal.hpp>
#include <itch5/price.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/inside.hpp>

namespace itch5::book {

/// Upper bound on the bytes format_inside_line() writes.
inline constexpr std::size_t max_inside_line = 128;

/// "<bid px> <bid qty>", "0 0" for an empty bid. `out` needs 48 bytes.
inline char* format_bid(char* out, const price_level& bid) noexcept {
  out = itch5::detail::format_decimal(out, bid.shares == 0 ? 0 : bid.price.units());
  *out++ = ' ';
  return itch5::detail::format_decimal(out, bid.shares);
}

/// "<offer px> <offer qty>", "2000000000 0" for an empty offer. `out` needs 48 bytes.
inline char* format_offer(char* out, const price_level& offer) noexcept {
  out = itch5::detail::format_decimal(out, offer.shares == 0 ? itch5::max_price4.units() : offer.price.units());
  *out++ = ' ';
  return itch5::detail::format_decimal(out, offer.shares);
}

/// Writes one line (with its newline) at `out` and returns the end. `out` needs max_inside_line bytes.
inline char* format_inside_line(char* out, itch5::timestamp ts, std::uint16_t locate, std::string_view symbol,
                                const inside& in) noexcept {
  out = itch5::detail::format_decimal(out, static_cast<std::uint64_t>(ts.count()));
  *out++ = ' ';
  out = itch5::detail::format_decimal(out, locate);
  *out++ = ' ';
  std::memcpy(out, symbol.data(), symbol.size());
  out += symbol.size();
  *out++ = ' ';
  out = format_bid(out, in.bid);
  *out++ = ' ';
  out = format_offer(out, in.offer);
  *out++ = '\n';
  return out;
}

}  // namespace itch5::book
