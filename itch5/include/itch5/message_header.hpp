// The 11 bytes every ITCH 5.0 message starts with: type, stock locate, tracking number, timestamp.
#pragma once

#include <cstdint>

#include <itch5/detail/endian.hpp>
#include <itch5/timestamp.hpp>

namespace itch5 {

struct message_header {
  static constexpr std::size_t size = 11;
  // Offsets from the type byte (byte 0), per the spec's header table.
  static constexpr std::size_t stock_locate_offset = 1;
  static constexpr std::size_t tracking_number_offset = 3;
  static constexpr std::size_t timestamp_offset = 5;

  std::uint16_t stock_locate = 0;     ///< 0 for messages not tied to a stock; an array index otherwise.
  std::uint16_t tracking_number = 0;  ///< Nasdaq internal tracking number.
  itch5::timestamp timestamp{};       ///< Nanoseconds since midnight.

  /// Decodes the header of the message whose type byte is at `p` (11 readable bytes).
  [[nodiscard]] static message_header decode(const std::byte* p) noexcept {
    return {detail::load_be16(p + stock_locate_offset), detail::load_be16(p + tracking_number_offset),
            itch5::timestamp(static_cast<std::int64_t>(detail::load_be48(p + timestamp_offset)))};
  }

  /// Writes bytes 1..10 (everything but the type byte) at `p`.
  void encode(std::byte* p) const noexcept {
    detail::store_be<std::uint16_t>(p + stock_locate_offset, stock_locate);
    detail::store_be<std::uint16_t>(p + tracking_number_offset, tracking_number);
    detail::store_be48(p + timestamp_offset, static_cast<std::uint64_t>(timestamp.count()));
  }

  friend bool operator==(const message_header&, const message_header&) = default;
};

static_assert(message_header::stock_locate_offset + 2 == message_header::tracking_number_offset &&
                  message_header::tracking_number_offset + 2 == message_header::timestamp_offset &&
                  message_header::timestamp_offset + 6 == message_header::size,
              "the header fields tile bytes 1..10");

}  // namespace itch5
