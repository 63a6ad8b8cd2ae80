// The tables a run of itch5inside writes besides the inside lines (tables/): where each one's rows go and
// how it is shaped. A table whose sink is null is off. Plain data, read once when the run starts; the sinks
// must outlive the run, which calls their finish() at its end (also when it stops early).
#pragma once

#include <itch5/timestamp.hpp>

#include <itch5/tables/table_sink.hpp>

namespace itch5::tables {
struct trades_table;
struct trade_stats_table;
struct levels_table;
struct event_sinks;
struct inside_table;
class sink_thread;
}  // namespace itch5::tables

namespace itch5::inside {

struct lobster_tables;  // lobster.hpp

struct table_options {
  /// One row per print (E, C, P, Q) and broken trade (B), in feed order (--trades).
  tables::table_sink<tables::trades_table>* trades = nullptr;
  /// One row per symbol with prints, written at the end (--trade-stats).
  tables::table_sink<tables::trade_stats_table>* trade_stats = nullptr;
  /// The book `levels` deep (market by price), a row per change of a symbol's top levels, or per grid time
  /// with `every` (--book-levels, --levels, --every).
  tables::table_sink<tables::levels_table>* book_levels = nullptr;
  unsigned levels = 10;       ///< 1 to max_levels
  itch5::timestamp every{0};  ///< 0: a row per change; else a row per symbol at each multiple of it
  /// The market-state event tables, one sink per kind (--events).
  const tables::event_sinks* events = nullptr;
  /// LOBSTER's message and orderbook rows of some symbols (itch5lobster, run_lobster: lobster.hpp).
  const lobster_tables* lobster = nullptr;

  /// The inside changes as rows (tables/inside_table.hpp), the inside lines' content (the Python package).
  tables::table_sink<tables::inside_table>* inside = nullptr;

  /// The thread that formats and writes the tables' rows (sink_thread.hpp): the trades, N-level book and
  /// LOBSTER rows go to their sinks through it, off the books' thread; null: the books' thread calls the
  /// sinks. Give it only sinks that may be called from another thread (itch5inside's and itch5lobster's
  /// CSV files; not the Python package's). Must outlive the run.
  tables::sink_thread* writer = nullptr;

  /// Whether any table is on.
  [[nodiscard]] bool any() const noexcept {
    return trades != nullptr || trade_stats != nullptr || book_levels != nullptr || events != nullptr ||
           inside != nullptr || lobster != nullptr;
  }
};

}  // namespace itch5::inside
