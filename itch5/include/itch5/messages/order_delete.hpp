// ITCH 5.0 'D' (19 bytes): Order Delete: a resting order is removed.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct order_delete {
  static constexpr char type = 'D';
  static constexpr std::size_t size = 19;
  static constexpr const char* name = "order_delete";

  message_header header;
  std::uint64_t order_ref{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("order_ref", &order_delete::order_ref));
  }

  friend bool operator==(const order_delete&, const order_delete&) = default;
};

}  // namespace itch5
