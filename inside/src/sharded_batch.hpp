// The unit of work of the sharded run (run_sharded.hpp): a batch of framed messages with the book thread
// of each, as the reading thread fills it, and what one book thread makes of it (shard_output) for the
// merger. Both are reused batch after batch (cleared, not freed), so a run allocates only while they grow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shard_samples.hpp"

namespace itch5::inside {

inline constexpr std::uint32_t batch_messages = 16384;         // messages per batch (at most)
inline constexpr std::size_t batch_bytes = std::size_t{1} << 19;  // frame bytes per batch (about; one frame more)
inline constexpr std::size_t batch_slots = 8;                   // batches in flight: read, in the book threads, merged

// Which book thread handles a message of a batch: a thread's number, or one of these.
inline constexpr std::uint8_t to_none = 0xff;  // no book (only its timestamp counts, checked by the reader)
inline constexpr std::uint8_t to_all = 0xfe;   // stock directory: every thread names the locate's book

struct batch {
  std::vector<std::byte> frames;  // as framed in the input: 2-byte big-endian length, then the message
  std::vector<std::uint8_t> owner;  // per message: the thread that handles it, to_none or to_all
  std::size_t used = 0;
  std::uint32_t count = 0;
  std::vector<std::int64_t> latencies;  // per message, when the statistics take feed latencies
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
