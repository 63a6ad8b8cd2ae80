// The single-thread runner: the calling thread reads the stream, frames each message, runs the two
// prefetch stages (frame_cursor) and keeps the books; the inside changes go to `Out`, which formats the
// lines there (line_formatter) or on a line thread (line_thread). Used when messages are timed with
// --slowest or a capture's latencies (their times never cover reading an input block) or no decode thread
// is wanted (choose_strategy, strategy.hpp). Instantiated per book type, statistics configuration and `Out`.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <type_traits>

#include <itch5/dispatch.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/peek.hpp>

#include <itch5/book/book_engine.hpp>
#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>
#include <itch5/inside/line_sink.hpp>
#include <itch5/inside/run_inside.hpp>
#include <itch5/inside/slowest_messages.hpp>

#include "day_events.hpp"
#include "event_clock.hpp"
#include "feed_latency.hpp"
#include "frame_cursor.hpp"
#include "line_thread.hpp"
#include "outputs.hpp"
#include "result_assembly.hpp"

namespace itch5::inside {

// One book thread: the calling thread reads, keeps the books and hands the inside changes to `Out`, which
// formats the lines there (line_formatter) or on a line thread (line_thread). With `Tables`, the table
// outputs too (inside_options::tables).
template <class Book, bool Timed, bool Depth, class Out, bool Tables = false>
void run_loop(itch5::message_reader& reader, const inside_options& opt, line_sink& sink,
              const progress_callback& progress, inside_result& r) {
  constexpr bool threaded_lines = std::is_same_v<Out, line_thread>;
  std::unique_ptr<stats::feed_statistics> feed = Timed ? std::make_unique<stats::feed_statistics>() : nullptr;
  std::unique_ptr<stats::depth_statistics> depth =
      Depth ? std::make_unique<stats::depth_statistics>() : nullptr;
  itch5::io::latency_queue* const latencies = Timed ? opt.latencies : nullptr;
  if (feed && latencies != nullptr) feed->enable_latency();
  std::optional<sample_thread> samples;  // the statistics' own thread (Timed or Depth)
  if (Timed || Depth) samples.emplace(feed.get(), depth.get());
  Out out(sink, opt.books.output_buffer_bytes);
  using observer_type = single_observer<Book, Timed, Depth, Out, Tables>;
  sample_thread* const s = samples ? &*samples : nullptr;
  observer_type obs(opt, {out}, {s}, {opt, s}, {opt});
  book::book_engine<Book, observer_type> engine(opt.books, obs);

  // Two-stage software prefetch: 16 messages ahead the order slot and the book of the message's locate
  // start loading; 5 ahead the price level it will update (and that level's occupancy word) starts
  // loading, found from the order and the book (now cached). The second stage needs what the first
  // loaded, so the misses of a message overlap those of the next dozen instead of coming one after the
  // other. (docs/performance.md, "Prefetches the compiler deleted" and "One prefetch stage fewer": a third
  // stage between them, which looked the order up to find its book, cost more than it saved; with it gone,
  // level distances of 5 and 8 were alike and 3 slower, far distances of 12-24 alike.)
  frame_cursor<prefetch_far_distance> far;
  frame_cursor<prefetch_level_distance> level;
  std::uint64_t latencies_taken = 0;  // one per framed message, unknown types (skipped by next()) included
  slowest_messages slow(opt.slowest);
  const bool timing = opt.slowest > 0;  // time each message for `slow` (always when Timed)
  const event_clock clock = Timed || timing ? event_clock::calibrated() : event_clock::steady();
  day_events events;
  std::span<const std::byte> msg;
  const auto block_end = threaded_lines ? nullptr : opt.block_end;  // live feeds: lines out per packet
  // Timed: one clock reading per message, once it is framed (before its prefetch stages, as in run_decoded);
  // it also ends the time of the message before (`open`), whose sample is then stored. A message whose next
  // frame is not whole in the current input block ends with a reading of its own, so that reading a block
  // (waiting for the disk or the inflater) is never in a time; so does the message before a progress report.
  // (Two readings per message took ~0.3 s more of the 20 M-message day's books' thread.)
  [[maybe_unused]] std::uint64_t started = 0;  // the reading before the open message
  [[maybe_unused]] bool open = false;
  [[maybe_unused]] std::uint64_t open_number = 0;
  [[maybe_unused]] char open_type = 0;
  const auto close = [&](std::uint64_t now) {
    const std::chrono::nanoseconds took = clock.to_ns(now - started);
    if constexpr (Timed) obs.end_message(took);
    slow.offer(open_number, open_type, took);
    open = false;
  };
  while (reader.next(msg) == itch5::read_status::message) {
    if constexpr (Timed) {
      if (latencies != nullptr) {
        obs.set_latency(take_latency(*latencies, latencies_taken, reader.messages()));
      }
    }
    if (Timed || timing) {
      const std::uint64_t t = clock.now();
      if (open) close(t);
      started = t;
    }
    far.advance(reader, [&](std::span<const std::byte> f) { engine.prefetch_far(f); });
    level.advance(reader, [&](std::span<const std::byte> f) { engine.prefetch_level(f); });
    count_message(r.messages_by_type, events, msg);
    if (Timed || timing) {
      itch5::dispatch_unchecked(msg.data(), engine);
      open = true;
      open_number = reader.messages();
      open_type = static_cast<char>(itch5::peek_type(msg));
      if (!reader.next_frame_buffered() || (reader.messages() & 0xffff) == 0) [[unlikely]]
        close(clock.now());
    } else {
      itch5::dispatch_unchecked(msg.data(), engine);
    }
    if constexpr (!threaded_lines) {
      if (block_end != nullptr && reader.lookahead().empty()) [[unlikely]] {
        out.flush();
        block_end(opt.block_end_context, reader.messages());
      }
    }
    if ((reader.messages() & 0xffff) == 0) [[unlikely]] {
      if (progress) progress(reader);
      if (opt.cancel != nullptr && opt.cancel->load(std::memory_order_relaxed)) {
        r.cancelled = true;
        break;
      }
      if constexpr (threaded_lines) {
        if (out.failed()) break;  // finish() below rethrows the sink's error
      }
    }
  }
  if ((Timed || timing) && open) close(clock.now());
  events.add_to(r);
  obs.finish(opt, r);  // the lines (rethrowing a line thread's sink error), the statistics tables
  r.slowest = slow.sorted();
  finish_single(reader, engine, opt, r);
}

}  // namespace itch5::inside
