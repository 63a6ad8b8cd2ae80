// ITCH 5.0 'S' (12 bytes): System Event: start/end of messages, system hours and market hours.
#pragma once

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct system_event {
  static constexpr char type = 'S';
  static constexpr std::size_t size = 12;
  static constexpr const char* name = "system_event";

  message_header header;
  char event_code{};  ///< 'O' start of messages, 'S' start of system hours, 'Q' start of market hours, 'M'
                      ///< end of market hours, 'E' end of system hours, 'C' end of messages

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("event_code", &system_event::event_code));
  }

  friend bool operator==(const system_event&, const system_event&) = default;
};

}  // namespace itch5
