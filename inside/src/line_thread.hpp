// Inside lines formatted and written on a thread of their own (one book thread and nothing that times
// messages): the books' thread only records each change (24 bytes) in chunks of an io::chunk_ring and hands
// full chunks over; the line thread runs a line_formatter over them, in order, and writes to the sink. The
// output is byte for byte that of the inline formatter (tests: LineThread*). The producer side has the
// formatter's interface as the lines output uses it (name, change, finish); finish() hands over the rest,
// waits for the thread and rethrows what the sink threw there. After a sink error the thread drops later
// chunks and failed() turns true, so that the run can stop early. One producer thread.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <string_view>
#include <thread>

#include <itch5/io/chunk_ring.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/detail/prefetch.hpp>
#include <itch5/book/price_level.hpp>
#include <itch5/book/side_kind.hpp>

#include <itch5/inside/line_sink.hpp>

#include "line_formatter.hpp"

namespace itch5::inside {

class line_thread {
 public:
  line_thread(line_sink& sink, std::size_t buffer_bytes);
  line_thread(const line_thread&) = delete;
  line_thread& operator=(const line_thread&) = delete;
  ~line_thread();

  void name(std::uint16_t locate, std::string_view name) {
    record& r = next();
    r.kind = record::named;
    r.locate = locate;
    r.name_size = static_cast<std::uint8_t>(std::min(name.size(), sizeof r.name));
    std::memcpy(r.name, name.data(), r.name_size);
  }

  void change(itch5::timestamp ts, std::uint16_t locate, book::side_kind side, const book::price_level& best,
              bool line) {
    record& r = next();
    r.kind = line ? record::line : record::text_only;
    r.side = side;
    r.locate = locate;
    r.price = best.price.units();
    r.shares = best.shares;
    r.timestamp = ts.count();
  }

  /// Hands over the rest, waits for the line thread to write it, and rethrows the sink's error if any.
  /// Lines written (all of them, once finish() returned).
  std::uint64_t finish();

  /// Whether the sink failed (the lines from then on are dropped; finish() rethrows the error).
  [[nodiscard]] bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

 private:
  struct record {
    enum kind_type : std::uint8_t { line, text_only, named };
    std::int64_t timestamp;  // line, text_only: the event's timestamp (ns)
    union {
      std::uint64_t shares;  // line, text_only: the new best level of `side`
      char name[8];          // named: the symbol as printed (name_size characters)
    };
    std::uint32_t price;
    std::uint16_t locate;
    kind_type kind;
    union {
      book::side_kind side;
      std::uint8_t name_size;
    };
  };
  static_assert(sizeof(record) == 24);
  static constexpr std::size_t chunk_records = 2048;  // 48 KB
  struct chunk {
    std::array<record, chunk_records> records;
    std::size_t count;
    bool last;
  };
  static constexpr std::uint64_t ring = 16;  // chunks in flight

  record& next() {
    if (used_ == chunk_records) publish(false);
    record* const records = filling_->records.data();
    if (used_ + 16 < chunk_records) book::detail::prefetch_for_write(records + used_ + 16);
    return records[used_++];
  }

  // Hands the chunk being filled to the line thread and takes the next (waiting while all chunks are in
  // the line thread's hands).
  void publish(bool last) {
    filling_->count = used_;
    filling_->last = last;
    chunks_.publish(last);
    used_ = 0;
    if (!last) filling_ = chunks_.to_fill();
  }

  void consume();  // the line thread
  void apply(const record& r);

  line_formatter formatter_;  // used by the line thread only (and by finish() after joining it)
  io::chunk_ring<chunk, ring> chunks_;
  chunk* filling_;        // the chunk being filled (producer; never stopped, so never null)
  std::size_t used_ = 0;  // records in it
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;  // written by the line thread, read after joining it
  std::thread thread_;        // last: starts once everything above is constructed
};

}  // namespace itch5::inside
