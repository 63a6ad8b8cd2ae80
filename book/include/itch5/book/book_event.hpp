// What the book engine reports to its observer after every applied book message.
#pragma once

#include <cstdint>

#include <itch5/price.hpp>
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

  // What the message did to its order (filled for every event; an observer that reads none of it pays
  // nothing: the engine's finish() is inlined into the observer's code).

  /// The order's reference number (U: the new reference).
  std::uint64_t order_ref = 0;
  /// The order's price (A/F: the add's; E/C/X/D: the resting order's, which E and C execute at the
  /// resting price of; U: the new price).
  itch5::price4 price{};
  /// Shares the message moved at `price`: A/F added; E/C executed; X cancelled; D the order's remaining
  /// shares, removed; U the new order's shares (0 when the new order was not added: zero shares, an
  /// invalid price or a duplicate reference, each counted as an anomaly).
  std::uint32_t shares = 0;
  /// Shares left on the order (`order_ref`) after the event: A/F the added shares; E/C/X what remains (0:
  /// the order left the book); D 0; U the new order's shares.
  std::uint32_t remaining = 0;
  /// U only: the replaced order's reference, price, and the shares it still had (removed from the book at
  /// `old_price`). 0 for the other types.
  std::uint64_t old_ref = 0;
  itch5::price4 old_price{};
  std::uint32_t old_shares = 0;
  /// E and C: the execution's match number; C: its price (E: the order's `price`) and printable flag ('Y'
  /// or 'N'; E: 'Y'). Otherwise 0.
  std::uint64_t match_number = 0;
  itch5::price4 execution_price{};
  char printable = 0;
};

}  // namespace itch5::book
