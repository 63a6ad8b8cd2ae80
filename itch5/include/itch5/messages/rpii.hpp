// ITCH 5.0 'N' (20 bytes): Retail Price Improvement Indicator.
#pragma once

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct rpii {
  static constexpr char type = 'N';
  static constexpr std::size_t size = 20;
  static constexpr const char* name = "rpii";

  message_header header;
  stock_symbol stock{};
  char interest_flag{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("stock", &rpii::stock),
                          detail::at<19>("interest_flag", &rpii::interest_flag));
  }

  friend bool operator==(const rpii&, const rpii&) = default;
};

}  // namespace itch5
