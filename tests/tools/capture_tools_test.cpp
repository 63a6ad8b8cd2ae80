// itch5inside and itch5cat on captures, run as programs: a generated day (itch5synth) wrapped
// here into MoldUDP64 packets in pcap, pcapng and gzip captures gives lines byte-identical to the
// BinaryFILE's; A/B duplicates change nothing; a lost packet is a gap line naming its sequence range and
// the run goes on; --port and --filter pick one feed of two; each bad capture exits 1 with one line naming
// the packet and the byte offset, and the complete lines before it are kept in FILE.partial;
// --timestamp capture gives arrival times, and two capture points 37 us apart give itch5tde 37 us.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <itch5/message_header.hpp>
#include <itch5/stats/log_linear_histogram.hpp>

#include <itch5_test/capture_writer.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::bytes;
using itch5_test::mold_packets;
using itch5_test::udp_frame;

const std::string tools = ITCH5_TOOLS_DIR;
constexpr std::uint16_t port = 26477;

struct outcome {
  int status;
  std::string out;
  std::string err;
};

class capture_tools : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new itch5_test::temp_dir;
    ASSERT_EQ(itch5_test::run_shell(tools + "/itch5synth --messages 20k -q -o " +
                                    itch5_test::sh_quote(file("day.itch"))),
              0);
    messages_ =
        new std::vector<bytes>(itch5_test::binaryfile_messages(itch5_test::read_file(file("day.itch"))));
    ASSERT_GT(messages_->size(), 19000u);
    reference_ = new outcome(run("itch5inside -q day.itch"));
    ASSERT_EQ(reference_->status, 0) << reference_->err;
    ASSERT_GT(reference_->out.size(), 100000u);
  }
  static void TearDownTestSuite() {
    delete reference_;
    delete messages_;
    delete dir_;
  }

  static std::string file(const std::string& name) { return dir_->file(name); }

  // Runs "tools/<command>" in the temporary directory.
  static outcome run(const std::string& command) {
    const std::string cmd = "cd " + itch5_test::sh_quote(dir_->path().string()) + " && " + tools + "/" +
                            command + " >out.txt 2>err.txt";
    outcome o;
    o.status = itch5_test::run_shell(cmd);
    o.out = itch5_test::read_text(file("out.txt"));
    o.err = itch5_test::read_text(file("err.txt"));
    return o;
  }

  static bytes pcap(const std::vector<itch5_test::mold_stream_packet>& packets, bool twice = false) {
    itch5_test::pcap_file f;
    for (const auto& p : packets) {
      f.add(udp_frame(p.payload, port));
      if (twice) f.add(udp_frame(p.payload, port, true));
    }
    return f.data;
  }

  // The day's messages one per packet (nanosecond pcap), each arriving `delay_ns` after its exchange
  // timestamp on 2019-07-15 (EDT, UTC-4).
  static void write_delayed_capture(const std::string& name, std::uint64_t delay_ns) {
    constexpr std::uint64_t midnight_utc_ns = 1563163200ull * 1'000'000'000ull;
    itch5_test::pcap_file f(true);
    for (std::size_t i = 0; i < messages_->size(); ++i) {
      const bytes& m = (*messages_)[i];
      const auto ts = static_cast<std::uint64_t>(itch5::message_header::decode(m.data()).timestamp.count());
      f.add(udp_frame(itch5_test::mold_packet("S", i + 1, {m}), port), midnight_utc_ns + ts + delay_ns);
    }
    itch5_test::write_file(file(name), f.data);
  }

  static itch5_test::temp_dir* dir_;
  static std::vector<bytes>* messages_;
  static outcome* reference_;
};

itch5_test::temp_dir* capture_tools::dir_ = nullptr;
std::vector<bytes>* capture_tools::messages_ = nullptr;
outcome* capture_tools::reference_ = nullptr;

TEST_F(capture_tools, every_capture_format_gives_the_binaryfile_lines) {
  const auto packets = mold_packets(*messages_, 32);  // up to 1400 bytes of payload each
  itch5_test::pcap_file nano(true, true);
  itch5_test::pcapng_file ng;
  for (const auto& p : packets) {
    nano.add(udp_frame(p.payload, port, true));
    ng.add(udp_frame(p.payload, port));
  }
  itch5_test::write_file(file("day.pcap"), pcap(packets));
  itch5_test::write_file(file("day-ns.pcap"), nano.data);
  itch5_test::write_file(file("day.pcapng"), ng.data);
  itch5_test::write_file(file("day.pcap.gz"), itch5_test::gzip(pcap(packets)));
  for (const std::string name : {"day.pcap", "day-ns.pcap", "day.pcapng", "day.pcap.gz"}) {
    const outcome o = run("itch5inside " + name);
    EXPECT_EQ(o.status, 0) << name << ": " << o.err;
    EXPECT_TRUE(o.out == reference_->out) << name << ": the lines differ from the BinaryFILE's";
    EXPECT_NE(o.err.find("  capture: " + std::to_string(packets.size()) +
                         " packets read, 0 skipped, 0 duplicates, 0 gaps (0 messages missing)"),
              std::string::npos)
        << name << ": " << o.err;
  }
  // Standard input too, and itch5cat's text.
  const outcome piped = run("itch5inside -q - < day.pcap.gz");
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_TRUE(piped.out == reference_->out);
  const outcome cat_ref = run("itch5cat -q day.itch");
  const outcome cat = run("itch5cat day.pcap --port " + std::to_string(port));
  EXPECT_EQ(cat.status, 0) << cat.err;
  EXPECT_TRUE(cat.out == cat_ref.out);
  EXPECT_NE(cat.err.find("itch5cat: capture: " + std::to_string(packets.size()) + " packets read"),
            std::string::npos)
      << cat.err;
}

TEST_F(capture_tools, ab_duplicates_change_nothing) {
  const auto packets = mold_packets(*messages_, 32);
  itch5_test::write_file(file("ab.pcap"), pcap(packets, true));  // the B copies carry a VLAN tag
  const outcome o = run("itch5inside ab.pcap --port " + std::to_string(port));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == reference_->out);
  EXPECT_NE(o.err.find(std::to_string(2 * packets.size()) + " packets read, 0 skipped, " +
                       std::to_string(packets.size()) + " duplicates, 0 gaps"),
            std::string::npos)
      << o.err;
}

TEST_F(capture_tools, a_lost_packet_is_reported_by_sequence_range_and_the_run_goes_on) {
  auto packets = mold_packets(*messages_, 32);
  const auto lost = packets[100];
  packets.erase(packets.begin() + 100);
  itch5_test::write_file(file("lost.pcap"), pcap(packets));
  const outcome o = run("itch5inside lost.pcap");
  EXPECT_EQ(o.status, 0) << o.err;
  const std::string range = std::to_string(lost.seq) + "-" + std::to_string(lost.seq + lost.count - 1);
  EXPECT_NE(o.err.find("itch5inside: warning: lost.pcap: gap: sequence numbers " + range + " (" +
                       std::to_string(lost.count) + " messages) missing before packet #101"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find(", 1 gaps (" + std::to_string(lost.count) + " messages missing)"), std::string::npos)
      << o.err;
  EXPECT_GT(o.out.size(), reference_->out.size() / 2);
}

TEST_F(capture_tools, port_and_filter_pick_one_feed) {
  // Two feeds in one capture: the day on 26477, its first 5000 messages under another session on 26478.
  const auto a = mold_packets(*messages_, 32);
  const std::vector<bytes> first(messages_->begin(), messages_->begin() + 5000);
  const auto b = mold_packets(first, 32, 1, "OTHERFEED");
  itch5_test::pcap_file f;
  for (std::size_t i = 0; i < a.size(); ++i) {
    f.add(udp_frame(a[i].payload, port));
    if (i < b.size()) f.add(udp_frame(b[i].payload, port + 1));
  }
  itch5_test::write_file(file("two.pcap"), f.data);
  itch5_test::write_file(file("first.itch"), [&] {
    bytes framed;
    for (const auto& m : first) {
      framed.push_back(static_cast<std::byte>(m.size() >> 8));
      framed.push_back(static_cast<std::byte>(m.size() & 0xff));
      framed.insert(framed.end(), m.begin(), m.end());
    }
    return framed;
  }());
  const outcome first_ref = run("itch5inside -q first.itch");
  ASSERT_EQ(first_ref.status, 0);

  outcome o = run("itch5inside two.pcap --port " + std::to_string(port));
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == reference_->out);
  EXPECT_NE(o.err.find(std::to_string(a.size() + b.size()) + " packets read, " + std::to_string(b.size()) +
                       " skipped"),
            std::string::npos)
      << o.err;
  for (const std::string args :
       {"--port 26478", "--filter 'udp dst port 26478'", "--filter udp --port 26478"}) {
    o = run("itch5inside -q two.pcap " + args);
    EXPECT_EQ(o.status, 0) << args << ": " << o.err;
    EXPECT_TRUE(o.out == first_ref.out) << args;
  }
  // A filter that matches nothing: one line saying so, for either program (not "corrupt capture").
  const std::string none =
      "two.pcap: no packet of the capture matches the filter (--filter/--port: "
      "'(udp dst port 9 or (vlan and udp dst port 9))'): " +
      std::to_string(a.size() + b.size()) + " packets read, none matched\n";
  o = run("itch5cat --counts two.pcap --port 9");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, "itch5cat: error: " + none);
  o = run("itch5inside two.pcap --port 9 -o lines.txt");
  EXPECT_EQ(o.status, 1);
  EXPECT_EQ(o.err, "itch5inside: error: " + none);
  o = run("itch5inside two.pcap --filter 'udp dst prot 1'");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(o.err.find("itch5inside: error: two.pcap: --filter 'udp dst prot 1': "), std::string::npos)
      << o.err;
  o = run("itch5inside day.itch --port 26477");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(
      o.err.find("itch5inside: error: day.itch: --filter, --port and --timestamp capture apply to a pcap or "
                 "pcapng capture"),
      std::string::npos)
      << o.err;
}

TEST_F(capture_tools, itch5synth_pcap_is_read_as_its_binaryfile) {
  // The same settings as the suite's day.itch: the same messages.
  outcome o = run("itch5synth --messages 20k -o same.itch --pcap synth.pcap.gz");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("  capture: 20,000 messages in "), std::string::npos) << o.err;
  ASSERT_EQ(messages_->size(), 20000u);
  EXPECT_EQ(itch5_test::read_file(file("same.itch")), itch5_test::read_file(file("day.itch")));
  o = run("itch5inside synth.pcap.gz");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == reference_->out);
  EXPECT_NE(o.err.find("0 skipped, 0 duplicates, 0 gaps (0 messages missing), 0 heartbeats, end of session"),
            std::string::npos)
      << o.err;

  // Small packets, every one twice: the same lines.
  o = run("itch5synth -q --messages 20k -o same.itch --pcap ab.pcap --pcap-payload 200 --pcap-duplicates 1");
  ASSERT_EQ(o.status, 0) << o.err;
  o = run("itch5inside -q ab.pcap");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == reference_->out);

  // Late packets (after the one that follows them): put back in order, the same lines; without a reorder
  // window they are gaps, then dropped as already passed.
  o = run("itch5synth --messages 20k -o same.itch --pcap late.pcap --pcap-reorder 0.2");
  ASSERT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(o.err.find(" 0 late\n"), std::string::npos) << o.err;
  o = run("itch5inside late.pcap");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_TRUE(o.out == reference_->out);
  EXPECT_NE(o.err.find(" 0 gaps (0 messages missing), "), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find(" 0 late packets put back in order"), std::string::npos) << o.err;
  o = run("itch5inside -q late.pcap --reorder-window 0");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("itch5inside: warning: late.pcap: gap: sequence numbers "), std::string::npos)
      << o.err;
  EXPECT_FALSE(o.out == reference_->out);

  // Lost packets: gap lines, the run goes on.
  o = run("itch5synth -q --messages 20k -o same.itch --pcap lossy.pcap --pcap-loss 0.01");
  ASSERT_EQ(o.status, 0) << o.err;
  o = run("itch5inside lossy.pcap");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("itch5inside: warning: lossy.pcap: gap: sequence numbers "), std::string::npos)
      << o.err;
  EXPECT_EQ(o.err.find(" 0 gaps"), std::string::npos) << o.err;
}

// Each line's timestamp (the first field) plus `delta`, the rest unchanged.
std::string shifted(const std::string& lines, std::int64_t delta) {
  std::string out;
  std::size_t at = 0;
  while (at < lines.size()) {
    const std::size_t end = lines.find('\n', at);
    const std::size_t space = lines.find(' ', at);
    out += std::to_string(std::stoll(lines.substr(at, space - at)) + delta);
    out.append(lines, space, end + 1 - space);
    at = end + 1;
  }
  return out;
}

TEST_F(capture_tools, timestamp_capture_gives_arrival_times_in_new_york_time) {
  // One message per packet, each arriving 37 us after its exchange timestamp, on 2019-07-15 (EDT, UTC-4).
  constexpr std::uint64_t delay = 37'000;
  write_delayed_capture("arrival.pcap", delay);
  const std::string expected = shifted(reference_->out, delay);
  for (const std::string zone : {"", " --time-zone America/New_York", " --time-zone -04:00"}) {
    const outcome o = run("itch5inside -q --timestamp capture arrival.pcap" + zone);
    EXPECT_EQ(o.status, 0) << zone << ": " << o.err;
    EXPECT_TRUE(o.out == expected) << zone << ": the lines are not the exchange's + 37 us";
  }
  outcome o = run("itch5inside -q arrival.pcap --timestamp exchange");
  EXPECT_TRUE(o.out == reference_->out);
  o = run("itch5inside -q --timestamp capture arrival.pcap --time-zone UTC");
  EXPECT_TRUE(o.out == shifted(reference_->out, delay + 4 * 3600 * 1'000'000'000ull));

  o = run("itch5inside --timestamp capture day.itch");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(
      o.err.find("day.itch: --filter, --port and --timestamp capture apply to a pcap or pcapng capture"),
      std::string::npos)
      << o.err;
  o = run("itch5cat --timestamp capture --time-zone Mars/Olympus_Mons arrival.pcap");
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(
      o.err.find("itch5cat: error: --time-zone: time zone 'Mars/Olympus_Mons' is not in the tz database"),
      std::string::npos)
      << o.err;
  // Any zone of the system's tz database: Europe/London is UTC+1 in July (the capture's summer day is in
  // July: New York's -4 h plus London's +1 h, added to the exchange's time). The sample's day runs to
  // 20:00 New York time, past London's midnight: the arrival times go on past 24 h rather than starting
  // again at 0 (before they did, and the evening's lines came out in the early morning).
  if (std::filesystem::exists("/usr/share/zoneinfo/Europe/London")) {
    o = run("itch5inside -q --timestamp capture arrival.pcap --time-zone Europe/London");
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(o.out == shifted(reference_->out, delay + 5 * 3600 * 1'000'000'000ull));
  }
  // America/Los_Angeles is UTC-7 in July: 3 h behind New York.
  if (std::filesystem::exists("/usr/share/zoneinfo/America/Los_Angeles")) {
    o = run("itch5inside -q --timestamp capture arrival.pcap --time-zone America/Los_Angeles");
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_TRUE(o.out ==
                shifted(reference_->out, static_cast<std::int64_t>(delay) - 3 * 3600 * 1'000'000'000ll));
  }
}

// The fields of each CSV line.
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = text.find('\n', at);
    std::vector<std::string> row;
    std::size_t f = at;
    while (true) {
      const std::size_t comma = text.find(',', f);
      if (comma == std::string::npos || comma > end) {
        row.push_back(text.substr(f, end - f));
        break;
      }
      row.push_back(text.substr(f, comma - f));
      f = comma + 1;
    }
    rows.push_back(std::move(row));
    at = end + 1;
  }
  return rows;
}

TEST_F(capture_tools, stats_of_a_capture_have_feed_latency_columns) {
  // One message per packet, each arriving exactly 37 us after its exchange timestamp (2019-07-15, EDT).
  constexpr std::uint64_t delay = 37'000;
  write_delayed_capture("latency.pcap", delay);

  // Every quantile of a histogram of 37,000s, as the statistics report them (exact min and max, the
  // bucket's midpoint in between).
  itch5::stats::log_linear_histogram h;
  h.record(delay);
  const std::vector<std::string> names = {"min", "p25", "p50", "p75", "p90", "p99", "p999", "max"};
  const std::vector<double> qs = {0.0, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0};
  std::vector<std::string> expected;
  for (double q : qs) {
    const std::uint64_t v = h.quantile(q);
    EXPECT_GE(v, 37'000u * 992 / 1000);
    EXPECT_LE(v, 37'000u * 1008 / 1000);
    expected.push_back(std::to_string(v));
  }

  // BinaryFILE: no Latency columns.
  outcome o = run("itch5inside -q day.itch -o /dev/null --stats day.csv");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto day = csv_rows(itch5_test::read_text(file("day.csv")));
  ASSERT_GT(day.size(), 3u);
  EXPECT_EQ(itch5_test::read_text(file("day.csv")).find("Latency"), std::string::npos);

  for (const std::string flags : {"", " --timestamp capture", " --stats-events all", " --histograms h.bin"}) {
    o = run("itch5inside -q latency.pcap -o /dev/null --stats cap.csv" + flags);
    ASSERT_EQ(o.status, 0) << flags << ": " << o.err;
    const auto cap = csv_rows(itch5_test::read_text(file("cap.csv")));
    ASSERT_GT(cap.size(), 3u) << flags;
    const std::size_t base = day[0].size();
    ASSERT_EQ(cap[0].size(), base + names.size()) << flags;
    for (std::size_t k = 0; k < names.size(); ++k) EXPECT_EQ(cap[0][base + k], names[k] + "Latency");
    if (flags.empty()) {
      ASSERT_EQ(cap.size(), day.size());
    }
    for (const auto& row : cap) {
      ASSERT_EQ(row.size(), cap[0].size()) << flags;
      if (&row == &cap[0]) continue;
      if (flags.empty()) {
        // Every other column but the processing times is the BinaryFILE's (same samples, same times).
        const auto& d = day[static_cast<std::size_t>(&row - &cap[0])];
        EXPECT_EQ(row[0], d[0]);
        EXPECT_EQ(row[1], d[1]);
      }
      for (std::size_t k = 0; k < names.size(); ++k) {
        EXPECT_EQ(row[base + k], expected[k]) << flags << ": " << row[0] << " " << names[k] << "Latency";
      }
    }
    EXPECT_EQ(cap.back()[0], "__aggregate__");
  }
}

// itch5synth's packets span at most 1 us of feed time and leave after their last message: every message's
// feed latency lies in [--pcap-latency, --pcap-latency + 1 us] (histogram precision aside).
TEST_F(capture_tools, itch5synth_pcap_latency_is_the_feed_latency_of_every_message) {
  outcome o = run("itch5synth -q --messages 20k -o same.itch --pcap far.pcap --pcap-latency 37us");
  ASSERT_EQ(o.status, 0) << o.err;
  o = run("itch5inside -q far.pcap -o /dev/null --stats far.csv --stats-events all");
  ASSERT_EQ(o.status, 0) << o.err;
  const auto rows = csv_rows(itch5_test::read_text(file("far.csv")));
  ASSERT_GT(rows.size(), 3u);
  const std::size_t first = rows[0].size() - 8;
  ASSERT_EQ(rows[0][first], "minLatency");
  for (std::size_t r = 1; r < rows.size(); ++r) {
    for (std::size_t k = first; k < rows[r].size(); ++k) {
      const std::uint64_t v = std::stoull(rows[r][k]);
      EXPECT_GE(v, 37'000u) << rows[r][0] << " " << rows[0][k];
      EXPECT_LE(v, 38'000u * 1008 / 1000) << rows[r][0] << " " << rows[0][k];
    }
  }
}

TEST_F(capture_tools, two_capture_points_37us_apart_give_itch5tde_37us) {
  // What capture input is for: one feed captured at two points, the second 37 us further from the exchange.
  // A compressed day (--mean-gap: 3 s of trading), dense enough for itch5tde's windows; spread over a whole
  // day's shape, 20k messages leave them nearly all empty.
  outcome o = run("itch5synth -q --messages 20k --mean-gap 150us -o same.itch --pcap near.pcap");
  ASSERT_EQ(o.status, 0) << o.err;
  o = run("itch5synth -q --messages 20k --mean-gap 150us -o same.itch --pcap far.pcap --pcap-latency 37us");
  ASSERT_EQ(o.status, 0) << o.err;
  const outcome near = run("itch5inside -q --timestamp capture near.pcap -o near.txt");
  ASSERT_EQ(near.status, 0) << near.err;
  const outcome far = run("itch5inside -q --timestamp capture far.pcap -o far.txt");
  ASSERT_EQ(far.status, 0) << far.err;
  const std::string near_lines = itch5_test::read_text(file("near.txt"));
  const outcome same = run("itch5inside -q same.itch");  // this compressed day's own lines
  ASSERT_EQ(same.status, 0) << same.err;
  ASSERT_EQ(near_lines.size(), same.out.size());
  EXPECT_TRUE(shifted(near_lines, 37'000) == itch5_test::read_text(file("far.txt")));
  o = run("itch5tde near.txt far.txt -o tde.csv");
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("delay (B lags A if > 0), rho-weighted: median 37.000 us"), std::string::npos)
      << o.err;
}

// Each bad capture: exit 1, the error as the last line, the complete lines before it in FILE.partial.
struct bad_case {
  std::string name;
  std::function<bytes(const std::vector<itch5_test::mold_stream_packet>&)> make;
  std::string expected;  // in the error line
};

TEST_F(capture_tools, bad_captures_exit_1_with_the_packet_and_offset_and_keep_the_lines) {
  const auto packets = mold_packets(*messages_, 32);
  constexpr std::size_t at = 300;        // the bad packet (0-based)
  auto offset_of = [&](std::size_t k) {  // byte offset of record k in pcap(packets)
    std::uint64_t off = 24;
    for (std::size_t i = 0; i < k; ++i) off += 16 + 42 + packets[i].payload.size();
    return off;
  };
  const std::string pkt = "packet #" + std::to_string(at + 1) + " at byte offset ";
  const std::vector<bad_case> cases = {
      {"truncated record",
       [&](const auto& p) {
         bytes b = pcap({p.begin(), p.begin() + at + 1});
         b.erase(b.end() - 10, b.end());
         return b;
       },
       pkt + std::to_string(offset_of(at)) + ": truncated or corrupt capture record: truncated dump file"},
      {"caplen < len",
       [&](const auto& p) {
         itch5_test::pcap_file f;
         for (std::size_t i = 0; i < p.size(); ++i) {
           const bytes frame = udp_frame(p[i].payload, port);
           f.add(frame, 1'700'000'000'000'000'000ull,
                 static_cast<std::uint32_t>(frame.size() + (i == at ? 60 : 0)));
         }
         return f.data;
       },
       pkt + std::to_string(offset_of(at) + 16) + ": captured "},
      {"Mold count overrun",
       [&](const auto& p) {
         auto q = p;
         q[at].payload[19] = static_cast<std::byte>(static_cast<unsigned>(q[at].payload[19]) + 1);
         return pcap(q);
       },
       pkt + std::to_string(offset_of(at) + 16 + 42 + packets[at].payload.size()) +
           ": MoldUDP64 message count "},
      {"Mold length overrun",
       [&](const auto& p) {
         auto q = p;
         q[at].payload[20] = std::byte{0x05};  // first message's length + 0x500
         return pcap(q);
       },
       pkt + std::to_string(offset_of(at) + 16 + 42 + 20) + ": MoldUDP64 message 1 of length "},
  };
  for (const auto& c : cases) {
    itch5_test::write_file(file("bad.pcap"), c.make(packets));
    std::filesystem::remove(file("lines.txt.partial"));
    const outcome o = run("itch5inside bad.pcap -o lines.txt");
    EXPECT_EQ(o.status, 1) << c.name << ": " << o.err;
    const std::string last = o.err.substr(o.err.rfind('\n', o.err.size() - 2) + 1);
    EXPECT_EQ(last.rfind("itch5inside: error: bad.pcap: corrupt capture: " + c.expected, 0), 0u)
        << c.name << ": " << last;
    ASSERT_TRUE(std::filesystem::exists(file("lines.txt.partial"))) << c.name;
    const std::string kept = itch5_test::read_text(file("lines.txt.partial"));
    EXPECT_GT(kept.size(), 0u) << c.name;
    EXPECT_EQ(reference_->out.compare(0, kept.size(), kept), 0)
        << c.name << ": the kept lines are not a prefix";
    EXPECT_EQ(kept.back(), '\n') << c.name;
    EXPECT_FALSE(std::filesystem::exists(file("lines.txt"))) << c.name;
  }
  // A well-formed packet whose ITCH message is too short for its type: the reader's framing error, whose byte
  // offset is in the decoded message stream, says so.
  {
    std::vector<bytes> m(messages_->begin(), messages_->begin() + 10);
    m.push_back(
        bytes{std::byte{'A'}, std::byte{0}, std::byte{1}, std::byte{0}, std::byte{0}});  // 'A' needs 36
    itch5_test::pcap_file g;
    for (const auto& p : mold_packets(m, 4)) g.add(udp_frame(p.payload, port));
    itch5_test::write_file(file("short.pcap"), g.data);
    const outcome o = run("itch5inside short.pcap -o lines.txt");
    EXPECT_EQ(o.status, 1) << o.err;
    EXPECT_NE(
        o.err.find(
            "corrupt message (shorter than its type's fixed size): type 'A' (0x41) needs 36 bytes, "
            "length prefix says 5 (the byte offset is in the BinaryFILE stream of the capture's MoldUDP64 "
            "messages)\n"),
        std::string::npos)
        << o.err;
  }
  // An unknown link type: nothing can be read.
  itch5_test::pcap_file f(false, false, 147);
  f.add(udp_frame(packets[0].payload, port));
  itch5_test::write_file(file("bad.pcap"), f.data);
  const outcome o = run("itch5cat bad.pcap");
  EXPECT_EQ(o.status, 1);
  EXPECT_NE(
      o.err.find(
          "itch5cat: error: bad.pcap: capture header at byte offset 20 (before packet #1): unknown link "
          "type 147"),
      std::string::npos)
      << o.err;
}

}  // namespace
