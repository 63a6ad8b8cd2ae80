// ITCH 5.0 'X' (23 bytes): Order Cancel: part of a resting order is cancelled.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct order_cancel {
  static constexpr char type = 'X';
  static constexpr std::size_t size = 23;
  static constexpr const char* name = "order_cancel";

  message_header header;
  std::uint64_t order_ref{};
  std::uint32_t cancelled_shares{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("order_ref", &order_cancel::order_ref),
                          detail::at<19>("cancelled_shares", &order_cancel::cancelled_shares));
  }

  friend bool operator==(const order_cancel&, const order_cancel&) = default;
};

}  // namespace itch5
