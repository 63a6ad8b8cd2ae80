// ITCH 5.0 'B' (19 bytes): Broken Trade: an execution was broken.
#pragma once

#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct broken_trade {
  static constexpr char type = 'B';
  static constexpr std::size_t size = 19;
  static constexpr const char* name = "broken_trade";

  message_header header;
  std::uint64_t match_number{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("match_number", &broken_trade::match_number));
  }

  friend bool operator==(const broken_trade&, const broken_trade&) = default;
};

}  // namespace itch5
