// itch5cat: prints ITCH 5.0 messages as readable text, or counts them by type.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>
#include <tuple>
#include <type_traits>
#include <utility>
#include <cstdio>
#include <iostream>
#include <string>

#include <itch5/dispatch.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/io/input_error.hpp>
#include <itch5/io/line_writer.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/message_text.hpp>
#include <itch5/peek.hpp>
#include <itch5/symbol_directory.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/cli/capture_flags.hpp>
#include <itch5/cli/inflate_flag.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>
#include <itch5/cli/progress.hpp>

namespace {

struct config {
  std::string input;
  bool counts = false;
  bool decode = false;
  std::string types;
  std::uint64_t locate = 0;
  std::vector<std::string> symbols;  // --symbol
  bool market_wide = false;
  std::uint64_t limit = 0;
  bool quiet = false;
  bool allow_zero_tail = false;
  itch5::cli::inflate_flag inflate;
  itch5::cli::capture_flags capture;
};

// Any decoded field as 64 bits, for the --decode checksum.
std::uint64_t field_bits(char c) { return static_cast<unsigned char>(c); }
template <class U>
requires std::is_unsigned_v<U> std::uint64_t field_bits(U v) { return v; }
template <int D, class R>
std::uint64_t field_bits(itch5::price<D, R> p) {
  return p.units();
}
template <std::size_t N>
std::uint64_t field_bits(const std::array<char, N>& a) {
  std::uint64_t v = 0;
  for (char c : a) v = v * 131 + static_cast<unsigned char>(c);
  return v;
}
std::uint64_t field_bits(const itch5::stock_symbol& s) { return field_bits(s.raw()); }

// The characters of --types that are not message types, each once, as "'Z', 'a'" (or 0xNN when not
// printable); empty when all are valid.
std::string bad_types(const std::string& types) {
  const std::string_view known = itch5::message_types();
  std::string seen, out;
  for (char c : types) {
    if (known.find(c) != std::string_view::npos || seen.find(c) != std::string::npos) continue;
    seen.push_back(c);
    if (!out.empty()) out += ", ";
    const auto u = static_cast<unsigned char>(c);
    if (u > 0x20 && u < 0x7f) {
      out += std::string("'") + c + "'";
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", u);
      out += hex;
    }
  }
  return out;
}

// Options that cannot be combined, or values that select nothing: the one-line reason, or empty.
std::string usage_problem(const config& cfg) {
  if (auto bad = bad_types(cfg.types); !bad.empty()) {
    std::string valid;
    for (char c : itch5::message_types()) {
      if (!valid.empty()) valid += ' ';
      valid += c;
    }
    return "--types: " + bad +
           (bad.find(',') == std::string::npos ? " is not an ITCH 5.0 message type"
                                               : " are not ITCH 5.0 message types") +
           " (valid: " + valid + ")";
  }
  for (const auto& sym : cfg.symbols) {
    const bool printable = std::all_of(sym.begin(), sym.end(), [](char c) { return c > 0x20 && c < 0x7f; });
    if (sym.empty() || sym.size() > 8 || !printable) {
      return "--symbol: '" + sym + "' cannot be an ITCH symbol (1 to 8 printable characters, no spaces)";
    }
  }
  if (!cfg.symbols.empty() && cfg.locate != 0) {
    return "--symbol and --locate cannot be combined (--symbol selects the locates its stock directory "
           "messages assign)";
  }
  if (cfg.market_wide && cfg.symbols.empty()) return "--market-wide only goes with --symbol";
  if (cfg.decode) {
    if (cfg.counts) return "--decode and --counts cannot be combined (--decode prints the counts itself)";
    for (auto [given, flag] :
         {std::pair{!cfg.types.empty(), "--types"}, std::pair{cfg.locate != 0, "--locate"},
          std::pair{!cfg.symbols.empty(), "--symbol"}, std::pair{cfg.limit != 0, "--limit"}}) {
      if (given) {
        return std::string("--decode cannot be combined with ") + flag +
               " (it decodes every message of the input, a throughput test)";
      }
    }
  }
  if (cfg.counts && cfg.limit != 0) {
    return "--limit cannot be combined with --counts (--limit stops the printing of messages; --counts "
           "counts them all)";
  }
  return {};
}

// The type bytes --types selects (all of them without --types).
std::array<bool, 256> wanted_types(const config& cfg) {
  std::array<bool, 256> wanted{};
  wanted.fill(cfg.types.empty());
  for (char c : cfg.types) wanted[static_cast<unsigned char>(c)] = true;
  return wanted;
}

// --symbol: the locates that the stock directory messages of the chosen symbols assign, plus locate 0
// (messages of no one stock) with --market-wide; every locate without --symbol.
itch5::symbol_directory symbol_filter(const config& cfg) {
  itch5::symbol_directory symbols(cfg.symbols);
  if (cfg.market_wide) symbols.select(0);
  return symbols;
}

// What one pass over the input counted: messages per type byte (those selected, or all with --decode) and,
// with --decode, the checksum of every decoded field.
struct scan_totals {
  std::array<std::uint64_t, 256> counts{};
  std::uint64_t checksum = 0;  // folds every decoded field, so --decode cannot be optimised away
  std::vector<std::string> symbols_not_found;  // --symbol names no stock directory message named
};

// Reads the whole input (or up to --limit printed messages): prints the selected messages unless --counts
// or --decode, and counts them.
scan_totals scan(itch5::message_reader& reader, const config& cfg, itch5::io::line_writer& lines,
                 itch5::cli::progress& progress) {
  const std::array<bool, 256> wanted = wanted_types(cfg);
  itch5::symbol_directory symbols = symbol_filter(cfg);
  scan_totals t;
  std::uint64_t printed = 0;
  auto fold = [&t](const auto& m) {
    t.checksum =
        t.checksum * 31 + static_cast<std::uint64_t>(m.header.timestamp.count()) + m.header.stock_locate;
    std::apply([&](auto... f) { ((t.checksum = t.checksum * 31 + field_bits(m.*f.member)), ...); },
               std::remove_cvref_t<decltype(m)>::layout());
  };
  auto print = [&](const auto& m) {
    char* p = lines.reserve(itch5::max_message_text + 1);
    p = itch5::format_message(p, m);
    *p++ = '\n';
    lines.commit(p);
  };

  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) {
    auto type = static_cast<unsigned char>(itch5::peek_type(msg));
    if ((reader.messages() & 0xffff) == 0) {
      progress.update(reader.input_position(), reader.input_size(), reader.messages());
    }
    if (cfg.decode) {  // never filtered (see usage_problem)
      ++t.counts[type];
      itch5::dispatch_unchecked(msg.data(), fold);
      continue;
    }
    if (!symbols.observe(msg)) continue;  // before the type filter: it learns from directory messages
    if (!wanted[type]) continue;
    if (cfg.locate != 0 && itch5::peek_stock_locate(msg) != cfg.locate) continue;
    ++t.counts[type];
    if (cfg.counts) continue;
    itch5::dispatch_unchecked(msg.data(), print);
    if (cfg.limit != 0 && ++printed >= cfg.limit) break;
  }
  if (reader.status() != itch5::read_status::message)
    t.symbols_not_found = symbols.not_found();  // read to the end
  return t;
}

// --counts and --decode: one line per type seen, the total, and with --decode the checksum.
void write_counts(itch5::io::line_writer& lines, const config& cfg, const scan_totals& t,
                  const itch5::message_reader& reader, bool filtered) {
  char* p = lines.reserve(256 * 64 + 64);
  std::uint64_t total = 0;
  for (unsigned type = 0; type < 256; ++type) {
    // Messages of unknown type are skipped by the reader, locate unseen: only counted without a filter.
    std::uint64_t n = t.counts[type] + (filtered ? 0 : reader.unknown_types()[type]);
    if (n == 0) continue;
    total += n;
    const char* name = itch5::message_type_name(static_cast<char>(type));
    if (type > 0x20 && type < 0x7f) {
      p += std::snprintf(p, 64, "%c %s %llu\n", static_cast<char>(type), name != nullptr ? name : "unknown",
                         static_cast<unsigned long long>(n));
    } else {
      p += std::snprintf(p, 64, "0x%02x unknown %llu\n", type, static_cast<unsigned long long>(n));
    }
  }
  p += std::snprintf(p, 64, "total %llu\n", static_cast<unsigned long long>(total));
  if (cfg.decode)
    p += std::snprintf(p, 64, "checksum %016llx\n", static_cast<unsigned long long>(t.checksum));
  lines.commit(p);
}

// How the input ended, and notes on what was skipped or matched nothing, on stderr. Returns the exit status.
int report_end(itch5::message_reader& reader, const config& cfg, const scan_totals& t, bool filtered,
               const itch5::io::capture_stats& capture_stats) {
  const std::string input_name = cfg.input == "-" ? "standard input" : cfg.input;
  // A capture that failed before its first message: the error line alone (it says what was read).
  const bool failed_at_once = reader.status() == itch5::read_status::error && reader.messages() == 0;
  if (capture_stats.is_capture && !cfg.quiet && !failed_at_once)
    std::cerr << "itch5cat: capture: " << capture_stats.describe() << "\n";
  switch (reader.status()) {
    case itch5::read_status::error:
      std::cerr << "itch5cat: error: " << reader.error().describe(input_name)
                << itch5::cli::capture_flags::framing_note_for(capture_stats, reader.error()) << "\n";
      return 1;
    case itch5::read_status::end_of_session:
      if (reader.data_after_end_of_session()) {  // --allow-zero-tail
        std::cerr << "itch5cat: warning: " << input_name << ": zero length prefix at byte offset "
                  << reader.end_of_session_offset() << " ended the input; "
                  << reader.bytes_after_end_of_session().describe() << " after it not read\n";
      }
      break;
    default: break;
  }
  if (reader.unknown_total() > 0 && !cfg.quiet) {
    std::cerr << "itch5cat: note: skipped " << reader.unknown_total() << " messages of unknown type\n";
  }
  for (const auto& sym : t.symbols_not_found) {
    std::cerr << "itch5cat: warning: --symbol " << sym << ": no stock directory message of " << input_name
              << " names it\n";
  }
  if (filtered && !cfg.counts && !cfg.quiet) {
    std::uint64_t selected = 0;
    for (auto n : t.counts) selected += n;
    if (selected == 0) {
      std::cerr << "itch5cat: note: no message matches";
      if (!cfg.types.empty()) std::cerr << " --types " << cfg.types;
      if (cfg.locate != 0) std::cerr << " --locate " << cfg.locate;
      if (!cfg.symbols.empty()) {
        std::cerr << " --symbol ";
        for (std::size_t i = 0; i < cfg.symbols.size(); ++i) std::cerr << (i ? "," : "") << cfg.symbols[i];
      }
      std::cerr << " (" << reader.messages() << " messages read from " << input_name << ")\n";
    }
  }
  return 0;
}

int run(const config& cfg) {
  const bool filtered = !cfg.types.empty() || cfg.locate != 0 || !cfg.symbols.empty();
  const std::string input_name = cfg.input == "-" ? "standard input" : cfg.input;
  itch5::io::capture_stats capture_stats;
  auto input = itch5::io::open_input(cfg.input, cfg.inflate.library(),
                                     cfg.capture.make("itch5cat", input_name, &capture_stats));
  cfg.capture.check_input(capture_stats, input_name);
  itch5::message_reader reader(itch5::io::make_block_source(std::move(input)));
  reader.allow_zero_tail(cfg.allow_zero_tail);
  itch5::io::output_file out("-");
  itch5::io::line_writer lines(out);
  itch5::cli::progress progress(!cfg.quiet);
  const scan_totals totals = scan(reader, cfg, lines, progress);
  progress.finish();
  if (cfg.counts || cfg.decode) write_counts(lines, cfg, totals, reader, filtered);
  lines.flush();
  out.commit();
  return report_end(reader, cfg, totals, filtered, capture_stats);
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  itch5::cli::options opts(
      "itch5cat", "[options] INPUT",
      "Prints the messages of an ITCH 5.0 BinaryFILE stream as readable text, one per line: "
      "timestamp, type, name, stock locate, tracking number, then every field as name=value "
      "(prices in dollars). With --counts, prints how many messages of each type there are (of the "
      "selected ones, with --types, --locate or --symbol).");
  opts.positional("INPUT", cfg.input,
                  "ITCH 5.0 file, raw or gzip-compressed (detected from its bytes), or - "
                  "for standard input; or a pcap/pcapng capture (also gzip-compressed) of a "
                  "MoldUDP64 feed, whose messages are read in sequence order once.");
  opts.add("counts", cfg.counts,
           "Print 'TYPE name COUNT' per message type and a total, instead of messages. With --types or "
           "--locate, the counts and the total are of the selected messages only (messages of unknown type, "
           "which the reader skips, are then not counted).");
  opts.add("decode", cfg.decode,
           "Decode every field of every message and print only the counts and a checksum of all fields (a "
           "decoder throughput test; not with --counts, --types, --locate or --limit).");
  opts.add("types", cfg.types,
           "Print (or count) only these message types, e.g. AFDU (all when empty). Each character must be an "
           "ITCH 5.0 message type.")
      .value_name("TYPES");
  opts.add("locate", cfg.locate, "Print (or count) only messages of this stock locate (0: all).", 0, 65535);
  opts.add("symbol", cfg.symbols,
           "Print (or count) only the messages of these symbols, e.g. AAPL,MSFT: those of the stock locates "
           "their stock directory (R) messages assign, the directory messages included. Matched without "
           "regard to case; a symbol that no directory message names gets a warning. Not with --locate.")
      .value_name("SYM,...");
  opts.add(
      "market-wide", cfg.market_wide,
      "With --symbol, also print the messages of no one stock (stock locate 0: system events, market-wide "
      "circuit breakers, ...).");
  opts.add("limit", cfg.limit, "Stop after printing this many messages (0: no limit; not with --counts).", 0,
           UINT64_MAX);
  cfg.capture.add_to(opts);
  opts.add(
      "allow-zero-tail", cfg.allow_zero_tail,
      "A zero length prefix followed by more bytes (a zero-filled tail: a copy that stopped, a disk that "
      "lost blocks) ends the input with a warning naming its byte offset and how many bytes were not "
      "read, instead of an error (exit 1). A zero length as the last two bytes of the input always ends "
      "it quietly; one before any message, with bytes after it, is always an error.");
  opts.add("quiet", cfg.quiet, "No progress line and no notes on stderr.").alias('q');
  cfg.inflate.add_to(opts);
  opts.epilog(
      "Formats: the message text and the counts are described in docs/formats.md of the source tree.\n"
      "Exit status: 0 on success, 1 on unreadable or corrupt input (the message names the file, the byte "
      "offset and the message number; everything before it has been printed), 2 on a usage error.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  if (auto problem = usage_problem(cfg); !problem.empty()) {
    std::cerr << "itch5cat: error: " << problem << "\n";
    return 2;
  }
  try {
    cfg.capture.check();
  } catch (const std::invalid_argument& e) {
    std::cerr << "itch5cat: error: " << e.what() << "\n";
    return 2;
  }
  try {
    itch5::cli::path_guard paths;  // `itch5cat day.itch >> day.itch` would never end
    for (const auto& c : opts.config_files()) paths.input(c, "--config");
    paths.input(cfg.input, "INPUT");
    paths.output("-", "standard output");
    paths.check();
  } catch (const itch5::cli::path_error& e) {
    std::cerr << "itch5cat: error: " << e.what() << "\n";
    return e.exit_status();
  }
  try {
    return run(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5cat: error: " << e.what() << "\n";
    return 1;
  }
}
