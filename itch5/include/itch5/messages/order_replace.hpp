// ITCH 5.0 'U' (35 bytes): Order Replace: removes the original order and adds a new one (same side and stock)
// with a new reference.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct order_replace {
  static constexpr char type = 'U';
  static constexpr std::size_t size = 35;
  static constexpr const char* name = "order_replace";

  message_header header;
  std::uint64_t original_order_ref{};
  std::uint64_t new_order_ref{};
  std::uint32_t shares{};
  price4 price{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("original_order_ref", &order_replace::original_order_ref),
                          detail::at<19>("new_order_ref", &order_replace::new_order_ref),
                          detail::at<27>("shares", &order_replace::shares),
                          detail::at<31>("price", &order_replace::price));
  }

  friend bool operator==(const order_replace&, const order_replace&) = default;
};

}  // namespace itch5
