// itch5lobster: LOBSTER's message and orderbook files of some symbols from an ITCH 5.0 day (run_lobster).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/io/output_file.hpp>
#include <itch5/message_reader.hpp>

#include <itch5/book/book_types.hpp>
#include <itch5/inside/lobster.hpp>
#include <itch5/tables/lobster_csv.hpp>
#include <itch5/tables/sink_thread.hpp>

#include <itch5/cli/inflate_flag.hpp>
#include <itch5/cli/interruption.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>
#include <itch5/cli/progress.hpp>
#include <itch5/cli/time_of_day.hpp>

namespace {

namespace fs = std::filesystem;
using itch5::tables::lobster_csv_sink;
using itch5::tables::lobster_message_table;
using itch5::tables::lobster_orderbook_table;

struct config {
  std::string input;
  std::vector<std::string> symbols;
  std::uint64_t levels = 10;
  std::string out;
  std::string date;
  std::string from;
  std::string to;
  std::string book = "array";
  bool quiet = false;
  itch5::cli::inflate_flag inflate;
  // Resolved after parsing.
  std::chrono::year_month_day day{};
  itch5::cli::time_range range;
};

// One symbol's two files and their sinks.
struct symbol_files {
  std::string symbol;  // upper case, as in the file names
  std::unique_ptr<itch5::io::output_file> messages_file, orderbook_file;
  std::unique_ptr<lobster_csv_sink<lobster_message_table>> messages;
  std::unique_ptr<lobster_csv_sink<lobster_orderbook_table>> orderbook;
};

std::string upper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string file_path(const config& cfg, const std::string& symbol, std::string_view kind) {
  return (fs::path(cfg.out) / itch5::inside::lobster_file_name(symbol, cfg.day, cfg.range.from, cfg.range.to,
                                                               kind, static_cast<unsigned>(cfg.levels)))
      .string();
}

// Checks the options that need more than a range; resolves the date and the window.
void resolve(config& cfg) {
  for (const auto& s : cfg.symbols) {
    const bool printable = std::all_of(s.begin(), s.end(), [](char c) { return c > 0x20 && c < 0x7f; });
    if (s.empty() || s.size() > 8 || !printable || s.find('/') != std::string::npos) {
      throw std::invalid_argument("--symbols: '" + s +
                                  "' cannot be an ITCH symbol (1 to 8 printable characters, no spaces)");
    }
  }
  if (cfg.symbols.empty()) throw std::invalid_argument("--symbols: at least one symbol is needed");
  std::vector<std::string> seen;
  for (const auto& s : cfg.symbols) {
    if (std::find(seen.begin(), seen.end(), upper(s)) != seen.end())
      throw std::invalid_argument("--symbols: " + upper(s) + " given twice");
    seen.push_back(upper(s));
  }
  if (cfg.out.empty()) throw std::invalid_argument("--out: the directory for the files is needed");
  if (!cfg.date.empty()) {
    const auto d = itch5::inside::parse_iso_date(cfg.date);
    if (!d) throw std::invalid_argument("--date: '" + cfg.date + "' is not a date YYYY-MM-DD");
    cfg.day = *d;
  } else if (const auto d = itch5::inside::date_from_file_name(cfg.input)) {
    cfg.day = *d;
  } else {
    throw std::invalid_argument(
        "--date: needed: the name of " + cfg.input +
        " does not say the day (Nasdaq's MMDDYYYY.NASDAQ_ITCH50 or SMMDDYY-v50 names do)");
  }
  cfg.range = itch5::cli::resolve_time_range(cfg.from.empty() ? "09:30" : cfg.from,
                                             cfg.to.empty() ? "16:00" : cfg.to, "");
  if (cfg.range.to > itch5::one_day) cfg.range.to = itch5::one_day;
}

// --out must be a directory this process can write in.
void check_out_dir(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    throw itch5::cli::path_error(itch5::cli::path_error::kind::unusable,
                                 "--out: " + dir + ": no such directory");
  }
  if (!fs::is_directory(dir, ec)) {
    throw itch5::cli::path_error(itch5::cli::path_error::kind::unusable,
                                 "--out: " + dir + ": not a directory");
  }
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw itch5::cli::path_error(itch5::cli::path_error::kind::unusable, "--out: " + dir + ": not writable");
  }
}

int run(const config& cfg) {
  const auto start = std::chrono::steady_clock::now();
  const std::string input_name = cfg.input == "-" ? "standard input" : cfg.input;
  auto input = itch5::io::open_input(cfg.input, cfg.inflate.library());
  itch5::message_reader reader(itch5::io::make_block_source(std::move(input), {}));

  std::vector<symbol_files> files;
  itch5::inside::lobster_options opt;
  opt.levels = static_cast<unsigned>(cfg.levels);
  opt.from = cfg.range.from;
  opt.to = cfg.range.to;
  opt.book = cfg.book;
  opt.cancel = &itch5::cli::interruption::flag();
  itch5::tables::lobster_orderbook_row shape;
  shape.levels = opt.levels;
  files.reserve(cfg.symbols.size());
  for (const auto& s : cfg.symbols) {
    symbol_files& f = files.emplace_back();
    f.symbol = upper(s);
    f.messages_file = std::make_unique<itch5::io::output_file>(file_path(cfg, f.symbol, "message"));
    f.orderbook_file = std::make_unique<itch5::io::output_file>(file_path(cfg, f.symbol, "orderbook"));
    f.messages = std::make_unique<lobster_csv_sink<lobster_message_table>>(*f.messages_file);
    f.orderbook = std::make_unique<lobster_csv_sink<lobster_orderbook_table>>(*f.orderbook_file, shape);
    opt.symbols.push_back({f.symbol, f.messages.get(), f.orderbook.get()});
  }
  itch5::tables::sink_thread writer;  // the rows are formatted and written here, off the books' thread
  opt.writer = &writer;

  itch5::cli::progress progress(!cfg.quiet);
  const itch5::inside::lobster_result r =
      itch5::inside::run_lobster(reader, opt, [&](const itch5::message_reader& rd) {
        progress.update(rd.input_position(), rd.input_size(), rd.messages());
      });
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const auto abandon_all = [&] {
    for (auto& f : files) {
      f.messages_file->abandon();
      f.orderbook_file->abandon();
    }
  };
  if (r.run.cancelled || itch5::cli::interruption::requested()) {
    abandon_all();
    std::cerr << "itch5lobster: interrupted by " << itch5::cli::interruption::name() << " after "
              << r.run.messages << " messages of " << input_name
              << "; the rows so far are in *.csv.partial in " << cfg.out << "\n";
    itch5::cli::interruption::exit_now();
  }
  if (r.run.status == itch5::read_status::error) {
    abandon_all();
    std::cerr << "itch5lobster: the rows written before it are in *.csv.partial in " << cfg.out << "\n";
    std::cerr << "itch5lobster: error: " << r.run.error.describe(cfg.input) << "\n";
    return 1;
  }
  for (auto& f : files) {
    const bool seen =
        std::find(r.symbols_not_seen.begin(), r.symbols_not_seen.end(), f.symbol) == r.symbols_not_seen.end();
    if (seen) {
      f.messages_file->commit();
      f.orderbook_file->commit();
    } else {
      f.messages_file->discard();
      f.orderbook_file->discard();
    }
  }
  if (!cfg.quiet) {
    std::fprintf(stderr, "itch5lobster: %s: %llu messages in %.2f s, %u levels, window %s\n",
                 input_name.c_str(), static_cast<unsigned long long>(r.run.messages), seconds, opt.levels,
                 cfg.range.describe().c_str());
    for (const auto& c : r.counts) {
      std::fprintf(stderr, "  %s: %llu rows\n", upper(c.symbol).c_str(),
                   static_cast<unsigned long long>(c.messages));
    }
    std::fprintf(stderr, "  anomalies: %llu\n", static_cast<unsigned long long>(r.run.anomalies.total()));
  }
  if (!r.run.end_of_messages) {
    std::cerr << "itch5lobster: warning: " << input_name
              << ": no End of Messages system event (S 'C'): the day is incomplete (cut short?)\n";
  }
  if (!r.symbols_not_seen.empty()) {
    std::cerr << "itch5lobster: error: --symbols " << joined(r.symbols_not_seen) << ": no message of "
              << input_name << " names " << (r.symbols_not_seen.size() == 1 ? "it" : "them")
              << "; no files written for " << (r.symbols_not_seen.size() == 1 ? "it" : "them")
              << " (the other symbols' files are complete)\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  itch5::cli::options opts(
      "itch5lobster", "[options] DAY --symbols AAPL,MSFT --out DIR",
      "Writes LOBSTER's two files per symbol from an ITCH 5.0 day (lobsterdata.com's data structure): "
      "TICKER_YYYY-MM-DD_<from ms>_<to ms>_message_N.csv, one row per event in the window (time in seconds "
      "after midnight with nine decimals, event type 1-7, order id, size, price in $0.0001, direction 1 buy "
      "/ -1 sell), and TICKER_..._orderbook_N.csv, the book N levels deep after each event (ask price, ask "
      "size, bid price, bid size per level; a missing level as 9999999999,0 or -9999999999,0). No header "
      "lines. The books are built from every message of the day; docs/formats.md says how each ITCH message "
      "maps to LOBSTER's events.");
  opts.positional(
      "DAY", cfg.input,
      "ITCH 5.0 file, raw or gzip-compressed (detected from its bytes), or - for standard input. Its "
      "name gives the date when it follows Nasdaq's naming (01302019.NASDAQ_ITCH50.gz, "
      "S013019-v50.txt.gz); otherwise --date is needed.");
  opts.add(
      "symbols", cfg.symbols,
      "The symbols to write files for, e.g. AAPL,MSFT (at least one). Matched without regard to case; the "
      "file names have them in upper case. A symbol no message of the day names is an error after the "
      "run: its files are not written (the others' are).");
  opts.add("levels", cfg.levels, "Levels of the book per side in the orderbook file (N in the file names).",
           1, itch5::tables::lobster_max_levels)
      .value_name("N");
  opts.add(
          "out", cfg.out,
          "Directory for the files (must exist and be writable). Each file is written under a temporary name "
          "and renamed when complete.")
      .value_name("DIR");
  opts.add("date", cfg.date,
           "The trading day, YYYY-MM-DD, for the file names; needed when the DAY's name does not say it, and "
           "taken over the name when given.")
      .value_name("YYYY-MM-DD");
  opts.add("from", cfg.from,
           "Start of the window: only events at or after it make rows (HH:MM[:SS[.fraction]] in the "
           "exchange's time, or nanoseconds since midnight). Default 09:30, LOBSTER's.")
      .value_name("TIME");
  opts.add("to", cfg.to, "End of the window (events before it make rows). Default 16:00, LOBSTER's.")
      .value_name("TIME");
  opts.add("book", cfg.book, "Book side implementation (all give identical output; array is the fastest).")
      .choices(itch5::book::book_type_names());
  opts.add("quiet", cfg.quiet, "No progress line and no summary on stderr (errors are still reported).")
      .alias('q');
  cfg.inflate.add_to(opts);
  opts.epilog(
      "Exit status: 0 on success; 1 on unreadable or corrupt input (the rows before the error are kept in "
      "FILE.partial), on a symbol the day never names, or on an --out that is not a writable directory; 2 on "
      "a "
      "usage error (no date, --levels out of range, a bad symbol or time).\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  try {
    resolve(cfg);
    check_out_dir(cfg.out);
    itch5::cli::path_guard paths;
    for (const auto& c : opts.config_files()) paths.input(c, "--config");
    paths.input(cfg.input, "DAY");
    for (const auto& s : cfg.symbols) {
      paths.output(file_path(cfg, upper(s), "message"), "--out");
      paths.output(file_path(cfg, upper(s), "orderbook"), "--out");
    }
    paths.check();
  } catch (const itch5::cli::path_error& e) {
    std::cerr << "itch5lobster: error: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::invalid_argument& e) {
    std::cerr << "itch5lobster: error: " << e.what() << "\n";
    return 2;
  }
  itch5::cli::interruption::install();
  try {
    return run(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5lobster: error: " << e.what() << "\n";
    return 1;
  }
}
