// Compile-time dispatch of one raw message to a handler.
//
// A handler is any object callable with the message structs it cares about, for example
//
//   struct my_handler {
//     void operator()(const itch5::add_order& m);
//     void operator()(const itch5::order_delete& m);
//   };
//
// or a generic lambda `[](const auto& m) {...}` for all of them. dispatch() switches on the type byte and
// decodes only the types the handler accepts; the others cost one switch. There is no virtual call and no
// allocation. Types unknown to ITCH 5.0 return dispatch_result::unknown_type.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>

#include <itch5/messages.hpp>

namespace itch5 {

enum class dispatch_result {
  delivered,     ///< Known type, passed to the handler.
  ignored,       ///< Known type, the handler does not take it.
  unknown_type,  ///< Not an ITCH 5.0 type.
  too_short,     ///< Known type, but fewer bytes than its fixed size (dispatch_checked only).
};

namespace detail {
template <class M, class H>
inline dispatch_result deliver(const std::byte* p, H& h) {
  if constexpr (std::is_invocable_v<H&, const M&>) {
    h(decode<M>(p));
    return dispatch_result::delivered;
  } else {
    return dispatch_result::ignored;
  }
}
}  // namespace detail

/// Decodes the message whose type byte is at `p` and hands it to `h`.
/// Precondition: the message is at least message_size[type] bytes long (the reader checks this once).
template <class H>
inline dispatch_result dispatch_unchecked(const std::byte* p, H& h) {
  switch (static_cast<char>(p[0])) {
    case system_event::type: return detail::deliver<system_event>(p, h);
    case stock_directory::type: return detail::deliver<stock_directory>(p, h);
    case stock_trading_action::type: return detail::deliver<stock_trading_action>(p, h);
    case reg_sho_restriction::type: return detail::deliver<reg_sho_restriction>(p, h);
    case market_participant_position::type: return detail::deliver<market_participant_position>(p, h);
    case mwcb_decline_level::type: return detail::deliver<mwcb_decline_level>(p, h);
    case mwcb_status::type: return detail::deliver<mwcb_status>(p, h);
    case ipo_quoting_period_update::type: return detail::deliver<ipo_quoting_period_update>(p, h);
    case luld_auction_collar::type: return detail::deliver<luld_auction_collar>(p, h);
    case operational_halt::type: return detail::deliver<operational_halt>(p, h);
    case add_order::type: return detail::deliver<add_order>(p, h);
    case add_order_mpid::type: return detail::deliver<add_order_mpid>(p, h);
    case order_executed::type: return detail::deliver<order_executed>(p, h);
    case order_executed_with_price::type: return detail::deliver<order_executed_with_price>(p, h);
    case order_cancel::type: return detail::deliver<order_cancel>(p, h);
    case order_delete::type: return detail::deliver<order_delete>(p, h);
    case order_replace::type: return detail::deliver<order_replace>(p, h);
    case trade::type: return detail::deliver<trade>(p, h);
    case cross_trade::type: return detail::deliver<cross_trade>(p, h);
    case broken_trade::type: return detail::deliver<broken_trade>(p, h);
    case noii::type: return detail::deliver<noii>(p, h);
    case rpii::type: return detail::deliver<rpii>(p, h);
    case dlcr_price_discovery::type: return detail::deliver<dlcr_price_discovery>(p, h);
    default: return dispatch_result::unknown_type;
  }
}

/// As dispatch_unchecked(), for a message of any length: checks the length against the type's size first.
template <class H>
inline dispatch_result dispatch(std::span<const std::byte> msg, H& h) {
  if (msg.empty()) return dispatch_result::too_short;
  std::size_t need = message_size[static_cast<unsigned char>(msg[0])];
  if (need == 0) return dispatch_result::unknown_type;
  if (msg.size() < need) return dispatch_result::too_short;
  return dispatch_unchecked(msg.data(), h);
}

}  // namespace itch5
