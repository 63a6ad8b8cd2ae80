#include <itch5/cli/capture_flags.hpp>

#include <cstdio>
#include <stdexcept>

namespace itch5::cli {

void capture_flags::add_to(options& opts) {
  opts.add("filter", filter,
           "For pcap/pcapng input: only packets matching this BPF expression (tcpdump syntax), e.g. 'udp dst "
           "port 26477 and dst host 233.54.12.111'. Packets that do not match are skipped and counted.")
      .value_name("BPF");
  opts.add("port", port,
           "For pcap/pcapng input: only UDP packets to this port, with or without a VLAN tag (--filter "
           "'udp dst port N or (vlan and udp dst port N)'; with --filter, a packet must match both). 0: "
           "any port.",
           0, 65535);
  opts.add(
      "reorder-window", reorder_window,
      "For pcap/pcapng input: MoldUDP64 packets that arrive before a missing one are held, up to this many, "
      "waiting for it; then the missing sequence numbers are reported as a gap. 0: a gap at once.",
      0, 1 << 16);
  opts.add("timestamp", timestamp,
           "For pcap/pcapng input: which time the messages carry. exchange: the ITCH timestamps; capture: "
           "each "
           "packet's arrival time (the capture record's, UTC) as nanoseconds since midnight in --time-zone, "
           "written into every message of the packet, so lines, statistics and time ranges are in arrival "
           "time.")
      .choices({"exchange", "capture"});
  opts.add("time-zone", time_zone,
           "The venue's time zone for --timestamp capture: America/New_York (Nasdaq; US daylight saving "
           "rules), UTC, a fixed offset from UTC as +HH:MM or -HH:MM, or any zone name of the system's tz "
           "database (a file under $TZDIR, else /usr/share/zoneinfo), e.g. Europe/London.")
      .value_name("ZONE");
}

namespace {

// --time-zone's zone; an error names the flag.
itch5::io::time_zone zone_of(const std::string& name) {
  try {
    return itch5::io::time_zone::parse(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--time-zone: ") + e.what());
  }
}

}  // namespace

void capture_flags::check() const { (void)zone_of(time_zone); }

std::string capture_flags::expression() const {
  if (port == 0) return filter;
  // BPF's 'udp' looks right after the Ethernet header; 'vlan' moves past one 802.1Q tag for what follows.
  const std::string n = std::to_string(port);
  std::string p = "(udp dst port " + n + " or (vlan and udp dst port " + n + "))";
  return filter.empty() ? p : "(" + filter + ") and " + p;
}

itch5::io::capture_options capture_flags::make(const std::string& tool, const std::string& input_name,
                                               itch5::io::capture_stats* stats) const {
  itch5::io::capture_options o;
  o.filter = expression();
  o.reorder_window = static_cast<std::size_t>(reorder_window);
  o.stats = stats;
  o.stamp_arrival = timestamp == "capture";
  o.zone = zone_of(time_zone);
  o.report = [prefix = tool + ": warning: " + input_name + ": "](const std::string& line) {
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), line.c_str());
  };
  return o;
}

const char* capture_flags::framing_note_for(const itch5::io::capture_stats& stats,
                                            const itch5::read_error& e) noexcept {
  using itch5::read_errc;
  const bool framing = e.code != read_errc::corrupt_capture && e.code != read_errc::empty_capture &&
                       e.code != read_errc::input_failure;
  return stats.is_capture && framing ? framing_note : "";
}

void capture_flags::check_input(const itch5::io::capture_stats& stats, const std::string& input_name) const {
  if (given() && !stats.is_capture) {
    throw std::runtime_error(input_name +
                             ": --filter, --port and --timestamp capture apply to a pcap or "
                             "pcapng capture; this input is not one");
  }
}

}  // namespace itch5::cli
