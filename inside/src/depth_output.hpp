// The depth output of a run (inside_options::depth): every book event in the time range of a wanted symbol
// records its event depth and book depth to `Sink` (sample_thread, or shard_samples on a book thread of
// the sharded run). An output of observer.hpp; asks the engine for book depths.
#pragma once

#include <cstdint>
#include <utility>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/statistics_tables.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "sample_thread.hpp"
#include "symbol_filter.hpp"

namespace itch5::inside {

/// The depth table of `depth` into the result, as CSV (options.depth) and/or histograms (options.histograms).
inline void finish_depth_table(const stats::depth_statistics& depth, const inside_options& opt,
                               const name_function& name_of, inside_result& r) {
  stats::depth_table t = depth.table(name_of);
  if (opt.depth) r.depth_csv = stats::depth_csv(t);
  if (opt.histograms) r.histograms.depth = std::move(t);
}

/// The same, from the depth statistics behind `samples`, once it has recorded every sample.
inline void finish_depth_table(sample_thread& samples, const inside_options& opt,
                               const name_function& name_of, inside_result& r) {
  samples.finish();
  finish_depth_table(*samples.depth(), opt, name_of, r);
}

template <class Sink>
class depth_output {
 public:
  static constexpr bool wants_book_depth = true;

  depth_output(Sink* sink) : sink_(sink) {}  // NOLINT(google-explicit-constructor): built from {sink}

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>&) {
    sink_->record(e.locate, e.event_depth, e.book_depth);
  }

  void finish(const inside_options& opt, const name_function& name_of, inside_result& r) {
    finish_depth_table(*sink_, opt, name_of, r);
  }

 private:
  Sink* sink_;
};

}  // namespace itch5::inside
