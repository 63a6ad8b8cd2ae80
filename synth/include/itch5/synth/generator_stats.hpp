// What a generator run produced: counts per message type, order-book figures, measured depths and gaps.
//
// The depth histogram uses the definition the order books measure: for every A/F/E/C/X/D/U, the number of
// price levels (itch5/tick.hpp) between the event price and the best price on the same side of the same
// symbol just before the event, 0 when that side is empty or the event price is at or better than the
// best. The event price is the add's price, the referenced order's price for E/C/X/D, and the new price
// for U.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

namespace itch5::synth {

struct generator_stats {
  static constexpr std::size_t depth_buckets = 65536;  ///< depths >= this share the last bucket

  std::array<std::uint64_t, 256> counts{};          ///< main stream, by type byte
  std::array<std::uint64_t, 256> delayed_counts{};  ///< delayed copy, by type byte
  std::uint64_t messages = 0;
  std::uint64_t delayed_messages = 0;
  std::uint64_t bytes = 0;  ///< framed bytes of the main stream (before compression)
  std::uint64_t delayed_bytes = 0;
  std::uint32_t symbols = 0;
  std::uint64_t live_peak = 0;       ///< most orders live at once
  std::uint64_t live_end = 0;        ///< orders live after the last message
  std::uint64_t new_orders = 0;      ///< A and F messages
  std::uint64_t dropped_orders = 0;  ///< of those, missing from the delayed copy
  std::uint64_t gaps = 0;            ///< consecutive-message gaps of the main stream
  std::uint64_t gaps_under_300ns = 0;
  std::chrono::nanoseconds first_trading{0};  ///< timestamp of the first trading message
  std::chrono::nanoseconds last_trading{0};   ///< and of the last
  std::uint64_t substitutions = 0;  ///< drawn events that had to become another kind (no order to act on)
  std::vector<std::uint64_t> depth_histogram = std::vector<std::uint64_t>(depth_buckets + 1);

  /// The q-quantile (0..1) of the measured depths: the smallest d with at least q of the events at <= d.
  [[nodiscard]] std::uint32_t depth_quantile(double q) const noexcept;
  /// Number of A/F/E/C/X/D/U events measured.
  [[nodiscard]] std::uint64_t depth_events() const noexcept;
};

}  // namespace itch5::synth
