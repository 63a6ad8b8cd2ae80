// What a book thread of the sharded run (run_sharded.hpp) hands to the merger for one batch of messages
// besides its lines: its statistics and depth samples, each tagged with the index of its message in the
// batch, so that the merger can feed them to the statistics in message order. Stands in for
// stats::feed_statistics and stats::depth_statistics in a shard's outputs (the same record() calls).
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

namespace itch5::inside {

struct shard_samples {
  struct feed_sample {
    std::uint32_t index;
    std::uint16_t locate;
    std::chrono::nanoseconds ts;
    std::chrono::nanoseconds took;
  };
  struct depth_sample {
    std::uint32_t index;
    std::uint16_t locate;
    std::uint32_t event_depth;
    std::uint32_t book_depth;
  };

  void record(std::uint16_t locate, std::chrono::nanoseconds ts, std::chrono::nanoseconds took) {
    feed.push_back({index, locate, ts, took});
  }
  void record(std::uint16_t locate, std::uint32_t event_depth, std::uint32_t book_depth) {
    depth.push_back({index, locate, event_depth, book_depth});
  }
  // A shard's observer never has a latency (the merger adds them by message index).
  void record_latency(std::uint16_t, std::chrono::nanoseconds) noexcept {}

  std::uint32_t index = 0;  // of the message being handled
  std::vector<feed_sample> feed;
  std::vector<depth_sample> depth;
};

}  // namespace itch5::inside
