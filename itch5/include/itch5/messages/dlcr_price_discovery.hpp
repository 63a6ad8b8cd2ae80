// ITCH 5.0 'O' (48 bytes): Direct Listing with Capital Raise price discovery.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct dlcr_price_discovery {
  static constexpr char type = 'O';
  static constexpr std::size_t size = 48;
  static constexpr const char* name = "dlcr_price_discovery";

  message_header header;
  stock_symbol stock{};
  char open_eligibility{};
  price4 min_allowable_price{};
  price4 max_allowable_price{};
  price4 near_execution_price{};
  std::uint64_t near_execution_time{};
  price4 lower_price_range_collar{};
  price4 upper_price_range_collar{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(
        detail::at<11>("stock", &dlcr_price_discovery::stock),
        detail::at<19>("open_eligibility", &dlcr_price_discovery::open_eligibility),
        detail::at<20>("min_allowable_price", &dlcr_price_discovery::min_allowable_price),
        detail::at<24>("max_allowable_price", &dlcr_price_discovery::max_allowable_price),
        detail::at<28>("near_execution_price", &dlcr_price_discovery::near_execution_price),
        detail::at<32>("near_execution_time", &dlcr_price_discovery::near_execution_time),
        detail::at<40>("lower_price_range_collar", &dlcr_price_discovery::lower_price_range_collar),
        detail::at<44>("upper_price_range_collar", &dlcr_price_discovery::upper_price_range_collar));
  }

  friend bool operator==(const dlcr_price_discovery&, const dlcr_price_discovery&) = default;
};

}  // namespace itch5
