// ITCH 5.0 'W' (12 bytes): Market-Wide Circuit Breaker status: which level was breached.
#pragma once

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct mwcb_status {
  static constexpr char type = 'W';
  static constexpr std::size_t size = 12;
  static constexpr const char* name = "mwcb_status";

  message_header header;
  char breached_level{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("breached_level", &mwcb_status::breached_level));
  }

  friend bool operator==(const mwcb_status&, const mwcb_status&) = default;
};

}  // namespace itch5
