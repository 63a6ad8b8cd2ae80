// The 11 bytes every ITCH 5.0 message starts with: type, stock locate, tracking number, timestamp.
#pragma once

#include <cstdint>

#include <itch5/detail/endian.hpp>
#include <itch5/timestamp.hpp>

namespace itch5 {

struct message_header {
  static constexpr std::size_t size = 11;

  std::uint16_t stock_locate = 0;     ///< 0 for messages not tied to a stock; an array index otherwise.
  std::uint16_t tracking_number = 0;  ///< Nasdaq internal tracking number.
  itch5::timestamp timestamp{};       ///< Nanoseconds since midnight.

  /// Decodes the header of the message whose type byte is at `p` (11 readable bytes).
  [[nodiscard]] static message_header decode(const std::byte* p) noexcept {
    return {detail::load_be16(p + 1), detail::load_be16(p + 3),
            itch5::timestamp(static_cast<std::int64_t>(detail::load_be48(p + 5)))};
  }

  /// Writes bytes 1..10 (everything but the type byte) at `p`.
  void encode(std::byte* p) const noexcept {
    detail::store_be<std::uint16_t>(p + 1, stock_locate);
    detail::store_be<std::uint16_t>(p + 3, tracking_number);
    detail::store_be48(p + 5, static_cast<std::uint64_t>(timestamp.count()));
  }

  friend bool operator==(const message_header&, const message_header&) = default;
};

}  // namespace itch5
