// ITCH 5.0 'A' (36 bytes): Add Order without MPID attribution: a new displayed order on the book.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct add_order {
  static constexpr char type = 'A';
  static constexpr std::size_t size = 36;
  static constexpr const char* name = "add_order";

  message_header header;
  std::uint64_t order_ref{};  ///< day-unique order reference number
  char side{};                ///< 'B' buy, 'S' sell
  std::uint32_t shares{};
  stock_symbol stock{};
  price4 price{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(
        detail::at<11>("order_ref", &add_order::order_ref), detail::at<19>("side", &add_order::side),
        detail::at<20>("shares", &add_order::shares), detail::at<24>("stock", &add_order::stock),
        detail::at<32>("price", &add_order::price));
  }

  friend bool operator==(const add_order&, const add_order&) = default;
};

}  // namespace itch5
