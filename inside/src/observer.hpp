// The observer of a book engine (book::book_engine's Observer): which locates make lines and samples (the
// symbol filter), the time range, and the inside changes handed to `Out` (line_formatter on this thread, or
// line_thread). Shard: the observer of one of several book threads (run_sharded), whose samples go to
// shard_samples and whose engine leaves timestamp checks to the thread that reads the whole stream.
// Per event: inline calls only (no virtual call, std::function or allocation); instantiated per book type
// and per statistics configuration (Timed: feed statistics with processing times, Depth: depth samples).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include <itch5/io/capture.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/book/price_level.hpp>
#include <itch5/book/side_kind.hpp>
#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include <itch5/inside/inside_options.hpp>

#include "line_formatter.hpp"
#include "shard_samples.hpp"
#include "symbol_filter.hpp"

namespace itch5::inside {

template <class Book, bool Timed, bool Depth, bool Shard = false, class Out = line_formatter>
class observer {
  using feed_type = std::conditional_t<Shard, shard_samples, stats::feed_statistics>;
  using depth_type = std::conditional_t<Shard, shard_samples, stats::depth_statistics>;

 public:
  static constexpr bool wants_book_depth = Depth;
  static constexpr bool checks_timestamps = !Shard;

  observer(const inside_options& opt, Out& out, feed_type* feed, depth_type* depth)
      : out_(out), stats_all_(opt.stats_all_events), from_(opt.from), to_(opt.to), depth_(depth), stats_(feed),
        filter_(opt.symbols) {}

  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    if (!filter_.wanted(e.locate, b.symbol, [this](std::uint16_t locate, std::string_view name) {
          out_.name(locate, name);
        })) {
      return;
    }
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

  [[nodiscard]] std::string name_of(std::uint16_t locate) const { return filter_.name_of(locate); }

 private:
  static const book::price_level& last_of(book::side_kind side, const book::order_book<Book>& b) noexcept {
    return side == book::side_kind::buy ? b.last.bid : b.last.offer;
  }

  Out& out_;
  bool stats_all_;
  itch5::timestamp from_;
  itch5::timestamp to_;
  depth_type* depth_;
  feed_type* stats_;
  symbol_filter filter_;
  bool pending_ = false;
  std::uint16_t pending_locate_ = 0;
  itch5::timestamp pending_time_{};
  std::int64_t latency_ = itch5::io::latency_queue::none;
  std::int64_t pending_latency_ = itch5::io::latency_queue::none;
};

}  // namespace itch5::inside
