// ITCH 5.0 'h' (21 bytes): Operational Halt of a symbol on one market.
#pragma once

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct operational_halt {
  static constexpr char type = 'h';
  static constexpr std::size_t size = 21;
  static constexpr const char* name = "operational_halt";

  message_header header;
  stock_symbol stock{};
  char market_code{};
  char halt_action{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("stock", &operational_halt::stock),
                          detail::at<19>("market_code", &operational_halt::market_code),
                          detail::at<20>("halt_action", &operational_halt::halt_action));
  }

  friend bool operator==(const operational_halt&, const operational_halt&) = default;
};

}  // namespace itch5
