#include "line_thread.hpp"

namespace itch5::inside {

line_thread::line_thread(line_sink& sink, std::size_t buffer_bytes)
    : formatter_(sink, buffer_bytes), filling_(chunks_.to_fill()), thread_([this] { consume(); }) {}

line_thread::~line_thread() {
  if (thread_.joinable()) {
    try {
      finish();
    } catch (...) {  // an error already reported, or none to report: a destructor cannot throw
    }
  }
}

std::uint64_t line_thread::finish() {
  publish(true);
  thread_.join();
  if (error_) std::rethrow_exception(error_);
  return formatter_.lines();
}

void line_thread::consume() {
  for (;;) {
    const chunk& c = chunks_.to_read();
    const bool last = c.last;
    if (!error_) {
      try {
        for (std::size_t i = 0; i < c.count; ++i) apply(c.records[i]);
        if (last) formatter_.flush();
      } catch (...) {
        error_ = std::current_exception();
        failed_.store(true, std::memory_order_relaxed);
      }
    }
    chunks_.release();
    if (last) return;
  }
}

void line_thread::apply(const record& r) {
  if (r.kind == record::named) {
    formatter_.name(r.locate, std::string_view(r.name, r.name_size));
    return;
  }
  formatter_.change(itch5::timestamp(r.timestamp), r.locate, r.side,
                    book::price_level{itch5::price4(r.price), r.shares}, r.kind == record::line);
}

}  // namespace itch5::inside
