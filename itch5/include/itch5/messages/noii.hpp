// ITCH 5.0 'I' (50 bytes): Net Order Imbalance Indicator.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct noii {
  static constexpr char type = 'I';
  static constexpr std::size_t size = 50;
  static constexpr const char* name = "noii";

  message_header header;
  std::uint64_t paired_shares{};
  std::uint64_t imbalance_shares{};
  char imbalance_direction{};
  stock_symbol stock{};
  price4 far_price{};
  price4 near_price{};
  price4 current_reference_price{};
  char cross_type{};
  char price_variation_indicator{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("paired_shares", &noii::paired_shares),
                          detail::at<19>("imbalance_shares", &noii::imbalance_shares),
                          detail::at<27>("imbalance_direction", &noii::imbalance_direction),
                          detail::at<28>("stock", &noii::stock),
                          detail::at<36>("far_price", &noii::far_price),
                          detail::at<40>("near_price", &noii::near_price),
                          detail::at<44>("current_reference_price", &noii::current_reference_price),
                          detail::at<48>("cross_type", &noii::cross_type),
                          detail::at<49>("price_variation_indicator", &noii::price_variation_indicator));
  }

  friend bool operator==(const noii&, const noii&) = default;
};

}  // namespace itch5
