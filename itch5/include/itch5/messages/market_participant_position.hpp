// ITCH 5.0 'L' (26 bytes): Market Participant Position: a market maker's status in a symbol.
#pragma once

#include <array>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct market_participant_position {
  static constexpr char type = 'L';
  static constexpr std::size_t size = 26;
  static constexpr const char* name = "market_participant_position";

  message_header header;
  std::array<char, 4> mpid{};
  stock_symbol stock{};
  char primary_market_maker{};
  char market_maker_mode{};
  char participant_state{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(
        detail::at<11>("mpid", &market_participant_position::mpid),
        detail::at<15>("stock", &market_participant_position::stock),
        detail::at<23>("primary_market_maker", &market_participant_position::primary_market_maker),
        detail::at<24>("market_maker_mode", &market_participant_position::market_maker_mode),
        detail::at<25>("participant_state", &market_participant_position::participant_state));
  }

  friend bool operator==(const market_participant_position&, const market_participant_position&) = default;
};

}  // namespace itch5
