// The decode thread of one book thread (run_decoded.hpp). In run_loop the books' thread also reads: it frames
// every message (message_reader::next), frames it again for each of the prefetch stages (frame_cursor) and
// decodes it from big-endian, about half of its instructions (cachegrind, 2 M day: ~250 of ~540 a message).
// Unless slowest (whose times cover decoding) or a capture's latencies are wanted, run_decoded moves all of
// that to a thread of its own: the decode thread frames each message of a known type, counts it by type,
// decodes it into a book::detail::book_record (40 bytes of native fields) and hands the records over in
// chunks; the books' thread walks the records, runs the prefetch stages on the records 16 and 5 ahead, and
// replays each into the engine as the message it was (book::detail::replay). The engine sees the messages
// run_loop gives it, in the same order, so the lines, anomaly counts and every count of the result are
// run_loop's (tests: DecodeThread*). Progress and the cancel flag are polled on the decode thread, after the
// same messages as in run_loop.
//
// With whole messages (a run with tables: trades, market-state events, LOBSTER read fields a record drops),
// the messages other than A, F, X, D and U are also copied whole into the chunk's `frames`, their record
// marked (side 'M', `other` the offset), and the books' thread hands the engine the message decoded from
// those bytes instead of the record: what the tables see is run_loop's message, field for field.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

#include <itch5/io/chunk_ring.hpp>
#include <itch5/message_reader.hpp>

#include <itch5/book/detail/book_record.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>
#include <itch5/inside/run_inside.hpp>

#include "day_events.hpp"

namespace itch5::inside {

class decode_thread {
 public:
  static constexpr std::size_t chunk_records = 4096;  // 160 KB
  static constexpr std::uint64_t ring = 8;            // chunks in flight

  /// Whole messages: their bytes per chunk, on average (a chunk ends early when a frame might not fit).
  static constexpr std::size_t frame_bytes_per_record = 64;
  /// The mark of a record whose message is in `frames` (book_record::side; A and F have 'B' or 'S').
  static constexpr char whole_mark = 'M';

  struct chunk {
    std::array<book::detail::book_record, chunk_records> records;
    std::size_t count;
    bool last;
    std::vector<std::byte> frames;  // whole messages (empty unless asked for)
  };

  /// With `whole_messages`, the messages the records do not keep whole come whole too (see above).
  decode_thread(itch5::message_reader& reader, const inside_options& opt, const progress_callback& progress,
                bool whole_messages = false);
  decode_thread(const decode_thread&) = delete;
  decode_thread& operator=(const decode_thread&) = delete;
  ~decode_thread() { stop(); }

  /// The next chunk of records (books' thread), waiting for the decode thread if need be. After a chunk
  /// whose `last` is set, call no more.
  const chunk& next() { return chunks_.to_read(); }

  /// Hands the chunk next() gave back to the decode thread.
  void release() { chunks_.release(); }

  /// Stops the decode thread (if still running) and waits for it. Idempotent.
  void stop();

  /// After the last chunk: waits for the thread, rethrows what it threw, and adds its counts to `r`.
  void finish(inside_result& r);

 private:
  void produce();  // the decode thread

  itch5::message_reader& reader_;
  const std::atomic<bool>* cancel_;
  const progress_callback& progress_;
  bool whole_messages_;
  io::chunk_ring<chunk, ring> chunks_;
  // Set by the decode thread as it ends (finish() reads them after joining it).
  std::array<std::uint64_t, 256> by_type_{};
  day_events events_;
  bool cancelled_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once everything above is constructed
};

}  // namespace itch5::inside
