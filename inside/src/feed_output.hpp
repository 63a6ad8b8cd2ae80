// The feed statistics output of a run (inside_options::stats): a timed message that made a sampled event
// (an inside change, or any event with stats_all_events) of a wanted symbol in the time range records its
// timestamp, processing time and feed latency to `Sink` (sample_thread, or shard_samples on a book thread of
// the sharded run), once the message is done. An output of observer.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>

#include <itch5/io/capture.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/stats/feed_statistics.hpp>
#include <itch5/stats/statistics_tables.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "sample_thread.hpp"
#include "symbol_filter.hpp"

namespace itch5::inside {

/// The feed table of `feed` into the result, as CSV (options.stats) and/or histograms (options.histograms).
/// Call once, after the last sample.
inline void finish_feed_table(stats::feed_statistics& feed, const inside_options& opt,
                              const name_function& name_of, inside_result& r) {
  stats::feed_table t = feed.finish(name_of);
  if (opt.stats) r.stats_csv = stats::feed_csv(t);
  if (opt.histograms) r.histograms.feed = std::move(t);
}

/// The same, from the feed statistics behind `samples`, once it has recorded every sample.
inline void finish_feed_table(sample_thread& samples, const inside_options& opt, const name_function& name_of,
                              inside_result& r) {
  samples.finish();
  finish_feed_table(*samples.feed(), opt, name_of, r);
}

template <class Sink>
class feed_output {
 public:
  feed_output(const inside_options& opt, Sink* sink) : sink_(sink), all_events_(opt.stats_all_events) {}

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>&) {
    if (all_events_ || e.inside_changed) {
      pending_ = true;
      pending_locate_ = e.locate;
      pending_time_ = e.timestamp;
      pending_latency_ = latency_;
    }
  }

  /// The feed latency of the message being handled (latency_queue::none when unknown).
  void set_latency(std::int64_t latency) noexcept { latency_ = latency; }

  // After a timed message: records its processing time if it produced a sampled event.
  void end_message(std::chrono::nanoseconds took) {
    if (!pending_) return;
    pending_ = false;
    sink_->record(pending_locate_, pending_time_, took);
    if (pending_latency_ != itch5::io::latency_queue::none) {
      sink_->record_latency(pending_locate_, std::chrono::nanoseconds(pending_latency_));
    }
  }

  void finish(const inside_options& opt, const name_function& name_of, inside_result& r) {
    finish_feed_table(*sink_, opt, name_of, r);
  }

 private:
  Sink* sink_;
  bool all_events_;
  bool pending_ = false;
  std::uint16_t pending_locate_ = 0;
  itch5::timestamp pending_time_{};
  std::int64_t latency_ = itch5::io::latency_queue::none;
  std::int64_t pending_latency_ = itch5::io::latency_queue::none;
};

}  // namespace itch5::inside
