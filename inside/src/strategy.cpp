#include <itch5/inside/strategy.hpp>

namespace itch5::inside {

strategy choose_strategy(const inside_options& options, bool compressed_input,
                         unsigned hardware_threads) noexcept {
  strategy s;
  s.timed = options.stats || options.histograms;
  s.depth = options.depth || options.histograms;
  // The tables keep one book thread (the decode thread, when it is there, hands it whole the messages the
  // tables read beyond the records: decode_thread.hpp).
  const bool tables = options.tables.any();
  if (tables) {
    s.tables = true;
    s.line_thread = options.line_thread && options.slowest == 0 && !(s.timed && options.latencies != nullptr);
  } else if (options.threads > 1) {
    s.sharded = true;
    return s;
  }
  // --slowest times each message from before its decoding to after its line is formatted, and a capture's
  // feed latencies come with the framed messages: those runs keep every step on the books' thread. Feed
  // statistics alone are timed on the books' thread of a decode-thread run too (run_decoded.hpp: the time
  // from one record to the next), so they keep the helper threads.
  if (options.slowest > 0 || (s.timed && options.latencies != nullptr)) return s;
  // From gzip on two cores the inflater keeps the second core busy, and a decode thread beside it costs
  // more than it saves: there the books' thread reads the inflated blocks itself, and only the lines get a
  // thread of their own (50 M day, ISA-L: 3.21 s with a decode thread and the lines on the books' thread,
  // 3.02 s so; 20 M day 1.27 s and 1.24 s; neither 3.51 s and 1.30 s).
  // Likewise the N-level book's rows: their formatting takes the second core when the caller writes them on
  // a sink thread (itch5inside --book-levels; 20 M day to /dev/null, 3 rounds: 3.80-3.94 s without a decode
  // thread, 4.08-4.30 s with one).
  const bool second_core_taken =
      hardware_threads <= 2 && options.tables.book_levels != nullptr && options.tables.writer != nullptr;
  const bool cores_to_spare = (!compressed_input || hardware_threads > 2) && !second_core_taken;
  s.decode_thread = options.decode_thread && cores_to_spare;
  if (!tables) s.line_thread = options.line_thread;
  return s;
}

}  // namespace itch5::inside
