// ITCH 5.0 'K' (28 bytes): IPO Quoting Period Update.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct ipo_quoting_period_update {
  static constexpr char type = 'K';
  static constexpr std::size_t size = 28;
  static constexpr const char* name = "ipo_quoting_period_update";

  message_header header;
  stock_symbol stock{};
  std::uint32_t release_time{};  ///< seconds since midnight
  char release_qualifier{};
  price4 ipo_price{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("stock", &ipo_quoting_period_update::stock),
                          detail::at<19>("release_time", &ipo_quoting_period_update::release_time),
                          detail::at<23>("release_qualifier", &ipo_quoting_period_update::release_qualifier),
                          detail::at<24>("ipo_price", &ipo_quoting_period_update::ipo_price));
  }

  friend bool operator==(const ipo_quoting_period_update&, const ipo_quoting_period_update&) = default;
};

}  // namespace itch5
