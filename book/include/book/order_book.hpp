// One symbol's book: its two sides, its last published inside, its symbol and bookkeeping flags.
#pragma once

#include <itch5/stock_symbol.hpp>

#include <book/book_config.hpp>
#include <book/inside.hpp>
#include <book/side_kind.hpp>

namespace book {

/// `Book` is a book family (see book_types.hpp): Book::side<K> is its side type.
template <class Book>
struct order_book {
  using bid_side = typename Book::template side<side_kind::buy>;
  using offer_side = typename Book::template side<side_kind::sell>;

  explicit order_book(const book_config& cfg) : bids(cfg), offers(cfg) {}

  [[nodiscard]] inside current() const noexcept { return {bids.best(), offers.best()}; }

  bid_side bids;
  offer_side offers;
  inside last{};                 ///< the inside as of the last book event
  itch5::stock_symbol symbol{};  ///< from the stock directory, else from the first add
  bool announced = false;        ///< a stock directory message named this locate
  bool crossed = false;          ///< the book is crossed or locked right now
};

}  // namespace book
