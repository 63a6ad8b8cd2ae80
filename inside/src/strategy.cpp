#include <itch5/inside/strategy.hpp>

namespace itch5::inside {

strategy choose_strategy(const inside_options& options, bool compressed_input,
                         unsigned hardware_threads) noexcept {
  strategy s;
  s.timed = options.stats || options.histograms;
  s.depth = options.depth || options.histograms;
  // The tables take the messages themselves (not the decode thread's records) on one book thread.
  if (options.tables.any()) {
    s.tables = true;
    s.line_thread = options.line_thread && options.slowest == 0 && !(s.timed && options.latencies != nullptr);
    return s;
  }
  if (options.threads > 1) {
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
  const bool cores_to_spare = !compressed_input || hardware_threads > 2;
  s.decode_thread = options.decode_thread && cores_to_spare;
  s.line_thread = options.line_thread;
  return s;
}

}  // namespace itch5::inside
