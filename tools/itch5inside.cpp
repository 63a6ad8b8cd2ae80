// itch5inside: one line per change of a symbol's best bid or offer, from an ITCH 5.0 file.
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/messages.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/book/book_types.hpp>
#include <itch5/inside/run_inside.hpp>

#include <itch5/net/endpoint.hpp>
#include <itch5/net/live_capture.hpp>

#include <itch5/stats/histogram_file.hpp>

#include <itch5/tables/event_csv_files.hpp>
#include <itch5/tables/table_sink.hpp>
#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>
#include <itch5/tables/levels_csv_sink.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/sink_thread.hpp>

#include <itch5/cli/capture_flags.hpp>
#include <itch5/cli/compression_flags.hpp>
#include <itch5/cli/inflate_flag.hpp>
#include <itch5/cli/interruption.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>
#include <itch5/cli/progress.hpp>
#include <itch5/cli/time_of_day.hpp>

namespace {

struct config {
  std::string input;
  std::string output = "-";
  std::string book = "array";
  std::uint64_t window_levels = 256;
  std::vector<std::string> symbols;
  std::string stats;
  std::string stats_events = "inside";
  std::string depth;
  std::string histograms;
  std::string trades;       // --trades
  std::string trade_stats;  // --trade-stats
  bool quiet = false;
  bool allow_zero_tail = false;
  bool read_ahead = true;
  std::uint64_t threads = 1;
  std::uint64_t slowest = 0;
  std::uint64_t block_size = 1 << 20;
  itch5::cli::compression_flags compression;
  itch5::cli::inflate_flag inflate;
  std::string from;
  std::string to;
  std::string session;
  itch5::cli::capture_flags capture;
  std::vector<std::string> listen;  // live feeds instead of INPUT
  std::string interface;
  std::chrono::nanoseconds idle{0};
  std::chrono::nanoseconds linger{std::chrono::milliseconds(500)};
  bool busy_poll = false;
  std::string ready_times;
  itch5::cli::time_range range;  // from the three above, resolved after parsing
  // --events DIR, --event-kinds LIST: the market-state event tables, one CSV per kind in DIR.
  std::string events;
  std::vector<std::string> event_kinds;
  std::vector<std::string_view> event_kinds_chosen;  // resolved after parsing
  // The N-level book table (--book-levels, --levels, --every).
  std::string book_levels;
  std::uint64_t levels = 10;
  std::chrono::nanoseconds every{0};
};

// --events DIR: checks DIR (created if missing: `created` says so) and registers its files with `paths`.
void check_events_dir(const config& cfg, itch5::cli::path_guard& paths, bool& created) {
  namespace fs = std::filesystem;
  using itch5::cli::path_error;
  if (cfg.events == "-")
    throw path_error(path_error::kind::conflict, "--events: needs a directory, not standard output");
  std::error_code ec;
  const fs::file_status st = fs::status(cfg.events, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st))
      throw path_error(path_error::kind::unusable, "--events: '" + cfg.events + "' is not a directory");
  } else {
    if (!fs::create_directories(cfg.events, ec) || ec) {
      throw path_error(path_error::kind::unusable,
                       "--events: cannot create directory '" + cfg.events + "': " + ec.message());
    }
    created = true;
  }
  if (::access(cfg.events.c_str(), W_OK | X_OK) != 0)
    throw path_error(path_error::kind::unusable, "--events: directory '" + cfg.events + "' is not writable");
  for (const auto kind : cfg.event_kinds_chosen)
    paths.output(itch5::tables::event_csv_files::path_of(cfg.events, kind), "--events");
}

// The N-level book options: --levels and --every only with --book-levels, a grid of at most a day.
void check_book_levels(const config& cfg) {
  if (cfg.book_levels.empty() && (cfg.levels != 10 || cfg.every.count() != 0)) {
    throw std::invalid_argument(std::string(cfg.levels != 10 ? "--levels" : "--every") +
                                " needs --book-levels FILE (the table it shapes)");
  }
  if (cfg.every > std::chrono::hours(24)) {
    throw std::invalid_argument("--every " + itch5::cli::format_duration(cfg.every) +
                                ": a grid coarser than a day (24h) has at most one time in the day");
  }
}

class file_sink final : public itch5::inside::line_sink {
 public:
  explicit file_sink(itch5::io::output_file& f) : file_(f) {}
  void write(std::string_view lines) override { file_.write(lines); }

 private:
  itch5::io::output_file& file_;
};

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

// `capture`: what reading a pcap/pcapng input counted (nothing for another input).
void print_summary(const config& cfg, const itch5::inside::inside_result& r, double seconds,
                   const itch5::io::capture_stats& capture) {
  const std::string name = cfg.listen.empty() ? cfg.input : "--listen " + joined(cfg.listen);
  std::fprintf(stderr, "itch5inside: %s: %llu messages in %.2f s (%s msg/s), book %s\n", name.c_str(),
               static_cast<unsigned long long>(r.messages), seconds,
               itch5::cli::human_count(static_cast<double>(r.messages) / (seconds > 0 ? seconds : 1)).c_str(),
               cfg.book.c_str());
  std::fprintf(stderr, "  messages by type:");
  for (unsigned t = 0; t < 256; ++t) {
    if (r.messages_by_type[t] != 0) {
      std::fprintf(stderr, " %c=%llu", static_cast<char>(t),
                   static_cast<unsigned long long>(r.messages_by_type[t]));
    }
  }
  if (r.unknown_types)
    std::fprintf(stderr, " unknown=%llu", static_cast<unsigned long long>(r.unknown_types));
  if (!cfg.range.whole_day()) {
    std::fprintf(stderr, "\n  time range: %s (lines, statistics and depth; the books read every message)",
                 cfg.range.describe().c_str());
  }
  std::fprintf(stderr, "\n  system events: start of messages (S 'O') %s, end of messages (S 'C') %s",
               r.start_of_messages ? "seen" : "missing", r.end_of_messages ? "seen" : "missing");
  std::fprintf(stderr, "\n  book events: %llu, inside changes: %llu, lines written: %llu\n",
               static_cast<unsigned long long>(r.book_events),
               static_cast<unsigned long long>(r.inside_changes), static_cast<unsigned long long>(r.lines));
  std::fprintf(stderr, "  anomalies: %llu", static_cast<unsigned long long>(r.anomalies.total()));
  for (std::size_t k = 0; k < itch5::book::anomaly_kinds; ++k) {
    auto a = static_cast<itch5::book::anomaly>(k);
    if (r.anomalies[a] != 0) {
      std::fprintf(stderr, ", %.*s=%llu", static_cast<int>(itch5::book::to_string(a).size()),
                   itch5::book::to_string(a).data(), static_cast<unsigned long long>(r.anomalies[a]));
    }
  }
  if (r.oversized)
    std::fprintf(stderr, ", oversized_messages=%llu", static_cast<unsigned long long>(r.oversized));
  std::fprintf(stderr, "\n  live orders at peak: %zu, peak memory: %s\n", r.peak_live_orders,
               itch5::cli::human_bytes(static_cast<double>(itch5::cli::peak_rss_bytes())).c_str());
  if (capture.is_capture) std::fprintf(stderr, "  capture: %s\n", capture.describe().c_str());
}

// --ready-times: when the lines of each live packet were handed to the output (CLOCK_REALTIME ns) and how
// many messages had been read then; kept in memory (16 bytes a packet) and written at the end.
struct ready_log {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> entries;  // (messages, ns)
  static void record(void* self, std::uint64_t messages) {
    timespec t{};
    clock_gettime(CLOCK_REALTIME, &t);
    static_cast<ready_log*>(self)->entries.emplace_back(
        messages,
        static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(t.tv_nsec));
  }
};

// A live feed's own line of the summary: datagrams, malformed ones, why it ended.
void print_live(const itch5::net::live_stats& live) {
  std::fprintf(stderr, "  live: %llu datagrams received, %llu malformed (skipped); ended by %s\n",
               static_cast<unsigned long long>(live.datagrams.load()),
               static_cast<unsigned long long>(live.malformed.load()),
               live.ended.empty() ? "an error" : live.ended.c_str());
}

// --slowest: asked for, so printed also with --quiet (on stderr, like the summary).
void print_slowest(const itch5::inside::inside_result& r) {
  std::fprintf(stderr, "itch5inside: the %zu slowest messages (message number from 1, type, microseconds):\n",
               r.slowest.size());
  for (const auto& m : r.slowest) {
    std::fprintf(stderr, "  %llu %c %.1f\n", static_cast<unsigned long long>(m.message), m.type,
                 static_cast<double>(m.took.count()) / 1000.0);
  }
}

// Names given to --symbols must be able to be ITCH symbols: 1 to 8 printable characters, no spaces.
void check_symbols(const std::vector<std::string>& symbols) {
  for (const auto& s : symbols) {
    bool printable = std::all_of(s.begin(), s.end(), [](char c) { return c > 0x20 && c < 0x7f; });
    if (s.empty() || s.size() > 8 || !printable) {
      throw std::invalid_argument("--symbols: '" + s +
                                  "' cannot be an ITCH symbol (1 to 8 printable characters, no spaces)");
    }
  }
}

// How a run that did not finish reports: what was kept where, the reason last.
void report_unfinished(const config& cfg, const itch5::inside::inside_result& r, double seconds,
                       const itch5::io::capture_stats& capture, itch5::io::output_file& out,
                       std::vector<itch5::io::output_file*> tables, const std::string& reason) {
  std::string kept = out.abandon();
  std::vector<std::string> tables_kept;
  for (auto* f : tables) {
    if (f == nullptr) continue;
    std::string k = f->abandon();
    if (!f->is_stdout()) tables_kept.push_back(k);
  }
  // An input that failed before its first message (not ITCH at all, a capture of no message of the filter)
  // has nothing to summarise and no line kept: the reason alone says it all, on one line.
  if (r.messages == 0 && r.status == itch5::read_status::error && reason.rfind("error: ", 0) == 0) {
    std::cerr << "itch5inside: " << reason << "\n";
    return;
  }
  if (!cfg.quiet) print_summary(cfg, r, seconds, capture);
  if (!out.is_stdout()) {
    std::cerr << "itch5inside: the " << r.lines << " lines written before it are in " << kept << "\n";
  }
  if (!tables_kept.empty()) {
    std::cerr << "itch5inside: statistics and tables up to that point are in " << joined(tables_kept) << "\n";
  }
  std::cerr << "itch5inside: " << reason << "\n";
}

int run(const config& cfg) {
  const auto start = std::chrono::steady_clock::now();
  itch5::inside::inside_options opt;
  opt.book = cfg.book;
  opt.books.window_levels = static_cast<std::uint32_t>(cfg.window_levels);
  opt.symbols = cfg.symbols;
  opt.stats = !cfg.stats.empty();
  opt.stats_all_events = cfg.stats_events == "all";
  opt.depth = !cfg.depth.empty();
  opt.histograms = !cfg.histograms.empty();
  opt.from = cfg.range.from;
  opt.to = cfg.range.to;
  // A live feed ends on a signal as a file ends (the live stream stops, the run finishes): the books go on
  // to the end of what was received.
  const bool live = !cfg.listen.empty();
  opt.cancel = live ? nullptr : &itch5::cli::interruption::flag();
  opt.threads = static_cast<unsigned>(cfg.threads);
  opt.slowest = static_cast<std::size_t>(cfg.slowest);

  itch5::io::block_options blocks;
  // A live feed is read by the thread that decodes it: a reading thread would hand over every packet (a
  // futex wake each) and, on 2 cores beside a sender, be one more thread to schedule (bench/live_latency.py
  // at 560 k msg/s: p50 37 ms with it, 17 us without).
  blocks.threaded = cfg.read_ahead && !live;
  blocks.block_size = cfg.block_size;
  const std::string input_name = live               ? "--listen " + joined(cfg.listen)
                                 : cfg.input == "-" ? "standard input"
                                                    : cfg.input;
  // With --stats on a capture: each message's feed latency, from the capture stream to the statistics.
  itch5::io::latency_queue latencies;
  itch5::io::capture_stats capture_stats;  // of a pcap/pcapng input
  itch5::io::capture_options capture_opts = cfg.capture.make("itch5inside", input_name, &capture_stats);
  if (opt.stats) capture_opts.latencies = &latencies;
  itch5::net::live_stats live_stats;
  ready_log ready;
  if (!cfg.ready_times.empty()) {
    ready.entries.reserve(std::size_t{1} << 20);
    opt.line_thread = false;  // the books' thread formats the lines and hands each packet's on at once
    opt.decode_thread = false;
    opt.block_end = &ready_log::record;
    opt.block_end_context = &ready;
  }
  std::unique_ptr<itch5::io::byte_stream> input;
  if (live) {
    itch5::net::live_options lo;
    lo.listen = cfg.listen;
    lo.receiver.interface = cfg.interface;
    lo.idle = cfg.idle;
    lo.linger = cfg.linger;
    lo.busy_poll = cfg.busy_poll;
    lo.cancel = &itch5::cli::interruption::flag();
    lo.stats = &live_stats;
    lo.report = [](const std::string& line) {
      std::fprintf(stderr, "itch5inside: warning: %s\n", line.c_str());
    };
    input = itch5::net::live_capture(lo, capture_opts);
  } else {
    input = itch5::io::open_input(cfg.input, cfg.inflate.library(), capture_opts);
  }
  if (opt.stats && capture_stats.is_capture) opt.latencies = &latencies;
  cfg.capture.check_input(capture_stats, input_name);
  itch5::message_reader reader(itch5::io::make_block_source(std::move(input), blocks));
  reader.allow_zero_tail(cfg.allow_zero_tail);
  const itch5::io::output_options out_opts = cfg.compression.output();
  itch5::io::output_file out(cfg.output, out_opts);
  std::unique_ptr<itch5::io::output_file> stats_out, depth_out, histograms_out;
  if (opt.stats) stats_out = std::make_unique<itch5::io::output_file>(cfg.stats, out_opts);
  if (opt.depth) depth_out = std::make_unique<itch5::io::output_file>(cfg.depth, out_opts);
  if (opt.histograms) histograms_out = std::make_unique<itch5::io::output_file>(cfg.histograms, out_opts);
  std::unique_ptr<itch5::tables::event_csv_files> events_out;
  if (!cfg.events.empty()) {
    events_out =
        std::make_unique<itch5::tables::event_csv_files>(cfg.events, cfg.event_kinds_chosen, out_opts);
    opt.tables.events = &events_out->sinks();
  }
  // --trades, --trade-stats: rows written while the run goes (the stats at its end), through CSV sinks.
  std::unique_ptr<itch5::io::output_file> trades_out, trade_stats_out;
  std::unique_ptr<itch5::tables::csv_table_sink<itch5::tables::trades_table>> trades_csv;
  std::unique_ptr<itch5::tables::csv_table_sink<itch5::tables::trade_stats_table>> trade_stats_csv;
  if (!cfg.trades.empty()) {
    trades_out = std::make_unique<itch5::io::output_file>(cfg.trades, out_opts);
    trades_csv = std::make_unique<itch5::tables::csv_table_sink<itch5::tables::trades_table>>(*trades_out);
    opt.tables.trades = trades_csv.get();
  }
  if (!cfg.trade_stats.empty()) {
    trade_stats_out = std::make_unique<itch5::io::output_file>(cfg.trade_stats, out_opts);
    trade_stats_csv =
        std::make_unique<itch5::tables::csv_table_sink<itch5::tables::trade_stats_table>>(*trade_stats_out);
    opt.tables.trade_stats = trade_stats_csv.get();
  }
  std::unique_ptr<itch5::io::output_file> levels_out;
  std::unique_ptr<itch5::tables::levels_csv_sink> levels_csv;  // each symbol's level texts kept
  if (!cfg.book_levels.empty()) {
    levels_out = std::make_unique<itch5::io::output_file>(cfg.book_levels, out_opts);
    itch5::tables::levels_row shape;
    shape.levels = static_cast<std::uint32_t>(cfg.levels);
    levels_csv = std::make_unique<itch5::tables::levels_csv_sink>(*levels_out, shape);
    opt.tables.book_levels = levels_csv.get();
    opt.tables.levels = static_cast<unsigned>(cfg.levels);
    opt.tables.every = cfg.every;
  }
  // The trades and N-level rows are formatted and written on a thread of their own, off the books' thread.
  std::optional<itch5::tables::sink_thread> table_writer;
  if (opt.tables.trades != nullptr || opt.tables.book_levels != nullptr) {
    opt.tables.writer = &table_writer.emplace();
  }
  std::vector<itch5::io::output_file*> tables_out = {stats_out.get(),       depth_out.get(),
                                                     histograms_out.get(),  trades_out.get(),
                                                     trade_stats_out.get(), levels_out.get()};
  if (events_out) tables_out.insert(tables_out.end(), events_out->files().begin(), events_out->files().end());

  file_sink sink(out);
  itch5::cli::progress progress(!cfg.quiet);
  itch5::inside::inside_result r =
      itch5::inside::run_inside(reader, opt, sink, [&](const itch5::message_reader& rd) {
        progress.update(rd.input_position(), rd.input_size(), rd.messages());
      });
  progress.finish();
  if (stats_out) stats_out->write(r.stats_csv);
  if (depth_out) depth_out->write(r.depth_csv);
  if (histograms_out) {
    itch5::stats::feed_time_range range{static_cast<std::uint64_t>(cfg.range.from.count()), std::nullopt};
    if (cfg.range.to != std::chrono::nanoseconds::max())
      range.to = static_cast<std::uint64_t>(cfg.range.to.count());
    r.histograms.meta = {{"stats_events", cfg.stats_events},
                         {"time_range", cfg.range.whole_day() ? "whole day" : cfg.range.describe()},
                         {"time_ranges", itch5::stats::format_time_ranges({range})}};
    histograms_out->write(itch5::stats::encode_histograms(r.histograms));
  }

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.cancelled || (!live && itch5::cli::interruption::requested())) {
    report_unfinished(cfg, r, seconds, capture_stats, out, tables_out,
                      "interrupted by " + itch5::cli::interruption::name() + " after " +
                          std::to_string(r.messages) + " messages of " + input_name);
    itch5::cli::interruption::exit_now();
  }
  if (r.status == itch5::read_status::error) {
    if (live && !cfg.quiet) print_live(live_stats);
    report_unfinished(cfg, r, seconds, capture_stats, out, tables_out,
                      "error: " + r.error.describe(live ? input_name : cfg.input) +
                          itch5::cli::capture_flags::framing_note_for(capture_stats, r.error));
    return 1;
  }
  if (!cfg.ready_times.empty()) {
    itch5::io::output_file f(cfg.ready_times);
    std::string text;
    char line[48];
    for (const auto& [m, t] : ready.entries) {
      const int n = std::snprintf(line, sizeof line, "%llu %llu\n", static_cast<unsigned long long>(m),
                                  static_cast<unsigned long long>(t));
      text.append(line, static_cast<std::size_t>(n));
    }
    f.write(text);
    f.commit();
  }
  out.commit();
  if (stats_out) stats_out->commit();
  if (depth_out) depth_out->commit();
  if (histograms_out) histograms_out->commit();
  if (events_out) events_out->commit();
  if (trades_out) trades_out->commit();
  if (trade_stats_out) trade_stats_out->commit();
  if (levels_out) levels_out->commit();
  if (!cfg.quiet) print_summary(cfg, r, seconds, capture_stats);
  if (!cfg.quiet && events_out) std::fprintf(stderr, "  event rows: %s\n", events_out->rows().c_str());
  if (!cfg.quiet && (trades_csv || trade_stats_csv)) {
    std::fprintf(stderr, "  trades rows: %s, trade-stats rows: %s\n",
                 trades_csv ? std::to_string(trades_csv->rows()).c_str() : "-",
                 trade_stats_csv ? std::to_string(trade_stats_csv->rows()).c_str() : "-");
  }
  if (live && !cfg.quiet) print_live(live_stats);
  if (cfg.slowest > 0) print_slowest(r);
  if (r.status == itch5::read_status::end_of_session && r.data_after_end_of_session) {
    std::cerr << "itch5inside: warning: " << input_name << ": zero length prefix at byte offset "
              << r.end_of_session_offset << " ended the input (--allow-zero-tail); "
              << r.bytes_after_end_of_session.describe() << " after it not read\n";
  }
  // A day cut at a message boundary frames cleanly: only its missing End of Messages event tells.
  if (!r.start_of_messages) {
    std::cerr << "itch5inside: warning: " << input_name
              << ": no Start of Messages system event (S 'O'): the start of the day is missing\n";
  }
  if (!r.end_of_messages) {
    std::cerr << "itch5inside: warning: " << input_name
              << ": no End of Messages system event (S 'C'): the day is incomplete (cut short?)\n";
  }
  if (!r.symbols_not_seen.empty()) {
    std::cerr << "itch5inside: warning: --symbols " << joined(r.symbols_not_seen) << ": no message of "
              << input_name << " names " << (r.symbols_not_seen.size() == 1 ? "it" : "them")
              << " (no stock directory or order message); no lines for "
              << (r.symbols_not_seen.size() == 1 ? "it" : "them") << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  itch5::cli::options opts(
      "itch5inside", "[options] INPUT",
      "Rebuilds the order book of every symbol from an ITCH 5.0 BinaryFILE stream and writes one line per "
      "change "
      "of a symbol's inside (best bid or offer price or size): '<timestamp ns since midnight> <stock locate> "
      "<symbol> <bid px> <bid qty> <offer px> <offer qty>', prices as integer Price(4) units ($0.0001); an "
      "empty bid prints '0 0', an empty offer '2000000000 0'. The format is that of JayBeams' itch5inside.");
  opts.positional(
      "INPUT", cfg.input,
      "ITCH 5.0 file, raw or gzip-compressed (detected from its bytes), or - for standard input; or a "
      "pcap/pcapng capture (also gzip-compressed) of a MoldUDP64 feed, whose messages are read in "
      "sequence order once (duplicates dropped, gaps reported on stderr and counted). Not with --listen.",
      false);
  opts.add("output", cfg.output,
           "Where the inside lines go; - is standard output. A FILE is written under a temporary name and "
           "renamed when complete; FILE.gz is compressed on the fly.")
      .alias('o')
      .value_name("FILE");
  opts.add("book", cfg.book, "Book side implementation (all give identical output; array is the fastest).")
      .choices(itch5::book::book_type_names());
  opts.add("window-levels", cfg.window_levels,
           "Price levels held in the array book's window around the inside (rounded up to a power of two); "
           "levels beyond it are kept in a map.",
           64, 1 << 20);
  opts.add(
      "symbols", cfg.symbols,
      "Only these symbols in the output and statistics, e.g. AAPL,MSFT (empty: all). Matched without regard "
      "to case (ITCH symbols are upper case: aapl is AAPL); a name that cannot be an ITCH symbol (over 8 "
      "characters, spaces) is an error, and a symbol that no message of the input names gets a warning.");
  opts.add(
          "stats", cfg.stats,
          "Write per-symbol statistics as CSV (JayBeams offline_feed_statistics columns): event rates per "
          "second/millisecond/microsecond (sliding windows of 1 s, 1 ms, 1 us sampled every 1 ms, 1 us, 1 ns "
          "of "
          "feed time), inter-arrival times and per-event processing latency (ns, steady clock; each sample "
          "includes the cost of reading the clock, tens of ns on a virtual machine), as quantiles, one row "
          "per "
          "symbol with at least one sampled event and an __aggregate__ row. Processing covers the whole "
          "handling of the message, including --depth's bookkeeping and, now and then, writing a full output "
          "buffer (which shows in the highest quantiles). Quantiles are exact below 128 and within 0.8% "
          "above (log-linear "
          "histograms, at most 30 KB each). On a pcap/pcapng capture, Latency columns are appended: the feed "
          "latency of each sampled event's message, its packet's arrival time of day minus its exchange "
          "timestamp in ns (negative counted as 0), whatever --timestamp says; --histograms does not carry "
          "them. - is standard output.")
      .value_name("FILE");
  opts.add("stats-events", cfg.stats_events,
           "What the statistics sample: inside changes, or all book events (A F E C X D U).")
      .choices({"inside", "all"});
  opts.add("depth", cfg.depth,
           "Write depth histograms as CSV: for every book event the price levels between its price and its "
           "side's best price before it (event depth), and between the best and worst price of its side "
           "after it "
           "(book depth), per symbol and __aggregate__. - is standard output.")
      .value_name("FILE");
  opts.add("histograms", cfg.histograms,
           "Write the histograms behind --stats and --depth (every symbol and __aggregate__; collected "
           "whether "
           "or not those are given) in the versioned binary format of docs/formats.md, for 'itch5stats "
           "merge', "
           "which adds up the files of several runs (days) per symbol name and writes the two CSVs. FILE.gz "
           "is compressed. Collecting them times every message as --stats does, with --depth's bookkeeping.")
      .value_name("FILE");
  opts.add("trades", cfg.trades,
           "Write every print as CSV, in feed order: one row per execution of a displayed order (E, at the "
           "resting order's price and side, which the books know; C, at its execution price, with its "
           "printable flag), per trade of a non-displayed order (P), per cross (Q, with its cross type) and "
           "per broken trade (B: the match number it voids). Columns: timestamp, locate, symbol, kind, price "
           "(Price(4) units), shares, side of the resting order, match number, order reference, printable, "
           "cross type (docs/formats.md). --symbols, --from and --to select the rows as they do the lines. "
           "- is standard output.")
      .value_name("FILE");
  opts.add("trade-stats", cfg.trade_stats,
           "Write per-symbol trade statistics as CSV at the end, one row per symbol with rows in the trades "
           "table (whether or not --trades writes it): "
           "trades, volume, exact notional (Price(4) units times shares), VWAP (rounded half up), first, "
           "last, high and low price, cross volume, non-printable executions and broken trades. Counted: E, "
           "printable C, P and Q of more than 0 shares; a broken trade (B) is counted, its print not taken "
           "back (docs/formats.md says why). - is standard output.")
      .value_name("FILE");
  opts.add(
          "from", cfg.from,
          "Only book events at or after this time of day make lines, statistics and depth samples (the books "
          "are still built from every message): HH:MM[:SS[.fraction]] in the exchange's time (New York for "
          "Nasdaq), or nanoseconds since midnight. Default: the start.")
      .value_name("TIME");
  opts.add("to", cfg.to,
           "Likewise, only events before this time of day (the range is [--from, --to)). Default: the end.")
      .value_name("TIME");
  opts.add("session", cfg.session,
           "regular: the regular trading session, --from 09:30 --to 16:00 (not combined with them).")
      .value_name("NAME");
  opts.add("events", cfg.events,
           "Write the market-state event tables as CSV files in DIR (created if missing), one per kind: "
           "stock_directory.csv (R), system_events.csv (S), trading_actions.csv (H, with the reason), "
           "reg_sho.csv (Y), luld_collars.csv (J), mwcb_levels.csv (V, Price(8)), mwcb_status.csv (W), "
           "ipo_quoting.csv (K), noii.csv (I), rpii.csv (N), operational_halts.csv (h), dlcr.csv (O), "
           "participant_positions.csv (L): a row per message, timestamp and locate first, prices in Price(4) "
           "units, each code as its letter and its meaning in words (docs/formats.md). --symbols and "
           "--from/--to apply to them; the messages of the whole market (S, V, W: locate 0) are kept "
           "whatever --symbols says. Runs keep one book thread (--threads is ignored).")
      .value_name("DIR");
  opts.add("event-kinds", cfg.event_kinds,
           "With --events: only these kinds, by name (noii) or message type letter (I; h and H differ), "
           "e.g. stock_directory,H,noii; none given: every kind.")
      .value_name("LIST");
  opts.add("book-levels", cfg.book_levels,
           "Write the book N levels deep (market by price) as CSV with a header: timestamp, locate, symbol, "
           "then per level 00 to N-1 bid_px, bid_sz, bid_ct, ask_px, ask_sz, ask_ct (price in $0.0001, "
           "shares, orders; empty fields for a level the side lacks), one row after each book event that "
           "changes any of the symbol's top N levels (price, size or order count, either side), or per "
           "symbol at each --every grid time. --from/--to and --symbols apply. Runs on one book thread. - "
           "is standard output.")
      .value_name("FILE");
  opts.add("levels", cfg.levels, "Levels per side in --book-levels (N), 1 to 50.", 1,
           itch5::tables::max_levels)
      .value_name("N");
  opts.add(
          "every", cfg.every,
          "With --book-levels: instead of a row per change, a row per symbol at every multiple of this "
          "duration of the day (1s, 100ms, 1us, 1ns; at most 24h) in [--from, --to): its book after every "
          "message before the grid time, stamped with it. Symbols get rows from their first order on; a grid "
          "time after the last order message of the chosen symbols gets none. 0: a row per change.")
      .value_name("DURATION");
  cfg.capture.add_to(opts);
  opts.add("listen", cfg.listen,
           "Read a live MoldUDP64 feed instead of INPUT: [GROUP@]HOST:PORT ([::1]:PORT for IPv6; "
           "GROUP@INTERFACE_ADDRESS:PORT joins a multicast group), or A,B for an A/B pair, arbitrated by "
           "sequence number as in a capture (a repeated --listen replaces the earlier one, as for every "
           "list). Each datagram's kernel receive time is its arrival, so "
           "--timestamp capture and the feed latency columns of --stats work as for a capture; gaps are "
           "reported as in captures. A malformed datagram (shorter than the Mold header, a count or length "
           "that overruns it) is counted, reported and skipped: a live feed cannot stop at its first bad "
           "packet as a corrupt file does. The run ends at the end of session (every feed's, or --linger "
           "after the first), after --idle without a datagram, or on SIGINT/SIGTERM/SIGHUP, which on a live "
           "feed finish the outputs as at the end of a file (exit status 0).")
      .value_name("ENDPOINT");
  opts.add("interface", cfg.interface,
           "With --listen: the interface address to join a multicast group written as HOST:PORT on.")
      .value_name("ADDRESS");
  opts.add("ready-times", cfg.ready_times,
           "With --listen, for latency measurements (bench/live_latency.py): the lines of each packet are "
           "handed to the output as soon as its last message is applied (the books' thread formats them), "
           "and FILE gets one line per packet, '<messages read> <ns>': CLOCK_REALTIME ns since the epoch "
           "when they were.")
      .value_name("FILE");
  opts.add("idle", cfg.idle, "With --listen: stop after this long without a datagram (0: never).");
  opts.add("busy-poll", cfg.busy_poll,
           "With --listen: wait for datagrams by asking the sockets again at once instead of sleeping until "
           "the kernel wakes the thread, which keeps one core busy for the whole session and saves the "
           "wake-up (10-20 us on a VM) from each packet's latency. Worth it only with a core to spare: "
           "on a machine where the spinning thread competes with the sender or other work for a core, "
           "whoever loses stalls for milliseconds (bench/live_latency.py measures both ways).");
  opts.add("linger", cfg.linger,
           "With --listen on two feeds: how long to wait for more after the first end of session (the other "
           "feed's end may be lost).");
  opts.add(
      "allow-zero-tail", cfg.allow_zero_tail,
      "A zero length prefix followed by more bytes (a zero-filled tail: a copy that stopped, a disk that "
      "lost blocks) ends the input with a warning naming its byte offset and how many bytes were not "
      "read, and the run completes (exit 0), instead of an error (exit 1, lines kept as on any corrupt "
      "input). A zero length as the last two bytes of the input always ends it quietly; one before any "
      "message, with bytes after it, is always an error.");
  opts.add("quiet", cfg.quiet, "No progress line and no summary on stderr (errors are still reported).")
      .alias('q');
  opts.add("read-ahead", cfg.read_ahead,
           "Read and decompress the input on a second thread while the books are updated (not with "
           "--listen: a live feed is read where it is decoded).");
  opts.add("threads", cfg.threads,
           "Book threads. 1 keeps every book on one thread, fed by a thread that reads and decodes the input "
           "(from gzip on a machine with 2 cores, the books' thread decodes the inflated input itself: the "
           "inflater holds the other core), with the lines formatted and written on a thread of their own; "
           "--stats times each message on the books' thread (docs/formats.md, Processing), and the "
           "--stats and --depth tables are computed from its samples on a thread of their own; --slowest, "
           "or --stats of a capture, keep reading, books and lines on one thread. N > 1 shares the symbols "
           "among N threads, the reading thread one of them (each symbol goes to the least busy thread when "
           "its first order comes), fed by the reading thread in batches of messages, "
           "whose output is merged back into message order: the lines, --stats (but for its measured "
           "Processing columns), --depth, --histograms and the summary are those of --threads 1. One very "
           "active symbol stays on one thread, which bounds the gain; each thread adds ~20 MB. It pays only "
           "with a free core per thread (on a busy 2-core machine it did not): see docs/performance.md, "
           "Book threads.",
           1, itch5::inside::max_threads);
  opts.add("slowest", cfg.slowest,
           "Print the N messages that took longest to handle, on stderr at the end: message number (from 1), "
           "type and microseconds, from before decoding to before the next message is decoded (the book "
           "update, output formatting, framing the next message; never reading an input block: "
           "docs/formats.md, Processing). Times every message (a clock read each, as --stats does). A stall "
           "that recurs at the same message in two runs is the program's; one that does not is the machine's "
           "(bench/stalls.py compares two runs). Needs --threads 1. 0: off.",
           0, 1 << 20)
      .value_name("N");
  opts.add_size("block-size", cfg.block_size, "Bytes per input block.", 4096, std::uint64_t{1} << 30);
  cfg.compression.add_to(opts);
  cfg.inflate.add_to(opts);
  opts.epilog(
      "Formats: the inside lines, the statistics CSV, the depth CSV and the histogram file are described "
      "in docs/formats.md of the source tree.\n"
      "Inconsistent input (unknown order references, executions larger than the order, duplicate references, "
      "crossed books, zero shares, prices out of range, unannounced stock locates, timestamps going "
      "backwards or "
      "beyond 24 h) is counted by kind, reported in the summary, and processing goes on.\n"
      "Files: every input and output is checked before anything is read: an output that is an input (by "
      "device and inode: ./x, links), or another output, or whose directory cannot be written, is a usage "
      "error. An output FILE appears only complete; a run that stops early keeps its complete lines in "
      "FILE.partial (and removes a FILE of an earlier run, which would look complete).\n"
      "Exit status: 0 on success; 1 on unreadable or corrupt input: the message names the file, the byte "
      "offset "
      "and the message number, the lines produced before the error are kept (complete lines only; with -o "
      "FILE "
      "they are in FILE.partial); 2 on a usage error; on SIGINT, SIGTERM or SIGHUP the run stops, keeps its "
      "complete lines as on an error, and exits as killed by the signal (128 + its number); a second signal, "
      "or 10 s without stopping, removes every temporary file at once.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  bool events_dir_created = false;  // --events DIR made by this run (removed again if the checks fail)
  try {
    if (cfg.input.empty() == cfg.listen.empty())
      throw std::invalid_argument(cfg.input.empty()
                                      ? "give an INPUT file, or --listen ENDPOINT for a live feed"
                                      : "INPUT and --listen exclude each other");
    itch5::net::check_feeds(cfg.listen, "--listen");
    check_symbols(cfg.symbols);
    if (cfg.slowest > 0 && cfg.threads > 1) {
      throw std::invalid_argument("--slowest needs --threads 1 (book threads handle messages in batches)");
    }
    cfg.capture.check();
    if (!cfg.event_kinds.empty() && cfg.events.empty())
      throw std::invalid_argument("--event-kinds needs --events DIR");
    if (!cfg.events.empty())
      cfg.event_kinds_chosen = itch5::tables::event_csv_files::parse_kinds(cfg.event_kinds);
    check_book_levels(cfg);
    cfg.range = itch5::cli::resolve_time_range(cfg.from, cfg.to, cfg.session);
    if (const std::string note = cfg.range.past_the_day(); !note.empty())
      std::cerr << "itch5inside: warning: " << note << "\n";
    itch5::cli::path_guard paths;
    for (const auto& c : opts.config_files()) paths.input(c, "--config");
    if (!cfg.input.empty()) paths.input(cfg.input, "INPUT");
    paths.output(cfg.output, "--output");
    if (!cfg.ready_times.empty() && cfg.listen.empty())
      throw std::invalid_argument("--ready-times applies to a live feed (--listen)");
    if (cfg.busy_poll && cfg.listen.empty())
      throw std::invalid_argument("--busy-poll applies to a live feed (--listen)");
    if (!cfg.ready_times.empty() && cfg.threads > 1)
      throw std::invalid_argument("--ready-times needs --threads 1");
    paths.output(cfg.ready_times, "--ready-times");
    paths.output(cfg.stats, "--stats");
    paths.output(cfg.depth, "--depth");
    paths.output(cfg.histograms, "--histograms");
    paths.output(cfg.trades, "--trades");
    paths.output(cfg.trade_stats, "--trade-stats");
    if (!cfg.events.empty()) check_events_dir(cfg, paths, events_dir_created);
    paths.output(cfg.book_levels, "--book-levels");
    paths.check();
  } catch (const itch5::cli::path_error& e) {
    if (events_dir_created) {
      std::error_code ec;
      std::filesystem::remove(cfg.events, ec);  // only if still empty: nothing of the user's is lost
    }
    std::cerr << "itch5inside: error: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::invalid_argument& e) {
    std::cerr << "itch5inside: error: " << e.what() << "\n";
    return 2;
  }
  itch5::cli::interruption::install();
  try {
    return run(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5inside: error: " << e.what() << "\n";
    return 1;
  }
}
