// What the book engine reports to its observer after every applied book message.
#pragma once

#include <cstdint>

#include <itch5/timestamp.hpp>

#include <itch5/book/side_kind.hpp>

namespace itch5::book {

struct book_event {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  char type = 0;  ///< the message type: A F E C X D U
  side_kind side = side_kind::buy;
  /// Price levels (itch5/tick.hpp) between the event's price and the best price of its side just before
  /// the event; 0 when the side was empty or the price was at or better than the best. The event's price
  /// is the add's, the order's for E/C/X/D, and the new price for U. Computed only for observers that
  /// set `wants_book_depth`.
  std::uint32_t event_depth = 0;
  /// Price levels between the best and the worst price of the event's side after the event (0 for one
  /// level or an empty side). Computed only for observers that set `wants_book_depth`.
  std::uint32_t book_depth = 0;
  bool inside_changed = false;
};

}  // namespace itch5::book
