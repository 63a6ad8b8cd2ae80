// Sends MoldUDP64 packets to one or two feeds (A, and optionally B: a copy, delayed) on a schedule: the
// exchange's pace scaled by a speed, a steady message rate, or as fast as possible. Used by itch5replay.
//
// Each packet comes with its feed time (the timestamp of its last message: it cannot leave before that
// message exists). Its due time is
//   speed:  start + (feed time - first packet's feed time - waits cut by max_wait) / speed
//   rate:   start + (messages up to and including its last) / rate      (a steady rate, whatever the times)
//   max:    when the previous one has gone
// and the replayer waits for it (sleeping, then spinning the last 100 us), sending heartbeats (count 0, the
// next sequence number) on every feed while a wait outlasts the heartbeat interval. Packets are then
// dropped (loss, per feed), or sent twice (duplicates), chosen by a seeded generator; feed B's copy leaves
// `b_delay` after A's. finish() sends the end of session (count 0xFFFF) on every feed, after feed B's
// delayed copies.
//
// The schedule log (for the latency benchmark, bench/live_latency.py) has one line per packet sent on feed
// A: "<sequence> <count> <due ns> <sent ns>", both times CLOCK_REALTIME ns since the epoch, the clock of
// the receiver's kernel timestamps. The due time is the schedule's, not the send's: a sender that falls
// behind cannot hide it (coordinated omission).
//
// Complexity: O(bytes) per packet; feed B's delayed copies reuse their buffers. Not thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

#include <itch5/net/udp_sender.hpp>

namespace itch5::net {

struct replay_options {
  double speed = 1;  ///< Feed time / wall time; 0 = as fast as possible (unless rate).
  double rate = 0;   ///< Messages per second, steady; 0 = off (speed decides).
  std::chrono::nanoseconds heartbeat{std::chrono::seconds(1)};
  /// With speed: a wait between two packets longer than this (wall time) is cut to it, so the hours
  /// between a day's system events and its trading pass quickly (0: never cut).
  std::chrono::nanoseconds max_wait{0};
  double loss_a = 0;      ///< Fraction of packets not sent on feed A.
  double loss_b = 0;      ///< On feed B.
  double duplicates = 0;  ///< Fraction of packets sent twice (on each feed).
  std::chrono::nanoseconds b_delay{0};
  std::uint64_t seed = 1;
  const std::atomic<bool>* cancel = nullptr;  ///< Polled while waiting: stop when set.
  /// Receives schedule log text (see above); null = no log.
  std::function<void(std::string_view)> schedule_log;
};

struct replay_stats {
  std::uint64_t packets = 0;     ///< Mold packets given (each sent on every feed unless lost).
  std::uint64_t messages = 0;    ///< Messages in them.
  std::uint64_t sent = 0;        ///< Datagrams sent, all feeds, heartbeats and duplicates included.
  std::uint64_t heartbeats = 0;  ///< Heartbeat datagrams.
  std::uint64_t lost_a = 0;
  std::uint64_t lost_b = 0;
  std::uint64_t duplicated = 0;
  std::uint64_t max_late_ns = 0;  ///< Worst send time after due time.
  std::uint64_t first_sent_ns = 0;
  std::uint64_t last_sent_ns = 0;
};

class replayer {
 public:
  /// `a` and optionally `b` (null) must outlive the replayer.
  replayer(udp_sender& a, udp_sender* b, replay_options options);

  /// Sends the Mold packet `mold` (header and blocks) whose last message has feed time `feed_ns`; an end of
  /// session packet (count 0xFFFF) is sent by finish(), on schedule. Returns false when options.cancel asked
  /// to stop (nothing is sent then).
  bool send(std::span<const std::byte> mold, std::uint64_t feed_ns);
  /// Sends the end of session on every feed (after B's pending copies).
  void finish();

  [[nodiscard]] const replay_stats& stats() const noexcept { return stats_; }
  /// CLOCK_REALTIME ns since the epoch.
  [[nodiscard]] static std::uint64_t now_ns() noexcept;

 private:
  bool wait_until(std::uint64_t due);
  void heartbeat();
  void flush_b(std::uint64_t until);
  bool chance(double p);
  void put(udp_sender& feed, std::span<const std::byte> mold);

  udp_sender* a_;
  udp_sender* b_;
  replay_options options_;
  replay_stats stats_;
  std::uint64_t rng_;
  bool started_ = false;
  std::uint64_t start_ns_ = 0;
  std::uint64_t first_feed_ns_ = 0;
  std::uint64_t prev_feed_ns_ = 0;
  std::uint64_t cut_ns_ = 0;  // feed time taken out by max_wait
  std::uint64_t last_send_ns_ = 0;
  std::byte session_[10]{};
  std::uint64_t next_seq_ = 1;
  struct delayed {
    std::uint64_t due;
    std::vector<std::byte> bytes;
  };
  std::deque<delayed> pending_b_;
  std::vector<std::vector<std::byte>> spare_;
};

}  // namespace itch5::net
