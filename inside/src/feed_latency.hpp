// The feed latency of each message for the statistics (inside_options::latencies), taken from a capture
// stream's queue as the reader frames messages. O(1) amortised per message; one thread.
#pragma once

#include <cstdint>

#include <itch5/io/capture.hpp>

namespace itch5::inside {

// The feed latency of the message the reader framed last: the queue holds one entry per framed message,
// unknown types (which next() skips) included, so the entries of skipped messages are dropped on the way.
// `taken` counts the entries taken so far.
inline std::int64_t take_latency(itch5::io::latency_queue& q, std::uint64_t& taken, std::uint64_t framed) {
  std::int64_t latency = itch5::io::latency_queue::none;
  for (; taken < framed; ++taken) latency = q.pop();
  return latency;
}

}  // namespace itch5::inside
