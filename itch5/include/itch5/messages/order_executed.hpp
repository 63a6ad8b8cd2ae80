// ITCH 5.0 'E' (31 bytes): Order Executed: shares of a resting order traded at its own price.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct order_executed {
  static constexpr char type = 'E';
  static constexpr std::size_t size = 31;
  static constexpr const char* name = "order_executed";

  message_header header;
  std::uint64_t order_ref{};
  std::uint32_t executed_shares{};
  std::uint64_t match_number{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("order_ref", &order_executed::order_ref),
                          detail::at<19>("executed_shares", &order_executed::executed_shares),
                          detail::at<23>("match_number", &order_executed::match_number));
  }

  friend bool operator==(const order_executed&, const order_executed&) = default;
};

}  // namespace itch5
