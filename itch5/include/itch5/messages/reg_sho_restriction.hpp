// ITCH 5.0 'Y' (20 bytes): Reg SHO Short Sale Price Test Restricted Indicator.
#pragma once

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct reg_sho_restriction {
  static constexpr char type = 'Y';
  static constexpr std::size_t size = 20;
  static constexpr const char* name = "reg_sho_restriction";

  message_header header;
  stock_symbol stock{};
  char reg_sho_action{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("stock", &reg_sho_restriction::stock),
                          detail::at<19>("reg_sho_action", &reg_sho_restriction::reg_sho_action));
  }

  friend bool operator==(const reg_sho_restriction&, const reg_sho_restriction&) = default;
};

}  // namespace itch5
