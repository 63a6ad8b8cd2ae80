#include <itch5/inside/run_inside.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <itch5/detail/endian.hpp>
#include <itch5/io/chunk_ring.hpp>
#include <itch5/dispatch.hpp>
#include <itch5/message_header.hpp>
#include <itch5/peek.hpp>

#include <itch5/book/book_engine.hpp>
#include <itch5/book/detail/book_record.hpp>
#include <itch5/book/book_types.hpp>
#include <itch5/book/detail/locate_array.hpp>
#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>
#include <itch5/book/inside_line.hpp>
#include <itch5/inside/slowest_messages.hpp>

namespace itch5::inside {
namespace {

using book::anomaly;
using book::anomaly_counts;
using book::book_engine;
using book::book_event;
using book::format_bid;
using book::format_offer;
using book::max_inside_line;
using book::order_book;
using book::price_level;
using book::side_kind;

// The symbol as printed: trailing spaces trimmed, anything unprintable or a space inside replaced by '?',
// so a malformed symbol can never break the space-separated line format.
std::string printable_symbol(const itch5::stock_symbol& s) {
  std::string out(s.str());
  if (out.empty()) return "?";
  for (char& c : out) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) c = '?';
  }
  return out;
}

std::string upper_case(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::unordered_set<std::string> symbol_filter(const std::vector<std::string>& symbols) {
  std::unordered_set<std::string> out;
  for (const auto& s : symbols) out.insert(upper_case(s));
  return out;
}

// What a book thread hands to the merger for one batch of messages besides its lines: its statistics and
// depth samples, each tagged with the index of its message in the batch, so that the merger can feed them
// to the statistics in message order. Stands in for feed_statistics and depth_statistics in a shard's
// observer (the same record() calls).
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

// Formats inside lines into a buffer and hands full buffers to a sink: the per-locate line text, the
// timestamp's cached high digits, the line count. Used on the books' thread by observer (inline output),
// or on a line thread of its own fed by line_thread.
class line_formatter {
 public:
  line_formatter(line_sink& sink, std::size_t buffer_bytes)
      : sink_(sink), buffer_size_(std::max<std::size_t>(buffer_bytes, min_buffer_size)),
        buffer_(std::make_unique_for_overwrite<char[]>(buffer_size_)) {}

  /// Sets up the line text of `locate` (both sides empty), named `name` (printable, see printable_symbol).
  void name(std::uint16_t locate, std::string_view name) {
    line_text& t = lines_text_[locate];
    const std::string prefix = " " + std::to_string(locate) + " " + std::string(name) + " ";
    std::memcpy(t.prefix.chars.data(), prefix.data(), prefix.size());
    t.prefix.size = static_cast<std::uint32_t>(prefix.size());
    set(t.bid, format_bid(t.bid.chars.data(), price_level{}));
    set(t.offer, format_offer(t.offer.chars.data(), price_level{}));
  }

  /// The best level of `side` of `locate` is now `best`; with `line`, also writes the symbol's line.
  void change(itch5::timestamp ts, std::uint16_t locate, side_kind side, const price_level& best, bool line) {
    line_text& t = lines_text_[locate];
    if (side == side_kind::buy) {
      set(t.bid, format_bid(t.bid.chars.data(), best));
    } else {
      set(t.offer, format_offer(t.offer.chars.data(), best));
    }
    if (line) write_line(ts, t);
  }

  void flush() {
    if (used_ > 0) sink_.write({buffer_.get(), used_});
    used_ = 0;
  }

  /// At the end of a run: hands the rest to the sink; returns the lines written (as line_thread::finish).
  std::uint64_t finish() {
    flush();
    return lines_;
  }

  [[nodiscard]] std::uint64_t lines() const noexcept { return lines_; }
  /// Bytes of lines formatted and not yet handed to the sink.
  [[nodiscard]] std::size_t buffered() const noexcept { return used_; }

 private:
  static constexpr std::size_t min_buffer_size = 4096;  // book_config::output_buffer_bytes below this: 4096

  // A piece of line text, copied with a fixed-size memcpy (no call): the longest piece is 21 characters.
  struct text {
    static constexpr std::size_t capacity = 32;
    std::array<char, capacity> chars{};
    std::uint32_t size = 0;
  };

  // The text of a symbol's line as of its last inside change. An event changes one side, so only that
  // side is formatted again and the rest is copied; the result is what format_inside_line() writes.
  struct line_text {
    text prefix;  // " <locate> <symbol> "
    text bid;     // "<px> <qty>"
    text offer;
  };

  static void set(text& t, const char* end) noexcept { t.size = static_cast<std::uint32_t>(end - t.chars.data()); }

  static char* put(char* out, const text& t) noexcept {
    std::memcpy(out, t.chars.data(), text::capacity);
    return out + t.size;
  }

  // The timestamp, with its digits above the last eight (they change every 100 ms) kept from the last line.
  char* put_timestamp(char* out, itch5::timestamp ts) noexcept {
    const auto ns = static_cast<std::uint64_t>(ts.count());
    if (ns < 100'000'000) return itch5::detail::format_decimal(out, ns);
    const std::uint64_t high = ns / 100'000'000;
    if (high != timestamp_high_) {
      timestamp_high_ = high;
      set(timestamp_text_, itch5::detail::format_decimal(timestamp_text_.chars.data(), high));
    }
    out = put(out, timestamp_text_);
    return itch5::detail::format_8_digits(out, static_cast<std::uint32_t>(ns % 100'000'000));
  }

  void write_line(itch5::timestamp ts, const line_text& t) {
    if (used_ + max_inside_line + text::capacity > buffer_size_) flush();
    char* out = buffer_.get() + used_;
    out = put_timestamp(out, ts);
    out = put(out, t.prefix);
    out = put(out, t.bid);
    *out++ = ' ';
    out = put(out, t.offer);
    *out++ = '\n';
    used_ = static_cast<std::size_t>(out - buffer_.get());
    ++lines_;
  }

  line_sink& sink_;
  book::detail::locate_array<line_text> lines_text_ = book::detail::locate_array<line_text>::zeroed();
  std::uint64_t timestamp_high_ = ~std::uint64_t{0};
  text timestamp_text_;
  std::size_t buffer_size_;
  std::unique_ptr<char[]> buffer_;
  std::size_t used_ = 0;
  std::uint64_t lines_ = 0;
};

// Inside lines formatted and written on a thread of their own (run_loop with one book thread and nothing
// that times messages): the books' thread only records each change (24 bytes) in chunks and hands full
// chunks over; the line thread runs a line_formatter over them, in order, and writes to the sink. The
// output is byte for byte that of the inline formatter (tests: LineThread*). The producer side has the
// formatter's interface as run_loop uses it (name, change, finish); finish() hands over the rest, waits for
// the thread and rethrows what the sink threw there. After a sink error the thread drops later chunks and failed()
// turns true, so that the run can stop early.
class line_thread {
 public:
  line_thread(line_sink& sink, std::size_t buffer_bytes)
      : formatter_(sink, buffer_bytes), filling_(chunks_.to_fill()), thread_([this] { consume(); }) {}
  line_thread(const line_thread&) = delete;
  line_thread& operator=(const line_thread&) = delete;
  ~line_thread() {
    if (thread_.joinable()) {
      try {
        finish();
      } catch (...) {  // an error already reported, or none to report: a destructor cannot throw
      }
    }
  }

  void name(std::uint16_t locate, std::string_view name) {
    record& r = next();
    r.kind = record::named;
    r.locate = locate;
    r.name_size = static_cast<std::uint8_t>(std::min(name.size(), sizeof r.name));
    std::memcpy(r.name, name.data(), r.name_size);
  }

  void change(itch5::timestamp ts, std::uint16_t locate, side_kind side, const price_level& best, bool line) {
    record& r = next();
    r.kind = line ? record::line : record::text_only;
    r.side = side;
    r.locate = locate;
    r.price = best.price.units();
    r.shares = best.shares;
    r.timestamp = ts.count();
  }

  /// Hands over the rest, waits for the line thread to write it, and rethrows the sink's error if any.
  /// Lines written (all of them, once finish() returned).
  std::uint64_t finish() {
    publish(true);
    thread_.join();
    if (error_) std::rethrow_exception(error_);
    return formatter_.lines();
  }

  /// Whether the sink failed (the lines from then on are dropped; finish() rethrows the error).
  [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

 private:
  struct record {
    enum kind_type : std::uint8_t { line, text_only, named };
    std::int64_t timestamp;  // line, text_only: the event's timestamp (ns)
    union {
      std::uint64_t shares;  // line, text_only: the new best level of `side`
      char name[8];          // named: the symbol as printed (name_size characters)
    };
    std::uint32_t price;
    std::uint16_t locate;
    kind_type kind;
    union {
      side_kind side;
      std::uint8_t name_size;
    };
  };
  static_assert(sizeof(record) == 24);
  static constexpr std::size_t chunk_records = 2048;  // 48 KB
  struct chunk {
    std::array<record, chunk_records> records;
    std::size_t count;
    bool last;
  };
  static constexpr std::uint64_t ring = 16;  // chunks in flight

  record& next() {
    if (used_ == chunk_records) publish(false);
    record* const records = filling_->records.data();
    if (used_ + 16 < chunk_records) book::detail::prefetch_for_write(records + used_ + 16);
    return records[used_++];
  }

  // Hands the chunk being filled to the line thread and takes the next (waiting while all chunks are in
  // the line thread's hands).
  void publish(bool last) {
    filling_->count = used_;
    filling_->last = last;
    chunks_.publish(last);
    used_ = 0;
    if (!last) filling_ = chunks_.to_fill();
  }

  void consume() {
    for (;;) {
      const chunk& c = chunks_.to_read();
      const bool last = c.last;
      if (!error_) {
        try {
          for (std::size_t i = 0; i < c.count; ++i) apply(c.records[i]);
          if (last) formatter_.flush();
        } catch (...) {
          error_ = std::current_exception();
          failed_.store(true, std::memory_order_relaxed);
        }
      }
      chunks_.release();
      if (last) return;
    }
  }

  void apply(const record& r) {
    if (r.kind == record::named) {
      formatter_.name(r.locate, std::string_view(r.name, r.name_size));
      return;
    }
    formatter_.change(itch5::timestamp(r.timestamp), r.locate, r.side, price_level{itch5::price4(r.price), r.shares},
                      r.kind == record::line);
  }

  line_formatter formatter_;  // used by the line thread only (and by finish() after joining it)
  io::chunk_ring<chunk, ring> chunks_;
  chunk* filling_;        // the chunk being filled (producer; never stopped, so never null)
  std::size_t used_ = 0;  // records in it
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;  // written by the line thread, read after joining it
  std::thread thread_;        // last: starts once everything above is constructed
};

// The observer of a book engine: which locates make lines and samples (the symbol filter), the time range,
// and the inside changes handed to `Out` (line_formatter on this thread, or line_thread).
// Shard: the observer of one of several book threads (run_sharded), whose samples go to shard_samples and
// whose engine leaves timestamp checks to the thread that reads the whole stream.
template <class Book, bool Timed, bool Depth, bool Shard = false, class Out = line_formatter>
class observer {
  using feed_type = std::conditional_t<Shard, shard_samples, stats::feed_statistics>;
  using depth_type = std::conditional_t<Shard, shard_samples, stats::depth_statistics>;

 public:
  static constexpr bool wants_book_depth = Depth;
  static constexpr bool checks_timestamps = !Shard;

  observer(const inside_options& opt, Out& out, feed_type* feed, depth_type* depth)
      : out_(out), stats_all_(opt.stats_all_events), from_(opt.from), to_(opt.to), depth_(depth), stats_(feed),
        filter_(symbol_filter(opt.symbols)) {}

  void on_book_event(const book_event& e, const order_book<Book>& b) {
    if (!wanted(e.locate, b)) return;
    if (e.timestamp < from_ || e.timestamp >= to_) [[unlikely]] {
      // Outside the range: no line or sample, but the symbol's line text follows its inside, so that the
      // first line in the range shows both sides as they are.
      if (e.inside_changed) out_.change(e.timestamp, e.locate, e.side, last_of(e.side, b), false);
      return;
    }
    if (e.inside_changed) out_.change(e.timestamp, e.locate, e.side, last_of(e.side, b), true);
    if constexpr (Depth) depth_->record(e.locate, e.event_depth, e.book_depth);
    if constexpr (Timed) {
      if (stats_all_ || e.inside_changed) {
        pending_ = true;
        pending_locate_ = e.locate;
        pending_time_ = e.timestamp;
        pending_latency_ = latency_;
      }
    }
  }

  // After a timed message: records its processing time if it produced a sampled event.
  void end_message(std::chrono::nanoseconds took) {
    if (!pending_) return;
    pending_ = false;
    stats_->record(pending_locate_, pending_time_, took);
    if (pending_latency_ != itch5::io::latency_queue::none) {
      stats_->record_latency(pending_locate_, std::chrono::nanoseconds(pending_latency_));
    }
  }

  /// The feed latency of the message being handled (latency_queue::none when unknown).
  void set_latency(std::int64_t latency) noexcept { latency_ = latency; }

  [[nodiscard]] std::string name_of(std::uint16_t locate) const {
    const auto it = names_.find(locate);
    return it != names_.end() && !it->second.empty() ? it->second : "?";
  }

 private:
  enum : std::uint8_t { unknown = 0, yes = 1, no = 2 };

  static const price_level& last_of(side_kind side, const order_book<Book>& b) noexcept {
    return side == side_kind::buy ? b.last.bid : b.last.offer;
  }

  // Whether the events of `locate` make lines and samples; the first event of a locate learns it (cold).
  bool wanted(std::uint16_t locate, const order_book<Book>& b) {
    const std::uint8_t st = state_[locate];
    if (st != unknown) [[likely]] return st == yes;
    return learn(locate, b);
  }

  [[gnu::noinline, gnu::cold]] bool learn(std::uint16_t locate, const order_book<Book>& b) {
    // wanted() calls this only for a locate still unknown.
    std::uint8_t& st = state_[locate];
    const std::string& name = names_[locate] = printable_symbol(b.symbol);
    st = filter_.empty() || filter_.count(upper_case(b.symbol.str())) > 0 ? yes : no;
    if (st == yes) out_.name(locate, name);
    return st == yes;
  }

  Out& out_;
  bool stats_all_;
  itch5::timestamp from_;
  itch5::timestamp to_;
  depth_type* depth_;
  feed_type* stats_;
  std::unordered_set<std::string> filter_;
  // Per locate: unknown, yes or no (zeroed: unknown).
  book::detail::locate_array<std::uint8_t> state_ = book::detail::locate_array<std::uint8_t>::zeroed();
  std::unordered_map<std::uint16_t, std::string> names_;  // locates learned, for the statistics rows
  bool pending_ = false;
  std::uint16_t pending_locate_ = 0;
  itch5::timestamp pending_time_{};
  std::int64_t latency_ = itch5::io::latency_queue::none;
  std::int64_t pending_latency_ = itch5::io::latency_queue::none;
};

// How many messages ahead of the one being handled each prefetch stage of book_engine looks (run_loop and
// the book threads of run_sharded).
constexpr int prefetch_far_distance = 16;
constexpr int prefetch_level_distance = 5;

// A cursor that stays about `distance` frames ahead of the reader inside its current block, handing each
// frame it passes to a prefetch function once. It never reads beyond the block; at a block boundary it
// simply starts again from the reader's position.
template <int distance>
class frame_cursor {
 public:
  template <class F>
  void advance(const itch5::message_reader& reader, F&& prefetch) {
    const std::span<const std::byte> unread = reader.lookahead();
    const std::byte* const begin = unread.data();
    const std::byte* const end = begin + unread.size();
    if (reader.block_number() != block_ || at_ < begin) {
      block_ = reader.block_number();
      at_ = begin;
      ahead_ = 0;
    } else if (ahead_ > 0) {
      --ahead_;  // the reader took one frame
    }
    constexpr std::size_t prefix = itch5::frame_length_size;
    while (ahead_ < distance && static_cast<std::size_t>(end - at_) >= prefix) {
      const std::size_t len = itch5::peek_frame_length(at_);
      if (len == 0 || static_cast<std::size_t>(end - at_) < len + prefix) break;
      prefetch(std::span<const std::byte>(at_ + prefix, len));
      at_ += len + prefix;
      ++ahead_;
    }
  }

 private:
  std::uint64_t block_ = ~std::uint64_t{0};
  const std::byte* at_ = nullptr;
  int ahead_ = 0;
};

// The feed latency of the message the reader framed last: the queue holds one entry per framed message,
// unknown types (which next() skips) included, so the entries of skipped messages are dropped on the way.
// `taken` counts the entries taken so far.
inline std::int64_t take_latency(itch5::io::latency_queue& q, std::uint64_t& taken, std::uint64_t framed) {
  std::int64_t latency = itch5::io::latency_queue::none;
  for (; taken < framed; ++taken) latency = q.pop();
  return latency;
}

// The end of a run, shared by run_loop and run_sharded: the requested symbols that no book named, and the
// statistics and depth tables (CSV and/or histograms, as asked) with symbol names from `name_of`.
template <class NameOf>
void finish_result(const inside_options& opt, const std::unordered_set<std::string>& seen,
                   stats::feed_statistics* feed, stats::depth_statistics* depth, const NameOf& name_of,
                   inside_result& r) {
  for (const auto& s : symbol_filter(opt.symbols)) {
    if (seen.count(s) == 0) r.symbols_not_seen.push_back(s);
  }
  std::sort(r.symbols_not_seen.begin(), r.symbols_not_seen.end());
  if (feed) {
    stats::feed_table t = feed->finish(name_of);
    if (opt.stats) r.stats_csv = stats::feed_csv(t);
    if (opt.histograms) r.histograms.feed = std::move(t);
  }
  if (depth) {
    stats::depth_table t = depth->table(name_of);
    if (opt.depth) r.depth_csv = stats::depth_csv(t);
    if (opt.histograms) r.histograms.depth = std::move(t);
  }
}

// The end of every run: how the reader ended and what it counted.
void reader_counts(itch5::message_reader& reader, inside_result& r) {
  r.status = reader.status();
  if (r.status == itch5::read_status::error) r.error = reader.error();
  if (r.status == itch5::read_status::end_of_session) r.data_after_end_of_session = reader.data_after_end_of_session();
  r.messages = reader.messages();
  r.unknown_types = reader.unknown_total();
  r.oversized = reader.oversized();
}

// The end of a run with one book thread (run_loop, run_decoded): the reader's and the engine's counts,
// then finish_result.
template <class Engine, class Observer>
void finish_single(itch5::message_reader& reader, const Engine& engine, const Observer& obs,
                   const inside_options& opt, stats::feed_statistics* feed, stats::depth_statistics* depth,
                   inside_result& r) {
  reader_counts(reader, r);
  r.book_events = engine.book_events();
  r.inside_changes = engine.inside_changes();
  r.anomalies = engine.anomalies();
  r.peak_live_orders = engine.orders().peak_size();
  r.order_table_bytes = engine.orders().memory_bytes();
  std::unordered_set<std::string> seen;
  for (std::size_t locate = 0; locate < engine.book_slots(); ++locate) {
    if (const auto* b = engine.find_book(static_cast<std::uint16_t>(locate))) seen.insert(upper_case(b->symbol.str()));
  }
  finish_result(opt, seen, feed, depth, [&obs](std::uint16_t locate) { return obs.name_of(locate); }, r);
}

// One book thread: the calling thread reads, keeps the books and hands the inside changes to `Out`, which
// formats the lines there (line_formatter) or on a line thread (line_thread).
template <class Book, bool Timed, bool Depth, class Out>
void run_loop(itch5::message_reader& reader, const inside_options& opt, line_sink& sink,
              const progress_callback& progress, inside_result& r) {
  constexpr bool threaded_lines = std::is_same_v<Out, line_thread>;
  std::unique_ptr<stats::feed_statistics> feed = Timed ? std::make_unique<stats::feed_statistics>() : nullptr;
  std::unique_ptr<stats::depth_statistics> depth = Depth ? std::make_unique<stats::depth_statistics>() : nullptr;
  Out out(sink, opt.books.output_buffer_bytes);
  using observer_type = observer<Book, Timed, Depth, false, Out>;
  observer_type obs(opt, out, feed.get(), depth.get());
  book_engine<Book, observer_type> engine(opt.books, obs);

  // Two-stage software prefetch: 16 messages ahead the order slot and the book of the message's locate
  // start loading; 5 ahead the price level it will update (and that level's occupancy word) starts
  // loading, found from the order and the book (now cached). The second stage needs what the first
  // loaded, so the misses of a message overlap those of the next dozen instead of coming one after the
  // other. (docs/performance.md, "Prefetches the compiler deleted" and "One prefetch stage fewer": a third
  // stage between them, which looked the order up to find its book, cost more than it saved; with it gone,
  // level distances of 5 and 8 were alike and 3 slower, far distances of 12-24 alike.)
  frame_cursor<prefetch_far_distance> far;
  frame_cursor<prefetch_level_distance> level;
  itch5::io::latency_queue* const latencies = Timed ? opt.latencies : nullptr;
  if (feed && latencies != nullptr) feed->enable_latency();
  std::uint64_t latencies_taken = 0;  // one per framed message, unknown types (skipped by next()) included
  slowest_messages slow(opt.slowest);
  const bool timing = opt.slowest > 0;  // time each message for `slow` (always when Timed)
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) {
    if constexpr (Timed) {
      if (latencies != nullptr) {
        obs.set_latency(take_latency(*latencies, latencies_taken, reader.messages()));
      }
    }
    far.advance(reader, [&](std::span<const std::byte> f) { engine.prefetch_far(f); });
    level.advance(reader, [&](std::span<const std::byte> f) { engine.prefetch_level(f); });
    ++r.messages_by_type[static_cast<unsigned char>(itch5::peek_type(msg))];
    if (Timed || timing) {
      const auto t0 = std::chrono::steady_clock::now();
      itch5::dispatch_unchecked(msg.data(), engine);
      const auto took = std::chrono::steady_clock::now() - t0;
      if constexpr (Timed) obs.end_message(took);
      slow.offer(reader.messages(), static_cast<char>(itch5::peek_type(msg)), took);
    } else {
      itch5::dispatch_unchecked(msg.data(), engine);
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
  r.lines = out.finish();
  r.slowest = slow.sorted();
  finish_single(reader, engine, obs, opt, feed.get(), depth.get(), r);
}


// ---- One book thread fed by a decode thread (threads == 1, nothing timed) ----
//
// In run_loop the books' thread also reads: it frames every message (message_reader::next), frames it
// again for each of the prefetch stages (frame_cursor) and decodes it from big-endian, about half of
// its instructions (cachegrind, 2 M day: ~250 of ~540 a message). With nothing timed (no statistics, no
// slowest; their times cover decoding), run_decoded moves all of that to a thread of its own: the decode
// thread frames each message of a known type, counts it by type, decodes it into a book::detail::book_record
// (40 bytes of native fields) and hands the records over in chunks; the books' thread walks the records,
// runs the prefetch stages on the records 16 and 5 ahead, and replays each into the engine as the
// message it was (book::detail::replay). The engine sees the messages run_loop gives it, in the same order, so
// the lines, anomaly counts and every count of the result are run_loop's (tests: DecodeThread*). Progress
// and the cancel flag are polled on the decode thread, after the same messages as in run_loop.
class decode_thread {
 public:
  static constexpr std::size_t chunk_records = 4096;  // 160 KB
  static constexpr std::uint64_t ring = 8;            // chunks in flight

  struct chunk {
    std::array<book::detail::book_record, chunk_records> records;
    std::size_t count;
    bool last;
  };

  decode_thread(itch5::message_reader& reader, const inside_options& opt, const progress_callback& progress)
      : reader_(reader), cancel_(opt.cancel), progress_(progress), thread_([this] { produce(); }) {}
  decode_thread(const decode_thread&) = delete;
  decode_thread& operator=(const decode_thread&) = delete;
  ~decode_thread() { stop(); }

  /// The next chunk of records (books' thread), waiting for the decode thread if need be. After a chunk
  /// whose `last` is set, call no more.
  const chunk& next() { return chunks_.to_read(); }

  /// Hands the chunk next() gave back to the decode thread.
  void release() { chunks_.release(); }

  /// Stops the decode thread (if still running) and waits for it. Idempotent.
  void stop() {
    if (!thread_.joinable()) return;
    chunks_.stop();
    thread_.join();
  }

  /// After the last chunk: waits for the thread, rethrows what it threw, and adds its counts to `r`.
  void finish(inside_result& r) {
    stop();
    if (error_) std::rethrow_exception(error_);
    for (std::size_t t = 0; t < by_type_.size(); ++t) r.messages_by_type[t] += by_type_[t];
    if (cancelled_) r.cancelled = true;
  }

 private:
  void produce() {
    // Counted here, on the decode thread's own stack, and handed over at the end: the object lives on the
    // books' thread's stack, whose lines a write per message would take from that thread's core.
    std::array<std::uint64_t, 256> by_type{};
    bool last = false;
    while (!last) {
      chunk* const c = chunks_.to_fill();
      if (c == nullptr) break;  // stopped
      std::size_t n = 0;
      try {
        std::span<const std::byte> msg;
        while (n < chunk_records) {
          if (reader_.next(msg) != itch5::read_status::message) {
            last = true;
            break;
          }
          ++by_type[static_cast<unsigned char>(itch5::peek_type(msg))];
          book::detail::record_encoder encode{&c->records[n++]};
          itch5::dispatch_unchecked(msg.data(), encode);
          if ((reader_.messages() & 0xffff) == 0) [[unlikely]] {
            if (progress_) progress_(reader_);
            if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
              cancelled_ = true;
              last = true;
              break;
            }
          }
        }
      } catch (...) {
        error_ = std::current_exception();
        last = true;
      }
      c->count = n;
      c->last = last;
      chunks_.publish(last);
    }
    by_type_ = by_type;  // finish() reads it after joining this thread
  }

  itch5::message_reader& reader_;
  const std::atomic<bool>* cancel_;
  const progress_callback& progress_;
  io::chunk_ring<chunk, ring> chunks_;
  std::array<std::uint64_t, 256> by_type_{};  // set by the decode thread as it ends (finish() reads it after joining)
  bool cancelled_ = false;                    // likewise
  std::exception_ptr error_;                  // likewise
  std::thread thread_;  // last: starts once everything above is constructed
};

// How many records ahead run_decoded starts loading a record: they were written on another core.
constexpr std::size_t record_prefetch_distance = 64;

// One book thread fed by a decode_thread (see there); `Out` as in run_loop.
template <class Book, bool Depth, class Out>
void run_decoded(itch5::message_reader& reader, const inside_options& opt, line_sink& sink,
                 const progress_callback& progress, inside_result& r) {
  constexpr bool threaded_lines = std::is_same_v<Out, line_thread>;
  std::unique_ptr<stats::depth_statistics> depth = Depth ? std::make_unique<stats::depth_statistics>() : nullptr;
  using observer_type = observer<Book, false, Depth, false, Out>;
  // The line output, observer and engine in one block of the heap, not on this thread's stack: there, run
  // for run, the same build took 1.15 s or 1.40 s on the 20 M day depending only on where the stack
  // happened to start (address randomisation; with it turned off, shifting the frame by 512-byte steps
  // gave 1.08-1.27 s), while on the heap it took 1.09-1.23 s at every offset tried. The cause was not
  // found (no hardware counters on the machines measured); the placement is what mattered.
  struct books_state {
    Out out;
    observer_type obs;
    book_engine<Book, observer_type> engine;
    books_state(line_sink& sink, const inside_options& opt, stats::depth_statistics* d)
        : out(sink, opt.books.output_buffer_bytes), obs(opt, out, nullptr, d), engine(opt.books, obs) {}
  };
  const auto state = std::make_unique<books_state>(sink, opt, depth.get());
  Out& out = state->out;
  observer_type& obs = state->obs;
  book_engine<Book, observer_type>& engine = state->engine;
  decode_thread decoded(reader, opt, progress);
  for (;;) {
    const decode_thread::chunk& c = decoded.next();
    const book::detail::book_record* const rec = c.records.data();
    const std::size_t n = c.count;
    // The prefetch stages of run_loop, at the same distances, within the chunk (4,096 records: the first
    // 16 of a chunk miss the far stage, 0.4%).
    for (std::size_t j = 0; j < n; ++j) {
      if (j + record_prefetch_distance < n) book::detail::prefetch(&rec[j + record_prefetch_distance]);
      if (j + prefetch_far_distance < n) {
        const book::detail::book_record& a = rec[j + prefetch_far_distance];
        engine.prefetch_far(a.type, a.ref, a.locate);
      }
      if (j + prefetch_level_distance < n) {
        const book::detail::book_record& a = rec[j + prefetch_level_distance];
        engine.prefetch_level(a.type, a.ref, a.locate, a.side, itch5::price4(a.price));
      }
      book::detail::replay(rec[j], engine);
    }
    const bool last = c.last;
    decoded.release();
    if (last) break;
    if constexpr (threaded_lines) {
      if (out.failed()) break;  // finish() below rethrows the sink's error
    }
  }
  decoded.stop();
  r.lines = out.finish();
  decoded.finish(r);
  finish_single(reader, engine, obs, opt, nullptr, depth.get(), r);
}


// ---- Several book threads (inside_options::threads > 1) ----
//
// The calling thread reads and frames the stream (message_reader, as in run_loop), checks every message's
// timestamp, and copies the frames of dispatched messages into batches; it is also book thread 0, which
// handles its share of each batch right after publishing it to the others. Each of the N book threads walks
// every frame of each batch and handles the order messages (A F E C X D U) of its stock locates and every
// stock directory message (which names a locate's book; cheap, and the locate may have no owner yet):
// these are all that touch a book; the rest only have their timestamp checked. The reading thread decides
// the owner of each message (see owner_of). A thread formats its lines into its own buffer of the batch, noting the batch index of the
// message of each line (a message makes at most one line), and likewise its statistics and depth samples
// and each message's change of its live order count. The calling thread merges the threads' outputs of a
// batch in message order: lines written, samples fed to one feed_statistics and depth_statistics, live
// order counts summed, so that everything but the measured processing times is what run_loop gives.
// Order references are unique per day and every order message carries its order's locate, so each order
// lives in one thread's order table; input that breaks this (a reference reused across locates, an order
// message whose locate is not its order's) can count other anomalies than one thread does.

constexpr std::uint32_t batch_messages = 16384;         // messages per batch (at most)
constexpr std::size_t batch_bytes = std::size_t{1} << 19;  // frame bytes per batch (about; one frame more)
constexpr std::size_t batch_slots = 8;                   // batches in flight: read, in the book threads, merged

// Which book thread handles a message of a batch: a thread's number, or one of these.
constexpr std::uint8_t to_none = 0xff;  // no book (only its timestamp counts, checked by the reader)
constexpr std::uint8_t to_all = 0xfe;   // stock directory: every thread names the locate's book

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

class string_sink final : public line_sink {
 public:
  void write(std::string_view lines) override { target->append(lines); }
  std::string* target = nullptr;
};

// The timestamp checks of book_engine, over the whole stream.
struct timestamp_check {
  void operator()(const std::byte* msg) noexcept {
    const itch5::timestamp ts(
        static_cast<std::int64_t>(itch5::detail::load_be48(msg + itch5::message_header::timestamp_offset)));
    if (ts < last) [[unlikely]] anomalies.count(anomaly::timestamp_backwards);
    if (ts >= itch5::one_day) [[unlikely]] anomalies.count(anomaly::timestamp_beyond_day);
    last = ts;
  }
  itch5::timestamp last{0};
  anomaly_counts anomalies;
};

template <class Book, bool Timed, bool Depth>
class shard {
 public:
  using observer_type = observer<Book, Timed, Depth, true>;

  shard(const inside_options& opt, unsigned index)
      : index_(static_cast<std::uint8_t>(index)), lines_(sink_, opt.books.output_buffer_bytes),
        obs_(opt, lines_, &samples_, &samples_), engine_(opt.books, obs_) {}

  void handle(const batch& in, shard_output& out) {
    // The frames of this thread's locates, then those messages with the prefetch of run_loop.
    mine_.clear();
    const std::byte* const base = in.frames.data();
    std::size_t at = 0;
    for (std::uint32_t i = 0; i < in.count; ++i) {
      const std::size_t len = itch5::peek_frame_length(base + at);
      const std::uint8_t owner = in.owner[i];
      if (owner == index_ || owner == to_all) {
        mine_.push_back({static_cast<std::uint32_t>(at + itch5::frame_length_size), i});
      }
      at += len + itch5::frame_length_size;
    }
    out.lines.clear();
    out.line_index.clear();
    out.line_end.clear();
    out.live_delta.assign(in.count, 0);
    samples_.feed.clear();
    samples_.depth.clear();
    sink_.target = &out.lines;
    auto frame = [&](std::size_t j) {
      const std::byte* m = base + mine_[j].offset;
      return std::span<const std::byte>(m, itch5::peek_frame_length(m - itch5::frame_length_size));
    };
    const std::size_t n = mine_.size();
    std::uint64_t lines = lines_.lines();
    for (std::size_t j = 0; j < n; ++j) {
      if (j + prefetch_far_distance < n) engine_.prefetch_far(frame(j + prefetch_far_distance));
      if (j + prefetch_level_distance < n) engine_.prefetch_level(frame(j + prefetch_level_distance));
      const std::uint32_t i = mine_[j].index;
      const std::byte* m = base + mine_[j].offset;
      samples_.index = i;
      const std::size_t live = engine_.orders().size();
      if constexpr (Timed) {
        const auto t0 = std::chrono::steady_clock::now();
        itch5::dispatch_unchecked(m, engine_);
        obs_.end_message(std::chrono::steady_clock::now() - t0);
      } else {
        itch5::dispatch_unchecked(m, engine_);
      }
      out.live_delta[i] = static_cast<std::int8_t>(static_cast<std::ptrdiff_t>(engine_.orders().size()) -
                                                   static_cast<std::ptrdiff_t>(live));
      if (lines_.lines() != lines) {
        lines = lines_.lines();
        out.line_index.push_back(i);
        out.line_end.push_back(static_cast<std::uint32_t>(out.lines.size() + lines_.buffered()));
      }
    }
    lines_.flush();
    std::swap(out.samples.feed, samples_.feed);
    std::swap(out.samples.depth, samples_.depth);
  }

  [[nodiscard]] const observer_type& obs() const noexcept { return obs_; }
  [[nodiscard]] std::uint64_t lines() const noexcept { return lines_.lines(); }
  [[nodiscard]] const book_engine<Book, observer_type>& engine() const noexcept { return engine_; }

 private:
  struct mine {
    std::uint32_t offset;  // of the message (its type byte) in the batch
    std::uint32_t index;   // in the batch
  };

  std::uint8_t index_;
  string_sink sink_;
  line_formatter lines_;
  shard_samples samples_;
  observer_type obs_;
  book_engine<Book, observer_type> engine_;
  std::vector<mine> mine_;
};

template <class Book, bool Timed, bool Depth>
void run_sharded(itch5::message_reader& reader, const inside_options& opt, line_sink& sink,
                 const progress_callback& progress, inside_result& r) {
  using shard_type = shard<Book, Timed, Depth>;
  const unsigned n = opt.threads;
  std::vector<std::unique_ptr<shard_type>> shards;
  for (unsigned s = 0; s < n; ++s) shards.push_back(std::make_unique<shard_type>(opt, s));
  std::array<batch, batch_slots> batches;
  for (batch& b : batches) {
    b.frames.resize(batch_bytes + itch5::frame_length_size + 0xffff);
    b.owner.resize(batch_messages);
  }
  std::vector<std::array<shard_output, batch_slots>> outputs(n);

  // Batches published to the book threads; the top bit set when no more will come.
  constexpr std::uint64_t no_more = std::uint64_t{1} << 63;
  std::atomic<std::uint64_t> published{0};
  std::vector<std::unique_ptr<std::atomic<std::uint64_t>>> done;  // batches handled, per thread
  for (unsigned s = 0; s < n; ++s) done.push_back(std::make_unique<std::atomic<std::uint64_t>>(0));
  std::vector<std::exception_ptr> failures(n);

  std::vector<std::thread> threads;
  // Stops and joins the book threads however this function is left.
  struct joiner {
    std::atomic<std::uint64_t>& published;
    std::vector<std::thread>& threads;
    ~joiner() {
      published.fetch_or(no_more);
      published.notify_all();
      for (auto& t : threads) t.join();
    }
  } join_at_exit{published, threads};
  // Book thread 0 is the reading thread itself (it handles its share of a batch right after publishing
  // it); threads 1..N-1 are started here.
  for (unsigned s = 1; s < n; ++s) {
    threads.emplace_back([&, s] {
      try {
        for (std::uint64_t k = 0;; ++k) {
          std::uint64_t p = published.load(std::memory_order_acquire);
          while ((p & ~no_more) <= k) {
            if ((p & no_more) != 0) return;
            published.wait(p, std::memory_order_acquire);
            p = published.load(std::memory_order_acquire);
          }
          shards[s]->handle(batches[k % batch_slots], outputs[s][k % batch_slots]);
          done[s]->store(k + 1, std::memory_order_release);
          done[s]->notify_one();
        }
      } catch (...) {
        failures[s] = std::current_exception();
        done[s]->store(~std::uint64_t{0}, std::memory_order_release);  // never wait for this thread again
        done[s]->notify_one();
      }
    });
  }

  std::unique_ptr<stats::feed_statistics> feed = Timed ? std::make_unique<stats::feed_statistics>() : nullptr;
  std::unique_ptr<stats::depth_statistics> depth = Depth ? std::make_unique<stats::depth_statistics>() : nullptr;
  itch5::io::latency_queue* const latencies = Timed ? opt.latencies : nullptr;
  if (feed && latencies != nullptr) feed->enable_latency();

  const std::size_t out_limit = std::max<std::size_t>(opt.books.output_buffer_bytes, 4096);
  std::string out;
  out.reserve(out_limit + 4096);
  std::int64_t live = 0;
  std::int64_t peak = 0;
  std::vector<std::size_t> at(n);

  // Waits for batch k in every book thread, then writes its lines and feeds its samples in message order.
  auto merge = [&](std::uint64_t k) {
    for (unsigned s = 0; s < n; ++s) {
      std::uint64_t d = done[s]->load(std::memory_order_acquire);
      while (d <= k) {
        done[s]->wait(d, std::memory_order_acquire);
        d = done[s]->load(std::memory_order_acquire);
      }
      if (failures[s]) std::rethrow_exception(failures[s]);
    }
    const batch& b = batches[k % batch_slots];
    const std::size_t slot = k % batch_slots;
    // Lines: take from the thread with the earliest message, as long as it stays the earliest.
    std::fill(at.begin(), at.end(), 0);
    for (;;) {
      unsigned best = n;
      std::uint32_t best_index = ~std::uint32_t{0};
      std::uint32_t second = ~std::uint32_t{0};
      for (unsigned s = 0; s < n; ++s) {
        const shard_output& o = outputs[s][slot];
        if (at[s] == o.line_index.size()) continue;
        const std::uint32_t i = o.line_index[at[s]];
        if (i < best_index) {
          second = best_index;
          best_index = i;
          best = s;
        } else if (i < second) {
          second = i;
        }
      }
      if (best == n) break;
      const shard_output& o = outputs[best][slot];
      const std::size_t first = at[best];
      std::size_t last = first;
      while (last < o.line_index.size() && o.line_index[last] < second) ++last;
      const std::size_t from = first == 0 ? 0 : o.line_end[first - 1];
      const std::size_t to = o.line_end[last - 1];
      if (out.size() + (to - from) > out_limit && !out.empty()) {
        sink.write(out);
        out.clear();
      }
      out.append(o.lines, from, to - from);
      at[best] = last;
    }
    // Feed statistics in message order (the aggregate's arrival times and rates depend on it).
    if constexpr (Timed) {
      std::fill(at.begin(), at.end(), 0);
      for (;;) {
        unsigned best = n;
        std::uint32_t best_index = ~std::uint32_t{0};
        for (unsigned s = 0; s < n; ++s) {
          const auto& f = outputs[s][slot].samples.feed;
          if (at[s] < f.size() && f[at[s]].index < best_index) {
            best_index = f[at[s]].index;
            best = s;
          }
        }
        if (best == n) break;
        const shard_samples::feed_sample& x = outputs[best][slot].samples.feed[at[best]++];
        feed->record(x.locate, x.ts, x.took);
        if (latencies != nullptr && b.latencies[x.index] != itch5::io::latency_queue::none) {
          feed->record_latency(x.locate, std::chrono::nanoseconds(b.latencies[x.index]));
        }
      }
    }
    // Depth histograms do not depend on the order of their samples.
    if constexpr (Depth) {
      for (unsigned s = 0; s < n; ++s) {
        for (const auto& x : outputs[s][slot].samples.depth) depth->record(x.locate, x.event_depth, x.book_depth);
      }
    }
    // Live orders after every message: the peak of the sum of the threads' counts.
    for (std::uint32_t i = 0; i < b.count; ++i) {
      std::int64_t delta = 0;
      for (unsigned s = 0; s < n; ++s) delta += outputs[s][slot].live_delta[i];
      live += delta;
      peak = std::max(peak, live);
    }
  };

  timestamp_check timestamps;
  // Locates go to threads as their first order message comes, each to the thread with the fewest order
  // messages so far: the most active symbols, which trade early and often, are spread first, and the
  // others fill in behind them. (A fixed locate % 2 put 59% of the book work of the 20 M generated day of
  // seed 3 on one thread, 72% of the 2 M day's messages: their most active symbols happen to have even
  // locates; this puts 54%.) The output does not depend on the assignment, only the balance does.
  std::vector<std::uint8_t> owners(std::size_t{1} << 16, to_none);
  // Load in eighths of a book message: thread 0 also reads, frames, copies and merges every message, and
  // is charged 1 per message read. Measured on 2 cores (docs/performance.md, Book threads): charging the
  // reading thread 1/8 of a book message per message read beats 1/4 by 1.10x on the 50 M generated day
  // (seed 1) and 1.06x on the 20 M day (seed 3); 1/6 to 1/12 are alike, 1/16 and no charge are slower.
  // The other threads have costs of their own (frames written by another core, their own order tables),
  // so the reading thread's overhead weighs less than its ~20 ns a message suggests.
  constexpr std::uint64_t book_message_cost = 8;
  std::vector<std::uint64_t> load(n, 0);
  auto owner_of = [&](std::span<const std::byte> msg) -> std::uint8_t {
    const char type = itch5::peek_type(msg);
    if (type == itch5::stock_directory::type) return to_all;
    if (!itch5::is_order_message(type)) return to_none;
    std::uint8_t& o = owners[itch5::peek_stock_locate(msg)];
    if (o == to_none) [[unlikely]] {
      // The least loaded; on a tie the highest number, so that the first (most active) symbols of the
      // day go to the threads that do not also read.
      o = static_cast<std::uint8_t>(n - 1);
      for (unsigned s = n - 1; s-- > 0;) {
        if (load[s] < load[o]) o = static_cast<std::uint8_t>(s);
      }
    }
    load[o] += book_message_cost;
    return o;
  };
  std::uint64_t next_batch = 0;  // the batch being filled
  std::uint64_t merged = 0;      // batches merged
  batch* b = &batches[0];
  auto publish = [&] {
    ++next_batch;
    published.store(next_batch, std::memory_order_release);
    published.notify_all();
    shards[0]->handle(batches[(next_batch - 1) % batch_slots], outputs[0][(next_batch - 1) % batch_slots]);
    done[0]->store(next_batch, std::memory_order_relaxed);
    if (next_batch - merged == batch_slots) merge(merged++);  // the slot to fill next must be free
    b = &batches[next_batch % batch_slots];
    b->used = 0;
    b->count = 0;
    b->latencies.clear();
  };

  std::uint64_t latencies_taken = 0;
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) {
    if constexpr (Timed) {
      if (latencies != nullptr) {
        b->latencies.push_back(take_latency(*latencies, latencies_taken, reader.messages()));
      }
    }
    ++r.messages_by_type[static_cast<unsigned char>(itch5::peek_type(msg))];
    timestamps(msg.data());
    ++load[0];
    b->owner[b->count] = owner_of(msg);
    std::byte* to = b->frames.data() + b->used;
    to[0] = static_cast<std::byte>(msg.size() >> 8);
    to[1] = static_cast<std::byte>(msg.size() & 0xff);
    std::memcpy(to + itch5::frame_length_size, msg.data(), msg.size());
    b->used += msg.size() + itch5::frame_length_size;
    if (++b->count == batch_messages || b->used >= batch_bytes) publish();
    if ((reader.messages() & 0xffff) == 0) [[unlikely]] {
      if (progress) progress(reader);
      if (opt.cancel != nullptr && opt.cancel->load(std::memory_order_relaxed)) {
        r.cancelled = true;
        break;
      }
    }
  }
  if (b->count > 0) publish();
  while (merged < next_batch) merge(merged++);
  if (!out.empty()) sink.write(out);

  reader_counts(reader, r);
  r.anomalies = timestamps.anomalies;
  for (const auto& sh : shards) {
    r.book_events += sh->engine().book_events();
    r.inside_changes += sh->engine().inside_changes();
    r.lines += sh->lines();
    r.anomalies += sh->engine().anomalies();
    r.order_table_bytes += sh->engine().orders().memory_bytes();
  }
  r.peak_live_orders = static_cast<std::size_t>(peak);
  std::unordered_set<std::string> seen;
  for (const auto& sh : shards) {
    for (std::size_t locate = 0; locate < sh->engine().book_slots(); ++locate) {
      if (const auto* bk = sh->engine().find_book(static_cast<std::uint16_t>(locate))) {
        seen.insert(upper_case(bk->symbol.str()));
      }
    }
  }
  auto name_of = [&](std::uint16_t locate) {
    const std::uint8_t o = owners[locate];
    return shards[o == to_none ? 0 : o]->obs().name_of(locate);
  };
  finish_result(opt, seen, feed.get(), depth.get(), name_of, r);
}

}  // namespace

inside_result run_inside(itch5::message_reader& reader, const inside_options& options, line_sink& out,
                         const progress_callback& progress) {
  inside_result r;
  if (options.threads == 0 || options.threads > max_threads) {
    throw std::invalid_argument("run_inside: threads must be between 1 and " + std::to_string(max_threads));
  }
  if (options.slowest > 0 && options.threads > 1) {
    throw std::invalid_argument("run_inside: slowest needs threads == 1 (book threads time batches, not messages)");
  }
  book::with_book_type(options.book, [&]<class Book>() {
    auto run = [&]<bool Timed, bool Depth>() {
      if (options.threads == 1) {
        // Lines on a thread of their own unless messages are timed (statistics, slowest), whose times
        // include formatting the line.
        if constexpr (!Timed) {
          if (options.slowest == 0) {
            // From gzip on two cores the inflater keeps the second core busy, and a decode thread beside it
            // costs more than it saves: there the books' thread reads the inflated blocks itself, and only
            // the lines get a thread of their own (50 M day, ISA-L: 3.21 s with a decode thread and the
            // lines on the books' thread, 3.02 s so; 20 M day 1.27 s and 1.24 s; neither 3.51 s and 1.30 s).
            const bool cores_to_spare = !reader.compressed() || std::thread::hardware_concurrency() > 2;
            if (options.decode_thread && cores_to_spare) {
              if (options.line_thread) {
                run_decoded<Book, Depth, line_thread>(reader, options, out, progress, r);
              } else {
                run_decoded<Book, Depth, line_formatter>(reader, options, out, progress, r);
              }
              return;
            }
            if (options.line_thread) {
              run_loop<Book, Timed, Depth, line_thread>(reader, options, out, progress, r);
              return;
            }
          }
        }
        run_loop<Book, Timed, Depth, line_formatter>(reader, options, out, progress, r);
      } else {
        run_sharded<Book, Timed, Depth>(reader, options, out, progress, r);
      }
    };
    if ((options.stats && options.depth) || options.histograms) {
      run.template operator()<true, true>();
    } else if (options.stats) {
      run.template operator()<true, false>();
    } else if (options.depth) {
      run.template operator()<false, true>();
    } else {
      run.template operator()<false, false>();
    }
  });
  return r;
}

}  // namespace itch5::inside
