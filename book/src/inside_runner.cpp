#include <book/inside_runner.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_set>

#include <itch5/dispatch.hpp>
#include <itch5/peek.hpp>

#include <book/book_engine.hpp>
#include <book/book_types.hpp>
#include <stats/depth_statistics.hpp>
#include <stats/feed_statistics.hpp>
#include <book/inside_line.hpp>

namespace book {
namespace {

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

template <class Book, bool Timed, bool Depth>
class observer {
 public:
  static constexpr bool wants_book_depth = Depth;

  observer(const inside_options& opt, line_sink& sink, stats::feed_statistics* feed, stats::depth_statistics* depth)
      : sink_(sink), stats_all_(opt.stats_all_events), from_(opt.from), to_(opt.to), depth_(depth), stats_(feed),
        filter_(symbol_filter(opt.symbols)),
        buffer_size_(std::max<std::size_t>(opt.books.output_buffer_bytes, min_buffer_size)),
        buffer_(std::make_unique_for_overwrite<char[]>(buffer_size_)) {}

  void on_book_event(const book_event& e, const order_book<Book>& b) {
    if (!wanted(e.locate, b)) return;
    if (e.timestamp < from_ || e.timestamp >= to_) [[unlikely]] {
      // Outside the range: no line or sample, but the symbol's line text follows its inside, so that the
      // first line in the range shows both sides as they are.
      if (e.inside_changed) update_line_text(e, b);
      return;
    }
    if (e.inside_changed) write_line(e, b);
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

  void flush() {
    if (used_ > 0) sink_.write({buffer_.get(), used_});
    used_ = 0;
  }

  [[nodiscard]] std::uint64_t lines() const noexcept { return lines_; }

  [[nodiscard]] std::string name_of(std::uint16_t locate) const {
    return locate < names_.size() && !names_[locate].empty() ? names_[locate] : "?";
  }

 private:
  static constexpr std::size_t min_buffer_size = 4096;  // book_config::output_buffer_bytes below this: 4096

  // A piece of line text, copied with a fixed-size memcpy (no call): the longest piece is 21 characters.
  struct text {
    static constexpr std::size_t capacity = 32;
    std::array<char, capacity> chars{};
    std::uint32_t size = 0;
  };

  // The text of a symbol's line as of its last inside change. An event changes one side, so only that
  // side is formatted again and the rest is copied; the result is what format_inside_line() writes. Kept
  // apart from the one-byte state looked up on every event, so that lookup stays in cache.
  struct line_text {
    text prefix;  // " <locate> <symbol> "
    text bid;     // "<px> <qty>"
    text offer;
  };

  enum : std::uint8_t { unknown = 0, yes = 1, no = 2 };

  bool wanted(std::uint16_t locate, const order_book<Book>& b) {
    if (locate >= state_.size()) [[unlikely]] {
      state_.resize(std::size_t{locate} + 1, unknown);
      lines_text_.resize(std::size_t{locate} + 1);
      names_.resize(std::size_t{locate} + 1);
    }
    std::uint8_t& st = state_[locate];
    if (st == unknown) [[unlikely]] {
      names_[locate] = printable_symbol(b.symbol);
      st = filter_.empty() || filter_.count(upper_case(b.symbol.str())) > 0 ? yes : no;
      line_text& t = lines_text_[locate];
      const std::string prefix = " " + std::to_string(locate) + " " + names_[locate] + " ";
      std::memcpy(t.prefix.chars.data(), prefix.data(), prefix.size());
      t.prefix.size = static_cast<std::uint32_t>(prefix.size());
      set(t.bid, format_bid(t.bid.chars.data(), price_level{}));
      set(t.offer, format_offer(t.offer.chars.data(), price_level{}));
    }
    return st == yes;
  }

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

  // Formats again the side of the symbol's line text that `e` changed.
  line_text& update_line_text(const book_event& e, const order_book<Book>& b) noexcept {
    line_text& t = lines_text_[e.locate];
    if (e.side == side_kind::buy) {
      set(t.bid, format_bid(t.bid.chars.data(), b.last.bid));
    } else {
      set(t.offer, format_offer(t.offer.chars.data(), b.last.offer));
    }
    return t;
  }

  void write_line(const book_event& e, const order_book<Book>& b) {
    if (used_ + max_inside_line + text::capacity > buffer_size_) flush();
    const line_text& t = update_line_text(e, b);
    char* out = buffer_.get() + used_;
    out = put_timestamp(out, e.timestamp);
    out = put(out, t.prefix);
    out = put(out, t.bid);
    *out++ = ' ';
    out = put(out, t.offer);
    *out++ = '\n';
    used_ = static_cast<std::size_t>(out - buffer_.get());
    ++lines_;
  }

  line_sink& sink_;
  bool stats_all_;
  itch5::timestamp from_;
  itch5::timestamp to_;
  stats::depth_statistics* depth_;
  stats::feed_statistics* stats_;
  std::unordered_set<std::string> filter_;
  std::vector<std::uint8_t> state_;     // per locate: unknown, yes (wanted), no
  std::vector<line_text> lines_text_;    // per locate, touched on inside changes only
  std::vector<std::string> names_;       // per locate, for the statistics rows
  std::uint64_t timestamp_high_ = ~std::uint64_t{0};
  text timestamp_text_;
  std::size_t buffer_size_;
  std::unique_ptr<char[]> buffer_;
  std::size_t used_ = 0;
  std::uint64_t lines_ = 0;
  bool pending_ = false;
  std::uint16_t pending_locate_ = 0;
  itch5::timestamp pending_time_{};
  std::int64_t latency_ = itch5::io::latency_queue::none;
  std::int64_t pending_latency_ = itch5::io::latency_queue::none;
};

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

template <class Book, bool Timed, bool Depth>
void run_loop(itch5::message_reader& reader, const inside_options& opt, line_sink& sink,
              const progress_callback& progress, inside_result& r) {
  std::unique_ptr<stats::feed_statistics> feed = Timed ? std::make_unique<stats::feed_statistics>() : nullptr;
  std::unique_ptr<stats::depth_statistics> depth = Depth ? std::make_unique<stats::depth_statistics>() : nullptr;
  observer<Book, Timed, Depth> obs(opt, sink, feed.get(), depth.get());
  book_engine<Book, observer<Book, Timed, Depth>> engine(opt.books, obs);

  // Two-stage software prefetch: 16 messages ahead the order slot (and an add's book) starts loading; 6
  // ahead the order is looked up (its slot now cached) and its book starts loading. Lookups of old orders
  // miss the cache whatever the layout; this overlaps those misses instead of waiting for each in turn.
  frame_cursor<16> far;
  frame_cursor<6> near;
  itch5::io::latency_queue* const latencies = Timed ? opt.latencies : nullptr;
  if (feed && latencies != nullptr) feed->enable_latency();
  std::uint64_t latencies_taken = 0;  // one per framed message, unknown types (skipped by next()) included
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) {
    if constexpr (Timed) {
      if (latencies != nullptr) {
        std::int64_t latency = itch5::io::latency_queue::none;
        for (; latencies_taken < reader.messages(); ++latencies_taken) latency = latencies->pop();
        obs.set_latency(latency);
      }
    }
    far.advance(reader, [&](std::span<const std::byte> f) { engine.prefetch_far(f); });
    near.advance(reader, [&](std::span<const std::byte> f) { engine.prefetch_near(f); });
    ++r.messages_by_type[static_cast<unsigned char>(itch5::peek_type(msg))];
    if constexpr (Timed) {
      const auto t0 = std::chrono::steady_clock::now();
      itch5::dispatch_unchecked(msg.data(), engine);
      obs.end_message(std::chrono::steady_clock::now() - t0);
    } else {
      itch5::dispatch_unchecked(msg.data(), engine);
    }
    if ((reader.messages() & 0xffff) == 0) [[unlikely]] {
      if (progress) progress(reader);
      if (opt.cancel != nullptr && opt.cancel->load(std::memory_order_relaxed)) {
        r.cancelled = true;
        break;
      }
    }
  }
  obs.flush();

  r.status = reader.status();
  if (r.status == itch5::read_status::error) r.error = reader.error();
  if (r.status == itch5::read_status::end_of_session) r.data_after_end_of_session = reader.data_after_end_of_session();
  r.messages = reader.messages();
  r.unknown_types = reader.unknown_total();
  r.oversized = reader.oversized();
  r.book_events = engine.book_events();
  r.inside_changes = engine.inside_changes();
  r.lines = obs.lines();
  r.anomalies = engine.anomalies();
  r.peak_live_orders = engine.orders().peak_size();
  r.order_table_bytes = engine.orders().memory_bytes();
  std::unordered_set<std::string> seen;
  for (std::size_t locate = 0; locate < engine.book_slots(); ++locate) {
    if (const auto* b = engine.find_book(static_cast<std::uint16_t>(locate))) seen.insert(upper_case(b->symbol.str()));
  }
  for (const auto& s : symbol_filter(opt.symbols)) {
    if (seen.count(s) == 0) r.symbols_not_seen.push_back(s);
  }
  std::sort(r.symbols_not_seen.begin(), r.symbols_not_seen.end());
  auto name_of = [&obs](std::uint16_t locate) { return obs.name_of(locate); };
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

}  // namespace

inside_result run_inside(itch5::message_reader& reader, const inside_options& options, line_sink& out,
                         const progress_callback& progress) {
  inside_result r;
  with_book_type(options.book, [&]<class Book>() {
    if ((options.stats && options.depth) || options.histograms) {
      run_loop<Book, true, true>(reader, options, out, progress, r);
    } else if (options.stats) {
      run_loop<Book, true, false>(reader, options, out, progress, r);
    } else if (options.depth) {
      run_loop<Book, false, true>(reader, options, out, progress, r);
    } else {
      run_loop<Book, false, false>(reader, options, out, progress, r);
    }
  });
  return r;
}

}  // namespace book
