// The inside-lines output of a run: each inside change of a wanted symbol goes to `Out` (line_formatter on
// the books' thread, or line_thread), which keeps the symbol's line text and writes a line for the changes
// in the time range. An output of observer.hpp; one inline call per inside change.
#pragma once

#include <cstdint>
#include <string_view>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/book/price_level.hpp>
#include <itch5/book/side_kind.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

template <class Out>
class lines_output {
 public:
  lines_output(Out& out) : out_(out) {}  // NOLINT(google-explicit-constructor): built from {out} in a list

  void on_symbol(std::uint16_t locate, std::string_view name) { out_.name(locate, name); }

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    if (e.inside_changed) out_.change(e.timestamp, e.locate, e.side, last_of(e.side, b), true);
  }

  // Outside the range: no line, but the symbol's line text follows its inside, so that the first line in
  // the range shows both sides as they are.
  template <class Book>
  void outside_range(const book::book_event& e, const book::order_book<Book>& b) {
    if (e.inside_changed) out_.change(e.timestamp, e.locate, e.side, last_of(e.side, b), false);
  }

  /// Writes what is still buffered (rethrowing a line thread's sink error) and counts the lines.
  void finish(const inside_options&, const name_function&, inside_result& r) { r.lines = out_.finish(); }

 private:
  template <class Book>
  static const book::price_level& last_of(book::side_kind side, const book::order_book<Book>& b) noexcept {
    return side == book::side_kind::buy ? b.last.bid : b.last.offer;
  }

  Out& out_;
};

}  // namespace itch5::inside
