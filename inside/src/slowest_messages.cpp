#include <itch5/inside/slowest_messages.hpp>

#include <algorithm>

namespace itch5::inside {

namespace {

// Heap order: the quickest (and, of equal times, the latest message) at the front, so that it goes first.
bool quicker(const slow_message& a, const slow_message& b) noexcept {
  return a.took != b.took ? a.took > b.took : a.message < b.message;
}

}  // namespace

slowest_messages::slowest_messages(std::size_t keep)
    : keep_(keep), floor_(keep == 0 ? std::chrono::nanoseconds::max() : std::chrono::nanoseconds::min()) {
  heap_.reserve(keep);
}

void slowest_messages::insert(const slow_message& m) {
  if (heap_.size() == keep_) {
    std::pop_heap(heap_.begin(), heap_.end(), quicker);
    heap_.back() = m;
  } else {
    heap_.push_back(m);
  }
  std::push_heap(heap_.begin(), heap_.end(), quicker);
  if (heap_.size() == keep_) floor_ = heap_.front().took;
}

std::vector<slow_message> slowest_messages::sorted() const {
  std::vector<slow_message> v = heap_;
  std::sort(v.begin(), v.end(), [](const slow_message& a, const slow_message& b) {
    return a.took != b.took ? a.took > b.took : a.message < b.message;
  });
  return v;
}

}  // namespace itch5::inside
