// signal_kind: which uniformly sampled series is built from a symbol's inside changes.
//
// Every kind is an impulse train of per-change values summed into bins: the count of changes, or the
// signed change of the mid price, the best bid / offer price or size. Changes, not levels: two feeds'
// price levels are nearly constant over a window and dominated by their trend, so correlating levels
// gives a broad, biased peak; the changes carry the timing. Compile-time table, thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace itch5::tde {

enum class signal_kind : std::uint8_t {
  events,  ///< 1 per inside change (the default: every change carries timing)
  mid,     ///< signed change of the mid price (Price(4) units), when both sides are present before and after
  bid,     ///< signed change of the best bid price, when a bid is present before and after
  offer,   ///< signed change of the best offer price, when an offer is present before and after
  bid_size,    ///< signed change of the best bid size (an empty side has size 0)
  offer_size,  ///< signed change of the best offer size
};

inline constexpr std::size_t signal_kind_count = 6;
inline constexpr std::array<signal_kind, signal_kind_count> all_signal_kinds = {
    signal_kind::events, signal_kind::mid,      signal_kind::bid,
    signal_kind::offer,  signal_kind::bid_size, signal_kind::offer_size};

/// "events", "mid", "bid", "offer", "bid-size", "offer-size".
[[nodiscard]] std::string_view to_string(signal_kind s) noexcept;
/// The inverse of to_string(). Throws std::invalid_argument listing the names.
[[nodiscard]] signal_kind parse_signal_kind(std::string_view text);

}  // namespace itch5::tde
