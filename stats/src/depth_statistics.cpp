#include <stats/depth_statistics.hpp>

#include <array>
#include <charconv>

namespace stats {
namespace {

constexpr std::array<const char*, 9> prefixes = {"min", "p25", "p50", "p75", "p90", "p99", "p999", "p9999", "max"};
constexpr std::array<double, 9> quantiles = {0.0, 0.25, 0.50, 0.75, 0.90, 0.99, 0.999, 0.9999, 1.0};

void values(std::string& out, const log_linear_histogram& h) {
  for (double q : quantiles) {
    char buf[24];
    out += ',';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, h.quantile(q)).ptr);
  }
}

}  // namespace

void depth_statistics::record(std::uint16_t locate, std::uint32_t event_depth, std::uint32_t book_depth) {
  if (locate >= by_locate_.size()) by_locate_.resize(std::size_t{locate} + 1);
  auto& s = by_locate_[locate];
  if (!s) s = std::make_unique<series>();
  s->event.record(event_depth);
  s->book.record(book_depth);
  aggregate_.event.record(event_depth);
  aggregate_.book.record(book_depth);
}

std::string depth_statistics::csv_header() {
  std::string h = "Name,NSamples";
  for (const char* group : {"EventDepth", "BookDepth"}) {
    for (const char* p : prefixes) {
      h += ',';
      h += p;
      h += group;
    }
  }
  h += '\n';
  return h;
}

std::string depth_statistics::csv(const std::function<std::string(std::uint16_t)>& name_of) const {
  std::string out = csv_header();
  auto row = [&out](const std::string& name, const series& s) {
    out += name;
    out += ',';
    out += std::to_string(s.event.count());
    values(out, s.event);
    values(out, s.book);
    out += '\n';
  };
  for (std::size_t locate = 0; locate < by_locate_.size(); ++locate) {
    if (by_locate_[locate] && by_locate_[locate]->event.count() > 0) {
      row(name_of(static_cast<std::uint16_t>(locate)), *by_locate_[locate]);
    }
  }
  row("__aggregate__", aggregate_);
  return out;
}

}  // namespace stats
