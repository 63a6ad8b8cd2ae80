// One price level of a book side: a price and the total shares resting there.
#pragma once

#include <cstdint>

#include <itch5/price.hpp>

namespace itch5::book {

struct price_level {
  itch5::price4 price{};
  std::uint64_t shares = 0;  ///< 0 means "no level" (an empty side)

  friend constexpr bool operator==(const price_level&, const price_level&) = default;
};

}  // namespace itch5::book
