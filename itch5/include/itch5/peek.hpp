// Reading one field of a framed message without decoding it: the type byte, the stock locate, the order
// reference of an order message, the side and price of an add, and the length prefix of a BinaryFILE frame.
//
//   if (frame.size() >= itch5::order_reference_end && itch5::is_order_message(itch5::peek_type(frame))) {
//     prefetch(itch5::peek_order_reference(frame));
//   }
//
// For code that looks ahead of the decoder (prefetching, filtering) and needs a field or two of messages
// that may not have been checked yet. Every offset here comes from message_header and the message layouts
// (itch5/messages/*.hpp), so ITCH byte offsets stay inside itch5/. The helpers do not check bounds: each
// documents the smallest frame it accepts (asserted in debug builds), and the caller checks once.
// `frame` starts at the type byte, as the spans message_reader::next() returns.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <tuple>

#include <itch5/detail/endian.hpp>
#include <itch5/message_header.hpp>
#include <itch5/messages.hpp>

namespace itch5 {

namespace detail {
/// The offset of the I-th field of message type M's layout.
template <class M, std::size_t I>
inline constexpr std::size_t layout_offset = std::tuple_element_t<I, decltype(M::layout())>::offset;
}  // namespace detail

/// Where the order reference of an order message starts (for U: the original order reference).
inline constexpr std::size_t order_reference_offset = detail::layout_offset<order_delete, 0>;
/// The smallest frame peek_order_reference() accepts: the order reference ends here.
inline constexpr std::size_t order_reference_end = order_reference_offset + sizeof(std::uint64_t);

static_assert(detail::layout_offset<add_order, 0> == order_reference_offset &&
                  detail::layout_offset<add_order_mpid, 0> == order_reference_offset &&
                  detail::layout_offset<order_executed, 0> == order_reference_offset &&
                  detail::layout_offset<order_executed_with_price, 0> == order_reference_offset &&
                  detail::layout_offset<order_cancel, 0> == order_reference_offset &&
                  detail::layout_offset<order_replace, 0> == order_reference_offset,
              "every order message carries its (original) order reference at the same offset");
static_assert(order_reference_end == order_delete::size, "D is the shortest order message");

/// Size of the big-endian length prefix before each message of a BinaryFILE stream.
inline constexpr std::size_t frame_length_size = 2;

/// The side byte and price of an add (A and F share these offsets): fields that a prefetch of the book
/// level an add will touch needs. A frame of at least add_price_end bytes holds both.
inline constexpr std::size_t add_side_offset = detail::layout_offset<add_order, 1>;
inline constexpr std::size_t add_price_offset = detail::layout_offset<add_order, 4>;
inline constexpr std::size_t add_price_end = add_price_offset + sizeof(std::uint32_t);
static_assert(detail::layout_offset<add_order_mpid, 1> == add_side_offset &&
                  detail::layout_offset<add_order_mpid, 4> == add_price_offset,
              "A and F carry side and price at the same offsets");

/// True for the messages that add, change or remove a resting order by its reference: A, F, E, C, X, D, U.
/// (P also carries an order reference, but of a non-displayed order: it does not touch the book.)
[[nodiscard]] constexpr bool is_order_message(char type) noexcept {
  return type == add_order::type || type == add_order_mpid::type || type == order_executed::type ||
         type == order_executed_with_price::type || type == order_cancel::type ||
         type == order_delete::type || type == order_replace::type;
}

/// The type byte. Precondition: frame.size() >= 1.
[[nodiscard]] inline char peek_type(std::span<const std::byte> frame) noexcept {
  assert(!frame.empty());
  return static_cast<char>(frame[0]);
}

/// The stock locate of the header. Precondition: frame.size() >= message_header::stock_locate_offset + 2,
/// which every known message type satisfies.
[[nodiscard]] inline std::uint16_t peek_stock_locate(std::span<const std::byte> frame) noexcept {
  assert(frame.size() >= message_header::stock_locate_offset + 2);
  return detail::load_be16(frame.data() + message_header::stock_locate_offset);
}

/// The order reference of an order message (is_order_message(), for U the original reference).
/// Precondition: frame.size() >= order_reference_end. For other types the result is whatever bytes are there.
[[nodiscard]] inline std::uint64_t peek_order_reference(std::span<const std::byte> frame) noexcept {
  assert(frame.size() >= order_reference_end);
  return detail::load_be64(frame.data() + order_reference_offset);
}

/// The side byte of an add ('B' or 'S' in valid input). Precondition: frame.size() >= add_price_end.
[[nodiscard]] inline char peek_add_side(std::span<const std::byte> frame) noexcept {
  assert(frame.size() >= add_price_end);
  return static_cast<char>(frame[add_side_offset]);
}

/// The price of an add. Precondition: frame.size() >= add_price_end.
[[nodiscard]] inline price4 peek_add_price(std::span<const std::byte> frame) noexcept {
  assert(frame.size() >= add_price_end);
  return price4(detail::load_be32(frame.data() + add_price_offset));
}

/// Where a System Event (S) carries its event code ('O' start of messages ... 'C' end of messages).
inline constexpr std::size_t system_event_code_offset = detail::layout_offset<system_event, 0>;

/// The event code of a System Event (peek_type() == 'S'). Precondition: frame.size() >
/// system_event_code_offset, which every S message of a checked length satisfies.
[[nodiscard]] inline char peek_system_event_code(std::span<const std::byte> frame) noexcept {
  assert(frame.size() > system_event_code_offset);
  return static_cast<char>(frame[system_event_code_offset]);
}

/// The message length a BinaryFILE length prefix at `prefix` announces (type byte included, prefix not).
/// Precondition: frame_length_size readable bytes at `prefix`.
[[nodiscard]] inline std::size_t peek_frame_length(const std::byte* prefix) noexcept {
  return detail::load_be16(prefix);
}

}  // namespace itch5
