// The itch5inside job as a library call: read a stream, keep every book, write one line per inside change,
// and optionally collect feed statistics and depth histograms.
//
//   itch5::book::inside_options opt;                 // book type, window, symbol filter, statistics wanted
//   itch5::book::inside_result r = itch5::book::run_inside(reader, opt, sink, on_progress);
//
// Lines go to `sink` in chunks of complete lines (inside_line.hpp format), so a consumer never sees half a
// line, also when the input turns out to be corrupt halfway: the run stops at the first read error, hands
// over everything produced before it, and reports the error in the result. The book type is chosen at run
// time by name among itch5::book::all_book_types; the message loop is instantiated per book type and per
// statistics configuration, so the default run pays for no clock reads or depth queries.
//
// Processing time (with statistics on) is the steady-clock time from before decoding a message to after
// its book update, inside-change detection and output formatting.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/io/capture.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/anomaly_counts.hpp>
#include <itch5/book/book_config.hpp>
#include <itch5/book/slowest_messages.hpp>

#include <itch5/stats/histogram_file.hpp>

namespace itch5::book {

struct inside_options {
  std::string book = "array";        ///< a name from book_type_names()
  book_config books;                 ///< tuning of the book sides
  /// Restrict output and statistics to these symbols (empty: all). Matched without regard to case: ITCH
  /// symbols are upper case, so "aapl" selects AAPL.
  std::vector<std::string> symbols;
  bool stats = false;                ///< collect feed statistics (result.stats_csv)
  bool stats_all_events = false;     ///< statistics sample every book event instead of inside changes
  bool depth = false;                ///< collect depth histograms (result.depth_csv)
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
  /// With threads == 1 and neither stats nor slowest: format and write the lines on a thread of their own,
  /// which the books' thread hands each inside change to (24 bytes, in chunks), so that the books' thread
  /// does nothing else. false: the books' thread formats them itself. The output is the same.
  bool line_thread = true;
  /// With threads == 1 and neither stats nor slowest: read, frame and decode the messages on a thread of
  /// their own, which hands the books' thread each message as 40 bytes of decoded fields, in chunks. false:
  /// the books' thread reads the stream itself. The output and every count of the result are the same.
  /// Not used for compressed input on at most 2 hardware threads, where the inflater keeps the second
  /// core busy and a decode thread beside it cost more than it saved.
  bool decode_thread = true;
  /// Keep the `slowest` messages that took longest to handle (result.slowest), timing every message as
  /// stats does (without stats the clock reads are the only cost). Needs threads == 1.
  std::size_t slowest = 0;
};

/// The most book threads inside_options::threads may ask for.
inline constexpr unsigned max_threads = 64;

/// Receives output in chunks of complete lines.
class line_sink {
 public:
  virtual ~line_sink() = default;
  virtual void write(std::string_view lines) = 0;
};

struct inside_result {
  std::array<std::uint64_t, 256> messages_by_type{};  ///< framed messages of known types, by type byte
  std::uint64_t messages = 0;                         ///< all framed messages (unknown types included)
  std::uint64_t unknown_types = 0;
  std::uint64_t oversized = 0;
  std::uint64_t book_events = 0;
  std::uint64_t inside_changes = 0;  ///< all symbols
  std::uint64_t lines = 0;           ///< lines written (after the symbol filter)
  anomaly_counts anomalies;
  std::size_t peak_live_orders = 0;
  std::size_t order_table_bytes = 0;
  itch5::read_status status = itch5::read_status::end_of_input;
  itch5::read_error error;                 ///< when status == error
  bool data_after_end_of_session = false;  ///< when status == end_of_session
  std::string stats_csv;                   ///< when options.stats (also after an error: covers what was read)
  std::string depth_csv;                   ///< when options.depth
  /// When options.histograms: the histograms the two CSVs are formatted from (meta left empty).
  stats::statistics_histograms histograms;
  bool cancelled = false;                  ///< options.cancel stopped the run before the end of the input
  /// Requested symbols (upper case, as matched) that no message of the input named: neither a stock
  /// directory message nor an order.
  std::vector<std::string> symbols_not_seen;
  /// When options.slowest: the slowest messages, slowest first (the time from before decoding a message to
  /// after its book update and output formatting, as the statistics' Processing columns).
  std::vector<slow_message> slowest;
};

/// Called about every 64 Ki messages with the reader, for progress reports, on the thread that reads the
/// stream (with inside_options::decode_thread, not the calling thread).
using progress_callback = std::function<void(const itch5::message_reader&)>;

/// Runs the job. Throws std::invalid_argument for an unknown book type, threads == 0, or slowest with
/// threads > 1; never throws for bad input.
[[nodiscard]] inside_result run_inside(itch5::message_reader& reader, const inside_options& options, line_sink& out,
                                       const progress_callback& progress = {});

}  // namespace itch5::book
