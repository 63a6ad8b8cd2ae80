#include <itch5/stats/feed_statistics.hpp>

#include <stdexcept>
#include <utility>

#include "group_by_locate.hpp"

namespace itch5::stats {

using namespace std::chrono_literals;

namespace {

// How many samples ahead flush() loads a sample's histogram counters.
constexpr std::size_t prefetch_distance = 8;

// The sampling periods of the three rate estimators, as compile-time divisors: record() computes each
// event's three periods once (multiplications, not divisions) for the symbol's series and the aggregate.
constexpr std::int64_t per_sec_period_ns = 1'000'000;  // 1 ms
constexpr std::int64_t per_msec_period_ns = 1'000;     // 1 us
constexpr std::int64_t per_usec_period_ns = 1;         // 1 ns

struct event_periods {
  std::uint64_t sec, msec, usec;

  explicit event_periods(std::chrono::nanoseconds ts) noexcept {
    const std::uint64_t t = ts.count() <= 0 ? 0 : static_cast<std::uint64_t>(ts.count());
    sec = t / per_sec_period_ns;
    msec = t / per_msec_period_ns;
    usec = t / per_usec_period_ns;
  }
};

}  // namespace

struct feed_statistics::series {
  event_rate_estimator per_sec{1s, std::chrono::nanoseconds(per_sec_period_ns)};
  event_rate_estimator per_msec{1ms, std::chrono::nanoseconds(per_msec_period_ns)};
  event_rate_estimator per_usec{1us, std::chrono::nanoseconds(per_usec_period_ns)};
  log_linear_histogram arrival;
  log_linear_histogram processing;
  log_linear_histogram latency;
  std::chrono::nanoseconds last{0};
  std::uint64_t samples = 0;

  void record(std::chrono::nanoseconds ts, const event_periods& k, std::chrono::nanoseconds took) {
    if (samples > 0) arrival.record(ts > last ? static_cast<std::uint64_t>((ts - last).count()) : 0);
    if (ts > last || samples == 0) last = ts;
    per_sec.record_period(k.sec);
    per_msec.record_period(k.msec);
    per_usec.record_period(k.usec);
    processing.record(took.count() > 0 ? static_cast<std::uint64_t>(took.count()) : 0);
    ++samples;
  }

  // Closes the rate estimators and moves the histograms out (copying them, thousands of counters per
  // symbol, was ~30 ms of the 20 M-message day's serial end).
  feed_series finish(std::string name) {
    per_sec.finish();
    per_msec.finish();
    per_usec.finish();
    return {std::move(name),           samples,
            per_sec.take_histogram(),  per_msec.take_histogram(),
            per_usec.take_histogram(), std::move(arrival),
            std::move(processing),     std::move(latency)};
  }
};

feed_statistics::feed_statistics() : aggregate_(std::make_unique<series>()) {
  pending_.reserve(pending_capacity);
}
feed_statistics::~feed_statistics() = default;

feed_statistics::series& feed_statistics::of(std::uint16_t locate) {
  if (locate >= by_locate_.size()) by_locate_.resize(std::size_t{locate} + 1);
  auto& s = by_locate_[locate];
  if (!s) s = std::make_unique<series>();
  return *s;
}

void feed_statistics::record(std::uint16_t locate, std::chrono::nanoseconds ts,
                             std::chrono::nanoseconds processing) {
  if (locate >= by_locate_.size() || !by_locate_[locate]) [[unlikely]]
    of(locate);  // flush() finds it there
  aggregate_->record(ts, event_periods(ts), processing);
  pending_.push_back({ts.count(), processing.count(), locate, false});
  if (pending_.size() == pending_capacity) [[unlikely]]
    flush();
}

void feed_statistics::record_latency(std::uint16_t locate, std::chrono::nanoseconds latency) {
  latency_ = true;
  if (locate >= by_locate_.size() || !by_locate_[locate]) [[unlikely]]
    of(locate);
  const std::uint64_t v = latency.count() > 0 ? static_cast<std::uint64_t>(latency.count()) : 0;
  aggregate_->latency.record(v);
  pending_.push_back({0, latency.count(), locate, true});
  if (pending_.size() == pending_capacity) [[unlikely]]
    flush();
}

void feed_statistics::flush() const {
  if (pending_.empty()) return;
  // Every locate of a pending sample has a series: record() made it.
  detail::group_by_locate(pending_, by_locate_.size(), starts_, sorted_);
  const std::size_t n = sorted_.size();
  for (std::size_t i = 0; i < n; ++i) {
    // A symbol's arrival and processing histograms span thousands of counters on lines that the other
    // symbols evicted: load the ones of the sample `prefetch_distance` ahead (its arrival is the gap to
    // the sample before it when both are of one symbol, as recorded below).
    if (i + prefetch_distance < n) {
      const pending& a = sorted_[i + prefetch_distance];
      const pending& b = sorted_[i + prefetch_distance - 1];
      if (!a.latency) {
        const series& s = *by_locate_[a.locate];
        s.processing.prefetch(a.value > 0 ? static_cast<std::uint64_t>(a.value) : 0);
        if (b.locate == a.locate && !b.latency && a.ts >= b.ts)
          s.arrival.prefetch(static_cast<std::uint64_t>(a.ts - b.ts));
      }
    }
    const pending& p = sorted_[i];
    series& s = *by_locate_[p.locate];
    if (p.latency) {
      s.latency.record(p.value > 0 ? static_cast<std::uint64_t>(p.value) : 0);
    } else {
      const std::chrono::nanoseconds ts(p.ts);
      s.record(ts, event_periods(ts), std::chrono::nanoseconds(p.value));
    }
  }
  pending_.clear();
}

std::string feed_statistics::csv_header() { return feed_csv_header(); }

feed_table feed_statistics::finish(const std::function<std::string(std::uint16_t)>& name_of) {
  if (finished_) throw std::logic_error("feed_statistics::finish called twice (it moves the histograms out)");
  finished_ = true;
  flush();
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

std::uint64_t feed_statistics::samples(std::uint16_t locate) const {
  flush();
  return locate < by_locate_.size() && by_locate_[locate] ? by_locate_[locate]->samples : 0;
}

std::uint64_t feed_statistics::total_samples() const noexcept { return aggregate_->samples; }

}  // namespace itch5::stats
