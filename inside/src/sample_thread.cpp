#include "sample_thread.hpp"

namespace itch5::inside {

sample_thread::sample_thread(stats::feed_statistics* feed, stats::depth_statistics* depth)
    : feed_(feed), depth_(depth), filling_(chunks_.to_fill()), thread_([this] { consume(); }) {}

sample_thread::~sample_thread() { finish(); }

void sample_thread::finish() {
  if (!thread_.joinable()) return;
  publish(true);
  thread_.join();
}

void sample_thread::publish(bool last) {
  filling_->count = used_;
  filling_->last = last;
  chunks_.publish(last);
  used_ = 0;
  if (!last) filling_ = chunks_.to_fill();
}

void sample_thread::consume() {
  for (;;) {
    const chunk& c = chunks_.to_read();
    for (std::size_t i = 0; i < c.count; ++i) {
      const sample& s = c.samples[i];
      switch (s.kind) {
        case sample::kind_type::feed:
          feed_->record(s.locate, std::chrono::nanoseconds(s.a), std::chrono::nanoseconds(s.b));
          break;
        case sample::kind_type::latency:
          feed_->record_latency(s.locate, std::chrono::nanoseconds(s.b));
          break;
        case sample::kind_type::depth:
          depth_->record(s.locate, static_cast<std::uint32_t>(s.a), static_cast<std::uint32_t>(s.b));
          break;
      }
    }
    const bool last = c.last;
    chunks_.release();
    if (last) return;
  }
}

}  // namespace itch5::inside
