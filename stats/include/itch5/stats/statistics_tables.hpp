// The histograms behind itch5inside's statistics and depth CSVs, per symbol name and for __aggregate__, and
// the one place where CSV rows are formatted from them. feed_statistics and depth_statistics produce these
// tables; histogram_file.hpp writes and reads them; merging tables by symbol name (locates differ between
// days) gives the statistics of several runs.
//
//   itch5::stats::feed_table t = feed.finish(name_of);   // or read from a histogram file
//   std::string csv = itch5::stats::feed_csv(t);          // exactly what --stats writes
//   itch5::stats::merge(t, other_day);                    // per name; __aggregate__ with __aggregate__
//
// Tables hold only series with samples, in the order their rows are written (stock locate order for one
// run; for a merge, order of first appearance: the first table's rows, then names new in the next, ...).
// Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <itch5/stats/log_linear_histogram.hpp>

namespace itch5::stats {

inline constexpr const char* aggregate_name = "__aggregate__";

/// One row of the statistics CSV: a symbol's (or the aggregate's) samples and histograms.
struct feed_series {
  std::string name;
  std::uint64_t samples = 0;        ///< NSamples
  log_linear_histogram per_sec;     ///< sampled events in a 1 s window, every 1 ms (RatePerSec)
  log_linear_histogram per_msec;    ///< in a 1 ms window, every 1 us (RatePerMSec)
  log_linear_histogram per_usec;    ///< in a 1 us window, every 1 ns (RatePerUSec)
  log_linear_histogram arrival;     ///< ns between consecutive samples (Arrival)
  log_linear_histogram processing;  ///< ns of wall time per sample (Processing)
  /// ns from the exchange timestamp to the capture's arrival time per sample (Latency; a capture only,
  /// negative values counted as 0). Not stored in histogram files yet.
  log_linear_histogram latency;

  /// Adds every sample of `other` (the name is kept).
  void merge(const feed_series& other);
  friend bool operator==(const feed_series&, const feed_series&) = default;
};

/// One row of the depth CSV.
struct depth_series {
  std::string name;
  log_linear_histogram event;  ///< EventDepth; its count is NSamples
  log_linear_histogram book;   ///< BookDepth

  void merge(const depth_series& other);
  friend bool operator==(const depth_series&, const depth_series&) = default;
};

struct feed_table {
  std::vector<feed_series> symbols;
  /// Write the Latency columns (the input was a capture whose arrival times were collected).
  bool latency = false;
  feed_series aggregate = [] {
    feed_series a;
    a.name = aggregate_name;
    return a;
  }();
  friend bool operator==(const feed_table&, const feed_table&) = default;
};

struct depth_table {
  std::vector<depth_series> symbols;
  depth_series aggregate = [] {
    depth_series a;
    a.name = aggregate_name;
    return a;
  }();
  friend bool operator==(const depth_table&, const depth_table&) = default;
};

/// The CSV header lines (with newline); with `latency`, the Latency columns appended.
[[nodiscard]] std::string feed_csv_header(bool latency = false);
[[nodiscard]] std::string depth_csv_header();

/// The whole CSV: header, a row per symbol series with samples in table order, then __aggregate__.
[[nodiscard]] std::string feed_csv(const feed_table& t);
[[nodiscard]] std::string depth_csv(const depth_table& t);

/// Adds `from` to `into` (latency columns when either has them): each symbol series to the series of `into`
/// with the same name (appended when new), the aggregate to the aggregate. A table in which a name repeats
/// (only `?`, a locate never named, can) has its repeats merged into one series.
void merge(feed_table& into, const feed_table& from);
void merge(depth_table& into, const depth_table& from);

}  // namespace itch5::stats
