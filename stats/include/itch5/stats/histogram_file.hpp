// The histogram file: every histogram behind itch5inside's --stats and --depth CSVs (per symbol name and
// __aggregate__), so that the statistics of several runs (days, parts of a day) can be merged afterwards
// (itch5stats merge). Format (docs/formats.md, "Histogram file"), all integers unsigned LEB128 varints:
//
//   "ITCH5HST" version(=1)
//   nmeta, nmeta x (string key, string value)            e.g. stats_events=inside
//   nfeed, nfeed x (string name, samples, 5 histograms)  per_sec per_msec per_usec arrival processing
//   samples, 5 histograms                                 __aggregate__
//   ndepth, ndepth x (string name, 2 histograms)          event book
//   2 histograms                                          __aggregate__
//   "HEND"
//
//   string:    length, bytes
//   histogram: count; when count > 0: min, max, nruns, nruns x (gap, length, length x bucket count > 0)
//              (gap: first bucket index of the run minus the end of the previous run, from 0)
//
// decode_histograms() validates everything (magic, version, bounds, counts adding up, min and max in the
// first and last buckets, nothing after the end mark) and throws histogram_file_error naming the file and
// the byte offset. The bytes are those after decompression: a FILE.gz is handled by the caller (io).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <itch5/stats/statistics_tables.hpp>

namespace itch5::stats {

inline constexpr std::string_view histogram_file_magic = "ITCH5HST";
inline constexpr std::uint64_t histogram_file_version = 1;

struct statistics_histograms {
  /// Facts about the run, as key=value (itch5inside writes stats_events, time_range and time_ranges).
  /// Merging refuses files whose stats_events differ or whose time ranges overlap without being equal.
  std::vector<std::pair<std::string, std::string>> meta;
  feed_table feed;
  depth_table depth;

  [[nodiscard]] std::string meta_value(std::string_view key) const;
  friend bool operator==(const statistics_histograms&, const statistics_histograms&) = default;
};

class histogram_file_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[nodiscard]] std::string encode_histograms(const statistics_histograms& h);

/// Parses `bytes`; `name` (the file's name) starts every error message.
[[nodiscard]] statistics_histograms decode_histograms(std::string_view bytes, const std::string& name);

/// A half-open range of feed times, ns since midnight; `to` nullopt: to the end of the input.
struct feed_time_range {
  std::uint64_t from = 0;
  std::optional<std::uint64_t> to;
  friend bool operator==(const feed_time_range&, const feed_time_range&) = default;
};

/// "FROM-TO[,FROM-TO...]" in ns, TO "end" when open: the meta value time_ranges.
[[nodiscard]] std::string format_time_ranges(const std::vector<feed_time_range>& ranges);

/// The feed-time ranges whose events `h` holds, sorted and with adjacent ranges joined: from its meta
/// time_ranges; in a file without it (written before time_ranges was added), from its time_range text
/// ("whole day", "HH:MM:SS to HH:MM:SS", "HH:MM:SS to the end", "the start to HH:MM:SS"), a file without
/// either being a whole day. nullopt when neither can be read.
[[nodiscard]] std::optional<std::vector<feed_time_range>> time_ranges_of(const statistics_histograms& h);

/// Adds `from` to `into` (tables merged per symbol name, see statistics_tables.hpp). Throws
/// histogram_file_error, one line naming `from_name` and `into_name`, when the two cannot be added up: their
/// stats_events differ (the samples are not the same kind of event), or their time ranges differ and
/// overlap (a whole day and its regular session: the overlap would be counted twice). Equal ranges (the
/// same range of several days) and disjoint ones (the parts of a day) merge; the meta of `into` keeps the
/// pairs both agree on, and time_ranges becomes the union.
void merge(statistics_histograms& into, const statistics_histograms& from, const std::string& from_name,
           const std::string& into_name = "the files before it");

}  // namespace itch5::stats
