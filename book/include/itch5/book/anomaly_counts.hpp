// Counters of inconsistent input seen by the book engine. Every kind is counted, the offending message is
// skipped (or applied as far as it can be, see each kind) and processing goes on.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace itch5::book {

enum class anomaly : std::uint8_t {
  unknown_order,         ///< E/C/X/D/U for an order reference that is not live; skipped
  duplicate_order,       ///< A/F/U adds a reference that is already live; the new order is skipped
  reduce_exceeds_order,  ///< E/C/X for more shares than the order has; the order is removed
  zero_shares,           ///< A/F/U with 0 shares or E/C/X of 0 shares; skipped (U still removes the original)
  invalid_price,         ///< A/F/U price 0 or above $200,000.0000; skipped (U still removes the original)
  invalid_side,          ///< A/F side other than 'B' or 'S'; skipped
  crossed_book,          ///< an event left the best bid at or above the best offer (counted on entry)
  unannounced_locate,    ///< A/F for a stock locate never announced by a stock directory message
  timestamp_backwards,   ///< a message timestamp below the previous message's
  timestamp_beyond_day,  ///< a message timestamp at or beyond 24:00:00
};

inline constexpr std::size_t anomaly_kinds = 10;

[[nodiscard]] constexpr std::string_view to_string(anomaly a) noexcept {
  constexpr std::array<std::string_view, anomaly_kinds> names = {
      "unknown_order",       "duplicate_order",     "reduce_exceeds_order", "zero_shares",
      "invalid_price",       "invalid_side",        "crossed_book",         "unannounced_locate",
      "timestamp_backwards", "timestamp_beyond_day"};
  return names[static_cast<std::size_t>(a)];
}

class anomaly_counts {
 public:
  void count(anomaly a) noexcept { ++n_[static_cast<std::size_t>(a)]; }
  /// Adds the counts of `other` (of another part of the same stream).
  anomaly_counts& operator+=(const anomaly_counts& other) noexcept {
    for (std::size_t k = 0; k < anomaly_kinds; ++k) n_[k] += other.n_[k];
    return *this;
  }
  [[nodiscard]] std::uint64_t operator[](anomaly a) const noexcept { return n_[static_cast<std::size_t>(a)]; }
  [[nodiscard]] std::uint64_t total() const noexcept {
    std::uint64_t t = 0;
    for (auto v : n_) t += v;
    return t;
  }

 private:
  std::array<std::uint64_t, anomaly_kinds> n_{};
};

}  // namespace itch5::book
