// One book thread fed by a decode_thread (decode_thread.hpp): the books' thread walks the decoded records,
// runs the prefetch stages of run_loop on the records 16 and 5 ahead, and replays each into the engine as
// the message it was (book::detail::replay); the inside changes go to `Out` as in run_loop. Used when no
// decode thread is ruled out (choose_strategy, strategy.hpp). Instantiated per book type, statistics
// configuration, `Out` and `Tables` (the table outputs too, inside_options::tables: the decode thread then
// hands over whole the messages whose records drop what the tables read, decode_thread.hpp).
//
// Timed (feed statistics): the books' thread reads event_clock once per record, first thing in the record's
// iteration (before the prefetch stages: there the 20 M day's --stats took 1.81-1.95 s, against 1.90-2.09 s
// with the reading between them and the replay), and a message's processing time is the books' thread's time
// from its record to the next one: replaying it into the books, detecting inside changes, handing a change to
// the line thread (or formatting it), the prefetch stages for the records ahead, and storing the statistics
// sample of the message before for the sample thread (sample_thread.hpp; the statistics are computed there,
// outside the time). The last record of a chunk ends with one more reading before the chunk is handed back,
// so that waiting for the decode thread never counts. Decoding (on the decode thread) and formatting on the
// line thread are not in the time; docs/formats.md, "Processing".
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>

#include <itch5/dispatch.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/price.hpp>

#include <itch5/book/book_engine.hpp>
#include <itch5/book/detail/book_record.hpp>
#include <itch5/book/detail/prefetch.hpp>
#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>
#include <itch5/inside/line_sink.hpp>
#include <itch5/inside/run_inside.hpp>

#include "decode_thread.hpp"
#include "event_clock.hpp"
#include "frame_cursor.hpp"
#include "line_thread.hpp"
#include "outputs.hpp"
#include "result_assembly.hpp"

namespace itch5::inside {

// How many records ahead run_decoded starts loading a record: they were written on another core.
inline constexpr std::size_t record_prefetch_distance = 64;

// One book thread fed by a decode_thread (see there); `Out` as in run_loop.
template <class Book, bool Timed, bool Depth, class Out, bool Tables = false>
void run_decoded(itch5::message_reader& reader, const inside_options& opt, line_sink& sink,
                 const progress_callback& progress, inside_result& r) {
  constexpr bool threaded_lines = std::is_same_v<Out, line_thread>;
  std::unique_ptr<stats::feed_statistics> feed = Timed ? std::make_unique<stats::feed_statistics>() : nullptr;
  std::unique_ptr<stats::depth_statistics> depth =
      Depth ? std::make_unique<stats::depth_statistics>() : nullptr;
  using observer_type = single_observer<Book, Timed, Depth, Out, Tables>;
  // The line output, observer and engine in one block of the heap, not on this thread's stack: there, run
  // for run, the same build took 1.15 s or 1.40 s on the 20 M day depending only on where the stack
  // happened to start (address randomisation; with it turned off, shifting the frame by 512-byte steps
  // gave 1.08-1.27 s), while on the heap it took 1.09-1.23 s at every offset tried. The cause was not
  // found (no hardware counters on the machines measured); the placement is what mattered.
  struct books_state {
    Out out;
    observer_type obs;
    book::book_engine<Book, observer_type> engine;
    books_state(line_sink& sink, const inside_options& opt, sample_thread* s)
        : out(sink, opt.books.output_buffer_bytes),
          obs(opt, {out}, {s}, {opt, s}, {opt}),
          engine(opt.books, obs) {}
  };
  std::optional<sample_thread> samples;  // the statistics' own thread (Timed or Depth)
  if (Timed || Depth) samples.emplace(feed.get(), depth.get());
  const auto state = std::make_unique<books_state>(sink, opt, samples ? &*samples : nullptr);
  Out& out = state->out;
  observer_type& obs = state->obs;
  book::book_engine<Book, observer_type>& engine = state->engine;
  const event_clock clock = Timed ? event_clock::calibrated() : event_clock::steady();
  decode_thread decoded(reader, opt, progress, Tables);
  for (;;) {
    const decode_thread::chunk& c = decoded.next();
    const book::detail::book_record* const rec = c.records.data();
    const std::size_t n = c.count;
    [[maybe_unused]] std::uint64_t started = 0;  // Timed: the reading before the record being replayed
    // The prefetch stages of run_loop, at the same distances, within the chunk (4,096 records: the first
    // 16 of a chunk miss the far stage, 0.4%).
    for (std::size_t j = 0; j < n; ++j) {
      if constexpr (Timed) {
        const std::uint64_t t = clock.now();
        if (j > 0) obs.end_message(clock.to_ns(t - started));
        started = t;
      }
      if (j + record_prefetch_distance < n) book::detail::prefetch(&rec[j + record_prefetch_distance]);
      if (j + prefetch_far_distance < n) {
        const book::detail::book_record& a = rec[j + prefetch_far_distance];
        engine.prefetch_far(a.type, a.ref, a.locate);
      }
      if (j + prefetch_level_distance < n) {
        const book::detail::book_record& a = rec[j + prefetch_level_distance];
        engine.prefetch_level(a.type, a.ref, a.locate, a.side, itch5::price4(a.price));
      }
      if constexpr (Tables) {
        if (rec[j].side == decode_thread::whole_mark) {
          itch5::dispatch_unchecked(c.frames.data() + rec[j].other, engine);
          continue;
        }
      }
      book::detail::replay(rec[j], engine);
    }
    if constexpr (Timed) {
      if (n > 0) obs.end_message(clock.to_ns(clock.now() - started));
    }
    const bool last = c.last;
    decoded.release();
    if (last) break;
    if constexpr (threaded_lines) {
      if (out.failed()) break;  // finish() below rethrows the sink's error
    }
  }
  decoded.stop();
  obs.finish(opt, r);  // the lines (rethrowing a line thread's sink error), the depth table
  decoded.finish(r);
  finish_single(reader, engine, opt, r);
}

}  // namespace itch5::inside
