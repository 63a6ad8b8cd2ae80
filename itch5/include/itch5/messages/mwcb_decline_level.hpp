// ITCH 5.0 'V' (35 bytes): Market-Wide Circuit Breaker decline levels, Price(8).
#pragma once

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct mwcb_decline_level {
  static constexpr char type = 'V';
  static constexpr std::size_t size = 35;
  static constexpr const char* name = "mwcb_decline_level";

  message_header header;
  price8 level1{};
  price8 level2{};
  price8 level3{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(detail::at<11>("level1", &mwcb_decline_level::level1),
                          detail::at<19>("level2", &mwcb_decline_level::level2),
                          detail::at<27>("level3", &mwcb_decline_level::level3));
  }

  friend bool operator==(const mwcb_decline_level&, const mwcb_decline_level&) = default;
};

}  // namespace itch5
