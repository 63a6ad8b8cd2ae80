// ITCH 5.0 'Q' (40 bytes): Cross Trade: the opening, closing, IPO or halt cross; shares is 8 bytes wide.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct cross_trade {
  static constexpr char type = 'Q';
  static constexpr std::size_t size = 40;
  static constexpr const char* name = "cross_trade";

  message_header header;
  std::uint64_t shares{};
  stock_symbol stock{};
  price4 cross_price{};
  std::uint64_t match_number{};
  char cross_type{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("shares", &cross_trade::shares),
                          detail::at<19>("stock", &cross_trade::stock),
                          detail::at<27>("cross_price", &cross_trade::cross_price),
                          detail::at<31>("match_number", &cross_trade::match_number),
                          detail::at<39>("cross_type", &cross_trade::cross_type));
  }

  friend bool operator==(const cross_trade&, const cross_trade&) = default;
};

}  // namespace itch5
