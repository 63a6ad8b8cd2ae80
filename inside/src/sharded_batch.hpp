// The unit of work of the sharded run (run_sharded.hpp): a batch of framed messages with the book thread
// of each, as the reading thread fills it, and what one book thread makes of it (shard_output) for the
// merger. Both are reused batch after batch (cleared, not freed), so a run allocates only while they grow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <itch5/peek.hpp>

#include "shard_samples.hpp"

namespace itch5::inside {

inline constexpr std::uint32_t batch_messages = 16384;            // messages per batch (at most)
inline constexpr std::size_t batch_bytes = std::size_t{1} << 19;  // frame bytes per batch (about; +1 frame)
inline constexpr std::size_t batch_slots = 8;  // batches in flight: read, in the book threads, merged

// Which book thread handles a message of a batch: a thread's number, or one of these.
inline constexpr std::uint8_t to_none = 0xff;  // no book (only its timestamp counts, checked by the reader)
inline constexpr std::uint8_t to_all = 0xfe;   // stock directory: every thread names the locate's book

struct batch {
  std::vector<std::byte> frames;    // as framed in the input: 2-byte big-endian length, then the message
  std::vector<std::uint8_t> owner;  // per message: the thread that handles it, to_none or to_all
  std::size_t used = 0;
  std::uint32_t count = 0;
  std::vector<std::int64_t> latencies;  // per message, when the statistics take feed latencies

  batch() : frames(batch_bytes + itch5::frame_length_size + 0xffff), owner(batch_messages) {}

  /// Appends `msg`, framed again, handled by book thread `thread` (or to_none, to_all); true when the
  /// batch is full. Room for one more message is always there: frames holds batch_bytes and a frame more.
  bool append(std::span<const std::byte> msg, std::uint8_t thread) noexcept {
    owner[count] = thread;
    std::byte* to = frames.data() + used;
    to[0] = static_cast<std::byte>(msg.size() >> 8);
    to[1] = static_cast<std::byte>(msg.size() & 0xff);
    std::memcpy(to + itch5::frame_length_size, msg.data(), msg.size());
    used += msg.size() + itch5::frame_length_size;
    return ++count == batch_messages || used >= batch_bytes;
  }

  /// Empties the batch for reuse (keeping its memory).
  void clear() noexcept {
    used = 0;
    count = 0;
    latencies.clear();
  }
};

// One book thread's output for one batch.
struct shard_output {
  std::string lines;
  std::vector<std::uint32_t> line_index;  // message index of each line
  std::vector<std::uint32_t> line_end;    // end of each line in `lines`
  shard_samples samples;
  std::vector<std::int8_t> live_delta;  // per message of the batch: change of the live order count
};

}  // namespace itch5::inside
