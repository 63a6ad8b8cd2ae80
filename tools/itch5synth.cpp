// itch5synth: writes a synthetic, book-consistent TotalView-ITCH 5.0 day (and optionally a delayed copy).
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include <itch5/messages.hpp>
#include <itch5/io/capture_writer.hpp>
#include <itch5/io/output_file.hpp>
#include <itch5/synth/generator.hpp>

#include <itch5/cli/compression_flags.hpp>
#include <itch5/cli/interruption.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>
#include <itch5/cli/progress.hpp>

namespace {

using namespace std::chrono_literals;

struct config {
  itch5::synth::generator_config gen;
  std::uint64_t symbols = 0;
  std::string output;
  std::string positional_output;
  std::string delayed;
  std::string pcap;
  std::uint64_t pcap_payload = 1400;
  double pcap_loss = 0;
  double pcap_duplicates = 0;
  double pcap_reorder = 0;
  std::chrono::nanoseconds pcap_latency{0};
  itch5::cli::compression_flags compression;
  bool quiet = false;
  bool force = false;
  std::string references = "sequential";
};

// Thrown out of the generator's progress callback when a signal asks the run to stop.
struct interrupted {
  std::uint64_t messages;
};

// Bytes per message of a generated day, measured on itch5synth's own output (200k to 50M messages, default
// settings): 30.5 framed, 12.9 at gzip level 6; rounded up, and the .gz figure taken for every level.
constexpr double raw_bytes_per_message = 31.0;
constexpr double gz_bytes_per_message = 14.0;

bool is_gz(const std::string& path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Refuses (or, with --force, warns) when the estimated output does not fit in the free space of its file
// system; outputs on one file system are added up.
void check_free_space(const config& cfg, const std::string& out_path) {
  struct need {
    std::string directory;
    std::string files;
    int count = 0;
    double bytes = 0;
    unsigned long long available = 0;
  };
  std::vector<std::pair<unsigned long, need>> by_fs;
  for (const std::string& path : {out_path, cfg.delayed, cfg.pcap}) {
    if (path.empty() || path == "-") continue;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) continue;  // a device or FIFO
    const std::string dir = directory_of(path);
    struct statvfs fs {};
    if (::statvfs(dir.c_str(), &fs) != 0) continue;
    const double bytes =
        static_cast<double>(cfg.gen.messages) * (is_gz(path) ? gz_bytes_per_message : raw_bytes_per_message);
    auto it = std::find_if(by_fs.begin(), by_fs.end(), [&](const auto& e) { return e.first == fs.f_fsid; });
    if (it == by_fs.end()) {
      by_fs.push_back(
          {fs.f_fsid, need{dir, path, 0, 0, static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize}});
      it = std::prev(by_fs.end());
    } else {
      it->second.files += " and " + path;
    }
    it->second.bytes += bytes;
    ++it->second.count;
  }
  for (const auto& [fsid, n] : by_fs) {
    if (n.bytes <= static_cast<double>(n.available)) continue;
    const std::string text = n.files + (n.count == 1 ? " needs about " : " need about ") +
                             itch5::cli::human_bytes(n.bytes) + " but the file system of '" + n.directory +
                             "' has " + itch5::cli::human_bytes(static_cast<double>(n.available)) + " free";
    if (!cfg.force) throw std::runtime_error(text + " (--force writes anyway)");
    std::cerr << "itch5synth: warning: " << text << "; writing anyway (--force)\n";
  }
}

std::string with_commas(std::uint64_t n) {
  std::string s = std::to_string(n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string clock_text(std::chrono::nanoseconds t) {
  auto ms = static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(t).count());
  char b[32];
  std::snprintf(b, sizeof b, "%02lld:%02lld:%02lld.%03lld", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60,
                ms % 1000);
  return b;
}

std::uint64_t file_size(const std::string& path) {
  std::error_code ec;
  auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n;
}

// The capture's clock: the session's messages on 2019-01-30 in New York (UTC-5 in January), so a packet's
// capture time is its last message's timestamp after midnight New York time: no feed delay.
constexpr std::uint64_t pcap_midnight_utc_ns =
    1'548'824'400ull * 1'000'000'000ull;  // 2019-01-30 05:00:00 UTC

void print_summary(const config& cfg, const std::string& out_path, const itch5::synth::generator_config& g,
                   const itch5::synth::generator_stats& st, double seconds,
                   const itch5::io::capture_writer_stats* pcap) {
  auto pct = [&](std::uint64_t n) {
    return 100.0 * static_cast<double>(n) / static_cast<double>(st.messages);
  };
  const auto& c = st.counts;
  auto n = [&](char t) { return c[static_cast<unsigned char>(t)]; };
  std::string size = itch5::cli::human_bytes(static_cast<double>(st.bytes)) + " framed";
  if (out_path != "-")
    size += ", " + itch5::cli::human_bytes(static_cast<double>(file_size(out_path))) + " on disk";
  std::fprintf(
      stderr, "itch5synth: %s messages to %s (%s) in %.2f s: %s msg/s\n", with_commas(st.messages).c_str(),
      out_path.c_str(), size.c_str(), seconds,
      itch5::cli::human_count(static_cast<double>(st.messages) / (seconds > 0 ? seconds : 1)).c_str());
  std::fprintf(stderr, "  seed %llu, %u symbols, trading %s to %s, mean gap %s (%s)\n",
               static_cast<unsigned long long>(g.seed), st.symbols, clock_text(st.first_trading).c_str(),
               clock_text(st.last_trading).c_str(), itch5::cli::format_duration(g.mean_gap).c_str(),
               g.compress ? "--mean-gap: compressed from 09:30" : "spread over the day's shape");
  std::fprintf(stderr, "  by type:");
  int shown = 0;
  for (unsigned t = 0; t < 256; ++t) {
    if (c[t] == 0) continue;
    std::fprintf(stderr, "%s %c %s", shown++ % 8 == 0 ? "\n   " : ",", static_cast<char>(t),
                 with_commas(c[t]).c_str());
  }
  std::fprintf(stderr, "\n");
  std::uint64_t adds = n('A') + n('F'), execs = n('E') + n('C');
  std::uint64_t other = st.messages - adds - n('D') - n('U') - execs - n('X');
  std::fprintf(stderr,
               "  mix: adds %.2f%%, deletes %.2f%%, replaces %.2f%%, executions %.2f%%, cancels %.2f%%, "
               "other %.2f%%\n",
               pct(adds), pct(n('D')), pct(n('U')), pct(execs), pct(n('X')), pct(other));
  std::fprintf(stderr, "  live orders: peak %s, at the end %s\n", with_commas(st.live_peak).c_str(),
               with_commas(st.live_end).c_str());
  std::fprintf(stderr,
               "  depth from the inside (levels, %s events): p50 %u, p75 %u, p90 %u, p99 %u, p99.9 %u\n",
               with_commas(st.depth_events()).c_str(), st.depth_quantile(0.5), st.depth_quantile(0.75),
               st.depth_quantile(0.9), st.depth_quantile(0.99), st.depth_quantile(0.999));
  std::fprintf(
      stderr, "  gaps under 300 ns: %.3f%%\n",
      st.gaps ? 100.0 * static_cast<double>(st.gaps_under_300ns) / static_cast<double>(st.gaps) : 0.0);
  if (st.substitutions > 0) {
    std::fprintf(stderr, "  substitutions (event kind changed for lack of a fitting order): %s\n",
                 with_commas(st.substitutions).c_str());
  }
  if (!cfg.delayed.empty()) {
    std::string dsize = itch5::cli::human_bytes(static_cast<double>(st.delayed_bytes)) + " framed";
    if (cfg.delayed != "-")
      dsize += ", " + itch5::cli::human_bytes(static_cast<double>(file_size(cfg.delayed))) + " on disk";
    std::fprintf(
        stderr, "  delayed copy: %s messages to %s (%s), delay %s +- %s, %s of %s orders dropped (%.2f%%)\n",
        with_commas(st.delayed_messages).c_str(), cfg.delayed.c_str(), dsize.c_str(),
        itch5::cli::format_duration(g.delay).c_str(), itch5::cli::format_duration(g.jitter).c_str(),
        with_commas(st.dropped_orders).c_str(), with_commas(st.new_orders).c_str(),
        st.new_orders ? 100.0 * static_cast<double>(st.dropped_orders) / static_cast<double>(st.new_orders)
                      : 0.0);
  }
  if (pcap != nullptr) {
    std::fprintf(
        stderr,
        "  capture: %s messages in %s MoldUDP64 packets (end of session included) to %s (%s%s), %s lost, "
        "%s written twice, %s late\n",
        with_commas(pcap->messages).c_str(), with_commas(pcap->packets).c_str(), cfg.pcap.c_str(),
        itch5::cli::human_bytes(static_cast<double>(pcap->bytes)).c_str(),
        is_gz(cfg.pcap) ? " uncompressed" : "", with_commas(pcap->lost).c_str(),
        with_commas(pcap->duplicated).c_str(), with_commas(pcap->reordered).c_str());
  }
  std::fprintf(stderr, "  peak RSS %s\n",
               itch5::cli::human_bytes(static_cast<double>(itch5::cli::peak_rss_bytes())).c_str());
}

int run(config& cfg) {
  if (!cfg.output.empty() && !cfg.positional_output.empty()) {
    throw std::invalid_argument("give the output either with -o or as an argument, not both");
  }
  std::string out_path = cfg.output.empty() ? cfg.positional_output : cfg.output;
  if (out_path.empty())
    throw std::invalid_argument("no output: give -o FILE (.gz to compress) or - for standard output");
  if (out_path == "-" && ::isatty(STDOUT_FILENO) == 1) {
    throw std::invalid_argument("standard output is a terminal; redirect it or give -o FILE");
  }
  cfg.gen.symbols = static_cast<std::uint32_t>(cfg.symbols);
  cfg.gen.compress = cfg.gen.mean_gap.count() != 0;  // a mean gap given: trading from 09:30 at that gap
  cfg.gen.references = itch5::synth::parse_reference_pattern(cfg.references);
  itch5::synth::generator gen(cfg.gen);  // resolves and checks the settings
  check_free_space(cfg, out_path);

  itch5::io::output_options oo = cfg.compression.output();
  itch5::io::output_file out(out_path, oo);
  std::unique_ptr<itch5::io::output_file> delayed_out;
  if (!cfg.delayed.empty()) delayed_out = std::make_unique<itch5::io::output_file>(cfg.delayed, oo);
  std::unique_ptr<itch5::io::output_file> pcap_out;
  std::unique_ptr<itch5::io::capture_writer> pcap;
  if (!cfg.pcap.empty()) {
    pcap_out = std::make_unique<itch5::io::output_file>(cfg.pcap, oo);
    itch5::io::capture_writer_options po;
    po.max_payload = static_cast<std::size_t>(cfg.pcap_payload);
    po.loss = cfg.pcap_loss;
    po.duplicates = cfg.pcap_duplicates;
    po.reorder = cfg.pcap_reorder;
    po.seed = cfg.gen.seed;
    po.time_base_ns = pcap_midnight_utc_ns + static_cast<std::uint64_t>(cfg.pcap_latency.count());
    pcap = std::make_unique<itch5::io::capture_writer>([&](std::string_view b) { pcap_out->write(b); }, po);
  }

  auto as_text = [](std::span<const std::byte> b) {
    return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
  };
  itch5::synth::generator::sink main_sink = [&](std::span<const std::byte> b) {
    out.write(as_text(b));
    if (pcap) pcap->write(b);
  };
  itch5::synth::generator::sink copy_sink = [&](std::span<const std::byte> b) {
    delayed_out->write(as_text(b));
  };

  bool show = !cfg.quiet && ::isatty(STDERR_FILENO) == 1;
  auto start = std::chrono::steady_clock::now();
  auto last = start;
  bool drawn = false;
  std::uint64_t total = gen.config().messages;
  itch5::synth::generator::progress on_progress = [&](std::uint64_t done) {
    if (itch5::cli::interruption::requested()) throw interrupted{done};
    if (!show) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last < 500ms) return;
    last = now;
    double secs = std::chrono::duration<double>(now - start).count();
    double rate = static_cast<double>(done) / (secs > 0 ? secs : 1);
    auto left = static_cast<unsigned long>(static_cast<double>(total - done) / (rate > 0 ? rate : 1));
    std::fprintf(stderr, "\r%5.1f%% %s messages, %s msg/s, ETA %lu:%02lu   ",
                 100.0 * static_cast<double>(done) / static_cast<double>(total),
                 itch5::cli::human_count(static_cast<double>(done)).c_str(),
                 itch5::cli::human_count(rate).c_str(), left / 60, left % 60);
    std::fflush(stderr);
    drawn = true;
  };

  itch5::synth::generator_stats stats;
  try {
    stats = gen.run(main_sink, delayed_out ? &copy_sink : nullptr, on_progress);
    if (pcap) pcap->finish();
  } catch (...) {
    // A synthetic day cut short is of no use: nothing is kept (no FILE.partial, no temporary file).
    if (drawn) std::fprintf(stderr, "\r%70s\r", "");
    out.discard();
    if (delayed_out) delayed_out->discard();
    if (pcap_out) pcap_out->discard();
    throw;
  }
  if (drawn) std::fprintf(stderr, "\r%70s\r", "");
  out.commit();
  if (delayed_out) delayed_out->commit();
  if (pcap_out) pcap_out->commit();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!cfg.quiet) print_summary(cfg, out_path, gen.config(), stats, seconds, pcap ? &pcap->stats() : nullptr);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  auto& g = cfg.gen;
  itch5::cli::options opts(
      "itch5synth", "[options] (-o OUTPUT | OUTPUT)",
      "Writes a synthetic Nasdaq TotalView-ITCH 5.0 day in BinaryFILE framing: system events, a stock "
      "directory "
      "and a book-consistent trading session whose message mix, symbol skew, distance of book events from "
      "the "
      "inside, prices (above and below $1.00) and bursty timestamps resemble a real day, spread over a real "
      "day's shape (04:00 to 20:00, see --mean-gap). Symbols carry real names, busiest first (SPY, QQQ, "
      "AAPL, MSFT, ...: 1,308 of them, then made-up ones), in alphabetical stock locates. The same settings "
      "and seed give the same bytes on every platform. A summary (counts per type, live-order peak, measured "
      "depths, speed) goes to standard error.");
  opts.positional("OUTPUT", cfg.positional_output,
                  "Output file; a name ending in .gz is gzip-compressed; - for standard output.", false);
  opts.add("output", cfg.output, "Output file (same as OUTPUT).").alias('o').value_name("FILE");
  opts.add_count("messages", g.messages,
                 "Total messages to write, system events and directory included (20M, 500M, ...).", 1,
                 10'000'000'000ull);
  opts.add("symbols", cfg.symbols,
           "Number of symbols (stock locates 1..N); 0: 0.7 * sqrt(messages), between 10 and 10000 (313 for "
           "200k, 3130 "
           "for 20M).",
           0, 65535);
  opts.add("seed", g.seed, "Seed of the pseudo-random generator (xoshiro256**).", 0, UINT64_MAX);
  opts.add(
      "mean-gap", g.mean_gap,
      "0 (the default): the day's shape, whatever the number of messages: trading from 04:00 to 20:00, "
      "~6% of it pre-market (rising from 08:00), ~91% in the regular session 09:30-16:00 with its U shape "
      "(the open and the last half hour busiest, lunch quietest), ~3% after the close, S Q and S M at 09:30 "
      "and 16:00. A value (at least 1us): a compressed day instead, trading from 09:30 at that mean time "
      "between messages (200k messages at 5us: one second), for dense test days. Gaps are bursty either "
      "way: ~1% under 300ns, a heavy tail of long ones.");
  opts.add("zipf", g.zipf, "Exponent s of the symbol activity weights 1/rank^s (1.0-1.2 is realistic).", 0,
           5);
  opts.add("hot-share", g.hot_share,
           "Share of the trading messages that go to the busiest symbol (0.5: one symbol with half of all "
           "messages); 0: its Zipf weight.",
           0, 0.99);
  opts.add(
      "depth-scale", g.depth_scale,
      "Multiplies the distance from the inside, in price levels, at which orders are added (removals keep "
      "the curve measured on real days, p50 1 and p99 203 levels, so deep orders outlive near ones): 1 "
      "keeps that curve; 20 on 10 symbols and 2M messages makes books 2,500 levels deep.",
      1, 1000);
  opts.add("sub-dollar-fraction", g.sub_dollar_fraction,
           "Fraction of symbols priced below $1.00 (tick $0.0001); the others start between $1 and ~$1000.",
           0, 1);
  opts.add("live-fraction", g.live_fraction,
           "Live orders at the end of the day as a fraction of the trading messages (real days: 0.5-1%).", 0,
           0.2);
  opts.add("references", cfg.references,
           "How order reference numbers are handed out: sequential (1, 2, 3, ... as Nasdaq does), gapped "
           "(increasing with gaps of up to 65,536, like a day filtered to a few symbols), random (distinct, "
           "scattered over 64 bits) or reuse (references of dead orders handed out again). Only the "
           "references "
           "differ: the other bytes of the day are the same for every pattern.")
      .choices({"sequential", "gapped", "random", "reuse"});
  opts.add("delayed", cfg.delayed,
           "Also write a delayed copy of the stream to this file (.gz to compress): every timestamp shifted "
           "by "
           "--delay plus a jitter, and a fraction --drop of the orders missing whole (add, executions, "
           "cancels, deletes and replacement chain). For the time-delay estimator.")
      .value_name("FILE");
  opts.add("delay", g.delay, "Fixed delay of the delayed copy.");
  opts.add("jitter", g.jitter,
           "Jitter of the delayed copy: each timestamp gets an extra uniform shift in [-jitter, +jitter]; "
           "the shifted times are then sorted and handed out in stream order, which keeps timestamps "
           "non-decreasing, every shift in delay +- jitter and the mean shift equal to --delay.");
  opts.add("drop", g.drop, "Fraction of orders missing from the delayed copy.", 0, 0.99);
  opts.add(
          "pcap", cfg.pcap,
          "Also write the day as a pcap capture of a MoldUDP64 feed (.gz to compress): the messages in order "
          "in packets of at most --pcap-payload bytes and 1 us of feed time, UDP to 233.54.12.111:26477 in "
          "Ethernet frames, nanosecond timestamps = each packet's last message's time on 2019-01-30 New York "
          "time (UTC-5), "
          "then an end-of-session packet. itch5inside and itch5cat read it as they read the BinaryFILE.")
      .value_name("FILE");
  opts.add("pcap-payload", cfg.pcap_payload,
           "UDP payload bytes per MoldUDP64 packet of --pcap, its 20-byte header included (1400: a typical "
           "feed under a 1500-byte MTU).",
           86, 65507);
  opts.add("pcap-loss", cfg.pcap_loss,
           "Fraction of the --pcap packets left out (lost), chosen from --seed: the readers report the gaps.",
           0, 0.99);
  opts.add("pcap-duplicates", cfg.pcap_duplicates,
           "Fraction of the --pcap packets written twice (1: a whole A/B pair of feeds), chosen from --seed: "
           "the readers drop the copies.",
           0, 1);
  opts.add("pcap-reorder", cfg.pcap_reorder,
           "Fraction of the --pcap packets that arrive late, after the packet that follows them (chosen from "
           "--seed): the readers put them back in order within their reorder window.",
           0, 0.99);
  opts.add(
      "pcap-latency", cfg.pcap_latency,
      "Arrival delay of every --pcap packet after its last message's timestamp (a capture point further "
      "from the exchange: two runs with the same --seed and different latencies are two capture points of "
      "one feed, for itch5inside --timestamp capture and itch5tde).");
  cfg.compression.add_to(opts);
  opts.add("quiet", cfg.quiet, "No progress line and no summary on stderr.").alias('q');
  opts.add("force", cfg.force,
           "Write even when the estimated size of the outputs (about 31 bytes per message raw, 14 gzipped) "
           "exceeds the free space of their file system (a warning instead of an error).");
  opts.epilog(
      "Examples:\n"
      "  itch5synth --messages 200k --seed 1 -o data/synthetic-200k.itch.gz\n"
      "  itch5synth --messages 20M -o day.itch --delayed day-delayed.itch --delay 250us --jitter 2us --drop "
      "0.02\n"
      "An output appears only complete: it is written under a temporary name and renamed at the end; a run "
      "that fails or is interrupted leaves nothing behind. An output that is another output or an input "
      "(--config), by device and inode, is a usage error.\n"
      "Exit status: 0 on success, 1 on an error (bad settings, not enough free space, write failure), 2 on a "
      "usage error; on SIGINT, SIGTERM or SIGHUP the outputs are removed and the program exits as killed by "
      "the signal.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  try {
    itch5::cli::path_guard paths;
    for (const auto& c : opts.config_files()) paths.input(c, "--config");
    paths.output(cfg.output.empty() ? cfg.positional_output : cfg.output,
                 cfg.output.empty() ? "OUTPUT" : "--output");
    paths.output(cfg.delayed, "--delayed");
    paths.output(cfg.pcap, "--pcap");
    paths.check();
  } catch (const itch5::cli::path_error& e) {
    std::cerr << "itch5synth: error: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::invalid_argument& e) {
    std::cerr << "itch5synth: error: " << e.what() << "\n";
    return 2;
  }
  itch5::cli::interruption::install();
  try {
    return run(cfg);
  } catch (const interrupted& i) {
    std::cerr << "itch5synth: interrupted by " << itch5::cli::interruption::name() << " after "
              << with_commas(i.messages) << " messages; the incomplete output was removed\n";
    itch5::cli::interruption::exit_now();
  } catch (const std::exception& e) {
    std::cerr << "itch5synth: error: " << e.what() << "\n";
    return 1;
  }
}
