// Per-symbol and aggregate histograms of how deep in the book events land, written as CSV:
//
//   Name,NSamples,minEventDepth,p25EventDepth,p50EventDepth,p75EventDepth,p90EventDepth,p99EventDepth,
//   p999EventDepth,p9999EventDepth,maxEventDepth,minBookDepth,p25BookDepth,...,maxBookDepth
//
// One sample per book event (book_event): the event depth (price levels between the event's price and its
// side's best price just before the event) and the book depth (price levels between the best and the worst
// price of that side just after the event). One row per symbol with samples, in stock locate order, then
// __aggregate__. Quantiles from log_linear_histogram (exact below 128 levels, within 0.8% above).
// Not thread-safe.
//
// Speed: a sample comes with every book event (20 M a 20 M-message day), and a symbol's two histograms sit
// in lines that other symbols evict between its events. So samples wait in a buffer of 256 Ki (3 MB, and
// as much again to sort them) and are recorded every 256 Ki, grouped by symbol (a counting sort): one
// round of cache misses per symbol per batch, and each symbol's run into each of its histograms at once
// (log_linear_histogram::record_all).
// A histogram does not depend on the order of its samples, so the tables are those of recording each
// sample at once; the aggregate is the symbols' histograms merged when the table is made.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <itch5/stats/log_linear_histogram.hpp>
#include <itch5/stats/statistics_tables.hpp>

namespace itch5::stats {

class depth_statistics {
 public:
  /// Samples per batch (see "Speed" above).
  static constexpr std::size_t batch_samples = std::size_t{1} << 18;

  depth_statistics() { pending_.reserve(pending_capacity); }

  /// Inline: the statistics' thread calls it for every book event (~28 instructions a call out of line).
  void record(std::uint16_t locate, std::uint32_t event_depth, std::uint32_t book_depth) {
    pending_.push_back({event_depth, book_depth, locate});
    if (pending_.size() == pending_capacity) [[unlikely]]
      flush();
  }

  [[nodiscard]] static std::string csv_header();
  /// The histograms behind the CSV: a series per symbol with samples in locate order, named by
  /// `name_of(locate)`, and the aggregate.
  [[nodiscard]] depth_table table(const std::function<std::string(std::uint16_t)>& name_of) const;
  /// depth_csv(table(name_of)).
  [[nodiscard]] std::string csv(const std::function<std::string(std::uint16_t)>& name_of) const;

  [[nodiscard]] const log_linear_histogram& aggregate_event_depth() const { return aggregate().event; }
  [[nodiscard]] const log_linear_histogram& aggregate_book_depth() const { return aggregate().book; }

 private:
  struct series {
    log_linear_histogram event;
    log_linear_histogram book;
  };
  struct pending {
    std::uint32_t event_depth;
    std::uint32_t book_depth;
    std::uint16_t locate;
  };
  static constexpr std::size_t pending_capacity = batch_samples;

  // Records the pending samples, symbol by symbol.
  void flush() const;
  // The aggregate: every symbol's histograms merged, when asked for (the same buckets, count and extremes
  // as recording each sample twice, at half the recording).
  const series& aggregate() const;

  mutable std::vector<std::unique_ptr<series>> by_locate_;
  mutable series aggregate_;  // aggregate()'s, valid while !aggregate_stale_
  mutable bool aggregate_stale_ = false;
  mutable std::vector<pending> pending_;       // at most pending_capacity
  mutable std::vector<pending> sorted_;        // flush()'s scratch: pending_ grouped by locate
  mutable std::vector<std::uint32_t> starts_;  // flush()'s scratch: per locate, its first slot in sorted_
};

}  // namespace itch5::stats
