#include <itch5/stats/depth_statistics.hpp>

namespace itch5::stats {

void depth_statistics::record(std::uint16_t locate, std::uint32_t event_depth, std::uint32_t book_depth) {
  if (locate >= by_locate_.size()) by_locate_.resize(std::size_t{locate} + 1);
  auto& s = by_locate_[locate];
  if (!s) s = std::make_unique<series>();
  s->event.record(event_depth);
  s->book.record(book_depth);
  aggregate_.event.record(event_depth);
  aggregate_.book.record(book_depth);
}

std::string depth_statistics::csv_header() { return depth_csv_header(); }

depth_table depth_statistics::table(const std::function<std::string(std::uint16_t)>& name_of) const {
  depth_table t;
  for (std::size_t locate = 0; locate < by_locate_.size(); ++locate) {
    if (by_locate_[locate] && by_locate_[locate]->event.count() > 0) {
      t.symbols.push_back({name_of(static_cast<std::uint16_t>(locate)), by_locate_[locate]->event,
                           by_locate_[locate]->book});
    }
  }
  t.aggregate = {aggregate_name, aggregate_.event, aggregate_.book};
  return t;
}

std::string depth_statistics::csv(const std::function<std::string(std::uint16_t)>& name_of) const {
  return depth_csv(table(name_of));
}

}  // namespace itch5::stats
