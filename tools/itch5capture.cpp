// itch5capture: keeps a live MoldUDP64 feed (one endpoint, or an A/B pair) as a pcap file, which
// itch5inside, itch5cat and itch5replay read like any capture.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/net/endpoint.hpp>
#include <itch5/net/live_capture.hpp>

#include <itch5/cli/compression_flags.hpp>
#include <itch5/cli/interruption.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>
#include <itch5/cli/progress.hpp>

namespace {

using namespace std::chrono_literals;

struct config {
  std::vector<std::string> listen;
  std::string output;
  std::string interface;
  std::chrono::nanoseconds idle{0};
  std::chrono::nanoseconds linger = 500ms;
  std::uint64_t reorder_window = 32;
  bool quiet = false;
  itch5::cli::compression_flags compression;
};

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += (s.empty() ? "" : ", ") + e;
  return s;
}

int run(const config& cfg) {
  const std::string name = "--listen " + joined(cfg.listen);
  // Made once the sockets are bound (a port in use leaves no file behind); the pcap header the stream makes
  // before that waits in `early`.
  std::unique_ptr<itch5::io::output_file> out;
  std::string early;
  std::uint64_t bytes = 0;
  itch5::net::live_stats live;
  itch5::net::live_options lo;
  lo.listen = cfg.listen;
  lo.receiver.interface = cfg.interface;
  lo.idle = cfg.idle;
  lo.linger = cfg.linger;
  lo.cancel = &itch5::cli::interruption::flag();
  lo.stats = &live;
  lo.report = [](const std::string& line) {
    std::fprintf(stderr, "itch5capture: warning: %s\n", line.c_str());
  };
  // Every datagram as a pcap record, whole records at a time (the malformed ones are left out: they are
  // reported above and would stop a reader of the file).
  lo.tee = [&](std::string_view b) {
    if (out)
      out->write(b);
    else
      early.append(b);
    bytes += b.size();
  };
  // The feed also goes through the capture path, for the summary: sequence gaps, duplicates, A/B.
  itch5::io::capture_stats cs;
  itch5::io::capture_options co;
  co.stats = &cs;
  co.reorder_window = cfg.reorder_window;
  co.report = [&](const std::string& line) {
    if (!cfg.quiet) std::fprintf(stderr, "itch5capture: warning: %s: %s\n", name.c_str(), line.c_str());
  };
  auto stream = itch5::net::live_capture(lo, co);
  out = std::make_unique<itch5::io::output_file>(cfg.output, cfg.compression.output());
  out->write(early);
  if (!cfg.quiet)
    std::fprintf(stderr, "itch5capture: listening on %s, writing %s\n", name.c_str(), cfg.output.c_str());
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::byte> sink(std::size_t{1} << 16);
  // An error (a full disk) leaves what was received as FILE.partial: the output's destructor abandons it.
  while (stream->read(sink.data(), sink.size()) > 0) {
  }
  out->commit();
  if (!cfg.quiet) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(
        stderr,
        "itch5capture: %s: %llu datagrams (%llu malformed, skipped) in %.2f s, %s of pcap written to %s; "
        "ended by %s\n  capture: %s\n",
        name.c_str(), static_cast<unsigned long long>(live.datagrams.load()),
        static_cast<unsigned long long>(live.malformed.load()), seconds,
        itch5::cli::human_bytes(static_cast<double>(bytes)).c_str(), cfg.output.c_str(), live.ended.c_str(),
        cs.describe().c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  itch5::cli::options opts(
      "itch5capture", "--listen ENDPOINT -o FILE [options]",
      "Keeps a live MoldUDP64 feed as a pcap file: every datagram received, with the kernel's receive time "
      "(nanoseconds), as a raw-IPv4 record addressed to the receiving port. itch5inside, itch5cat and "
      "itch5replay read the file as they read any capture (A/B arbitrated by sequence number, gaps "
      "reported). A malformed datagram (shorter than the Mold header, a count or a length that overruns "
      "it) is reported and left out. The capture ends at the end of session (every feed's, or --linger "
      "after the first), after --idle without a datagram, or on SIGINT/SIGTERM/SIGHUP; in every case the "
      "file is completed and the exit status is 0. A summary (datagrams, sequence gaps, duplicates) goes "
      "to standard error.");
  opts.add("listen", cfg.listen,
           "The feed: [GROUP@]HOST:PORT ([::1]:PORT for IPv6; GROUP@INTERFACE_ADDRESS:PORT joins a "
           "multicast group), or A,B for an A/B pair, both kept in the one file. Required.")
      .value_name("ENDPOINT");
  opts.add("output", cfg.output,
           "The pcap file (.gz: gzip, .zst: zstd; - for standard output). Written as FILE.tmp.<pid> and "
           "renamed when the capture ends; an error leaves what was received as FILE.partial. Required.")
      .alias('o')
      .value_name("FILE");
  opts.add("interface", cfg.interface,
           "The interface address to join a multicast group written as HOST:PORT on.")
      .value_name("ADDRESS");
  opts.add("idle", cfg.idle, "Stop after this long without a datagram (0: never).");
  opts.add("linger", cfg.linger,
           "With two feeds: how long to wait for more after the first end of session (the other feed's end "
           "may be lost).");
  opts.add("reorder-window", cfg.reorder_window,
           "For the summary's sequence check only (the file keeps every datagram as it came): early packets "
           "held while waiting for missing ones before a gap is counted.",
           0, 1 << 20);
  cfg.compression.add_to(opts);
  opts.add("quiet", cfg.quiet, "No summary on stderr (errors and malformed datagrams are still reported).")
      .alias('q');
  opts.epilog(
      "Examples:\n"
      "  itch5capture --listen 127.0.0.1:26477 -o session.pcap --idle 10s\n"
      "  itch5capture --listen 233.54.12.111@10.0.0.5:26477,233.54.12.112@10.0.0.5:26478 -o ab.pcap.zst\n"
      "  itch5inside session.pcap > inside.txt\n"
      "Exit status: 0 when the capture ended (end of session, --idle, or a signal), 1 on an error (an "
      "endpoint in use or that does not resolve, a full disk), 2 on a usage error.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  try {
    if (cfg.listen.empty()) throw std::invalid_argument("--listen ENDPOINT is required");
    itch5::net::check_feeds(cfg.listen, "--listen");
    if (cfg.output.empty()) throw std::invalid_argument("-o FILE is required (- for standard output)");
    itch5::cli::path_guard paths;
    for (const auto& c : opts.config_files()) paths.input(c, "--config");
    paths.output(cfg.output, "--output");
    paths.check();
  } catch (const itch5::cli::path_error& e) {
    std::cerr << "itch5capture: error: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::invalid_argument& e) {
    std::cerr << "itch5capture: error: " << e.what() << "\n";
    return 2;
  }
  itch5::cli::interruption::install();
  try {
    return run(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5capture: error: " << e.what() << "\n";
    return 1;
  }
}
