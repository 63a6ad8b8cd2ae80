#include <itch5/stats/depth_statistics.hpp>

#include <algorithm>

#include "group_by_locate.hpp"

namespace itch5::stats {

void depth_statistics::flush() const {
  if (pending_.empty()) return;
  std::uint16_t top = 0;
  for (const pending& p : pending_) top = std::max(top, p.locate);
  if (top >= by_locate_.size()) by_locate_.resize(std::size_t{top} + 1);
  detail::group_by_locate(pending_, by_locate_.size(), starts_, sorted_);
  // Each locate's run of samples into its two histograms, one at a time (record_all keeps a histogram's
  // state in registers for the run). After the grouping, starts_[l] is where locate l's run ends.
  std::uint32_t begin = 0;
  for (std::size_t l = 0; l < by_locate_.size(); ++l) {
    const std::uint32_t end = starts_[l];
    if (end == begin) continue;
    auto& s = by_locate_[l];
    if (!s) s = std::make_unique<series>();
    const auto first = sorted_.begin() + begin, last = sorted_.begin() + end;
    s->event.record_all(first, last, [](const pending& p) { return std::uint64_t{p.event_depth}; });
    s->book.record_all(first, last, [](const pending& p) { return std::uint64_t{p.book_depth}; });
    begin = end;
  }
  pending_.clear();
  aggregate_stale_ = true;
}

const depth_statistics::series& depth_statistics::aggregate() const {
  flush();
  if (aggregate_stale_) {
    aggregate_ = series{};
    for (const auto& s : by_locate_) {
      if (!s) continue;
      aggregate_.event.merge(s->event);
      aggregate_.book.merge(s->book);
    }
    aggregate_stale_ = false;
  }
  return aggregate_;
}

std::string depth_statistics::csv_header() { return depth_csv_header(); }

depth_table depth_statistics::table(const std::function<std::string(std::uint16_t)>& name_of) const {
  flush();
  depth_table t;
  for (std::size_t locate = 0; locate < by_locate_.size(); ++locate) {
    if (by_locate_[locate] && by_locate_[locate]->event.count() > 0) {
      t.symbols.push_back(
          {name_of(static_cast<std::uint16_t>(locate)), by_locate_[locate]->event, by_locate_[locate]->book});
    }
  }
  t.aggregate = {aggregate_name, aggregate().event, aggregate().book};
  return t;
}

std::string depth_statistics::csv(const std::function<std::string(std::uint16_t)>& name_of) const {
  return depth_csv(table(name_of));
}

}  // namespace itch5::stats
