// Test captures written by hand from the file formats (no tcpdump, nothing of the library under test):
// MoldUDP64 packets (session, sequence number, count, then count x (2-byte length + message)) in UDP in
// IPv4 in Ethernet frames (optionally with an 802.1Q tag), in a pcap file (microsecond or nanosecond
// magic, little- or big-endian) or a pcapng file (section header, interface description, enhanced packet
// blocks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace itch5_test {

using capture_bytes = std::vector<std::byte>;

/// Appends integers in a chosen byte order.
class byte_sink {
 public:
  explicit byte_sink(capture_bytes& out, bool big_endian = true) : out_(out), big_(big_endian) {}
  void u8(unsigned v) { out_.push_back(static_cast<std::byte>(v & 0xff)); }
  void u16(std::uint32_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void raw(const capture_bytes& b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void text(std::string_view s) {
    for (char c : s) u8(static_cast<unsigned char>(c));
  }

 private:
  void put(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) u8(static_cast<unsigned>(v >> (8 * (big_ ? n - 1 - i : i))));
  }
  capture_bytes& out_;
  bool big_;
};

/// One MoldUDP64 downstream packet. `session` is padded with spaces to 10 bytes.
inline capture_bytes mold_packet(std::string_view session, std::uint64_t seq,
                                 const std::vector<capture_bytes>& messages, int count_override = -1) {
  capture_bytes out;
  byte_sink s(out);
  std::string sess(session);
  sess.resize(10, ' ');
  s.text(sess);
  s.u64(seq);
  s.u16(count_override >= 0 ? static_cast<std::uint32_t>(count_override)
                            : static_cast<std::uint32_t>(messages.size()));
  for (const auto& m : messages) {
    s.u16(static_cast<std::uint32_t>(m.size()));
    s.raw(m);
  }
  return out;
}

/// Ethernet (optional 802.1Q tag) + IPv4 (no options, checksum 0) + UDP (checksum 0) around `payload`.
inline capture_bytes udp_frame(const capture_bytes& payload, std::uint16_t dst_port, bool vlan = false,
                               std::uint8_t ip_protocol = 17) {
  capture_bytes out;
  byte_sink s(out);
  for (unsigned b : {0x01u, 0x00u, 0x5eu, 0x36u, 0x0cu, 0x6fu}) s.u8(b);  // multicast destination MAC
  for (unsigned b : {0x02u, 0x00u, 0x00u, 0x00u, 0x00u, 0x01u}) s.u8(b);
  if (vlan) {
    s.u16(0x8100);
    s.u16(100);  // VLAN id 100
  }
  s.u16(0x0800);
  const std::uint32_t udp_len = 8 + static_cast<std::uint32_t>(payload.size());
  s.u8(0x45);
  s.u8(0);
  s.u16(20 + udp_len);
  s.u16(0);       // identification
  s.u16(0x4000);  // don't fragment
  s.u8(64);
  s.u8(ip_protocol);
  s.u16(0);
  s.u32(0x0a000001);  // 10.0.0.1
  s.u32(0xe9360c6f);  // 233.54.12.111
  s.u16(40000);
  s.u16(dst_port);
  s.u16(udp_len);
  s.u16(0);
  s.raw(payload);
  return out;
}

/// A classic pcap file.
class pcap_file {
 public:
  explicit pcap_file(bool nanosecond = false, bool big_endian = false, std::uint32_t link_type = 1,
                     std::uint32_t snaplen = 65535)
      : s_(data, big_endian), nano_(nanosecond) {
    s_.u32(nanosecond ? 0xa1b23c4d : 0xa1b2c3d4);
    s_.u16(2);
    s_.u16(4);
    s_.u32(0);
    s_.u32(0);
    s_.u32(snaplen);
    s_.u32(link_type);
  }
  /// One record; `orig_len` 0 = the frame's size; `caplen` 0 = the frame's size (else the header says so).
  void add(const capture_bytes& frame, std::uint64_t ns_since_epoch = 1'700'000'000'000'000'000ull,
           std::uint32_t orig_len = 0) {
    s_.u32(static_cast<std::uint32_t>(ns_since_epoch / 1'000'000'000));
    const std::uint64_t sub = ns_since_epoch % 1'000'000'000;
    s_.u32(static_cast<std::uint32_t>(nano_ ? sub : sub / 1000));
    s_.u32(static_cast<std::uint32_t>(frame.size()));
    s_.u32(orig_len != 0 ? orig_len : static_cast<std::uint32_t>(frame.size()));
    s_.raw(frame);
  }
  capture_bytes data;

 private:
  byte_sink s_;
  bool nano_;
};

/// A pcapng file: one section, one Ethernet interface (default resolution: microseconds).
class pcapng_file {
 public:
  pcapng_file() : s_(data, false) {
    s_.u32(0x0a0d0d0a);
    s_.u32(28);
    s_.u32(0x1a2b3c4d);
    s_.u16(1);
    s_.u16(0);
    s_.u64(~std::uint64_t{0});  // section length unknown
    s_.u32(28);
    s_.u32(1);  // interface description block
    s_.u32(20);
    s_.u16(1);  // Ethernet
    s_.u16(0);
    s_.u32(0);  // snaplen: none
    s_.u32(20);
  }
  void add(const capture_bytes& frame, std::uint64_t us_since_epoch = 1'700'000'000'000'000ull) {
    const std::uint32_t padded = (static_cast<std::uint32_t>(frame.size()) + 3) & ~3u;
    const std::uint32_t total = 32 + padded;
    s_.u32(6);
    s_.u32(total);
    s_.u32(0);
    s_.u32(static_cast<std::uint32_t>(us_since_epoch >> 32));
    s_.u32(static_cast<std::uint32_t>(us_since_epoch));
    s_.u32(static_cast<std::uint32_t>(frame.size()));
    s_.u32(static_cast<std::uint32_t>(frame.size()));
    s_.raw(frame);
    for (std::uint32_t i = static_cast<std::uint32_t>(frame.size()); i < padded; ++i) s_.u8(0);
    s_.u32(total);
  }
  capture_bytes data;

 private:
  byte_sink s_;
};

/// The messages of a BinaryFILE stream (each without its length prefix), up to a zero length or the end.
inline std::vector<capture_bytes> binaryfile_messages(const capture_bytes& file) {
  std::vector<capture_bytes> out;
  std::size_t at = 0;
  while (at + 2 <= file.size()) {
    const std::size_t len =
        (std::to_integer<std::size_t>(file[at]) << 8) | std::to_integer<std::size_t>(file[at + 1]);
    if (len == 0 || at + 2 + len > file.size()) break;
    out.emplace_back(file.begin() + static_cast<std::ptrdiff_t>(at + 2),
                     file.begin() + static_cast<std::ptrdiff_t>(at + 2 + len));
    at += 2 + len;
  }
  return out;
}

/// The MoldUDP64 packets carrying `messages` from sequence number `first_seq`, at most `per_packet` each
/// (and at most `max_payload` bytes of UDP payload), as (sequence number, packet) pairs.
struct mold_stream_packet {
  std::uint64_t seq;
  std::size_t count;
  capture_bytes payload;
};
inline std::vector<mold_stream_packet> mold_packets(const std::vector<capture_bytes>& messages,
                                                    std::size_t per_packet, std::uint64_t first_seq = 1,
                                                    std::string_view session = "SESSION001",
                                                    std::size_t max_payload = 1400) {
  std::vector<mold_stream_packet> out;
  std::size_t i = 0;
  std::uint64_t seq = first_seq;
  while (i < messages.size()) {
    std::vector<capture_bytes> batch;
    std::size_t size = 20;
    while (i < messages.size() && batch.size() < per_packet &&
           (batch.empty() || size + 2 + messages[i].size() <= max_payload)) {
      size += 2 + messages[i].size();
      batch.push_back(messages[i++]);
    }
    out.push_back({seq, batch.size(), mold_packet(session, seq, batch)});
    seq += batch.size();
  }
  return out;
}

}  // namespace itch5_test
