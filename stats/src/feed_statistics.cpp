#include <itch5/stats/feed_statistics.hpp>

#include <utility>

namespace itch5::stats {

using namespace std::chrono_literals;

struct feed_statistics::series {
  event_rate_estimator per_sec{1s, 1ms};
  event_rate_estimator per_msec{1ms, 1us};
  event_rate_estimator per_usec{1us, 1ns};
  log_linear_histogram arrival;
  log_linear_histogram processing;
  log_linear_histogram latency;
  std::chrono::nanoseconds last{0};
  std::uint64_t samples = 0;

  void record(std::chrono::nanoseconds ts, std::chrono::nanoseconds took) {
    if (samples > 0) arrival.record(ts > last ? static_cast<std::uint64_t>((ts - last).count()) : 0);
    if (ts > last || samples == 0) last = ts;
    per_sec.record(ts);
    per_msec.record(ts);
    per_usec.record(ts);
    processing.record(took.count() > 0 ? static_cast<std::uint64_t>(took.count()) : 0);
    ++samples;
  }

  // Closes the rate estimators and copies the histograms out.
  feed_series finish(std::string name) {
    per_sec.finish();
    per_msec.finish();
    per_usec.finish();
    return {std::move(name), samples, per_sec.histogram(), per_msec.histogram(), per_usec.histogram(), arrival,
            processing, latency};
  }
};

feed_statistics::feed_statistics() : aggregate_(std::make_unique<series>()) {}
feed_statistics::~feed_statistics() = default;

void feed_statistics::record(std::uint16_t locate, std::chrono::nanoseconds ts, std::chrono::nanoseconds processing) {
  if (locate >= by_locate_.size()) by_locate_.resize(std::size_t{locate} + 1);
  auto& s = by_locate_[locate];
  if (!s) s = std::make_unique<series>();
  s->record(ts, processing);
  aggregate_->record(ts, processing);
}

void feed_statistics::record_latency(std::uint16_t locate, std::chrono::nanoseconds latency) {
  latency_ = true;
  if (locate >= by_locate_.size()) by_locate_.resize(std::size_t{locate} + 1);
  auto& s = by_locate_[locate];
  if (!s) s = std::make_unique<series>();
  const std::uint64_t v = latency.count() > 0 ? static_cast<std::uint64_t>(latency.count()) : 0;
  s->latency.record(v);
  aggregate_->latency.record(v);
}

std::string feed_statistics::csv_header() { return feed_csv_header(); }

feed_table feed_statistics::finish(const std::function<std::string(std::uint16_t)>& name_of) {
  feed_table t;
  for (std::size_t locate = 0; locate < by_locate_.size(); ++locate) {
    if (by_locate_[locate] && by_locate_[locate]->samples > 0) {
      t.symbols.push_back(by_locate_[locate]->finish(name_of(static_cast<std::uint16_t>(locate))));
    }
  }
  t.aggregate = aggregate_->finish(aggregate_name);
  t.latency = latency_;
  return t;
}

std::string feed_statistics::finish_csv(const std::function<std::string(std::uint16_t)>& name_of) {
  return feed_csv(finish(name_of));
}

std::uint64_t feed_statistics::samples(std::uint16_t locate) const noexcept {
  return locate < by_locate_.size() && by_locate_[locate] ? by_locate_[locate]->samples : 0;
}

std::uint64_t feed_statistics::total_samples() const noexcept { return aggregate_->samples; }

}  // namespace itch5::stats
