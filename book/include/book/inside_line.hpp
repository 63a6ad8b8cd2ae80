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

#include <book/inside.hpp>

namespace book {

/// Upper bound on the bytes format_inside_line() writes.
inline constexpr std::size_t max_inside_line = 128;

/// Writes one line (with its newline) at `out` and returns the end. `out` needs max_inside_line bytes.
inline char* format_inside_line(char* out, itch5::timestamp ts, std::uint16_t locate, std::string_view symbol,
                                const inside& in) noexcept {
  auto num = [&out](std::uint64_t v) { out = itch5::detail::format_decimal(out, v); };
  num(static_cast<std::uint64_t>(ts.count()));
  *out++ = ' ';
  num(locate);
  *out++ = ' ';
  std::memcpy(out, symbol.data(), symbol.size());
  out += symbol.size();
  *out++ = ' ';
  num(in.bid.shares == 0 ? 0 : in.bid.price.units());
  *out++ = ' ';
  num(in.bid.shares);
  *out++ = ' ';
  num(in.offer.shares == 0 ? itch5::max_price4.units() : in.offer.price.units());
  *out++ = ' ';
  num(in.offer.shares);
  *out++ = '\n';
  return out;
}

}  // namespace book
