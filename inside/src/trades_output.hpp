// The trades part of the table outputs (table_outputs.hpp): a trades row (tables/trades_table.hpp) per
// execution event of the books (E, C: the engine's book_event has the resting order's price and side) and
// per P, Q and B message, of the wanted symbols in the time range (the observer filters), to the --trades
// sink in batches; and with --trade-stats the same rows added up per symbol (trade_stats_builder), written
// at the end. On the books' thread: per execution or trade message a row filled in place (no allocation;
// a virtual call per 4096 rows); the other book events cost a compare.
#pragma once

#include <memory>
#include <optional>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/book/side_kind.hpp>

#include <itch5/tables/table_sink.hpp>
#include <itch5/tables/trade_stats_builder.hpp>
#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

class trades_output {
 public:
  static bool wanted(const inside_options& opt) noexcept {
    return opt.tables.trades != nullptr || opt.tables.trade_stats != nullptr;
  }

  explicit trades_output(const inside_options& opt) : stats_sink_(opt.tables.trade_stats) {
    if (opt.tables.trades != nullptr) rows_.emplace(*opt.tables.trades, 4096, opt.tables.writer);
    if (stats_sink_ != nullptr) stats_ = std::make_unique<tables::trade_stats_builder>();
  }

  /// The book events on_book_event() reads (table_outputs skips the others before calling it).
  static constexpr std::string_view book_event_types = "EC";

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    if (e.type != 'E' && e.type != 'C') [[likely]]
      return;
    tables::trade_row& r = next();
    r.timestamp = e.timestamp;
    r.locate = e.locate;
    r.symbol = b.symbol;
    r.kind = tables::letter{e.type};
    r.price = e.execution_price;
    r.shares = e.shares;
    r.side = tables::letter{e.side == book::side_kind::buy ? 'B' : 'S'};
    r.match_number = e.match_number;
    r.order_ref = e.order_ref;
    r.printable = e.type == 'C' ? std::optional<bool>(e.printable != 'N') : std::nullopt;
    r.cross_type = std::nullopt;
    done(r);
  }

  template <class Book>
  void on_message(const itch5::trade& m, const book::order_book<Book>*) {
    tables::trade_row& r = next();
    header(r, m.header, m.stock, 'P');
    r.price = m.price;
    r.shares = m.shares;
    r.side = tables::letter{m.side};
    r.match_number = m.match_number;
    r.order_ref = m.order_ref != 0 ? std::optional<std::uint64_t>(m.order_ref) : std::nullopt;
    r.printable = std::nullopt;
    r.cross_type = std::nullopt;
    done(r);
  }

  template <class Book>
  void on_message(const itch5::cross_trade& m, const book::order_book<Book>*) {
    tables::trade_row& r = next();
    header(r, m.header, m.stock, 'Q');
    r.price = m.cross_price;
    r.shares = m.shares;
    r.side = std::nullopt;
    r.match_number = m.match_number;
    r.order_ref = std::nullopt;
    r.printable = std::nullopt;
    r.cross_type = tables::letter{m.cross_type};
    done(r);
  }

  template <class Book>
  void on_message(const itch5::broken_trade& m, const book::order_book<Book>* b) {
    tables::trade_row& r = next();
    header(r, m.header, b != nullptr ? b->symbol : itch5::stock_symbol{}, 'B');
    r.price = std::nullopt;
    r.shares = std::nullopt;
    r.side = std::nullopt;
    r.match_number = m.match_number;
    r.order_ref = std::nullopt;
    r.printable = std::nullopt;
    r.cross_type = std::nullopt;
    done(r);
  }

  /// The last trades rows, then the statistics rows; finishes both sinks.
  void finish(const inside_options&, const name_function&, inside_result&) {
    if (rows_) rows_->finish();
    if (stats_) {
      tables::row_batch<tables::trade_stats_table> out(*stats_sink_, 1024);
      stats_->each_row([&](const tables::trade_stats_row& s) { out.next() = s; });
      out.finish();
    }
  }

 private:
  // The row to fill in: the batch's next slot, or (statistics only) a scratch row.
  tables::trade_row& next() { return rows_ ? rows_->next() : scratch_; }
  void done(const tables::trade_row& r) {
    if (stats_) stats_->add(r);
  }
  static void header(tables::trade_row& r, const itch5::message_header& h, const itch5::stock_symbol& s,
                     char kind) noexcept {
    r.timestamp = h.timestamp;
    r.locate = h.stock_locate;
    r.symbol = s;
    r.kind = tables::letter{kind};
  }

  std::optional<tables::row_batch<tables::trades_table>> rows_;
  tables::table_sink<tables::trade_stats_table>* stats_sink_;
  std::unique_ptr<tables::trade_stats_builder> stats_;
  tables::trade_row scratch_;
};

}  // namespace itch5::inside
