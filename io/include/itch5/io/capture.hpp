// Network captures as input: pcap (microsecond or nanosecond, either byte order) and pcapng files of
// MoldUDP64 packets, turned into the BinaryFILE byte stream (2-byte big-endian length, then the message)
// that the rest of the pipeline reads.
//
// How: libpcap reads the capture (pcap_fopen_offline over a FILE* made with fopencookie from the byte
// stream underneath, so gzip and standard input work too) and applies an optional BPF filter
// (pcap_compile + pcap_offline_filter, so filtered packets can be counted). Each frame is parsed with
// explicit length checks: Ethernet (with 802.1Q / 802.1ad VLAN tags), Linux cooked (SLL) or raw IP link
// layers; IPv4 or IPv6; UDP. The UDP payload is a MoldUDP64 packet: session (10 bytes), sequence number
// (8), message count (2), then count x (2-byte length + message). Mold's message blocks are BinaryFILE's
// frames, so the messages are handed on by copying the block bytes as they are.
//
// Sequence rules (MoldUDP64 1.00): the first packet's session and sequence number start the stream;
// packets of another session are skipped. Each sequence number is handed on once and in order: a packet
// whose messages were all handed on is a duplicate (A/B feeds, retransmissions) and is dropped; one that
// overlaps hands on only its new messages; one beyond the next expected number is held for a while in a
// reorder window (default 32 packets) in case the missing packets arrive late, and when the window is full
// (or the capture ends) the missing range is reported as a gap and processing goes on. Heartbeats (count
// 0) and end of session (count 0xFFFF) carry the next expected sequence number and can reveal a gap too.
//
// Capture timestamps: with `stamp_arrival`, each message handed on carries its packet's arrival time (the
// capture record's timestamp, UTC) in place of the exchange's, converted to nanoseconds since midnight in
// the venue's time zone (New York by default, daylight saving applied; or a fixed offset), so every tool
// downstream works on arrival times unchanged. The midnight is the one that began the first packet's day:
// a capture that runs past the next local midnight goes on counting past 24 h (arrival_clock).
//
// Feed latency: with `latencies`, each message's arrival minus its exchange timestamp goes to a side
// channel (latency_queue) in message order, for statistics (itch5inside --stats).
//
// Errors (capture_error, an input_error) name the packet number (1-based, every record counts) and the
// byte offset in the (decompressed) capture: truncated records, a snap length shorter than a packet of the
// feed, Mold counts or lengths that overrun the datagram, an unknown link type, a BPF filter that does not
// compile. As for every byte stream, the bytes produced before an error are returned first.
//
// Complexity: O(bytes) per packet, no allocation per packet in order (one copy per packet held in the
// reorder window). Thread-safety: one stream is used by one thread at a time; the capture_stats counters
// are atomics, so another thread may read them while the stream runs (exact once the stream has ended).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/input_error.hpp>

namespace itch5::io {

/// A corrupt or unreadable capture: the message names the packet; offset() is the byte offset in the
/// (decompressed) capture of the record or field at fault.
class capture_error : public input_error {
 public:
  capture_error(const std::string& what, std::uint64_t offset, std::uint64_t packet)
      : input_error(what), offset_(offset), packet_(packet) {}
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }
  [[nodiscard]] std::uint64_t packet() const noexcept { return packet_; }

 private:
  std::uint64_t offset_;
  std::uint64_t packet_;
};

/// A sound capture that holds no MoldUDP64 message (of the filter): nothing is wrong with its bytes, it is
/// not the feed asked for. The message says whether --filter/--port matched no packet at all.
class empty_capture_error : public capture_error {
 public:
  using capture_error::capture_error;
};

/// What a capture stream saw; updated while it reads.
struct capture_stats {
  std::atomic<bool> is_capture{false};    ///< The input was a capture (the rest is meaningful).
  std::atomic<std::uint64_t> packets{0};  ///< Records read.
  std::atomic<std::uint64_t> skipped{0};  ///< Not UDP, filtered out, IP fragments, other sessions, too short.
  std::atomic<std::uint64_t> mold_packets{0};    ///< MoldUDP64 packets of the session (duplicates included).
  std::atomic<std::uint64_t> duplicates{0};      ///< Packets whose messages had all been handed on.
  std::atomic<std::uint64_t> heartbeats{0};      ///< Count 0.
  std::atomic<std::uint64_t> end_of_session{0};  ///< Count 0xFFFF.
  std::atomic<std::uint64_t> reordered{0};       ///< Late packets (after later ones) handed on in order.
  /// Late packets that came after their sequence numbers had been reported as a gap (beyond the reorder
  /// window): not handed on, and not duplicates (their messages had never been seen).
  std::atomic<std::uint64_t> too_late{0};
  std::atomic<std::uint64_t> gaps{0};      ///< Sequence ranges never seen.
  std::atomic<std::uint64_t> missing{0};   ///< Messages in those ranges.
  std::atomic<std::uint64_t> messages{0};  ///< Messages handed on.

  /// "N packets, K skipped, D duplicates, G gaps (M messages missing), ..." for summaries.
  [[nodiscard]] std::string describe() const;
};

/// The venue's clock for capture timestamps: America/New_York (US daylight saving rules since 2007: from
/// the second Sunday of March 02:00 to the first Sunday of November 02:00 local time, UTC-4, else UTC-5),
/// a fixed offset from UTC, or any zone of the system's tz database (a TZif file under $TZDIR, else
/// /usr/share/zoneinfo: Europe/London, Asia/Tokyo, ...), whose offsets change at the file's transitions
/// (times after the last transition keep its offset; Debian's files list them to 2037).
struct time_zone {
  bool new_york = true;
  std::int32_t fixed_offset_seconds = 0;  ///< When !new_york and no transitions: local = UTC + this.
  /// A tz database zone: at UTC second transitions[i] and after, the offset is offsets[i + 1]; before the
  /// first, offsets[0]. Empty for New York and fixed offsets.
  std::vector<std::int64_t> transitions;
  std::vector<std::int32_t> offsets;

  /// "America/New_York", "UTC", a fixed offset "+HH:MM" / "-HH:MM" (e.g. "+01:00"), or a zone name of
  /// the tz database ("Europe/London"). Throws std::invalid_argument saying why and naming the accepted
  /// forms.
  [[nodiscard]] static time_zone parse(const std::string& name);
  /// The zone in TZif bytes (RFC 8536, versions 1 to 4); `name` is for errors. Throws
  /// std::invalid_argument on bytes that are not a TZif file.
  [[nodiscard]] static time_zone from_tzif(std::string_view bytes, const std::string& name);
  /// Seconds to add to UTC to get local time at `utc_seconds` since the epoch.
  [[nodiscard]] std::int64_t offset_at(std::int64_t utc_seconds) const noexcept;
  /// Nanoseconds since local midnight of the UTC instant `utc_ns` (ns since the epoch).
  [[nodiscard]] std::uint64_t time_of_day_ns(std::uint64_t utc_ns) const noexcept;
  /// Local time of the UTC instant `utc_ns`: ns since the epoch plus the offset in force then.
  [[nodiscard]] std::int64_t local_ns(std::uint64_t utc_ns) const noexcept;
};

/// Arrival times of a capture as nanoseconds since the local midnight that began the day of its first
/// packet, so that a capture running past local midnight (a New York evening in London's or UTC's time)
/// goes on counting (25:00 is 90,000 s) instead of starting again at 0 in the middle of the day.
class arrival_clock {
 public:
  explicit arrival_clock(const time_zone& zone) : zone_(&zone) {}
  /// The arrival of a packet stamped `utc_ns` (ns since the epoch); a packet stamped before the first one's
  /// day began (a capture clock stepped back) counts as 0.
  [[nodiscard]] std::uint64_t since_first_midnight(std::uint64_t utc_ns) noexcept {
    constexpr std::int64_t day_ns = 86'400'000'000'000;
    const std::int64_t local = zone_->local_ns(utc_ns);
    if (!anchored_) {
      midnight_ = local - (((local % day_ns) + day_ns) % day_ns);
      anchored_ = true;
    }
    return local > midnight_ ? static_cast<std::uint64_t>(local - midnight_) : 0;
  }

 private:
  const time_zone* zone_;
  bool anchored_ = false;
  std::int64_t midnight_ = 0;  // local ns of the first packet's local midnight
};

/// Feed latency side channel: for every message a capture stream hands on, in order, its packet's arrival
/// time of day minus the message's exchange timestamp, in ns (`none` for a message too short to carry a
/// timestamp). The stream pushes the latencies of the messages whose bytes a read() produced before that
/// read() returns, so a consumer that pops one entry per framed message (on another thread than a
/// read-ahead reader, too) always finds its message's entry. Single producer, single consumer; memory is
/// bounded by how far the reader is ahead of the consumer. The BinaryFILE bytes are unchanged.
class latency_queue {
 public:
  static constexpr std::int64_t none = std::numeric_limits<std::int64_t>::min();

  /// Producer: appends `batch` (left empty).
  void push(std::vector<std::int64_t>& batch);
  /// Consumer: the next message's latency, or `none` when nothing is queued.
  [[nodiscard]] std::int64_t pop() {
    if (pos_ < current_.size()) [[likely]]
      return current_[pos_++];
    return pop_slow();
  }

 private:
  std::int64_t pop_slow();
  std::mutex mutex_;
  std::deque<std::vector<std::int64_t>> batches_;
  std::vector<std::int64_t> current_;  // consumer side only
  std::size_t pos_ = 0;
};

struct capture_options {
  std::string filter;               ///< BPF expression applied to every packet ("" = all UDP packets).
  std::size_t reorder_window = 32;  ///< Early packets held while waiting for missing ones (0 = none).
  capture_stats* stats = nullptr;   ///< Where to count, or null.
  /// Called (on the reading thread) with one line per gap, e.g. "gap: messages 1001-1010 (10) missing,
  /// before packet #57"; null = not reported. At most `max_gap_reports` calls, then one saying so.
  std::function<void(const std::string&)> report;
  std::size_t max_gap_reports = 100;
  /// Replace each message's timestamp by its packet's arrival time of day in `zone` (see above).
  bool stamp_arrival = false;
  time_zone zone;
  /// When set: every message's feed latency (arrival - exchange timestamp, see latency_queue), whether or not
  /// stamp_arrival replaces the timestamps. The queue must outlive the stream and be consumed.
  latency_queue* latencies = nullptr;
  /// A live feed (net::live_capture): read() returns as soon as a packet has produced bytes, instead of
  /// filling the caller's buffer, and the capture underneath is read as it arrives, so every message is
  /// handed on when its packet comes. Off for files (whole buffers are cheaper).
  bool live = false;
};

/// True when `head` (the first bytes of an input, at least 4 to be sure) is a pcap or pcapng file.
[[nodiscard]] bool looks_like_capture(std::span<const std::byte> head) noexcept;

/// The BinaryFILE stream of the MoldUDP64 messages in the capture `capture` (read from its start).
/// Throws capture_error when the capture cannot be opened (bad header, unknown link type, bad filter).
[[nodiscard]] std::unique_ptr<byte_stream> capture_input(std::unique_ptr<byte_stream> capture,
                                                         const capture_options& options = {});

}  // namespace itch5::io
