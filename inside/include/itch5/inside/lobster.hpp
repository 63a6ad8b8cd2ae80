// LOBSTER's message and orderbook files (lobsterdata.com's data structure; tables/lobster_table.hpp) from an
// ITCH 5.0 day, as a library call: the books of every symbol are built from every message of the day by
// the itch5inside engine (run_inside, one book thread), and the chosen symbols' events in the time window
// become rows, each message row followed by the book row after it, `levels` deep.
//
//   itch5::inside::lobster_options opt;
//   opt.levels = 10;
//   opt.symbols = {{"AAPL", &aapl_messages, &aapl_book}, {"MSFT", &msft_messages, &msft_book}};
//   itch5::inside::lobster_result r = itch5::inside::run_lobster(reader, opt);
//
// How ITCH maps to LOBSTER's events (docs/formats.md, "LOBSTER files", says why): A and F new order (1); X
// partial cancel (2, also when it cancels every share left); D full delete (3); E and C visible execution
// (4, at the resting order's price, which the book row moves by); U a full delete (3) of the old order then
// a new order (1) of the new reference, at one timestamp, each followed by its book row; P hidden execution
// (5); Q cross (6, order id -1 opening, -2 closing, -3 IPO/halt, -4 intraday; direction -1); H trading halt
// (7: price -1 halted or paused, 0 quotation only, 1 trading; order id and size 0, direction -1). The book
// rows of 5, 6 and 7 repeat the book (those messages do not change it). Messages of other types, and order
// messages the engine cannot apply (unknown references, counted as anomalies), make no row.
//
// Cost: the run of itch5inside on one book thread (the inside lines of the chosen symbols are formatted and
// dropped), plus per event of a chosen symbol the walk of the top `levels` of both sides. Memory bounded:
// rows go to the sinks in batches. Not thread-safe; the sinks are called from the calling thread, or from
// lobster_options::writer's thread (itch5lobster: the formatting off the books' thread).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/message_reader.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/book_config.hpp>
#include <itch5/tables/lobster_table.hpp>
#include <itch5/tables/table_sink.hpp>

#include <itch5/inside/inside_result.hpp>
#include <itch5/inside/run_inside.hpp>

namespace itch5::inside {

/// One symbol's two LOBSTER tables: where its rows go.
struct lobster_symbol {
  std::string symbol;  ///< matched without regard to case, as itch5inside --symbols
  tables::table_sink<tables::lobster_message_table>* messages = nullptr;
  tables::table_sink<tables::lobster_orderbook_table>* orderbook = nullptr;
};

/// The LOBSTER part of a run's tables (inside_options::tables.lobster).
struct lobster_tables {
  std::vector<lobster_symbol> symbols;
  unsigned levels = 10;  ///< 1 to tables::lobster_max_levels
};

/// LOBSTER's default window: Nasdaq's regular session, 09:30 to 16:00.
inline constexpr itch5::timestamp lobster_default_from = std::chrono::hours(9) + std::chrono::minutes(30);
inline constexpr itch5::timestamp lobster_default_to = std::chrono::hours(16);

struct lobster_options {
  std::vector<lobster_symbol> symbols;  ///< at least one; names distinct
  unsigned levels = 10;                 ///< 1 to tables::lobster_max_levels
  /// The window [from, to): only events in it make rows; the books are built from every message.
  itch5::timestamp from = lobster_default_from;
  itch5::timestamp to = lobster_default_to;
  std::string book = "array";  ///< book::book_type_names(); every one gives the same rows
  book::book_config books;
  const std::atomic<bool>* cancel = nullptr;  ///< as inside_options::cancel
  /// The thread that writes the rows (table_options::writer), or null: the calling thread.
  tables::sink_thread* writer = nullptr;
};

/// Rows written for one symbol.
struct lobster_counts {
  std::string symbol;
  std::uint64_t messages = 0;  ///< message rows (= orderbook rows)
};

struct lobster_result {
  inside_result run;                   ///< the engine's run: messages, anomalies, read status, ...
  std::vector<lobster_counts> counts;  ///< per lobster_options::symbols, in order
  /// Requested symbols (upper case) that no message of the day named (their sinks got no row).
  std::vector<std::string> symbols_not_seen;
};

/// Runs the job. Throws std::invalid_argument for no symbols, a symbol without sinks or given twice,
/// levels out of range, an empty window or an unknown book type; never throws for bad input (read errors
/// are in result.run, rows before them handed over). Every sink's finish() is called at the end.
[[nodiscard]] lobster_result run_lobster(itch5::message_reader& reader, const lobster_options& options,
                                         const progress_callback& progress = {});

/// The trading day a file name says, where it follows one of Nasdaq's namings (the directory part is
/// ignored): MMDDYYYY.<market>_ITCH<version>... as on emi.nasdaq.com (01302019.NASDAQ_ITCH50.gz,
/// 01302019.BX_ITCH_50.gz, 01302019.PSX_ITCH_50.gz), and SMMDDYY-v50... as Nasdaq's historical
/// TotalView-ITCH files (S013019-v50.txt.gz, year 20YY). Nothing for another name or an invalid date.
[[nodiscard]] std::optional<std::chrono::year_month_day> date_from_file_name(std::string_view path);

/// A date given as YYYY-MM-DD (a valid calendar date), or nothing.
[[nodiscard]] std::optional<std::chrono::year_month_day> parse_iso_date(std::string_view text);

/// LOBSTER's file name: TICKER_YYYY-MM-DD_<from ms>_<to ms>_<kind>_<levels>.csv, the window in milliseconds
/// after midnight (rounded down), `kind` "message" or "orderbook".
[[nodiscard]] std::string lobster_file_name(std::string_view symbol, std::chrono::year_month_day date,
                                            itch5::timestamp from, itch5::timestamp to, std::string_view kind,
                                            unsigned levels);

}  // namespace itch5::inside
