// itch5inside: one line per change of a symbol's best bid or offer, from an ITCH 5.0 file.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

#include <itch5/block_source.hpp>
#include <itch5/byte_stream.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/messages.hpp>
#include <itch5/output_file.hpp>

#include <book/book_types.hpp>
#include <book/inside_runner.hpp>

#include "common/options.hpp"
#include "common/progress.hpp"

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
  bool quiet = false;
  bool read_ahead = true;
  std::uint64_t block_size = 1 << 20;
  std::uint64_t gzip_level = 6;
  std::string inflate = "zlib";
};

class file_sink final : public book::line_sink {
 public:
  explicit file_sink(itch5::output_file& f) : file_(f) {}
  void write(std::string_view lines) override { file_.write(lines); }

 private:
  itch5::output_file& file_;
};

void print_summary(const config& cfg, const book::inside_result& r, double seconds) {
  std::fprintf(stderr, "itch5inside: %s: %llu messages in %.2f s (%s msg/s), book %s\n", cfg.input.c_str(),
               static_cast<unsigned long long>(r.messages), seconds,
               cli::human_count(static_cast<double>(r.messages) / (seconds > 0 ? seconds : 1)).c_str(),
               cfg.book.c_str());
  std::fprintf(stderr, "  messages by type:");
  for (unsigned t = 0; t < 256; ++t) {
    if (r.messages_by_type[t] != 0) {
      std::fprintf(stderr, " %c=%llu", static_cast<char>(t), static_cast<unsigned long long>(r.messages_by_type[t]));
    }
  }
  if (r.unknown_types) std::fprintf(stderr, " unknown=%llu", static_cast<unsigned long long>(r.unknown_types));
  std::fprintf(stderr, "\n  book events: %llu, inside changes: %llu, lines written: %llu\n",
               static_cast<unsigned long long>(r.book_events), static_cast<unsigned long long>(r.inside_changes),
               static_cast<unsigned long long>(r.lines));
  std::fprintf(stderr, "  anomalies: %llu", static_cast<unsigned long long>(r.anomalies.total()));
  for (std::size_t k = 0; k < book::anomaly_kinds; ++k) {
    auto a = static_cast<book::anomaly>(k);
    if (r.anomalies[a] != 0) {
      std::fprintf(stderr, ", %.*s=%llu", static_cast<int>(book::to_string(a).size()), book::to_string(a).data(),
                   static_cast<unsigned long long>(r.anomalies[a]));
    }
  }
  if (r.oversized) std::fprintf(stderr, ", oversized_messages=%llu", static_cast<unsigned long long>(r.oversized));
  std::fprintf(stderr, "\n  live orders at peak: %zu, peak memory: %s\n", r.peak_live_orders,
               cli::human_bytes(static_cast<double>(cli::peak_rss_bytes())).c_str());
}

int run(const config& cfg) {
  const auto start = std::chrono::steady_clock::now();
  int outputs_on_stdout = (cfg.output == "-") + (cfg.stats == "-") + (cfg.depth == "-");
  if (outputs_on_stdout > 1) {
    std::cerr << "itch5inside: error: only one of --output, --stats and --depth can be '-' (standard output)\n";
    return 2;
  }
  book::inside_options opt;
  opt.book = cfg.book;
  opt.books.window_levels = static_cast<std::uint32_t>(cfg.window_levels);
  opt.symbols = cfg.symbols;
  opt.stats = !cfg.stats.empty();
  opt.stats_all_events = cfg.stats_events == "all";
  opt.depth = !cfg.depth.empty();

  itch5::block_options blocks;
  blocks.threaded = cfg.read_ahead;
  blocks.block_size = cfg.block_size;
  itch5::message_reader reader(itch5::make_block_source(
      itch5::open_input(cfg.input, cfg.inflate == "isal" ? itch5::inflate_library::isal : itch5::inflate_library::zlib),
      blocks));
  itch5::output_options out_opts;
  out_opts.gzip_level = static_cast<int>(cfg.gzip_level);
  itch5::output_file out(cfg.output, out_opts);
  std::unique_ptr<itch5::output_file> stats_out, depth_out;
  if (opt.stats) stats_out = std::make_unique<itch5::output_file>(cfg.stats, out_opts);
  if (opt.depth) depth_out = std::make_unique<itch5::output_file>(cfg.depth, out_opts);

  file_sink sink(out);
  cli::progress progress(!cfg.quiet);
  book::inside_result r = book::run_inside(reader, opt, sink, [&](const itch5::message_reader& rd) {
    progress.update(rd.input_position(), rd.input_size(), rd.messages());
  });
  progress.finish();
  if (stats_out) stats_out->write(r.stats_csv);
  if (depth_out) depth_out->write(r.depth_csv);

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.status == itch5::read_status::error) {
    std::string kept = out.abandon();
    std::cerr << "itch5inside: error: " << r.error.describe(cfg.input) << "\n";
    if (!out.is_stdout()) std::cerr << "itch5inside: the " << r.lines << " lines written before the error are in " << kept << "\n";
    for (auto* f : {stats_out.get(), depth_out.get()}) {
      if (f != nullptr) {
        std::string k = f->abandon();
        if (!f->is_stdout()) std::cerr << "itch5inside: statistics up to the error are in " << k << "\n";
      }
    }
    if (!cfg.quiet) print_summary(cfg, r, seconds);
    return 1;
  }
  out.commit();
  if (stats_out) stats_out->commit();
  if (depth_out) depth_out->commit();
  if (r.status == itch5::read_status::end_of_session && r.data_after_end_of_session) {
    std::cerr << "itch5inside: warning: " << cfg.input
              << ": the session ended (zero length prefix) before the end of the input; the bytes after it "
                 "were not read\n";
  }
  if (!cfg.quiet) print_summary(cfg, r, seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  cli::options opts(
      "itch5inside", "[options] INPUT",
      "Rebuilds the order book of every symbol from an ITCH 5.0 BinaryFILE stream and writes one line per change "
      "of a symbol's inside (best bid or offer price or size): '<timestamp ns since midnight> <stock locate> "
      "<symbol> <bid px> <bid qty> <offer px> <offer qty>', prices as integer Price(4) units ($0.0001); an "
      "empty bid prints '0 0', an empty offer '2000000000 0'. The format is that of JayBeams' itch5inside.");
  opts.positional("INPUT", cfg.input,
                  "ITCH 5.0 file, raw or gzip-compressed (detected from its bytes), or - for standard input.");
  opts.add("output", cfg.output,
           "Where the inside lines go; - is standard output. A FILE is written under a temporary name and "
           "renamed when complete; FILE.gz is compressed on the fly.")
      .alias('o')
      .value_name("FILE");
  opts.add("book", cfg.book, "Book side implementation (all give identical output; array is the fastest).")
      .choices(book::book_type_names());
  opts.add("window-levels", cfg.window_levels,
           "Price levels held in the array book's window around the inside (rounded up to a multiple of 64); "
           "levels beyond it are kept in a map.",
           64, 1 << 20);
  opts.add("symbols", cfg.symbols, "Only these symbols in the output and statistics, e.g. AAPL,MSFT (empty: all).");
  opts.add("stats", cfg.stats,
           "Write per-symbol statistics as CSV (JayBeams offline_feed_statistics columns): event rates per "
           "second/millisecond/microsecond (sliding windows of 1 s, 1 ms, 1 us sampled every 1 ms, 1 us, 1 ns of "
           "feed time), inter-arrival times and per-event processing latency (ns, steady clock; each sample "
           "includes the cost of reading the clock, tens of ns on a virtual machine), as quantiles, one row per "
           "symbol and an __aggregate__ row. Quantiles are exact below 128 and within 0.8% above (log-linear "
           "histograms, at most 30 KB each). - is standard output.")
      .value_name("FILE");
  opts.add("stats-events", cfg.stats_events,
           "What the statistics sample: inside changes, or all book events (A F E C X D U).")
      .choices({"inside", "all"});
  opts.add("depth", cfg.depth,
           "Write depth histograms as CSV: for every book event the price levels between its price and its "
           "side's best price before it (event depth), and between the best and worst price of its side after it "
           "(book depth), per symbol and __aggregate__. - is standard output.")
      .value_name("FILE");
  opts.add("quiet", cfg.quiet, "No progress line and no summary on stderr (errors are still reported).").alias('q');
  opts.add("read-ahead", cfg.read_ahead,
           "Read and decompress the input on a second thread while the books are updated.");
  opts.add_size("block-size", cfg.block_size, "Bytes per input block.", 4096, std::uint64_t{1} << 30);
  opts.add("gzip-level", cfg.gzip_level, "Compression level of .gz outputs (1 fast .. 9 small).", 1, 9);
  opts.add("inflate", cfg.inflate,
           "Inflate library for .gz input: zlib, or isal (ISA-L igzip, only in builds configured with "
           "-DITCH5_WITH_ISAL=ON).")
      .choices({"zlib", "isal"});
  opts.epilog(
      "Inconsistent input (unknown order references, executions larger than the order, duplicate references, "
      "crossed books, zero shares, prices out of range, unannounced stock locates, timestamps going backwards or "
      "beyond 24 h) is counted by kind, reported in the summary, and processing goes on.\n"
      "Exit status: 0 on success; 1 on unreadable or corrupt input: the message names the file, the byte offset "
      "and the message number, the lines produced before the error are kept (complete lines only; with -o FILE "
      "they are in FILE.partial); 2 on a usage error.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  try {
    return run(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5inside: error: " << e.what() << "\n";
    return 1;
  }
}
