// What a run of the itch5inside job is asked to do (run_inside.hpp): book type and tuning, symbol filter,
// time range, statistics and depth wanted, book threads and the helper threads of one book thread.
// Plain data, read once when the run starts; choose_strategy (strategy.hpp) turns it into the run's shape.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include <itch5/io/capture.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/book_config.hpp>

#include <itch5/inside/table_options.hpp>

namespace itch5::inside {

struct inside_options {
  std::string book = "array";  ///< a name from book::book_type_names()
  book::book_config books;     ///< tuning of the book sides
  /// Restrict output and statistics to these symbols (empty: all). Matched without regard to case: ITCH
  /// symbols are upper case, so "aapl" selects AAPL.
  std::vector<std::string> symbols;
  bool stats = false;             ///< collect feed statistics (result.stats_csv)
  bool stats_all_events = false;  ///< statistics sample every book event instead of inside changes
  bool depth = false;             ///< collect depth histograms (result.depth_csv)
  /// Keep the histograms behind both CSVs (result.histograms); implies stats and depth.
  bool histograms = false;
  /// Only book events with from <= timestamp < to make lines, statistics samples and depth samples; the
  /// books are always built from every message. The defaults take everything.
  itch5::timestamp from{0};
  itch5::timestamp to = itch5::timestamp::max();
  /// When set and true, the run stops early (polled every 64 Ki messages, like progress), with
  /// result.cancelled set and everything produced so far handed over as after an error.
  const std::atomic<bool>* cancel = nullptr;
  /// With stats: the feed latencies of the reader's messages, one per framed message in order (a capture
  /// stream's io::capture_options::latencies). Each statistics sample then also records its message's
  /// latency, and the statistics CSV gets the Latency columns. Must be null when stats is off (nothing
  /// would consume the queue).
  itch5::io::latency_queue* latencies = nullptr;
  /// Book threads. 1: the books are kept on the calling thread, message by message. N > 1: the calling
  /// thread reads the stream and hands batches of messages to N - 1 threads and itself, each keeping the
  /// books of some stock locates (a locate goes to the least busy thread when its first order comes), and
  /// merges their lines and samples back into message order:
  /// the output, statistics (but for the measured processing times), depth, anomaly counts and every count
  /// of the result are those of one thread (order_table_bytes aside: the sum of the N tables), provided
  /// each order message carries its order's stock locate and live references are unique across locates,
  /// as ITCH guarantees. Input that breaks this can differ: an add reusing a live reference of another
  /// locate is a duplicate_order to one thread, but a new order to a book thread that does not hold the
  /// first one; an E/C/X/D/U under another locate than its order's is an unknown_order there.
  unsigned threads = 1;
  /// With threads == 1 and no slowest (nor stats with latencies): format and write the lines on a thread of
  /// their own, which the books' thread hands each inside change to (24 bytes, in chunks), so that the books'
  /// thread does nothing else. false: the books' thread formats them itself. The output is the same.
  bool line_thread = true;
  /// With threads == 1 and no slowest (nor stats with latencies): read, frame and decode the messages on a
  /// thread of their own, which hands the books' thread each message as 40 bytes of decoded fields, in
  /// chunks. false: the books' thread reads the stream itself. The output and every count of the result are
  /// the same. Not used for compressed input on at most 2 hardware threads, where the inflater keeps the
  /// second core busy and a decode thread beside it cost more than it saved.
  bool decode_thread = true;
  /// Live feeds (itch5inside --listen --ready-times): when set, and the books' thread formats the lines
  /// itself (line_thread and decode_thread false, threads 1, no tables), then after the last message of each
  /// input block (a live packet) the lines formatted so far are handed to the sink and
  /// `block_end(block_end_context, messages read so far)` is called, on the books' thread. Null (the
  /// default): one test of a register per message, nothing else.
  void (*block_end)(void* context, std::uint64_t messages) = nullptr;
  void* block_end_context = nullptr;
  /// The tables besides the inside lines (trades, N-level book, market-state events). With any of them on,
  /// the run keeps one book thread, whatever `threads` says (with a decode thread by the rules above, which
  /// then hands over whole the messages the tables read beyond its records); the output is the same.
  table_options tables;
  /// Keep the `slowest` messages that took longest to handle (result.slowest), timing every message as
  /// stats does (without stats the clock reads are the only cost). Needs threads == 1.
  std::size_t slowest = 0;
};

/// The most book threads inside_options::threads may ask for.
inline constexpr unsigned max_threads = 64;

}  // namespace itch5::inside
