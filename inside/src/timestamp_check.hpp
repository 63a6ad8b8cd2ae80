// The timestamp checks of book::book_engine over the whole stream, for the sharded run: its book threads
// see only some messages each, so the reading thread checks every message's timestamp instead. O(1) per
// message; one thread.
#pragma once

#include <cstddef>
#include <cstdint>

#include <itch5/detail/endian.hpp>
#include <itch5/message_header.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/anomaly_counts.hpp>

namespace itch5::inside {

struct timestamp_check {
  void operator()(const std::byte* msg) noexcept {
    const itch5::timestamp ts(
        static_cast<std::int64_t>(itch5::detail::load_be48(msg + itch5::message_header::timestamp_offset)));
    if (ts < last) [[unlikely]]
      anomalies.count(book::anomaly::timestamp_backwards);
    if (ts >= itch5::one_day) [[unlikely]]
      anomalies.count(book::anomaly::timestamp_beyond_day);
    last = ts;
  }
  itch5::timestamp last{0};
  book::anomaly_counts anomalies;
};

}  // namespace itch5::inside
