// The distribution of event rates over a sliding window, sampled periodically, in O(1) amortised time per
// event however fine the sampling.
//
// With window W and sampling period P (W a multiple of P), time is cut into periods of length P; at the
// end of every period from the first event's period to the last event's period, the number of events in
// the last W/P periods is one sample. A day sampled every nanosecond has ~10^13 samples, so the estimator
// never visits periods one by one: it keeps the periods that still hold events (at most W/P of them: the
// latest event's in the estimator itself, the older ones in a ring that grows only as needed) and records
// each run of periods with an unchanged count as one weighted sample.
//
// Event times must not decrease; an earlier time is treated as equal to the latest one. Complexity: O(1)
// amortised per event. Memory: 16 bytes per period with events inside the window. Not thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <itch5/stats/log_linear_histogram.hpp>

namespace itch5::stats {

class event_rate_estimator {
 public:
  event_rate_estimator(std::chrono::nanoseconds window, std::chrono::nanoseconds period);

  /// Records one event at `t` (nanoseconds since midnight).
  void record(std::chrono::nanoseconds t) { record_period(period_of(t)); }

  /// The sampling period holding time `t` (times before 0 count in period 0).
  [[nodiscard]] std::uint64_t period_of(std::chrono::nanoseconds t) const noexcept {
    return t.count() <= 0 ? 0 : static_cast<std::uint64_t>(t.count() / period_ns_);
  }

  /// Records one event in period `k` (period_of() of its time; a caller that knows the period at compile
  /// time, or feeds several estimators the same events, divides once). The common cases, another event in
  /// the period of the latest one or an event after a lone one has left the window, are a few instructions
  /// inline.
  void record_period(std::uint64_t k) {
    if (k == current_ && started_) [[likely]] {
      // The newest period held is current_'s, and nothing expired since the last event moved current_
      // here (that call dropped what had).
      ++current_events_;
      ++in_window_;
      return;
    }
    if (size_ == 0 && in_window_ == 1 && current_ + periods_in_window_ <= k) {
      // A sparse series' common event (a symbol's 1 us and 1 ms windows between most of its events): the
      // one event held, alone in its period, leaves the window by k. Its samples, the rate 1 for a
      // window's worth of periods then 0 until k, are counted here and recorded by finish() (a histogram
      // is the same whatever the order of its samples): no call, and no histogram line touched.
      ++lone_periods_;
      zero_periods_ += k - (current_ + periods_in_window_);
      current_ = k;
      return;
    }
    record_new_period(k);
  }

  /// Adds the sample of the last period holding events; call once after the last event.
  void finish();

  /// The rates sampled; complete once finish() was called (it adds the periods with no event in the window).
  [[nodiscard]] const log_linear_histogram& histogram() const noexcept { return rates_; }
  /// Moves the histogram out (after finish(), when the estimator is done with): no copy of its counters.
  [[nodiscard]] log_linear_histogram take_histogram() noexcept { return std::move(rates_); }

 private:
  struct bucket {
    std::uint64_t period;
    std::uint64_t events;
  };

  void record_new_period(std::uint64_t k);
  void push(std::uint64_t period, std::uint64_t events);
  [[gnu::noinline]] void grow();  // push's rare path: a ring twice the size
  [[nodiscard]] bucket& front() noexcept { return ring_[head_]; }
  void pop() noexcept {
    head_ = (head_ + 1) & (ring_.size() - 1);
    --size_;
  }

  std::uint64_t periods_in_window_;
  std::int64_t period_ns_;
  log_linear_histogram rates_;
  // The periods held before current_'s, oldest first (power-of-two capacity). The newest period, current_'s,
  // is kept here instead (current_events_): the common events, another in the latest event's period or one
  // after a lone event left the window, touch no ring line, which the thousands of other series evict
  // between two events of this one.
  std::vector<bucket> ring_;
  std::size_t head_ = 0;
  std::size_t size_ = 0;
  std::uint64_t current_ = 0;         // the period of the latest event
  std::uint64_t current_events_ = 0;  // the events in period current_
  std::uint64_t in_window_ = 0;       // the events in the held periods, current_'s included
  // Periods sampled at rate 0 after every held period left the window (record_period's and
  // record_new_period's sparse paths), recorded into rates_ by finish() at once: a sparse series samples 0
  // once per event.
  std::uint64_t zero_periods_ = 0;
  // Events that were alone in the window until it passed them (record_period's sparse case), each a window's
  // worth of periods at rate 1, recorded by finish().
  std::uint64_t lone_periods_ = 0;
  bool started_ = false;
  bool finished_ = false;
};

}  // namespace itch5::stats
