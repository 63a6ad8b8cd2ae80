#include "decode_thread.hpp"

#include <span>

#include <itch5/dispatch.hpp>
#include <itch5/peek.hpp>

namespace itch5::inside {

decode_thread::decode_thread(itch5::message_reader& reader, const inside_options& opt,
                             const progress_callback& progress)
    : reader_(reader), cancel_(opt.cancel), progress_(progress), thread_([this] { produce(); }) {}

void decode_thread::stop() {
  if (!thread_.joinable()) return;
  chunks_.stop();
  thread_.join();
}

void decode_thread::finish(inside_result& r) {
  stop();
  if (error_) std::rethrow_exception(error_);
  for (std::size_t t = 0; t < by_type_.size(); ++t) r.messages_by_type[t] += by_type_[t];
  events_.add_to(r);
  if (cancelled_) r.cancelled = true;
}

void decode_thread::produce() {
  // Counted here, on the decode thread's own stack, and handed over at the end: the object lives on the
  // books' thread's stack, whose lines a write per message would take from that thread's core.
  std::array<std::uint64_t, 256> by_type{};
  day_events events;
  bool last = false;
  while (!last) {
    chunk* const c = chunks_.to_fill();
    if (c == nullptr) break;  // stopped
    std::size_t n = 0;
    try {
      std::span<const std::byte> msg;
      while (n < chunk_records) {
        if (reader_.next(msg) != itch5::read_status::message) {
          last = true;
          break;
        }
        count_message(by_type, events, msg);
        book::detail::record_encoder encode{&c->records[n++]};
        itch5::dispatch_unchecked(msg.data(), encode);
        if ((reader_.messages() & 0xffff) == 0) [[unlikely]] {
          if (progress_) progress_(reader_);
          if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
            cancelled_ = true;
            last = true;
            break;
          }
        }
      }
    } catch (...) {
      error_ = std::current_exception();
      last = true;
    }
    c->count = n;
    c->last = last;
    chunks_.publish(last);
  }
  by_type_ = by_type;  // finish() reads them after joining this thread
  events_ = events;
}

}  // namespace itch5::inside
