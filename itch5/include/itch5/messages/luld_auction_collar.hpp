// ITCH 5.0 'J' (35 bytes): Limit Up-Limit Down Auction Collar.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct luld_auction_collar {
  static constexpr char type = 'J';
  static constexpr std::size_t size = 35;
  static constexpr const char* name = "luld_auction_collar";

  message_header header;
  stock_symbol stock{};
  price4 reference_price{};
  price4 upper_price{};
  price4 lower_price{};
  std::uint32_t extension{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("stock", &luld_auction_collar::stock),
                          detail::at<19>("reference_price", &luld_auction_collar::reference_price),
                          detail::at<23>("upper_price", &luld_auction_collar::upper_price),
                          detail::at<27>("lower_price", &luld_auction_collar::lower_price),
                          detail::at<31>("extension", &luld_auction_collar::extension));
  }

  friend bool operator==(const luld_auction_collar&, const luld_auction_collar&) = default;
};

}  // namespace itch5
