// The compile-time interface every book side implements (map_book_side, array_book_side, ...).
//
// A book side aggregates resting orders into price levels for one side (side_kind) of one symbol. The
// order book engine tracks the orders themselves; a side only sees "add q shares at p" and "remove q
// shares at p" and answers best / worst level queries. Implementations must be exact: for any sequence of
// operations every implementation returns the same levels, which the typed test suite and the
// differential test verify. Preconditions (the engine guarantees them): reduce() never removes more shares
// than the level holds, and prices are in (0, 200,000.0000]. add() and reduce() tell whether the best level
// may have changed (false: it certainly did not), so that the engine asks for best() only then; a side
// may answer true more often than needed, never false wrongly.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include <itch5/price.hpp>

#include <itch5/book/book_config.hpp>
#include <itch5/book/price_level.hpp>
#include <itch5/book/side_kind.hpp>

namespace itch5::book {

template <class S>
concept book_side = std::constructible_from<S, const book_config&> &&
    requires(S s, const S cs, itch5::price4 p, std::uint64_t q) {
  { S::kind } -> std::convertible_to<side_kind>;
  // add q > 0 shares at p; false only if the best level is certainly unchanged
  { s.add(p, q) } -> std::same_as<bool>;
  // remove 0 < q <= shares at p (the level disappears at zero); false only if the best level is unchanged
  { s.reduce(p, q) } -> std::same_as<bool>;
  { cs.best() } -> std::same_as<price_level>;   // best level, or {0, 0} when empty
  { cs.worst() } -> std::same_as<price_level>;  // worst level, or {0, 0} when empty
  // levels_between(best().price, worst().price), 0 when empty: the book depth of the depth statistics
  { cs.level_span() } -> std::convertible_to<std::uint32_t>;
  { cs.level_count() } -> std::convertible_to<std::size_t>;
  { cs.empty() } -> std::convertible_to<bool>;
  // f(price_level) -> bool for each level from the best on, until f returns false
  cs.for_each_level([](const price_level&) { return true; });
};

}  // namespace itch5::book
