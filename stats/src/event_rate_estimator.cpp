#include <itch5/stats/event_rate_estimator.hpp>

#include <algorithm>
#include <stdexcept>

namespace itch5::stats {

event_rate_estimator::event_rate_estimator(std::chrono::nanoseconds window, std::chrono::nanoseconds period)
    : period_ns_(period.count()) {
  if (period.count() <= 0 || window.count() <= 0 || window.count() % period.count() != 0) {
    throw std::invalid_argument("event_rate_estimator: the window must be a positive multiple of the period");
  }
  periods_in_window_ = static_cast<std::uint64_t>(window.count() / period.count());
}

void event_rate_estimator::grow() {
  std::vector<bucket> bigger(std::max<std::size_t>(4, ring_.size() * 2));
  for (std::size_t i = 0; i < size_; ++i) bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
  ring_ = std::move(bigger);
  head_ = 0;
}

inline void event_rate_estimator::push(std::uint64_t period, std::uint64_t events) {
  if (size_ == ring_.size()) [[unlikely]]
    grow();
  ring_[(head_ + size_) & (ring_.size() - 1)] = {period, events};
  ++size_;
}

void event_rate_estimator::record_new_period(std::uint64_t k) {
  if (!started_) {
    started_ = true;
    current_ = k;
    current_events_ = 1;
    in_window_ = 1;
    return;
  }
  if (k <= current_) [[unlikely]] {  // an earlier time counts as the latest
    ++current_events_;
    ++in_window_;
    return;
  }
  // Sample every period from current_ up to k - 1: the held periods that leave the window by k do so in
  // order, each at its period + the window, and the count in between is one weighted sample; then the
  // count of what stays, until k. (Every held period is in the window at current_: the last call dropped
  // the others.)
  std::uint64_t at = current_;
  std::uint64_t n = in_window_;
  if (current_ + periods_in_window_ <= k) {
    // The common case of a sparse series: every held period leaves (the ring's, then current_'s), and
    // only k's is held after. With no older period held, as for a symbol's 1 us and 1 ms windows between
    // most of its events, the ring is not touched.
    if (size_ > 0) {
      const std::size_t mask = ring_.size() - 1;
      for (std::size_t i = 0; i < size_; ++i) {
        const bucket& b = ring_[(head_ + i) & mask];
        const std::uint64_t end = b.period + periods_in_window_;
        rates_.record(n, end - at);
        n -= b.events;
        at = end;
      }
      size_ = 0;
    }
    const std::uint64_t end = current_ + periods_in_window_;
    rates_.record(n, end - at);  // n is current_events_ here
    zero_periods_ += k - end;    // finish() records them: one histogram update per estimator, not per event
    current_ = k;
    current_events_ = 1;
    in_window_ = 1;
    return;
  }
  while (size_ > 0 && front().period + periods_in_window_ <= k) {  // current_'s stays (checked above)
    const std::uint64_t end = front().period + periods_in_window_;
    rates_.record(n, end - at);
    n -= front().events;
    at = end;
    pop();
  }
  rates_.record(n, k - at);
  push(current_, current_events_);  // no longer the newest
  current_ = k;
  current_events_ = 1;
  in_window_ = n + 1;
}

void event_rate_estimator::finish() {
  if (started_ && !finished_) {
    rates_.record(1, lone_periods_ * periods_in_window_);  // nothing when 0
    rates_.record(0, zero_periods_);
    rates_.record(in_window_);
  }
  zero_periods_ = 0;
  lone_periods_ = 0;
  finished_ = true;
}

}  // namespace itch5::stats
