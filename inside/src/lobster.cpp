// run_lobster (lobster.hpp): the itch5inside run with the LOBSTER part of the tables on (lobster_output.hpp),
// its inside lines dropped; and LOBSTER's file names and the dates in Nasdaq's.
#include <itch5/inside/lobster.hpp>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <unordered_set>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/line_sink.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

namespace {

// Counts the rows going through to a sink (one call per batch).
template <class Table>
class counting_sink final : public tables::table_sink<Table> {
 public:
  counting_sink(tables::table_sink<Table>& to, std::uint64_t& rows) : to_(to), rows_(rows) {}
  void write(std::span<const typename Table::row> rows) override {
    rows_ += rows.size();
    to_.write(rows);
  }
  void finish() override { to_.finish(); }

 private:
  tables::table_sink<Table>& to_;
  std::uint64_t& rows_;
};

bool digits(std::string_view s) {
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return !s.empty();
}

int number(std::string_view s) {
  int n = 0;
  for (const char c : s) n = n * 10 + (c - '0');
  return n;
}

std::optional<std::chrono::year_month_day> valid(int y, int m, int d) {
  const std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(static_cast<unsigned>(m)),
                                        std::chrono::day(static_cast<unsigned>(d))};
  if (!ymd.ok()) return std::nullopt;
  return ymd;
}

}  // namespace

lobster_result run_lobster(itch5::message_reader& reader, const lobster_options& options,
                           const progress_callback& progress) {
  if (options.symbols.empty()) throw std::invalid_argument("run_lobster: no symbols");
  if (options.levels < 1 || options.levels > tables::lobster_max_levels) {
    throw std::invalid_argument("run_lobster: levels must be between 1 and " +
                                std::to_string(tables::lobster_max_levels));
  }
  if (options.from >= options.to) throw std::invalid_argument("run_lobster: empty window (from >= to)");
  lobster_result result;
  std::unordered_set<std::string> names;
  // Counting sinks in front of the caller's (rows counted per symbol), kept alive for the run.
  std::vector<std::unique_ptr<tables::table_sink<tables::lobster_message_table>>> message_sinks;
  std::vector<std::unique_ptr<tables::table_sink<tables::lobster_orderbook_table>>> book_sinks;
  std::vector<std::uint64_t> book_rows(options.symbols.size());
  result.counts.resize(options.symbols.size());
  lobster_tables tables_on;
  tables_on.levels = options.levels;
  inside_options opt;
  for (std::size_t i = 0; i < options.symbols.size(); ++i) {
    const lobster_symbol& s = options.symbols[i];
    if (s.messages == nullptr || s.orderbook == nullptr)
      throw std::invalid_argument("run_lobster: symbol " + s.symbol + " without its two sinks");
    if (!names.insert(upper_case(s.symbol)).second)
      throw std::invalid_argument("run_lobster: symbol " + s.symbol + " given twice");
    result.counts[i].symbol = s.symbol;
    message_sinks.push_back(std::make_unique<counting_sink<tables::lobster_message_table>>(
        *s.messages, result.counts[i].messages));
    book_sinks.push_back(
        std::make_unique<counting_sink<tables::lobster_orderbook_table>>(*s.orderbook, book_rows[i]));
    tables_on.symbols.push_back({s.symbol, message_sinks.back().get(), book_sinks.back().get()});
    opt.symbols.push_back(s.symbol);
  }
  opt.book = options.book;
  opt.books = options.books;
  opt.from = options.from;
  opt.to = options.to;
  opt.cancel = options.cancel;
  opt.line_thread = false;  // the lines of the chosen symbols are dropped: no thread for them
  opt.tables.lobster = &tables_on;
  opt.tables.writer = options.writer;
  discarding_line_sink lines;  // the inside lines of a LOBSTER run: not wanted
  result.run = run_inside(reader, opt, lines, progress);
  result.symbols_not_seen = result.run.symbols_not_seen;
  return result;
}

std::optional<std::chrono::year_month_day> date_from_file_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  // MMDDYYYY.<market>_ITCH...: 01302019.NASDAQ_ITCH50.gz, 01302019.BX_ITCH_50.gz
  if (name.size() > 9 && digits(name.substr(0, 8)) && name[8] == '.' &&
      name.substr(9).find("_ITCH") != std::string_view::npos) {
    return valid(number(name.substr(4, 4)), number(name.substr(0, 2)), number(name.substr(2, 2)));
  }
  // SMMDDYY-v50...: S013019-v50.txt.gz
  if (name.size() >= 11 && name[0] == 'S' && digits(name.substr(1, 6)) && name.substr(7, 4) == "-v50") {
    return valid(2000 + number(name.substr(5, 2)), number(name.substr(1, 2)), number(name.substr(3, 2)));
  }
  return std::nullopt;
}

std::optional<std::chrono::year_month_day> parse_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !digits(text.substr(0, 4)) ||
      !digits(text.substr(5, 2)) || !digits(text.substr(8, 2))) {
    return std::nullopt;
  }
  return valid(number(text.substr(0, 4)), number(text.substr(5, 2)), number(text.substr(8, 2)));
}

std::string lobster_file_name(std::string_view symbol, std::chrono::year_month_day date,
                              itch5::timestamp from, itch5::timestamp to, std::string_view kind,
                              unsigned levels) {
  char day[16];
  std::snprintf(day, sizeof day, "%04d-%02u-%02u", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
  const auto ms = [](itch5::timestamp t) {
    return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(t).count());
  };
  return std::string(symbol) + "_" + day + "_" + ms(from) + "_" + ms(to) + "_" + std::string(kind) + "_" +
         std::to_string(levels) + ".csv";
}

}  // namespace itch5::inside
