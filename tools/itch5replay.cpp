// itch5replay: sends an ITCH 5.0 day as a MoldUDP64 feed over UDP, paced by its timestamps.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/io/capture_writer.hpp>
#include <itch5/io/input_error.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/net/endpoint.hpp>
#include <itch5/net/replayer.hpp>
#include <itch5/net/udp_sender.hpp>

#include <itch5/cli/capture_flags.hpp>
#include <itch5/cli/inflate_flag.hpp>
#include <itch5/cli/interruption.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>
#include <itch5/cli/progress.hpp>

namespace {

using namespace std::chrono_literals;

struct config {
  std::string input;
  std::vector<std::string> to;
  std::string interface;
  std::string speed = "1";
  double rate = 0;
  std::uint64_t payload = 1400;
  std::chrono::nanoseconds span = 1us;
  std::string session = "ITCH5LIVE";
  std::chrono::nanoseconds heartbeat = 1s;
  std::chrono::nanoseconds max_wait{0};
  double loss = 0;
  double loss_b = 0;
  double duplicates = 0;
  std::chrono::nanoseconds b_delay{0};
  std::uint64_t seed = 1;
  std::uint64_t ttl = 1;
  std::string schedule;
  bool quiet = false;
  itch5::cli::inflate_flag inflate;
  itch5::cli::capture_flags capture;
};

// The pcap records the capture writer makes, one per call (output_buffer 1), turned back into Mold packets:
// the frame's Ethernet, IPv4 and UDP headers (42 bytes) skipped, the record time being the packet's feed
// time.
class packet_sink {
 public:
  explicit packet_sink(itch5::net::replayer& r) : replayer_(r) {}
  void operator()(std::string_view bytes) {
    std::size_t at = header_done_ ? 0 : 24;
    header_done_ = true;
    while (at + 16 <= bytes.size() && !stopped_) {
      std::uint32_t rec[4];
      std::memcpy(rec, bytes.data() + at, sizeof rec);
      const std::uint64_t t = std::uint64_t{rec[0]} * 1'000'000'000u + rec[1];
      const std::size_t frame = rec[2];
      if (frame > 42 && at + 16 + frame <= bytes.size()) {
        const auto* p = reinterpret_cast<const std::byte*>(bytes.data() + at + 16 + 42);
        if (!replayer_.send({p, frame - 42}, t)) stopped_ = true;
      }
      at += 16 + frame;
    }
  }
  [[nodiscard]] bool stopped() const noexcept { return stopped_; }

 private:
  itch5::net::replayer& replayer_;
  bool header_done_ = false;
  bool stopped_ = false;
};

double parse_speed(const std::string& s) {
  if (s == "max") return 0;
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (...) {
    used = 0;
  }
  if (used != s.size() || !(v > 0) || v > 1e9)
    throw std::invalid_argument("--speed '" + s + "': expected a positive number (1: real time, 10) or max");
  return v;
}

int run(const config& cfg) {
  const double speed = parse_speed(cfg.speed);
  if (cfg.to.empty() || cfg.to.size() > 2)
    throw std::invalid_argument("--to: give one endpoint (feed A) or two (A and B), not " +
                                std::to_string(cfg.to.size()));
  itch5::net::sender_options so;
  so.interface = cfg.interface;
  so.ttl = static_cast<int>(cfg.ttl);
  itch5::net::udp_sender a(itch5::net::endpoint::parse(cfg.to[0]), so);
  std::unique_ptr<itch5::net::udp_sender> b;
  if (cfg.to.size() == 2)
    b = std::make_unique<itch5::net::udp_sender>(itch5::net::endpoint::parse(cfg.to[1]), so);

  const std::string input_name = cfg.input == "-" ? "standard input" : cfg.input;
  itch5::io::capture_stats capture_stats;
  const itch5::io::capture_options capture_opts = cfg.capture.make("itch5replay", input_name, &capture_stats);
  auto input = itch5::io::open_input(cfg.input, cfg.inflate.library(), capture_opts);
  cfg.capture.check_input(capture_stats, input_name);

  std::unique_ptr<itch5::io::output_file> schedule;
  if (!cfg.schedule.empty()) schedule = std::make_unique<itch5::io::output_file>(cfg.schedule);

  itch5::net::replay_options ro;
  ro.speed = speed;
  ro.rate = cfg.rate;
  ro.heartbeat = cfg.heartbeat;
  ro.max_wait = cfg.max_wait;
  ro.loss_a = cfg.loss;
  ro.loss_b = cfg.loss_b;
  ro.duplicates = cfg.duplicates;
  ro.b_delay = cfg.b_delay;
  ro.seed = cfg.seed;
  ro.cancel = &itch5::cli::interruption::flag();
  if (schedule) ro.schedule_log = [&](std::string_view line) { schedule->write(line); };
  itch5::net::replayer replayer(a, b.get(), ro);
  packet_sink sink(replayer);

  itch5::io::capture_writer_options wo;
  wo.max_payload = cfg.payload;
  // A steady rate or the fastest pace fills packets; the exchange's pace sends what a microsecond holds.
  wo.max_span_ns = cfg.rate > 0 || speed == 0 ? UINT64_MAX / 2 : static_cast<std::uint64_t>(cfg.span.count());
  wo.session = cfg.session;
  wo.output_buffer = 1;  // every record to the sink as it is made
  itch5::io::capture_writer writer([&](std::string_view bytes) { sink(bytes); }, wo);

  std::vector<std::byte> buf(std::size_t{1} << 16);
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  try {
    for (std::size_t n; !sink.stopped() && (n = input->read(buf.data(), buf.size())) > 0;)
      writer.write({buf.data(), n});
    if (!sink.stopped()) writer.finish();
  } catch (const itch5::io::input_error& e) {
    error = e.what();
  }
  if (schedule) {
    if (sink.stopped() || !error.empty())
      schedule->abandon();
    else
      schedule->commit();
  }
  const auto& s = replayer.stats();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double active =
      s.last_sent_ns > s.first_sent_ns ? static_cast<double>(s.last_sent_ns - s.first_sent_ns) / 1e9 : 0;
  if (!cfg.quiet) {
    std::fprintf(stderr,
                 "itch5replay: %s: %llu messages in %llu packets to %s%s%s in %.2f s (%s msg/s, %s packets/s "
                 "while sending)\n  datagrams sent: %llu (heartbeats %llu), lost on A %llu, on B %llu, "
                 "duplicated %llu; at most %.1f us behind schedule\n",
                 input_name.c_str(), static_cast<unsigned long long>(s.messages),
                 static_cast<unsigned long long>(s.packets), a.destination().text().c_str(), b ? " and " : "",
                 b ? b->destination().text().c_str() : "", seconds,
                 itch5::cli::human_count(active > 0 ? static_cast<double>(s.messages) / active : 0).c_str(),
                 itch5::cli::human_count(active > 0 ? static_cast<double>(s.packets) / active : 0).c_str(),
                 static_cast<unsigned long long>(s.sent), static_cast<unsigned long long>(s.heartbeats),
                 static_cast<unsigned long long>(s.lost_a), static_cast<unsigned long long>(s.lost_b),
                 static_cast<unsigned long long>(s.duplicated), static_cast<double>(s.max_late_ns) / 1e3);
    if (capture_stats.is_capture) std::fprintf(stderr, "  capture: %s\n", capture_stats.describe().c_str());
  }
  if (sink.stopped()) {
    std::cerr << "itch5replay: interrupted by " << itch5::cli::interruption::name() << " after " << s.messages
              << " messages; no end of session was sent\n";
    itch5::cli::interruption::exit_now();
  }
  if (!error.empty()) {
    std::cerr << "itch5replay: error: " << error << " (the packets before it were sent, no end of session)\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  itch5::cli::options opts(
      "itch5replay", "[options] INPUT --to HOST:PORT",
      "Sends an ITCH 5.0 day as a MoldUDP64 feed over UDP: its messages in order in packets of at most "
      "--payload bytes, each leaving when its last message's timestamp comes (scaled by --speed), or at a "
      "steady --rate; heartbeats while idle; an end of session at the end. For itch5inside --listen and "
      "the latency benchmark (bench/live_latency.py). A summary (packets, messages, achieved rate) goes to "
      "standard error.");
  opts.positional(
      "INPUT", cfg.input,
      "ITCH 5.0 file, raw or gzip-compressed, - for standard input, or a pcap/pcapng capture of a "
      "MoldUDP64 feed (its messages, in sequence order once).");
  opts.add("to", cfg.to,
           "Where to send: HOST:PORT ([::1]:PORT for IPv6), or GROUP@INTERFACE_ADDRESS:PORT for a multicast "
           "group. A,B for an A/B pair of feeds: B gets a copy of every packet, --b-delay later.")
      .value_name("ENDPOINT");
  opts.add("interface", cfg.interface,
           "Interface address to send a multicast group written as HOST:PORT out of (a group without one is "
           "an error).")
      .value_name("ADDRESS");
  opts.add("ttl", cfg.ttl, "Multicast hops (1: no further than the first router).", 1, 255);
  opts.add("speed", cfg.speed,
           "Pace: 1 sends each packet when its last message's timestamp comes (real time, from the first "
           "packet), 10 ten times faster, max as fast as the socket takes them.")
      .value_name("X|max");
  opts.add("rate", cfg.rate,
           "Messages per second at a steady pace, whatever the timestamps (overrides --speed; packets are "
           "filled to --payload). 0: off.",
           0, 1e9);
  opts.add(
      "payload", cfg.payload,
      "UDP payload bytes per MoldUDP64 packet, its 20-byte header included (1400: under a 1500-byte MTU).",
      86, 65507);
  opts.add("span", cfg.span,
           "With --speed X: a packet holds messages of at most this span of feed time (a feed sends what it "
           "has promptly).");
  opts.add("max-wait", cfg.max_wait,
           "With --speed X: a wait between two packets longer than this is cut to it (the hours between a "
           "day's first system events and its trading, the night); 0: the day's pace throughout.");
  opts.add("session", cfg.session, "MoldUDP64 session name (padded or cut to 10 characters).");
  opts.add("heartbeat", cfg.heartbeat, "Heartbeat interval while no packet is due (0: none).");
  opts.add("loss", cfg.loss, "Fraction of packets not sent on feed A (chosen from --seed).", 0, 0.99);
  opts.add("loss-b", cfg.loss_b, "Fraction of packets not sent on feed B.", 0, 0.99);
  opts.add("duplicates", cfg.duplicates, "Fraction of packets sent twice on each feed.", 0, 1);
  opts.add("b-delay", cfg.b_delay, "How much later feed B's copy of a packet leaves than feed A's.");
  opts.add("seed", cfg.seed, "Seed of the loss and duplicate choices.", 0, UINT64_MAX);
  opts.add(
          "schedule", cfg.schedule,
          "Write one line per packet sent on feed A: '<sequence> <count> <due ns> <sent ns>' (CLOCK_REALTIME "
          "ns since the epoch; due by the schedule, not by the send), for bench/live_latency.py.")
      .value_name("FILE");
  cfg.inflate.add_to(opts);
  cfg.capture.add_to(opts);
  opts.add("quiet", cfg.quiet, "No summary on stderr.").alias('q');
  opts.epilog(
      "Examples:\n"
      "  itch5replay day.itch.gz --to 127.0.0.1:26477 --speed 10\n"
      "  itch5replay day.pcap --to 127.0.0.1:26477,127.0.0.1:26478 --b-delay 50us --loss 0.01\n"
      "  itch5replay day.itch --to 233.54.12.111@10.0.0.5:26477 --rate 500000\n"
      "Exit status: 0 when the whole day was sent, 1 on an error (bad input: the packets before it were "
      "sent, "
      "an endpoint that does not resolve or cannot be sent to), 2 on a usage error; on SIGINT, SIGTERM or "
      "SIGHUP it stops (no end of session) and exits as killed by the signal.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  try {
    itch5::cli::path_guard paths;
    paths.input(cfg.input, "INPUT");
    for (const auto& c : opts.config_files()) paths.input(c, "--config");
    paths.output(cfg.schedule, "--schedule");
    paths.check();
    cfg.capture.check();
    (void)parse_speed(cfg.speed);
  } catch (const itch5::cli::path_error& e) {
    std::cerr << "itch5replay: error: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::invalid_argument& e) {
    std::cerr << "itch5replay: error: " << e.what() << "\n";
    return 2;
  }
  itch5::cli::interruption::install();
  try {
    return run(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5replay: error: " << e.what() << "\n";
    return 1;
  }
}
