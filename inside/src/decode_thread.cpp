#include "decode_thread.hpp"

#include <cstring>
#include <span>

#include <itch5/dispatch.hpp>
#include <itch5/peek.hpp>

namespace itch5::inside {

namespace {

// The largest frame a message can have (a 2-byte length): a chunk ends before its frames might overflow.
constexpr std::size_t max_frame = 0xffff;

// Whether a record keeps every field of a message of `type` that the engine and the tables read
// (book_record.hpp). F's attribution is dropped, and no table reads it: a table that does must take F
// whole too.
constexpr bool record_is_whole(char type) noexcept {
  return type == 'A' || type == 'F' || type == 'X' || type == 'D' || type == 'U';
}

}  // namespace

decode_thread::decode_thread(itch5::message_reader& reader, const inside_options& opt,
                             const progress_callback& progress, bool whole_messages)
    : reader_(reader),
      cancel_(opt.cancel),
      progress_(progress),
      whole_messages_(whole_messages),
      thread_([this] {
        if (whole_messages_) {
          for (chunk& c : chunks_.chunks())
            c.frames.resize(chunk_records * frame_bytes_per_record + max_frame);
        }
        produce();
      }) {}

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
    std::size_t framed = 0;  // bytes used in c->frames
    const std::size_t frames_room = whole_messages_ ? c->frames.size() - max_frame : 0;
    try {
      std::span<const std::byte> msg;
      while (n < chunk_records && framed <= frames_room) {
        if (reader_.next(msg) != itch5::read_status::message) {
          last = true;
          break;
        }
        count_message(by_type, events, msg);
        book::detail::book_record& rec = c->records[n++];
        book::detail::record_encoder encode{&rec};
        itch5::dispatch_unchecked(msg.data(), encode);
        if (whole_messages_ && !record_is_whole(rec.type)) {
          std::memcpy(c->frames.data() + framed, msg.data(), msg.size());
          rec.other = framed;
          rec.side = whole_mark;
          framed += msg.size();
        }
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
