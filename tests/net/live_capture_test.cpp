// live_capture over 127.0.0.1: hand-made MoldUDP64 datagrams in, the BinaryFILE bytes of their messages
// out (written here by hand), malformed datagrams counted and skipped, the end of session ending the
// stream, and the tee'd capture reading back (through io's capture reader) to the same bytes.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/net/endpoint.hpp>
#include <itch5/net/live_capture.hpp>
#include <itch5/net/udp_receiver.hpp>
#include <itch5/net/udp_sender.hpp>

namespace {

using bytes = std::vector<std::byte>;

// A MoldUDP64 packet of session "LIVETEST01": sequence number, then the messages (or `count` alone).
bytes mold(std::uint64_t seq, const std::vector<std::string>& messages, int count = -1) {
  bytes p;
  for (char c : std::string("LIVETEST01")) p.push_back(std::byte(static_cast<unsigned char>(c)));
  for (int i = 7; i >= 0; --i) p.push_back(std::byte(static_cast<unsigned char>(seq >> (8 * i))));
  const auto n = static_cast<unsigned>(count >= 0 ? count : static_cast<int>(messages.size()));
  p.push_back(std::byte(static_cast<unsigned char>(n >> 8)));
  p.push_back(std::byte(static_cast<unsigned char>(n & 0xff)));
  for (const auto& m : messages) {
    p.push_back(std::byte(static_cast<unsigned char>(m.size() >> 8)));
    p.push_back(std::byte(static_cast<unsigned char>(m.size() & 0xff)));
    for (char c : m) p.push_back(std::byte(static_cast<unsigned char>(c)));
  }
  return p;
}

std::string read_all(itch5::io::byte_stream& s) {
  std::string out;
  char buf[7];  // small reads: a live stream hands on what it has
  for (std::size_t n; (n = s.read(reinterpret_cast<std::byte*>(buf), sizeof buf)) > 0;) out.append(buf, n);
  return out;
}

TEST(LiveCapture, HandsOnTheMessagesSkipsMalformedDatagramsAndEndsAtTheEndOfSession) {
  std::uint16_t port = 0;
  {
    itch5::net::udp_receiver probe(itch5::net::endpoint::parse("127.0.0.1:0"));
    port = probe.local().port();
  }
  itch5::net::live_stats stats;
  std::vector<std::string> reports;
  std::string tee;
  itch5::net::live_options lo;
  lo.listen = {"127.0.0.1:" + std::to_string(port)};
  lo.idle = std::chrono::seconds(20);  // a bound, should the end of session get lost
  lo.stats = &stats;
  lo.report = [&](const std::string& line) { reports.push_back(line); };
  lo.tee = [&](std::string_view b) { tee.append(b); };
  auto stream = itch5::net::live_capture(lo, {});

  itch5::net::udp_sender tx(itch5::net::endpoint::parse("127.0.0.1:" + std::to_string(port)));
  tx.send(mold(1, {"ab", "cde"}));
  tx.send(mold(3, {}, 0));          // a heartbeat
  tx.send(mold(3, {"xy"}, 2));      // count 2, one message: malformed
  tx.send(bytes(7, std::byte{1}));  // shorter than a header: malformed
  tx.send(mold(3, {"fghi"}));
  tx.send(mold(1, {"ab", "cde"}));  // a duplicate
  tx.send(mold(4, {}, 0xffff));     // end of session

  const std::string want = std::string("\0\2ab\0\3cde\0\4fghi", 15);
  EXPECT_EQ(read_all(*stream), want);
  EXPECT_EQ(stats.datagrams.load(), 7u);
  EXPECT_EQ(stats.malformed.load(), 2u);
  EXPECT_EQ(stats.ended, "end of session");
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_NE(reports[0].find("malformed datagram #3 skipped: message count 2 overruns"), std::string::npos)
      << reports[0];
  EXPECT_NE(reports[1].find("malformed datagram #4 skipped: only 7 bytes"), std::string::npos) << reports[1];

  // The tee'd capture is a pcap file of the five sound datagrams, which io reads back to the same messages.
  const auto* p = reinterpret_cast<const std::byte*>(tee.data());
  itch5::io::capture_stats cs;
  itch5::io::capture_options co;
  co.stats = &cs;
  auto back = itch5::io::memory_input({p, tee.size()}, co);
  EXPECT_EQ(read_all(*back), want);
  EXPECT_EQ(cs.packets.load(), 5u);
  EXPECT_EQ(cs.duplicates.load(), 1u);
  EXPECT_EQ(cs.heartbeats.load(), 1u);
  EXPECT_EQ(cs.end_of_session.load(), 1u);
}

// A backlog: every datagram of an A/B pair waits in the kernel before the stream reads any. A lost every
// fifth packet, B none, B's copy of each packet sent right after A's. Merged by arrival, B fills each of
// A's holes at once; taken as whole batches of 64 per feed in turn, A's batches (80 packets of sequence
// each) would run ahead of B's by more than the reorder window of 32, and gaps would be declared that B's
// copies fill later (a listener slowed by load did exactly that).
TEST(LiveCapture, AnABBacklogIsMergedInOrderOfArrival) {
  std::vector<std::uint16_t> ports;
  for (int f = 0; f < 2; ++f) {
    itch5::net::udp_receiver probe(itch5::net::endpoint::parse("127.0.0.1:0"));
    if (probe.receive_buffer() < (2 << 20))
      GTEST_SKIP() << "the kernel grants a receive buffer of " << probe.receive_buffer()
                   << " bytes only (net.core.rmem_max): the backlog could overflow it";
    ports.push_back(probe.local().port());
  }
  itch5::net::live_stats stats;
  itch5::net::live_options lo;
  for (auto p : ports) lo.listen.push_back("127.0.0.1:" + std::to_string(p));
  lo.idle = std::chrono::seconds(20);  // a bound, should the end of session get lost
  lo.stats = &stats;
  itch5::io::capture_stats cs;
  itch5::io::capture_options co;
  co.stats = &cs;
  auto stream = itch5::net::live_capture(lo, co);

  itch5::net::udp_sender a(itch5::net::endpoint::parse(lo.listen[0]));
  itch5::net::udp_sender b(itch5::net::endpoint::parse(lo.listen[1]));
  constexpr std::uint64_t packets = 400;
  std::string want;
  for (std::uint64_t seq = 1; seq <= packets; ++seq) {
    const std::string m = "m" + std::to_string(seq);
    want += std::string{'\0', static_cast<char>(m.size())} + m;
    if (seq % 5 != 0) a.send(mold(seq, {m}));
    b.send(mold(seq, {m}));
  }
  b.send(mold(packets + 1, {}, 0xffff));
  a.send(mold(packets + 1, {}, 0xffff));

  EXPECT_EQ(read_all(*stream), want);
  EXPECT_EQ(stats.ended, "end of session");
  EXPECT_EQ(cs.gaps.load(), 0u) << cs.describe();
  EXPECT_EQ(cs.missing.load(), 0u);
  EXPECT_EQ(cs.duplicates.load(), packets - packets / 5) << cs.describe();  // A's copies
}

TEST(LiveCapture, StopsAfterIdle) {
  itch5::net::live_stats stats;
  itch5::net::live_options lo;
  lo.listen = {"127.0.0.1:0"};
  lo.idle = std::chrono::milliseconds(100);
  lo.stats = &stats;
  auto raw = itch5::net::live_input(lo);
  std::string all = read_all(*raw);
  EXPECT_EQ(all.size(), 24u);  // the pcap header only
  EXPECT_EQ(stats.ended, "idle");
}

// Busy polling never sleeps in poll(), so the clocks and the cancel flag are what end the stream: both must
// still be looked at between tries.
TEST(LiveCapture, BusyPollingStopsAfterIdleAndWhenCancelled) {
  {
    itch5::net::live_stats stats;
    itch5::net::live_options lo;
    lo.listen = {"127.0.0.1:0"};
    lo.idle = std::chrono::milliseconds(100);
    lo.busy_poll = true;
    lo.stats = &stats;
    auto raw = itch5::net::live_input(lo);
    EXPECT_EQ(read_all(*raw).size(), 24u);
    EXPECT_EQ(stats.ended, "idle");
  }
  {
    itch5::net::live_stats stats;
    const std::atomic<bool> cancel{true};
    itch5::net::live_options lo;
    lo.listen = {"127.0.0.1:0"};
    lo.busy_poll = true;
    lo.cancel = &cancel;
    lo.stats = &stats;
    auto raw = itch5::net::live_input(lo);
    EXPECT_EQ(read_all(*raw).size(), 24u);
    EXPECT_EQ(stats.ended, "interrupted");
  }
}

}  // namespace
