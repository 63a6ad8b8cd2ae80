// Capture input: pcap (microsecond and nanosecond, both byte orders), pcapng and gzip-wrapped
// captures of MoldUDP64 packets read back as the BinaryFILE frames of the messages they carry, in sequence
// order, once: A/B duplicates and overlaps dropped, late packets reordered, gaps reported by range, other
// traffic skipped and counted, and every bad-capture case an error naming the packet and the byte offset,
// after the messages before it. Captures are written by hand (itch5_test/capture_writer.hpp).
#include <gtest/gtest.h>

#include <filesystem>

#include <string>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/io/capture_writer.hpp>
#include <itch5/message_reader.hpp>
#include <itch5_test/capture_writer.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::bytes;
using itch5_test::mold_packets;
using itch5_test::udp_frame;

constexpr std::uint16_t port = 26477;

// The messages of the real sample (1000 messages).
const std::vector<bytes>& sample_messages() {
  static const std::vector<bytes> m = itch5_test::binaryfile_messages(
      itch5_test::read_file(itch5_test::data_path("real-2019-first1000.itch")));
  return m;
}

struct result {
  std::vector<bytes> frames;
  itch5::read_status status;
  itch5::read_error error;
  std::vector<std::string> reports;
};

result read_capture(const bytes& capture, itch5::io::capture_stats* stats = nullptr, std::string filter = "",
                    std::size_t window = 32) {
  result r;
  itch5::io::capture_options o;
  o.filter = std::move(filter);
  o.stats = stats;
  o.reorder_window = window;
  o.report = [&r](const std::string& line) { r.reports.push_back(line); };
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(capture, o), {1 << 16, false, 3}));
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) r.frames.emplace_back(msg.begin(), msg.end());
  r.status = reader.status();
  r.error = reader.error();
  return r;
}

bytes pcap_of(const std::vector<itch5_test::mold_stream_packet>& packets, bool nano = false, bool big = false,
              bool vlan = false) {
  itch5_test::pcap_file f(nano, big);
  for (const auto& p : packets) f.add(udp_frame(p.payload, port, vlan));
  return f.data;
}

TEST(capture, magic_numbers) {
  for (std::uint32_t m : {0xa1b2c3d4u, 0xd4c3b2a1u, 0xa1b23c4du, 0x4d3cb2a1u, 0x0a0d0d0au}) {
    bytes b(4);
    std::memcpy(b.data(), &m, 4);
    EXPECT_TRUE(itch5::io::looks_like_capture(b)) << std::hex << m;
  }
  EXPECT_FALSE(itch5::io::looks_like_capture(itch5_test::to_bytes(std::string("\x00\x0c\x53\x00", 4))));
  EXPECT_FALSE(itch5::io::looks_like_capture(itch5_test::to_bytes("\xa1\xb2")));
}

TEST(capture, every_file_format_gives_the_messages) {
  const auto packets = mold_packets(sample_messages(), 10);
  itch5_test::pcapng_file ng;
  for (const auto& p : packets) ng.add(udp_frame(p.payload, port));
  const std::vector<std::pair<std::string, bytes>> files = {
      {"pcap us little-endian", pcap_of(packets)},
      {"pcap us big-endian", pcap_of(packets, false, true)},
      {"pcap ns little-endian", pcap_of(packets, true)},
      {"pcap ns big-endian", pcap_of(packets, true, true)},
      {"pcap VLAN", pcap_of(packets, false, false, true)},
      {"pcapng", ng.data},
      {"pcap in gzip", itch5_test::gzip(pcap_of(packets))},
      {"pcapng in gzip", itch5_test::gzip(ng.data)},
  };
  for (const auto& [name, file] : files) {
    itch5::io::capture_stats stats;
    const result r = read_capture(file, &stats);
    EXPECT_EQ(r.status, itch5::read_status::end_of_input) << name << ": " << r.error.describe(name);
    EXPECT_EQ(r.frames, sample_messages()) << name;
    EXPECT_TRUE(stats.is_capture) << name;
    EXPECT_EQ(stats.packets, packets.size()) << name;
    EXPECT_EQ(stats.messages, sample_messages().size()) << name;
    EXPECT_EQ(stats.gaps + stats.duplicates + stats.skipped, 0u) << name;
    EXPECT_TRUE(r.reports.empty()) << name;
  }
}

TEST(capture, ab_feeds_and_overlaps_are_read_once) {
  const auto packets = mold_packets(sample_messages(), 7);
  itch5_test::pcap_file f;
  for (const auto& p : packets) {
    f.add(udp_frame(p.payload, port));
    f.add(udp_frame(p.payload, port, true));  // the B feed, another VLAN
  }
  // A retransmission overlapping two packets: messages 5..14 again.
  const auto& m = sample_messages();
  f.add(udp_frame(itch5_test::mold_packet("SESSION001", 5, {m.begin() + 4, m.begin() + 14}), port));
  itch5::io::capture_stats stats;
  const result r = read_capture(f.data, &stats);
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  EXPECT_EQ(r.frames, m);
  EXPECT_EQ(stats.duplicates, packets.size() + 1);
  EXPECT_EQ(stats.gaps, 0u);
  EXPECT_NE(stats.describe().find(std::to_string(packets.size() + 1) + " duplicates"), std::string::npos)
      << stats.describe();
}

TEST(capture, a_partly_new_packet_hands_on_only_its_new_messages) {
  const auto& m = sample_messages();
  itch5_test::pcap_file f;
  f.add(udp_frame(itch5_test::mold_packet("S", 1, {m.begin(), m.begin() + 10}), port));
  f.add(udp_frame(itch5_test::mold_packet("S", 6, {m.begin() + 5, m.begin() + 20}),
                  port));  // 6..20, 11..20 new
  const result r = read_capture(f.data);
  EXPECT_EQ(r.frames, (std::vector<bytes>(m.begin(), m.begin() + 20)));
}

TEST(capture, a_lost_packet_is_a_gap_named_by_its_range_and_reading_goes_on) {
  auto packets = mold_packets(sample_messages(), 10, 1001);
  const auto lost = packets[3];  // sequence numbers 1031..1040
  packets.erase(packets.begin() + 3);
  itch5::io::capture_stats stats;
  const result r = read_capture(pcap_of(packets), &stats);
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  std::vector<bytes> expected = sample_messages();
  expected.erase(expected.begin() + 30, expected.begin() + 40);
  EXPECT_EQ(r.frames, expected);
  EXPECT_EQ(stats.gaps, 1u);
  EXPECT_EQ(stats.missing, 10u);
  ASSERT_EQ(r.reports.size(), 1u);
  EXPECT_EQ(r.reports[0], "gap: sequence numbers 1031-1040 (10 messages) missing before packet #4");
  (void)lost;
}

TEST(capture, late_packets_are_put_back_in_order_within_the_window) {
  auto packets = mold_packets(sample_messages(), 10);
  std::swap(packets[2], packets[5]);  // 3 packets late
  itch5::io::capture_stats stats;
  result r = read_capture(pcap_of(packets), &stats);
  EXPECT_EQ(r.frames, sample_messages());
  EXPECT_EQ(stats.gaps, 0u);
  EXPECT_EQ(stats.reordered, 1u);
  EXPECT_NE(stats.describe().find("1 late packets put back in order"), std::string::npos) << stats.describe();
  EXPECT_TRUE(r.reports.empty());

  // Without a window, the first early packet makes a gap at once and the late ones are then too late, but
  // not duplicates: their messages were never seen.
  itch5::io::capture_stats none;
  r = read_capture(pcap_of(packets), &none, "", 0);
  // 1-10, 11-20, then 51-60 arrives: 21-50 are given up at once; 31-40, 41-50 and 21-30 then come too late.
  EXPECT_EQ(none.gaps, 1u);
  EXPECT_EQ(none.missing, 30u);
  EXPECT_EQ(none.too_late, 3u);
  EXPECT_EQ(none.duplicates, 0u);
  EXPECT_EQ(r.frames.size(), sample_messages().size() - 30);
  EXPECT_NE(
      none.describe().find("0 duplicates, 1 gaps (30 messages missing), 3 packets too late (after their "
                           "gap was reported)"),
      std::string::npos)
      << none.describe();
}

// A late packet (its range reported as a gap) seen twice, and one overlapping the gap's end: the first copy
// is too late, the second a duplicate; a packet that is partly in the gap and partly handed on before is
// too late.
TEST(capture, a_late_packet_seen_twice_is_late_once_then_a_duplicate) {
  auto packets = mold_packets(sample_messages(), 10);
  // 1-10, then 21-30 (11-20 a gap at once with no window), 11-20 late, 11-20 again, 1-10 again.
  std::vector<itch5_test::mold_stream_packet> order{packets[0], packets[2], packets[1], packets[1],
                                                    packets[0]};
  itch5::io::capture_stats stats;
  const result r = read_capture(pcap_of(order), &stats, "", 0);
  EXPECT_EQ(stats.gaps, 1u);
  EXPECT_EQ(stats.too_late, 1u);
  EXPECT_EQ(stats.duplicates, 2u);
  // A packet of 5-14 after the gap 11-20: late (11-14 were reported missing), the rest 15-20 still missing.
  const auto& m = sample_messages();
  itch5_test::pcap_file f;
  for (const auto& p : {packets[0], packets[2]}) f.add(udp_frame(p.payload, port));
  f.add(udp_frame(itch5_test::mold_packet("SESSION001", 5, {m.begin() + 4, m.begin() + 14}), port));
  f.add(udp_frame(itch5_test::mold_packet("SESSION001", 15, {m.begin() + 14, m.begin() + 20}), port));
  f.add(udp_frame(itch5_test::mold_packet("SESSION001", 15, {m.begin() + 14, m.begin() + 20}), port));
  itch5::io::capture_stats overlap;
  (void)read_capture(f.data, &overlap, "", 0);
  EXPECT_EQ(overlap.too_late, 2u);
  EXPECT_EQ(overlap.duplicates, 1u);
}

TEST(capture, heartbeats_end_of_session_and_other_traffic) {
  const auto& m = sample_messages();
  itch5_test::pcap_file f;
  f.add(udp_frame(itch5_test::mold_packet("S", 1, {m.begin(), m.begin() + 5}), port));
  f.add(udp_frame(itch5_test::mold_packet("S", 6, {}), port));  // heartbeat
  f.add(udp_frame(itch5_test::mold_packet("S", 6, {m.begin() + 5, m.begin() + 10}), port, false, 6));  // TCP
  f.add(udp_frame(itch5_test::mold_packet("S", 6, {m.begin() + 5, m.begin() + 10}), 9999));  // other port
  f.add(udp_frame(itch5_test::mold_packet("OTHER", 6, {m.begin() + 5, m.begin() + 10}),
                  port));  // other session
  f.add(udp_frame(itch5_test::mold_packet("S", 6, {m.begin() + 5, m.begin() + 10}), port));
  f.add(udp_frame(itch5_test::mold_packet("S", 11, {}, 0xffff), port));  // end of session
  itch5::io::capture_stats stats;
  result r = read_capture(f.data, &stats, "udp dst port " + std::to_string(port));
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  EXPECT_EQ(r.frames, (std::vector<bytes>(m.begin(), m.begin() + 10)));
  EXPECT_EQ(stats.packets, 7u);
  EXPECT_EQ(stats.skipped, 3u);  // TCP, other port (filter), other session
  EXPECT_EQ(stats.heartbeats, 1u);
  EXPECT_EQ(stats.end_of_session, 1u);
  EXPECT_EQ(stats.gaps, 0u);

  // A heartbeat ahead of the messages seen reveals a gap.
  itch5_test::pcap_file g;
  g.add(udp_frame(itch5_test::mold_packet("S", 1, {m.begin(), m.begin() + 5}), port));
  g.add(udp_frame(itch5_test::mold_packet("S", 9, {}), port));
  r = read_capture(g.data);
  ASSERT_EQ(r.reports.size(), 1u);
  EXPECT_EQ(r.reports[0], "gap: sequence numbers 6-8 (3 messages) missing before packet #2");
}

// ---- bad captures ---------------------------------------------------------------------------------------

void expect_capture_error(const bytes& capture, const std::string& needle, std::size_t frames_before,
                          std::uint64_t offset) {
  const result r = read_capture(capture);
  ASSERT_EQ(r.status, itch5::read_status::error) << needle;
  EXPECT_EQ(r.error.code, itch5::read_errc::corrupt_capture) << r.error.describe("x");
  EXPECT_NE(r.error.describe("cap.pcap").find(needle), std::string::npos) << r.error.describe("cap.pcap");
  EXPECT_EQ(r.error.offset, offset) << r.error.describe("cap.pcap");
  EXPECT_EQ(r.frames.size(), frames_before) << needle;
}

TEST(capture, truncated_record) {
  const auto packets = mold_packets(sample_messages(), 10);
  bytes cap = pcap_of({packets.begin(), packets.begin() + 3});
  const std::uint64_t third =
      24 + (16 + 42 + packets[0].payload.size()) + (16 + 42 + packets[1].payload.size());
  cap.erase(cap.end() - 7, cap.end());  // not resize(size() - 7): GCC 12 -O1 -fsanitize warns on it
  expect_capture_error(cap,
                       "cap.pcap: corrupt capture: packet #3 at byte offset " + std::to_string(third) +
                           ": truncated or corrupt capture record: truncated dump file",
                       20, third);
  // A header cut short.
  bytes cap2 = pcap_of({packets.begin(), packets.begin() + 2});
  cap2.resize(cap2.size() + 5, std::byte{0});
  expect_capture_error(cap2, "packet #3 at byte offset " + std::to_string(third), 20, third);
}

TEST(capture, snap_length_shorter_than_the_packet) {
  const auto packets = mold_packets(sample_messages(), 10);
  itch5_test::pcap_file f;
  f.add(udp_frame(packets[0].payload, port));
  f.add(udp_frame(packets[1].payload, port), 1'700'000'000'000'000'000ull,
        static_cast<std::uint32_t>(udp_frame(packets[1].payload, port).size() + 100));
  const std::uint64_t second = 24 + 16 + 42 + packets[0].payload.size();
  expect_capture_error(f.data, "packet #2 at byte offset " + std::to_string(second + 16) + ": captured ", 10,
                       second + 16);
  expect_capture_error(f.data, "snap length", 10, second + 16);
}

TEST(capture, mold_count_or_length_overrunning_the_datagram) {
  const auto& m = sample_messages();
  {
    itch5_test::pcap_file f;
    f.add(udp_frame(itch5_test::mold_packet("S", 1, {m.begin(), m.begin() + 3}), port));
    f.add(udp_frame(itch5_test::mold_packet("S", 4, {m.begin() + 3, m.begin() + 6}, 4),
                    port));  // count 4, 3 blocks
    const auto p1 = itch5_test::mold_packet("S", 1, {m.begin(), m.begin() + 3});
    const auto p2 = itch5_test::mold_packet("S", 4, {m.begin() + 3, m.begin() + 6});
    const std::uint64_t end_of_p2 = 24 + 16 + 42 + p1.size() + 16 + 42 + p2.size();
    expect_capture_error(f.data,
                         "packet #2 at byte offset " + std::to_string(end_of_p2) +
                             ": MoldUDP64 message count 4 overruns the " +
                             std::to_string(p2.size() - 20 + 20) + "-byte datagram",
                         3, end_of_p2);
  }
  {
    auto p = itch5_test::mold_packet("S", 1, {m.begin(), m.begin() + 3});
    p[20 + 2 + m[0].size()] = std::byte{0x7f};  // second message's length: 0x7fxx
    itch5_test::pcap_file f;
    f.add(udp_frame(p, port));
    const std::uint64_t at = 24 + 16 + 42 + 20 + 2 + m[0].size();
    expect_capture_error(
        f.data, "packet #1 at byte offset " + std::to_string(at) + ": MoldUDP64 message 2 of length ", 0, at);
  }
}

TEST(capture, unknown_link_type_and_bad_filter) {
  itch5_test::pcap_file f(false, false, 147);  // LINKTYPE_USER0
  f.add(udp_frame(mold_packets(sample_messages(), 10)[0].payload, port));
  try {
    (void)itch5::io::memory_input(f.data);
    FAIL() << "no error";
  } catch (const itch5::io::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("byte offset 20 (before packet #1): unknown link type 147"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.offset(), 20u);
  }
  itch5::io::capture_options o;
  o.filter = "udp dst port banana";
  try {
    (void)itch5::io::memory_input(pcap_of(mold_packets(sample_messages(), 10)), o);
    FAIL() << "no error";
  } catch (const itch5::io::capture_error& e) {
    EXPECT_NE(std::string(e.what()).find("--filter 'udp dst port banana': "), std::string::npos) << e.what();
  }
}

TEST(capture, a_capture_without_mold_messages_says_so) {
  itch5_test::pcap_file f;
  f.add(udp_frame(itch5_test::mold_packet("S", 1, {}), port));
  const result r = read_capture(f.data);
  ASSERT_EQ(r.status, itch5::read_status::error);
  EXPECT_NE(r.error.describe("x").find("no MoldUDP64 message in the capture: 1 packets read"),
            std::string::npos)
      << r.error.describe("x");
}

// A sound capture whose packets the filter all excludes is not corrupt: it says that nothing matched.
TEST(capture, a_filter_that_matches_nothing_says_so) {
  itch5_test::pcap_file f;
  f.add(udp_frame(itch5_test::mold_packet("S", 1, {}), port));
  f.add(udp_frame(itch5_test::mold_packet("S", 1, {}), port));
  const result r = read_capture(f.data, nullptr, "udp port 9");
  ASSERT_EQ(r.status, itch5::read_status::error);
  EXPECT_EQ(r.error.code, itch5::read_errc::empty_capture);
  EXPECT_EQ(r.error.describe("x"),
            "x: no packet of the capture matches the filter (--filter/--port: 'udp port 9'): 2 packets read, "
            "none matched");
}

}  // namespace

// ---- the writer (itch5synth --pcap) ---------------------------------------------------------------------

namespace capture_writer_tests {

bytes framed(const std::vector<bytes>& messages) {
  bytes out;
  for (const auto& m : messages) {
    out.push_back(static_cast<std::byte>(m.size() >> 8));
    out.push_back(static_cast<std::byte>(m.size() & 0xff));
    out.insert(out.end(), m.begin(), m.end());
  }
  return out;
}

bytes write_capture(const bytes& binaryfile, itch5::io::capture_writer_options o, std::size_t chunk,
                    itch5::io::capture_writer_stats* stats = nullptr) {
  bytes out;
  itch5::io::capture_writer w(
      [&](std::string_view b) {
        const auto* p = reinterpret_cast<const std::byte*>(b.data());
        out.insert(out.end(), p, p + b.size());
      },
      o);
  for (std::size_t at = 0; at < binaryfile.size(); at += chunk) {
    w.write(std::span<const std::byte>(binaryfile).subspan(at, std::min(chunk, binaryfile.size() - at)));
  }
  w.finish();
  if (stats != nullptr) *stats = w.stats();
  return out;
}

TEST(capture_writer, round_trip_in_any_chunking_and_packet_size) {
  const bytes file = framed(sample_messages());
  itch5::io::capture_writer_options o;
  const bytes whole = write_capture(file, o, file.size());
  EXPECT_EQ(write_capture(file, o, 1), whole);
  EXPECT_EQ(write_capture(file, o, 7), whole);
  for (std::size_t payload : {86u, 300u, 1400u, 9000u}) {
    o.max_payload = payload;
    itch5::io::capture_writer_stats ws;
    const bytes cap = write_capture(file, o, 4096, &ws);
    itch5::io::capture_stats rs;
    const result r = read_capture(cap, &rs);
    EXPECT_EQ(r.status, itch5::read_status::end_of_input) << payload;
    EXPECT_EQ(r.frames, sample_messages()) << payload;
    EXPECT_EQ(rs.packets, ws.packets) << payload;
    EXPECT_EQ(rs.end_of_session, 1u) << payload;
    EXPECT_EQ(ws.messages, sample_messages().size());
  }
}

TEST(capture_writer, loss_and_duplicates_are_seen_by_the_reader) {
  const bytes file = framed(sample_messages());
  itch5::io::capture_writer_options o;
  o.max_payload = 200;  // a few messages per packet
  o.loss = 0.1;
  o.duplicates = 0.3;
  o.seed = 5;
  itch5::io::capture_writer_stats ws;
  const bytes cap = write_capture(file, o, file.size(), &ws);
  EXPECT_GT(ws.lost, 0u);
  EXPECT_GT(ws.duplicated, 0u);
  itch5::io::capture_stats rs;
  const result r = read_capture(cap, &rs);
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  EXPECT_EQ(rs.duplicates, ws.duplicated);
  EXPECT_EQ(r.frames.size() + rs.missing, sample_messages().size()) << rs.describe();
  EXPECT_GT(rs.gaps, 0u);
  EXPECT_EQ(r.reports.size(), rs.gaps.load());
  // Same settings, same bytes.
  EXPECT_EQ(write_capture(file, o, 100), cap);
}

// The records are gathered and handed over in large pieces: itch5synth --pcap made two write() calls per
// packet (386,709 for a 200k-message day). One message per packet here (86-byte payloads): ~1,000 packets.
TEST(capture_writer, hands_the_sink_large_pieces_not_two_per_packet) {
  const bytes file = framed(sample_messages());
  for (const std::size_t buffer : {std::size_t{4096}, std::size_t{1} << 20}) {
    itch5::io::capture_writer_options o;
    o.max_payload = 86;
    o.output_buffer = buffer;
    std::size_t calls = 0;
    bytes out;
    itch5::io::capture_writer w(
        [&](std::string_view b) {
          ++calls;
          const auto* p = reinterpret_cast<const std::byte*>(b.data());
          out.insert(out.end(), p, p + b.size());
        },
        o);
    w.write(file);
    w.finish();
    ASSERT_GT(w.stats().packets, 900u);
    ASSERT_EQ(out.size(), w.stats().bytes);
    // Every piece but the last holds at least `buffer` bytes: at most bytes / buffer + 1 calls.
    EXPECT_LE(calls, out.size() / buffer + 1) << buffer;
    // The bytes do not depend on the buffer size (nor on the chunking of the input).
    o.output_buffer = 1;
    EXPECT_EQ(write_capture(file, o, 100), out) << buffer;
    const result r = read_capture(out);
    EXPECT_EQ(r.frames, sample_messages()) << buffer;
  }
}

}  // namespace capture_writer_tests

// ---- capture timestamps -----------------------------------------------------------------------------------

namespace capture_time_tests {

constexpr std::uint64_t s_ns = 1'000'000'000;
constexpr std::uint64_t h_ns = 3600 * s_ns;

// A capture that runs past local midnight goes on counting from the midnight that began its first packet's
// day (a New York day read in UTC: 20:00 EDT is 24:00 UTC), across a daylight saving change too, and a
// packet stamped before that midnight counts as 0.
TEST(capture_time, arrival_counts_from_the_first_packets_midnight) {
  const itch5::io::time_zone utc = itch5::io::time_zone::parse("UTC");
  itch5::io::arrival_clock clock(utc);
  const std::uint64_t day = 1563148800 * s_ns;  // 2019-07-15 00:00 UTC (Python calendar.timegm)
  EXPECT_EQ(clock.since_first_midnight(day + 23 * h_ns), 23 * h_ns);
  EXPECT_EQ(clock.since_first_midnight(day + 24 * h_ns + 5), 24 * h_ns + 5);  // not 5
  EXPECT_EQ(clock.since_first_midnight(day + 30 * h_ns), 30 * h_ns);
  EXPECT_EQ(clock.since_first_midnight(day - s_ns), 0u);  // before the first packet's day

  const itch5::io::time_zone ny;
  itch5::io::arrival_clock ny_clock(ny);
  // 2019-11-02 22:00 EDT (02:00 UTC on the 3rd); 01:59:59 EDT the next night, then 01:00 EST again.
  EXPECT_EQ(ny_clock.since_first_midnight((1572760800 - 4 * 3600 + 1) * s_ns), 22 * h_ns + s_ns);
  EXPECT_EQ(ny_clock.since_first_midnight(1572760799 * s_ns), 24 * h_ns + 2 * h_ns - s_ns);
  EXPECT_EQ(ny_clock.since_first_midnight(1572760800 * s_ns), 24 * h_ns + 1 * h_ns);
}

TEST(capture_time, new_york_with_daylight_saving_and_fixed_offsets) {
  const itch5::io::time_zone ny;
  // Epoch seconds computed independently (Python calendar.timegm).
  EXPECT_EQ(ny.time_of_day_ns(1548824400 * s_ns), 0u);  // 2019-01-30 05:00 UTC = midnight EST
  EXPECT_EQ(ny.time_of_day_ns(1563197400 * s_ns + 5),
            9 * h_ns + 1800 * s_ns + 5);                             // 2019-07-15 13:30 UTC = 09:30 EDT
  EXPECT_EQ(ny.time_of_day_ns(1563163200 * s_ns), 0u);               // 2019-07-15 04:00 UTC = midnight EDT
  EXPECT_EQ(ny.time_of_day_ns(1552201199 * s_ns), 2 * h_ns - s_ns);  // 2019-03-10 01:59:59 EST
  EXPECT_EQ(ny.time_of_day_ns(1552201200 * s_ns), 3 * h_ns);         // then 03:00:00 EDT
  EXPECT_EQ(ny.time_of_day_ns(1572760799 * s_ns), 2 * h_ns - s_ns);  // 2019-11-03 01:59:59 EDT
  EXPECT_EQ(ny.time_of_day_ns(1572760800 * s_ns), 1 * h_ns);         // then 01:00:00 EST again
  EXPECT_EQ(ny.offset_at(1772953200 - 1), -5 * 3600);                // 2026-03-08, the second Sunday
  EXPECT_EQ(ny.offset_at(1772953200), -4 * 3600);

  EXPECT_EQ(itch5::io::time_zone::parse("UTC").time_of_day_ns(1548824400 * s_ns), 5 * h_ns);
  EXPECT_EQ(itch5::io::time_zone::parse("+01:00").time_of_day_ns(1548824400 * s_ns), 6 * h_ns);
  EXPECT_EQ(itch5::io::time_zone::parse("-05:30").time_of_day_ns(1548824400 * s_ns), 23 * h_ns + 1800 * s_ns);
  EXPECT_TRUE(itch5::io::time_zone::parse("America/New_York").new_york);
  for (const char* bad : {"+1:00", "+25:00", "-05:60", "Mars/Olympus_Mons", "../../etc/passwd", "/etc/passwd",
                          "Europe/London ", ""}) {
    EXPECT_THROW((void)itch5::io::time_zone::parse(bad), std::invalid_argument) << bad;
  }
}

// Any zone of the system's tz database (issue 31): offsets from its TZif file, daylight saving included.
TEST(capture_time, zones_of_the_tz_database) {
  if (!std::filesystem::exists("/usr/share/zoneinfo/Europe/London")) GTEST_SKIP() << "no tz database";
  const auto london = itch5::io::time_zone::parse("Europe/London");
  EXPECT_FALSE(london.new_york);
  // Epoch seconds computed independently (Python calendar.timegm); BST from 2019-03-31 01:00 UTC to
  // 2019-10-27 01:00 UTC.
  EXPECT_EQ(london.time_of_day_ns(1548824400 * s_ns), 5 * h_ns);  // 2019-01-30 05:00 GMT
  EXPECT_EQ(london.time_of_day_ns(1563197400 * s_ns + 5), 14 * h_ns + 1800 * s_ns + 5);  // 14:30 BST
  EXPECT_EQ(london.offset_at(1553994000 - 1), 0);  // 2019-03-31 00:59:59 UTC
  EXPECT_EQ(london.offset_at(1553994000), 3600);
  EXPECT_EQ(london.offset_at(1572138000 - 1), 3600);  // 2019-10-27 00:59:59 UTC
  EXPECT_EQ(london.offset_at(1572138000), 0);
  const auto tokyo = itch5::io::time_zone::parse("Asia/Tokyo");
  EXPECT_EQ(tokyo.time_of_day_ns(1563197400 * s_ns), 22 * h_ns + 1800 * s_ns);  // 13:30 UTC = 22:30 JST
  // The database's New York agrees with the built-in rules.
  const auto ny_db = itch5::io::time_zone::parse("US/Eastern");
  const itch5::io::time_zone ny;
  for (std::int64_t t : {1548824400LL, 1552201199LL, 1552201200LL, 1572760799LL, 1572760800LL, 1772953200LL})
    EXPECT_EQ(ny_db.offset_at(t), ny.offset_at(t)) << t;
  try {
    (void)itch5::io::time_zone::parse("Mars/Olympus_Mons");
    FAIL() << "no such zone";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "time zone 'Mars/Olympus_Mons' is not in the tz database (/usr/share/zoneinfo/Mars/Olympus_Mons: "
        "No such file or directory); expected America/New_York, UTC, a fixed offset from UTC as +HH:MM "
        "or -HH:MM, or a zone name of the tz database such as Europe/London");
  }
  EXPECT_THROW((void)itch5::io::time_zone::from_tzif("TZif2", "short"), std::invalid_argument);
  EXPECT_THROW((void)itch5::io::time_zone::from_tzif(std::string(100, 'x'), "junk"), std::invalid_argument);
}

// One message per packet, each arriving `delay` after its exchange timestamp, on a winter and a summer day.
TEST(capture_time, messages_carry_their_packets_arrival_time_of_day) {
  const auto& m = sample_messages();
  constexpr std::uint64_t delay = 37'000;
  for (const std::uint64_t midnight_utc : {1548824400ull, 1563163200ull}) {
    itch5_test::pcap_file f(true);
    std::vector<bytes> expected;
    for (std::size_t i = 0; i < m.size(); ++i) {
      std::uint64_t ts = 0;
      for (int k = 5; k < 11; ++k)
        ts = ts << 8 | std::to_integer<std::uint64_t>(m[i][static_cast<std::size_t>(k)]);
      f.add(udp_frame(itch5_test::mold_packet("S", i + 1, {m[i]}), port), midnight_utc * s_ns + ts + delay);
      bytes e = m[i];
      for (int k = 0; k < 6; ++k)
        e[static_cast<std::size_t>(5 + k)] = static_cast<std::byte>((ts + delay) >> (8 * (5 - k)));
      expected.push_back(e);
    }
    result r;
    itch5::io::capture_options o;
    o.stamp_arrival = true;
    itch5::message_reader reader(
        itch5::io::make_block_source(itch5::io::memory_input(f.data, o), {1 << 16, false, 3}));
    std::span<const std::byte> msg;
    while (reader.next(msg) == itch5::read_status::message) r.frames.emplace_back(msg.begin(), msg.end());
    EXPECT_EQ(reader.status(), itch5::read_status::end_of_input);
    EXPECT_EQ(r.frames, expected) << midnight_utc;
  }
}

}  // namespace capture_time_tests

namespace capture_latency_tests {

using itch5_test::bytes;
using itch5_test::udp_frame;

constexpr std::uint16_t port = 26477;
constexpr std::uint64_t s_ns = 1'000'000'000ull;

TEST(capture_latency, every_message_gets_its_arrival_minus_exchange_time_in_order_also_with_read_ahead) {
  const auto m = itch5_test::binaryfile_messages(
      itch5_test::read_file(itch5_test::data_path("real-2019-first1000.itch")));
  constexpr std::uint64_t midnight_utc = 1548824400ull;
  // Packets of 1 to 4 messages; each packet's delay differs, some negative (a capture clock behind).
  itch5_test::pcap_file f(true);
  std::vector<std::int64_t> expected;
  std::uint64_t seq = 1;
  for (std::size_t i = 0, n = 1; i < m.size(); i += n, n = n % 4 + 1) {
    std::vector<bytes> msgs(m.begin() + static_cast<std::ptrdiff_t>(i),
                            m.begin() + static_cast<std::ptrdiff_t>(std::min(m.size(), i + n)));
    std::uint64_t first_ts = 0;
    for (int k = 5; k < 11; ++k)
      first_ts = first_ts << 8 | std::to_integer<std::uint64_t>(msgs[0][static_cast<std::size_t>(k)]);
    const std::int64_t delay = static_cast<std::int64_t>(i * 37 % 5000) - 1000;
    const std::uint64_t arrival = first_ts + static_cast<std::uint64_t>(delay);
    for (const bytes& x : msgs) {
      std::uint64_t ts = 0;
      for (int k = 5; k < 11; ++k)
        ts = ts << 8 | std::to_integer<std::uint64_t>(x[static_cast<std::size_t>(k)]);
      expected.push_back(static_cast<std::int64_t>(arrival) - static_cast<std::int64_t>(ts));
    }
    f.add(udp_frame(itch5_test::mold_packet("S", seq, msgs), port), midnight_utc * s_ns + arrival);
    seq += msgs.size();
  }
  for (const bool stamp : {false, true}) {
    for (const bool threaded : {false, true}) {
      itch5::io::latency_queue q;
      itch5::io::capture_options o;
      o.stamp_arrival = stamp;
      o.latencies = &q;
      itch5::message_reader reader(
          itch5::io::make_block_source(itch5::io::memory_input(f.data, o), {4096, threaded, 3}));
      std::span<const std::byte> msg;
      std::vector<std::int64_t> got;
      while (reader.next(msg) == itch5::read_status::message) got.push_back(q.pop());
      EXPECT_EQ(reader.status(), itch5::read_status::end_of_input);
      EXPECT_EQ(got, expected) << "stamp " << stamp << ", threaded " << threaded;
      EXPECT_EQ(q.pop(), itch5::io::latency_queue::none);
    }
  }
}

TEST(capture_latency, queue_hands_back_batches_in_order) {
  itch5::io::latency_queue q;
  EXPECT_EQ(q.pop(), itch5::io::latency_queue::none);
  std::vector<std::int64_t> a = {1, 2, 3}, b = {}, c = {-4};
  q.push(a);
  q.push(b);
  q.push(c);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(q.pop(), 1);
  EXPECT_EQ(q.pop(), 2);
  EXPECT_EQ(q.pop(), 3);
  EXPECT_EQ(q.pop(), -4);
  EXPECT_EQ(q.pop(), itch5::io::latency_queue::none);
}

}  // namespace capture_latency_tests
