// The book engine's documented rules for inconsistent input, written once for the tests' references:
// apply_book_message() changes a reference_book by one decoded message the way book/anomaly_counts.hpp and
// docs/design.md ("Inside changes and anomalies") say the engine does, and tells what it did. Written from
// that documentation, not from book/'s code, and calling none of it.
//
// - A/F: a side other than B/S, 0 shares, a price of 0 or above $200,000.0000, or a reference that is live
//   skip the add.
// - E/C/X: an unknown reference or 0 shares skip the message; more shares than the order has remove it.
// - D: an unknown reference is skipped.
// - U: an unknown original is skipped; otherwise the original is removed, and the new order (at the
//   original's locate and side) is added unless its shares are 0, its price is invalid or its reference is
//   live.
// Any other message leaves the book alone. Unannounced locates, crossed books and timestamps are counted by
// the engine but change nothing, so they are not here. Cost: that of the reference_book calls.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>
#include <itch5_test/reference_book.hpp>

namespace itch5_test {

/// The rule a message broke (book/anomaly_counts.hpp's kinds that change what is applied).
enum class book_anomaly : std::uint8_t {
  none,
  unknown_order,
  duplicate_order,
  reduce_exceeds_order,
  zero_shares,
  invalid_price,
  invalid_side,
};

[[nodiscard]] constexpr std::string_view to_string(book_anomaly a) noexcept {
  constexpr std::array<std::string_view, 7> names = {
      "none",        "unknown_order", "duplicate_order", "reduce_exceeds_order",
      "zero_shares", "invalid_price", "invalid_side"};
  return names[static_cast<std::size_t>(a)];
}

/// What a message did to a reference_book.
struct book_change {
  bool applied = false;  ///< the book changed: the engine compares the inside after it
  /// The rule broken, the first of side, shares, price, duplicate for an add; for a U, its new order's.
  book_anomaly anomaly = book_anomaly::none;
  std::uint16_t locate = 0;       ///< the add's locate, or the order's for E/C/X/D/U (0 when unknown)
  reference_book::order order{};  ///< E/C/X/D/U: the order referred to, as it was before the message
  std::uint32_t shares = 0;       ///< E/C/X/D/U: the shares taken off that order (all of them for D and U)
  bool added = false;             ///< A/F/U: the new order is on the book
};

/// An add (A/F) whose fields are valid: applied, or skipped only because its reference is live. The inside
/// output names a locate after such an add when no directory message named it.
[[nodiscard]] constexpr bool add_fields_valid(const book_change& c) noexcept {
  return c.applied || c.anomaly == book_anomaly::duplicate_order;
}

/// Prices the engine takes: above 0 and at most $200,000.0000.
[[nodiscard]] constexpr bool valid_book_price(std::uint32_t units) noexcept {
  return units != 0 && units <= 2'000'000'000u;
}

namespace detail {

inline book_change add_order(reference_book& book, std::uint64_t ref, const reference_book::order& o) {
  book_change c;
  c.locate = o.locate;
  if (o.side != 'B' && o.side != 'S') {
    c.anomaly = book_anomaly::invalid_side;
  } else if (o.shares == 0) {
    c.anomaly = book_anomaly::zero_shares;
  } else if (!valid_book_price(o.price)) {
    c.anomaly = book_anomaly::invalid_price;
  } else if (!book.add(ref, o)) {
    c.anomaly = book_anomaly::duplicate_order;
  } else {
    c.applied = c.added = true;
  }
  return c;
}

inline book_change reduce_order(reference_book& book, std::uint64_t ref, std::uint32_t shares) {
  book_change c;
  const reference_book::order* o = book.find(ref);
  if (o == nullptr) {
    c.anomaly = book_anomaly::unknown_order;
    return c;
  }
  c.locate = o->locate;
  c.order = *o;
  if (shares == 0) {
    c.anomaly = book_anomaly::zero_shares;
    return c;
  }
  if (shares > o->shares) c.anomaly = book_anomaly::reduce_exceeds_order;
  c.shares = shares < o->shares ? shares : o->shares;
  book.reduce(ref, shares);
  c.applied = true;
  return c;
}

// Removes the whole live order `ref` (D, and the first half of U): on a book kept by these rules every live
// order has shares, so this is a reduction by all of them.
inline book_change remove_order(reference_book& book, std::uint64_t ref) {
  const reference_book::order* o = book.find(ref);
  return reduce_order(book, ref, o == nullptr ? 0 : o->shares);
}

}  // namespace detail

inline book_change apply_book_message(reference_book& book, const itch5::add_order& m) {
  return detail::add_order(book, m.order_ref, {m.header.stock_locate, m.side, m.price.units(), m.shares});
}
inline book_change apply_book_message(reference_book& book, const itch5::add_order_mpid& m) {
  return detail::add_order(book, m.order_ref, {m.header.stock_locate, m.side, m.price.units(), m.shares});
}
inline book_change apply_book_message(reference_book& book, const itch5::order_executed& m) {
  return detail::reduce_order(book, m.order_ref, m.executed_shares);
}
inline book_change apply_book_message(reference_book& book, const itch5::order_executed_with_price& m) {
  return detail::reduce_order(book, m.order_ref, m.executed_shares);
}
inline book_change apply_book_message(reference_book& book, const itch5::order_cancel& m) {
  return detail::reduce_order(book, m.order_ref, m.cancelled_shares);
}
inline book_change apply_book_message(reference_book& book, const itch5::order_delete& m) {
  return detail::remove_order(book, m.order_ref);
}
inline book_change apply_book_message(reference_book& book, const itch5::order_replace& m) {
  book_change c = detail::remove_order(book, m.original_order_ref);
  if (!c.applied) return c;
  const book_change n =
      detail::add_order(book, m.new_order_ref, {c.order.locate, c.order.side, m.price.units(), m.shares});
  c.anomaly = n.anomaly;
  c.added = n.added;
  return c;
}
/// Any other message: not a book message, no change.
template <class M>
book_change apply_book_message(reference_book&, const M&) {
  return {};
}

}  // namespace itch5_test
