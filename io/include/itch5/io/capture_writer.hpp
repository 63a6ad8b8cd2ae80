// Writes a BinaryFILE stream (2-byte big-endian length + message, in chunks of any size) as a pcap capture
// of a MoldUDP64 feed: the inverse of capture_input(), for synthetic captures (itch5synth --pcap).
//
// How: messages are packed in order into MoldUDP64 packets (session, sequence number of the first message,
// count, then the length-prefixed messages) of at most `max_payload` bytes of UDP payload and `max_span_ns`
// of feed time, each in an Ethernet / IPv4 / UDP frame to a multicast group, one pcap record per packet
// (nanosecond magic, the writing host's byte order). A packet's capture time is `time_base_ns` plus the
// ITCH timestamp of its last message (nanoseconds since midnight): a packet leaves once its last message
// exists, so no message of it arrives before its own time. Optionally packets are lost (not written: the
// reader sees a gap), written twice (as an A/B pair or a retransmission) or late (after the next packet),
// chosen by a seeded pseudo-random generator so the same settings give the same bytes. finish() writes the
// last packet and an end-of-session packet.
//
// Output: the pcap records are gathered in a buffer of `output_buffer` bytes and handed to the sink when
// it is full and by finish(), so a file sink makes one write() per buffer, not two per packet (which took
// 386,709 write calls for a 200k-message day and 10 times the time of the BinaryFILE alone). Nothing of the
// records reaches the sink before the buffer fills or finish() is called.
//
// Complexity: O(bytes); no allocation per message (one reused packet buffer, one output buffer). Not
// thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace itch5::io {

struct capture_writer_options {
  std::size_t max_payload = 1400;  ///< UDP payload bytes per packet (20-byte Mold header included).
  /// A packet holds messages of at most this span of feed time: a later message starts the next packet
  /// (a feed sends what it has promptly; sparse messages do not wait for a full packet).
  std::uint64_t max_span_ns = 1000;
  std::string session = "ITCH5SYNTH";  ///< Padded or cut to 10 bytes.
  std::uint16_t port = 26477;          ///< UDP destination port.
  std::uint64_t first_sequence = 1;
  std::uint64_t time_base_ns = 0;  ///< UTC nanoseconds since the epoch of the session's midnight.
  double loss = 0;                 ///< Fraction of packets not written.
  double duplicates = 0;           ///< Fraction of packets written twice.
  /// Fraction of packets that arrive late: written after the next packet, stamped with its time.
  double reorder = 0;
  std::uint64_t seed = 1;
  /// Bytes gathered before the sink is called (at least one whole record is always gathered).
  std::size_t output_buffer = std::size_t{1} << 20;
};

struct capture_writer_stats {
  std::uint64_t messages = 0;
  std::uint64_t packets = 0;  ///< MoldUDP64 packets made (lost ones and the end of session included).
  std::uint64_t lost = 0;
  std::uint64_t duplicated = 0;
  std::uint64_t reordered = 0;  ///< Packets written after the one that followed them.
  std::uint64_t bytes = 0;      ///< Bytes of the capture file.
};

class capture_writer {
 public:
  using sink = std::function<void(std::string_view)>;

  /// Gathers the pcap global header for `out` (see Output above). Throws std::invalid_argument on a
  /// max_payload outside [22 + 2, 65507] or fractions outside [0, 1).
  capture_writer(sink out, capture_writer_options options);

  /// Adds BinaryFILE bytes; a message may be split across calls. A zero length prefix ends the input.
  void write(std::span<const std::byte> bytes);
  /// Writes the last packet and an end-of-session packet and hands everything gathered to the sink.
  /// Throws std::runtime_error when the input ended inside a message.
  void finish();

  [[nodiscard]] const capture_writer_stats& stats() const noexcept { return stats_; }

 private:
  void add_message(const std::byte* msg, std::size_t len);
  void flush_packet(std::uint16_t count_field);
  bool chance(double p);
  void emit(std::uint64_t t, std::span<const std::byte> frame);
  void put(const void* data, std::size_t size);
  void drain();

  sink out_;
  capture_writer_options options_;
  capture_writer_stats stats_;
  std::vector<std::byte> pending_;  // a message split across write() calls
  std::vector<std::byte> frame_;    // the packet being built: link, IP, UDP and Mold headers, then blocks
  std::uint16_t count_ = 0;
  std::uint64_t next_seq_;
  std::uint64_t first_timestamp_ = 0;
  std::uint64_t last_timestamp_ = 0;
  std::uint64_t rng_;
  bool ended_ = false;
  std::vector<std::byte> held_;   // a packet held back by `reorder`, written after the next one
  std::vector<char> out_buffer_;  // records not yet handed to the sink
};

}  // namespace itch5::io
