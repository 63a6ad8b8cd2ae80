// The inside of a symbol's book: best bid and best offer, each a price and its total shares.
#pragma once

#include <itch5/book/price_level.hpp>

namespace itch5::book {

struct inside {
  price_level bid;    ///< {0, 0} when there is no bid
  price_level offer;  ///< {0, 0} when there is no offer

  friend constexpr bool operator==(const inside&, const inside&) = default;
};

}  // namespace itch5::book
