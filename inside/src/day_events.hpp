// Whether a run read the System Events that start and end a Nasdaq day: Start of Messages (S 'O') and End
// of Messages (S 'C'). A day cut exactly at a message boundary frames cleanly; only the missing End of
// Messages tells. Noted on the thread that reads the messages, where each message's type is looked at for
// the counts by type anyway: the event code is read for S messages only (a handful a day).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <itch5/messages.hpp>
#include <itch5/peek.hpp>

#include <itch5/inside/inside_result.hpp>

namespace itch5::inside {

struct day_events {
  bool start_of_messages = false;
  bool end_of_messages = false;

  void note(char event_code) noexcept {
    if (event_code == 'O') start_of_messages = true;
    if (event_code == 'C') end_of_messages = true;
  }
  /// Adds what was seen to `r` (several readers' notes may be added).
  void add_to(inside_result& r) const noexcept {
    r.start_of_messages = r.start_of_messages || start_of_messages;
    r.end_of_messages = r.end_of_messages || end_of_messages;
  }
};

/// Counts a framed message by type and notes a day's start and end events. Per message, on the reading
/// thread.
[[gnu::always_inline]] inline void count_message(std::array<std::uint64_t, 256>& by_type, day_events& events,
                                                 std::span<const std::byte> msg) noexcept {
  const char type = itch5::peek_type(msg);
  ++by_type[static_cast<unsigned char>(type)];
  if (type == itch5::system_event::type) [[unlikely]]
    events.note(itch5::peek_system_event_code(msg));
}

}  // namespace itch5::inside
