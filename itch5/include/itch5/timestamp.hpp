// ITCH timestamps: nanoseconds since midnight, carried in 6 bytes on the wire.
#pragma once

#include <charconv>
#include <chrono>
#include <cstdint>

namespace itch5 {

using timestamp = std::chrono::nanoseconds;

/// Nanoseconds in a day; a valid ITCH timestamp is below this.
inline constexpr timestamp one_day = std::chrono::hours(24);

/// Writes `ts` as HH:MM:SS.nnnnnnnnn at `out` (room for 32 characters) and returns the end. Hours past 23
/// are printed as they are (a timestamp beyond 24 h prints as "25:...").
inline char* format_hhmmss(char* out, timestamp ts) noexcept {
  auto ns = static_cast<std::uint64_t>(ts.count());
  std::uint64_t secs = ns / 1'000'000'000u;
  std::uint64_t frac = ns % 1'000'000'000u;
  auto two = [&out](std::uint64_t v) {
    if (v < 10) *out++ = '0';
    out = std::to_chars(out, out + 20, v).ptr;
  };
  two(secs / 3600);
  *out++ = ':';
  two(secs / 60 % 60);
  *out++ = ':';
  two(secs % 60);
  *out++ = '.';
  for (int i = 8; i >= 0; --i) {
    out[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  return out + 9;
}

}  // namespace itch5
