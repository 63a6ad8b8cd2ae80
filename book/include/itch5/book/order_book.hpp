// One symbol's book: its two sides, its last published inside, its symbol and bookkeeping flags.
#pragma once

#include <type_traits>

#include <itch5/stock_symbol.hpp>

#include <itch5/book/book_config.hpp>
#include <itch5/book/detail/level_arena.hpp>
#include <itch5/book/inside.hpp>
#include <itch5/book/side_kind.hpp>

namespace itch5::book {

/// `Book` is a book family (see book_types.hpp): Book::side<K> is its side type.
template <class Book>
struct alignas(64) order_book {
  using bid_side = typename Book::template side<side_kind::buy>;
  using offer_side = typename Book::template side<side_kind::sell>;

  /// Sides that can take their memory from an `arena` (array_book_side) do; it must outlive the book.
  explicit order_book(const book_config& cfg, detail::level_arena* arena = nullptr)
      : bids(make_side<bid_side>(cfg, arena)), offers(make_side<offer_side>(cfg, arena)) {}

  [[nodiscard]] inside current() const noexcept { return {bids.best(), offers.best()}; }

  bid_side bids;
  offer_side offers;
  inside last{};                 ///< the inside as of the last book event
  itch5::stock_symbol symbol{};  ///< from the stock directory, else from the first add
  bool announced = false;        ///< a stock directory message named this locate
  bool crossed = false;          ///< the book is crossed or locked right now

 private:
  template <class S>
  static S make_side(const book_config& cfg, detail::level_arena* arena) {
    if constexpr (std::is_constructible_v<S, const book_config&, detail::level_arena*>) {
      return S(cfg, arena);
    } else {
      return S(cfg);
    }
  }
};

}  // namespace itch5::book
