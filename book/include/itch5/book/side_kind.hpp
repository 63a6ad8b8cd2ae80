// Buy or sell, and what "better" means on each side.
#pragma once

#include <cstdint>

#include <itch5/price.hpp>

namespace itch5::book {

enum class side_kind : std::uint8_t { buy = 1, sell = 2 };

/// True when `a` is a better price than `b` on side K: higher for bids, lower for offers.
template <side_kind K>
[[nodiscard]] constexpr bool better(itch5::price4 a, itch5::price4 b) noexcept {
  if constexpr (K == side_kind::buy) {
    return a > b;
  } else {
    return a < b;
  }
}

/// Orders a side's prices best first (a comparator for ordered containers).
template <side_kind K>
struct better_first {
  constexpr bool operator()(itch5::price4 a, itch5::price4 b) const noexcept { return better<K>(a, b); }
};

}  // namespace itch5::book
