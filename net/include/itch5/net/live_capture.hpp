// A live MoldUDP64 feed (one UDP endpoint, or two for an A/B pair) read as a capture: every datagram
// received becomes a pcap record (nanosecond timestamps = the kernel's receive time, raw IPv4 link type with
// the receiving port), and that capture goes through io::capture_input like a file's, so sequencing, A/B
// arbitration, gaps, --timestamp capture and feed latencies are the capture path's, unchanged.
//
// What a live feed needs beyond a file:
// - a malformed datagram (shorter than the Mold header, a message count or a length that overruns it, a
//   zero length) cannot stop the run as a corrupt capture does: it is counted, reported (one line each, at
//   most max_reports) and skipped before it reaches the capture path;
// - the end: the stream ends when every feed has sent its end of session (count 0xFFFF), or `linger`
//   after the first end of session with nothing more received (the other feed's end was lost), or after
//   `idle` without any datagram, or when `cancel` is set (SIGINT): the capture path then hands on what it
//   holds and the run finishes as at the end of a file;
// - `tee`: the capture bytes are also handed there as they are made (itch5capture writes them to a file,
//   which itch5inside and itch5replay read back).
//
// The receivers are opened by live_input() (errors: endpoint_error, one line). Thread-safety: the stream is
// read by one thread; live_stats are atomics another thread may read.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/net/udp_receiver.hpp>

namespace itch5::net {

struct live_stats {
  std::atomic<std::uint64_t> datagrams{0};  ///< Received, all feeds.
  std::atomic<std::uint64_t> malformed{0};  ///< Skipped as not MoldUDP64.
  std::atomic<std::uint64_t> truncated{0};  ///< Longer than the receive buffer (also malformed).
  /// Why the stream ended: "end of session", "idle", "interrupted" ("" while running).
  std::string ended;  // written by the reading thread before the stream's end; read after it
};

struct live_options {
  std::vector<std::string> listen;  ///< [GROUP@]HOST:PORT, one or two.
  receiver_options receiver;
  std::chrono::nanoseconds idle{0};  ///< Stop after this long without a datagram (0: never).
  std::chrono::nanoseconds linger{std::chrono::milliseconds(500)};
  /// Wait for datagrams by asking the sockets again at once (recvmmsg without blocking, the clocks and
  /// `cancel` looked at between tries), never sleeping in poll(): the reading thread keeps a core busy and
  /// is not woken by the kernel, which on this project's VMs takes 10-20 us. false: sleep in poll().
  bool busy_poll = false;
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(const std::string&)> report;  ///< Malformed datagram lines; null = silent.
  std::size_t max_reports = 100;
  live_stats* stats = nullptr;
  std::function<void(std::string_view)> tee;  ///< Capture bytes as they are made; null = none.
};

/// The capture (pcap bytes) of the datagrams received on `options.listen`. Throws endpoint_error.
[[nodiscard]] std::unique_ptr<io::byte_stream> live_input(const live_options& options);

/// The BinaryFILE stream of the feed: capture_input(live_input(options), capture) with capture.live set.
[[nodiscard]] std::unique_ptr<io::byte_stream> live_capture(const live_options& options,
                                                            io::capture_options capture);

}  // namespace itch5::net
