// ITCH 5.0 'C' (36 bytes): Order Executed With Price: shares traded at a price other than the order's (the
// price is a trade price, not a book price).
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct order_executed_with_price {
  static constexpr char type = 'C';
  static constexpr std::size_t size = 36;
  static constexpr const char* name = "order_executed_with_price";

  message_header header;
  std::uint64_t order_ref{};
  std::uint32_t executed_shares{};
  std::uint64_t match_number{};
  char printable{};
  price4 execution_price{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("order_ref", &order_executed_with_price::order_ref),
                          detail::at<19>("executed_shares", &order_executed_with_price::executed_shares),
                          detail::at<23>("match_number", &order_executed_with_price::match_number),
                          detail::at<31>("printable", &order_executed_with_price::printable),
                          detail::at<32>("execution_price", &order_executed_with_price::execution_price));
  }

  friend bool operator==(const order_executed_with_price&, const order_executed_with_price&) = default;
};

}  // namespace itch5
