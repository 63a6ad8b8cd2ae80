// ITCH 5.0 'H' (25 bytes): Stock Trading Action: trading state of a symbol (halted, paused, quotation only,
// trading).
#pragma once

#include <array>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct stock_trading_action {
  static constexpr char type = 'H';
  static constexpr std::size_t size = 25;
  static constexpr const char* name = "stock_trading_action";

  message_header header;
  stock_symbol stock{};
  char trading_state{};  ///< 'H' halted, 'P' paused, 'Q' quotation only, 'T' trading
  char reserved{};
  std::array<char, 4> reason{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("stock", &stock_trading_action::stock),
                          detail::at<19>("trading_state", &stock_trading_action::trading_state),
                          detail::at<20>("reserved", &stock_trading_action::reserved),
                          detail::at<21>("reason", &stock_trading_action::reason));
  }

  friend bool operator==(const stock_trading_action&, const stock_trading_action&) = default;
};

}  // namespace itch5
