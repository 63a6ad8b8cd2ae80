// ITCH 5.0 'P' (44 bytes): Trade (non-cross): an execution against a non-displayed order; does not change the
// displayed book.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct trade {
  static constexpr char type = 'P';
  static constexpr std::size_t size = 44;
  static constexpr const char* name = "trade";

  message_header header;
  std::uint64_t order_ref{};
  char side{};
  std::uint32_t shares{};
  stock_symbol stock{};
  price4 price{};
  std::uint64_t match_number{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("order_ref", &trade::order_ref),
                          detail::at<19>("side", &trade::side), detail::at<20>("shares", &trade::shares),
                          detail::at<24>("stock", &trade::stock), detail::at<32>("price", &trade::price),
                          detail::at<36>("match_number", &trade::match_number));
  }

  friend bool operator==(const trade&, const trade&) = default;
};

}  // namespace itch5
