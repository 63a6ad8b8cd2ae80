// A live order as the book engine needs it: shares left, price, stock locate and side (12 bytes).
#pragma once

#include <cstdint>

#include <itch5/price.hpp>

#include <itch5/book/side_kind.hpp>

namespace itch5::book {

struct order {
  std::uint32_t shares = 0;
  itch5::price4 price{};
  std::uint16_t locate = 0;
  side_kind side = side_kind::buy;
  bool used = false;  // slot occupancy (internal to the containers)
};
static_assert(sizeof(order) == 12);

}  // namespace itch5::book
