// The inside table's part of table_outputs (table_outputs.hpp): a row per inside change of a wanted symbol
// in the time range (the inside file's lines, as rows of tables/inside_table.hpp), to
// table_options::inside in batches. One row fill per inside change; nothing per other event.
#pragma once

#include <itch5/price.hpp>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>

#include <itch5/tables/inside_table.hpp>
#include <itch5/tables/table_sink.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

class inside_table_output {
 public:
  static bool wanted(const inside_options& opt) noexcept { return opt.tables.inside != nullptr; }
  explicit inside_table_output(const inside_options& opt) : rows_(*opt.tables.inside) {}

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    if (!e.inside_changed) return;
    tables::inside_row& r = rows_.next();
    r.timestamp = e.timestamp;
    r.locate = e.locate;
    r.symbol = b.symbol;
    const book::price_level& bid = b.last.bid;
    const book::price_level& ask = b.last.offer;
    r.bid_price = bid.shares == 0 ? itch5::price4{0} : bid.price;
    r.bid_size = bid.shares;
    r.ask_price = ask.shares == 0 ? itch5::max_price4 : ask.price;
    r.ask_size = ask.shares;
  }

  void finish(const inside_options&, const name_function&, inside_result&) { rows_.finish(); }

 private:
  tables::row_batch<tables::inside_table> rows_;
};

}  // namespace itch5::inside
