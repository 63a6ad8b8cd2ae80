// Per-symbol and aggregate statistics of a feed's events, written as CSV compatible with JayBeams'
// offline_feed_statistics:
//
//   Name,NSamples,
//   {min,p25,p50,p75,p90,p99,p999,p9999,max}RatePerSec, ...RatePerMSec, ...RatePerUSec,
//   minArrival,p0001Arrival,p001Arrival,p01Arrival,p05Arrival,p10Arrival,p25Arrival,p50Arrival,p75Arrival,
//   p90Arrival,p99Arrival,maxArrival,
//   minProcessing,p10Processing,p25Processing,p50Processing,p75Processing,p90Processing,p99Processing,
//   p999Processing,p9999Processing,maxProcessing
//   [,minLatency,p25Latency,p50Latency,p75Latency,p90Latency,p99Latency,p999Latency,maxLatency]
//
// The Latency columns (a capture's feed latency, arrival - exchange timestamp in ns, per sample) only when
// record_latency() or enable_latency() was called.
//
// (pNNN reads as 0.NNN: p999 = 99.9%, p0001 = 0.01%.) Rates are events in a sliding window of 1 s sampled
// every 1 ms, of 1 ms every 1 us and of 1 us every 1 ns, on feed timestamps (event_rate_estimator).
// Arrival is the gap between consecutive events' feed timestamps, in ns. Processing is the wall time spent
// on each event, in ns, as measured by the caller. One row per symbol with at least one sample, in stock
// locate order, then a final __aggregate__ row over all of them. Quantiles come from log_linear_histogram
// (exact below 128, within 0.8% above). The rows are formatted by statistics_tables.hpp from finish()'s
// histograms, which histogram_file.hpp can store and merge.
//
// Memory: allocated per symbol on its first event, a few KB to ~100 KB per symbol depending on how spread
// its values are, plus two buffers of 256 Ki pending samples (6 MB each). Not thread-safe.
//
// Speed: the aggregate series takes each sample at once (its arrival times depend on the order of all
// samples, and it stays in cache). A symbol's series is spread over a dozen cache lines that thousands of
// other symbols evict between two of its events, so its samples wait in a buffer, and every 256 Ki samples
// they are grouped by symbol (a stable counting sort) and each symbol's series takes its run at once: one
// round of cache misses per symbol per batch instead of per sample. (Batches of 16 Ki left ~5 samples per
// symbol per batch on the 20 M-message day's 3,131 symbols; 256 Ki took the grouped recording from 1.12 s
// to 0.35 s of that day's run, perf.) Each series sees its own samples in
// the order recorded, so every result is what sample-by-sample recording gives.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/stats/event_rate_estimator.hpp>
#include <itch5/stats/log_linear_histogram.hpp>
#include <itch5/stats/statistics_tables.hpp>

namespace itch5::stats {

class feed_statistics {
 public:
  /// Samples per batch (see "Speed" above).
  static constexpr std::size_t batch_samples = std::size_t{1} << 18;

  feed_statistics();
  ~feed_statistics();
  feed_statistics(const feed_statistics&) = delete;
  feed_statistics& operator=(const feed_statistics&) = delete;

  /// Records one event of `locate` at feed time `ts` that took `processing` to handle.
  void record(std::uint16_t locate, std::chrono::nanoseconds ts, std::chrono::nanoseconds processing);

  /// Records the feed latency (arrival - exchange timestamp; negative values count as 0) of an event of
  /// `locate`, and makes finish()'s table carry the Latency columns.
  void record_latency(std::uint16_t locate, std::chrono::nanoseconds latency);
  /// Makes finish()'s table carry the Latency columns even if no latency was recorded.
  void enable_latency() noexcept { latency_ = true; }

  /// The CSV header line (with newline).
  [[nodiscard]] static std::string csv_header();

  /// Closes the rate estimators and returns the histograms behind the CSV: a series per symbol with samples
  /// in locate order, named by `name_of(locate)`, and the aggregate. Call once, after the last record():
  /// the histograms are moved into the table, and a second call throws std::logic_error.
  [[nodiscard]] feed_table finish(const std::function<std::string(std::uint16_t)>& name_of);

  /// feed_csv(finish(name_of)): the whole CSV (header, symbol rows, __aggregate__).
  [[nodiscard]] std::string finish_csv(const std::function<std::string(std::uint16_t)>& name_of);

  /// Samples recorded for `locate` (0 if none) and in all.
  [[nodiscard]] std::uint64_t samples(std::uint16_t locate) const;
  [[nodiscard]] std::uint64_t total_samples() const noexcept;

  struct series;  // per-symbol state (defined in the .cpp)

 private:
  // A symbol's sample or latency waiting for its series (see "Speed" above).
  struct pending {
    std::int64_t ts;     // sample: its feed time (ns)
    std::int64_t value;  // sample: its processing time; latency: the latency (ns)
    std::uint16_t locate;
    bool latency;  // a record_latency() rather than a record()
  };
  static constexpr std::size_t pending_capacity = batch_samples;

  series& of(std::uint16_t locate);
  // Hands the pending samples to their series, symbol by symbol, each in the order recorded.
  void flush() const;

  mutable std::vector<std::unique_ptr<series>> by_locate_;
  std::unique_ptr<series> aggregate_;
  bool latency_ = false;
  bool finished_ = false;
  mutable std::vector<pending> pending_;       // at most pending_capacity
  mutable std::vector<pending> sorted_;        // flush()'s scratch: pending_ grouped by locate
  mutable std::vector<std::uint32_t> starts_;  // flush()'s scratch: per locate, its first slot in sorted_
};

}  // namespace itch5::stats
