// ITCH 5.0 'F' (40 bytes): Add Order with MPID attribution: as add_order, plus the market participant.
#pragma once

#include <array>
#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct add_order_mpid {
  static constexpr char type = 'F';
  static constexpr std::size_t size = 40;
  static constexpr const char* name = "add_order_mpid";

  message_header header;
  std::uint64_t order_ref{};  ///< day-unique order reference number
  char side{};                ///< 'B' buy, 'S' sell
  std::uint32_t shares{};
  stock_symbol stock{};
  price4 price{};
  std::array<char, 4> attribution{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(
        detail::at<11>("order_ref", &add_order_mpid::order_ref),
        detail::at<19>("side", &add_order_mpid::side), detail::at<20>("shares", &add_order_mpid::shares),
        detail::at<24>("stock", &add_order_mpid::stock), detail::at<32>("price", &add_order_mpid::price),
        detail::at<36>("attribution", &add_order_mpid::attribution));
  }

  friend bool operator==(const add_order_mpid&, const add_order_mpid&) = default;
};

}  // namespace itch5
