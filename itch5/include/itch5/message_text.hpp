// Readable one-line text for any message, generated from its layout:
//
//   09:30:00.000012345 A add_order locate=13 tracking=0 order_ref=42 side=B shares=100 stock=AAPL
//   price=190.2500
//
// Prices are decimal dollars with all their decimals, stocks and other alpha fields are trimmed of trailing
// spaces, a one-character field prints as itself (' ' for a space, 0xNN when not printable). Written into
// the caller's buffer; no allocation, no iostreams.
#pragma once

#include <array>
#include <charconv>
#include <cstring>
#include <tuple>

#include <itch5/messages.hpp>

namespace itch5 {

/// Upper bound on the characters format_message() writes for any message type.
inline constexpr std::size_t max_message_text = 640;

namespace detail {

inline char* put(char* out, std::string_view s) noexcept {
  std::memcpy(out, s.data(), s.size());
  return out + s.size();
}

inline char* put_value(char* out, char c) noexcept {
  auto u = static_cast<unsigned char>(c);
  if (c == ' ') return put(out, "' '");
  if (u > 0x20 && u < 0x7f) {
    *out++ = c;
    return out;
  }
  constexpr const char* hex = "0123456789abcdef";
  out = put(out, "0x");
  *out++ = hex[u >> 4];
  *out++ = hex[u & 15];
  return out;
}

template <class U>
requires std::is_unsigned_v<U>
char* put_value(char* out, U v) noexcept { return std::to_chars(out, out + 24, v).ptr; }

template <int D, class R>
char* put_value(char* out, price<D, R> p) noexcept {
  return format_price(out, p);
}

inline char* put_trimmed(char* out, const char* chars, std::size_t n) noexcept {
  while (n > 0 && chars[n - 1] == ' ') --n;
  if (n == 0) return put(out, "''");
  for (std::size_t i = 0; i < n; ++i) {
    auto u = static_cast<unsigned char>(chars[i]);
    *out++ = (u >= 0x20 && u < 0x7f) ? chars[i] : '?';
  }
  return out;
}

inline char* put_value(char* out, const stock_symbol& s) noexcept {
  return put_trimmed(out, s.raw().data(), s.raw().size());
}

template <std::size_t N>
char* put_value(char* out, const std::array<char, N>& a) noexcept {
  return put_trimmed(out, a.data(), N);
}

}  // namespace detail

/// Writes the text of `m` (no newline) at `out`, which must have max_message_text bytes of room.
template <message M>
char* format_message(char* out, const M& m) noexcept {
  out = format_hhmmss(out, m.header.timestamp);
  *out++ = ' ';
  *out++ = M::type;
  *out++ = ' ';
  out = detail::put(out, M::name);
  out = detail::put(out, " locate=");
  out = std::to_chars(out, out + 8, m.header.stock_locate).ptr;
  out = detail::put(out, " tracking=");
  out = std::to_chars(out, out + 8, m.header.tracking_number).ptr;
  std::apply(
      [&](auto... f) {
        ((*out++ = ' ', out = detail::put(out, f.name), *out++ = '=',
          out = detail::put_value(out, m.*f.member)),
         ...);
      },
      M::layout());
  return out;
}

}  // namespace itch5
