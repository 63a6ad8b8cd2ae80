#include "result_assembly.hpp"

#include <algorithm>
#include <utility>

#include <itch5/stats/statistics_tables.hpp>

namespace itch5::inside {

void reader_counts(itch5::message_reader& reader, inside_result& r) {
  r.status = reader.status();
  if (r.status == itch5::read_status::error) r.error = reader.error();
  if (r.status == itch5::read_status::end_of_session) r.data_after_end_of_session = reader.data_after_end_of_session();
  r.messages = reader.messages();
  r.unknown_types = reader.unknown_total();
  r.oversized = reader.oversized();
}

void finish_result(const inside_options& opt, const std::unordered_set<std::string>& seen,
                   stats::feed_statistics* feed, stats::depth_statistics* depth,
                   const std::function<std::string(std::uint16_t)>& name_of, inside_result& r) {
  for (const auto& s : symbol_set(opt.symbols)) {
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

}  // namespace itch5::inside
