// All 23 ITCH 5.0 message types, their size table, and generic decode() / encode().
//
// Every message type is a plain struct (see itch5/messages/*.hpp) with `type`, `size`, a `header` and its
// fields, plus a layout() listing each field's offset. decode<M>() reads a message from bytes whose length
// the caller has already checked (>= M::size): fixed offsets, memcpy + byte swap, no allocation, no bounds
// checks. encode<M>() is the inverse. Both are constexpr-unrolled over the layout and inline completely.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <tuple>

#include <itch5/messages/add_order.hpp>
#include <itch5/messages/add_order_mpid.hpp>
#include <itch5/messages/broken_trade.hpp>
#include <itch5/messages/cross_trade.hpp>
#include <itch5/messages/dlcr_price_discovery.hpp>
#include <itch5/messages/ipo_quoting_period_update.hpp>
#include <itch5/messages/luld_auction_collar.hpp>
#include <itch5/messages/market_participant_position.hpp>
#include <itch5/messages/mwcb_decline_level.hpp>
#include <itch5/messages/mwcb_status.hpp>
#include <itch5/messages/noii.hpp>
#include <itch5/messages/operational_halt.hpp>
#include <itch5/messages/order_cancel.hpp>
#include <itch5/messages/order_delete.hpp>
#include <itch5/messages/order_executed.hpp>
#include <itch5/messages/order_executed_with_price.hpp>
#include <itch5/messages/order_replace.hpp>
#include <itch5/messages/reg_sho_restriction.hpp>
#include <itch5/messages/rpii.hpp>
#include <itch5/messages/stock_directory.hpp>
#include <itch5/messages/stock_trading_action.hpp>
#include <itch5/messages/system_event.hpp>
#include <itch5/messages/trade.hpp>

namespace itch5 {

template <class... T>
struct type_list {
  static constexpr std::size_t size = sizeof...(T);
};

/// Every message type of the specification, in the order of its table.
using all_message_types =
    type_list<system_event, stock_directory, stock_trading_action, reg_sho_restriction,
              market_participant_position, mwcb_decline_level, mwcb_status, ipo_quoting_period_update,
              luld_auction_collar, operational_halt, add_order, add_order_mpid, order_executed,
              order_executed_with_price, order_cancel, order_delete, order_replace, trade, cross_trade,
              broken_trade, noii, rpii, dlcr_price_discovery>;

/// A type that is one of the ITCH 5.0 message structs.
template <class M>
concept message = requires {
  { M::type } -> std::convertible_to<char>;
  { M::size } -> std::convertible_to<std::size_t>;
  M::layout();
}
&&detail::layout_tiles_message<M>();

namespace detail {
template <class... M>
consteval std::array<std::uint8_t, 256> make_size_table(type_list<M...>) {
  static_assert((message<M> && ...), "a message layout does not tile its message");
  std::array<std::uint8_t, 256> t{};
  ((t[static_cast<unsigned char>(M::type)] = static_cast<std::uint8_t>(M::size)), ...);
  return t;
}
}  // namespace detail

/// Fixed size (type byte included) of each message type, indexed by the type byte; 0 for unknown types.
inline constexpr std::array<std::uint8_t, 256> message_size = detail::make_size_table(all_message_types{});

namespace detail {
template <class... M>
consteval std::array<const char*, 256> make_name_table(type_list<M...>) {
  std::array<const char*, 256> t{};
  ((t[static_cast<unsigned char>(M::type)] = M::name), ...);
  return t;
}
inline constexpr std::array<const char*, 256> message_type_names = make_name_table(all_message_types{});

template <class... M>
consteval std::array<char, sizeof...(M)> make_type_bytes(type_list<M...>) {
  return {M::type...};
}
inline constexpr auto message_type_bytes = make_type_bytes(all_message_types{});
}  // namespace detail

/// The name of message type `type` as the message text prints it ("add_order" for 'A'); nullptr for a
/// byte that is no ITCH 5.0 message type.
[[nodiscard]] constexpr const char* message_type_name(char type) noexcept {
  return detail::message_type_names[static_cast<unsigned char>(type)];
}

/// Every message type byte of the specification, in the order of its table ("SRHY...").
[[nodiscard]] constexpr std::string_view message_types() noexcept {
  return {detail::message_type_bytes.data(), detail::message_type_bytes.size()};
}

/// Decodes a message of type M whose type byte is at `p`. Precondition: at least M::size readable bytes.
template <message M>
[[nodiscard]] inline M decode(const std::byte* p) noexcept {
  M m;
  m.header = message_header::decode(p);
  std::apply(
      [&](auto... f) {
        ((m.*f.member = detail::wire<typename decltype(f)::value_type>::read(p + decltype(f)::offset)), ...);
      },
      M::layout());
  return m;
}

/// Writes the M::size bytes of `m` (type byte first) at `p`.
template <message M>
inline void encode(const M& m, std::byte* p) noexcept {
  p[0] = static_cast<std::byte>(M::type);
  m.header.encode(p);
  std::apply(
      [&](auto... f) {
        (detail::wire<typename decltype(f)::value_type>::write(p + decltype(f)::offset, m.*f.member), ...);
      },
      M::layout());
}

}  // namespace itch5
