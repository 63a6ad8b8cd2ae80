// Price levels of Nasdaq's tick grid: $0.0001 below $1.00 and $0.01 at or above $1.00 (Reg NMS 612).
//
// A price's tick index numbers the grid points from 0: below $1.00 every Price(4) unit is a level
// (index = units); from $1.00 up, every cent is a level (index = 10000 + (units - 10000) / 100). Prices at
// or above $1.00 that are not whole cents are not on the grid; their index is that of the grid point
// below. The distance in levels between two prices is the difference of their indices, so a window of
// levels spans $1.00 seamlessly.
//
// Used by the synthetic generator (to place orders N levels from the inside), by the array book (to index
// its window) and by the depth statistics (to measure how far from the inside an event lands).
#pragma once

#include <cstdint>

#include <itch5/price.hpp>

namespace itch5 {

inline constexpr std::uint32_t one_dollar = 10000;  // in Price(4) units
inline constexpr std::uint32_t sub_dollar_tick = 1;
inline constexpr std::uint32_t dollar_tick = 100;

/// The tick index of `p` (see the header comment).
[[nodiscard]] constexpr std::uint32_t tick_index(price4 p) noexcept {
  std::uint32_t u = p.units();
  return u < one_dollar ? u : one_dollar + (u - one_dollar) / dollar_tick;
}

/// The price of grid point `index`.
[[nodiscard]] constexpr price4 tick_price(std::uint32_t index) noexcept {
  return price4(index < one_dollar ? index : one_dollar + (index - one_dollar) * dollar_tick);
}

/// True when `p` is a grid point.
[[nodiscard]] constexpr bool on_tick_grid(price4 p) noexcept { return tick_price(tick_index(p)) == p; }

/// The tick size at `p`, in Price(4) units: 1 below $1.00, 100 from $1.00.
[[nodiscard]] constexpr std::uint32_t tick_size(price4 p) noexcept {
  return p.units() < one_dollar ? sub_dollar_tick : dollar_tick;
}

/// Number of price levels between `a` and `b` (|index(a) - index(b)|).
[[nodiscard]] constexpr std::uint32_t levels_between(price4 a, price4 b) noexcept {
  std::uint32_t x = tick_index(a), y = tick_index(b);
  return x > y ? x - y : y - x;
}

}  // namespace itch5
