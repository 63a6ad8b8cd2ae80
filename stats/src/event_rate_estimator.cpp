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

void event_rate_estimator::push(std::uint64_t period) {
  if (size_ == ring_.size()) {
    std::vector<bucket> bigger(std::max<std::size_t>(4, ring_.size() * 2));
    for (std::size_t i = 0; i < size_; ++i) bigger[i] = ring_[(head_ + i) & (ring_.size() - 1)];
    ring_ = std::move(bigger);
    head_ = 0;
  }
  ring_[(head_ + size_) & (ring_.size() - 1)] = {period, 1};
  ++size_;
}

void event_rate_estimator::record_new_period(std::uint64_t k) {
  if (!started_) {
    started_ = true;
    current_ = k;
  }
  // Sample every period from current_ up to k - 1, one weighted sample per run with a constant count.
  while (current_ < k) {
    while (size_ > 0 && front().period + periods_in_window_ <= current_) {
      in_window_ -= front().events;
      pop();
    }
    const std::uint64_t next = size_ == 0 ? k : std::min(k, front().period + periods_in_window_);
    rates_.record(in_window_, next - current_);
    current_ = next;
  }
  while (size_ > 0 && front().period + periods_in_window_ <= current_) {
    in_window_ -= front().events;
    pop();
  }
  if (size_ > 0 && back().period == current_) {
    ++back().events;
  } else {
    push(current_);
  }
  ++in_window_;
}

void event_rate_estimator::finish() {
  if (started_ && !finished_) rates_.record(in_window_);
  finished_ = true;
}

}  // namespace itch5::stats
