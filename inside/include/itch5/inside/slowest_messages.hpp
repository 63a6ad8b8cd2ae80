// The N messages that took longest to handle, for finding stop-the-world steps in a long run.
//
//   itch5::inside::slowest_messages slow(20);
//   slow.offer(message_number, 'A', took);     // per message: one compare unless it is among the slowest
//   for (const itch5::inside::slow_message& m : slow.sorted()) ...
//
// A stall that comes back at the same message number in two runs is the program's (a table growing, a
// page touched for the first time); one that does not is the machine's (preemption, a busy neighbour).
// inside_options::slowest asks run_inside for them; itch5inside --slowest prints them.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace itch5::inside {

struct slow_message {
  std::uint64_t message = 0;  ///< message number in the input, from 1 (message_reader::messages())
  char type = 0;              ///< its type byte
  std::chrono::nanoseconds took{0};

  friend bool operator==(const slow_message&, const slow_message&) = default;
};

class slowest_messages {
 public:
  /// Keeps the `keep` slowest messages offered (0: keeps none, offer() only compares).
  explicit slowest_messages(std::size_t keep);

  /// Offers a message; kept if it is among the `keep` slowest so far (of equal times, the earlier stays).
  void offer(std::uint64_t message, char type, std::chrono::nanoseconds took) {
    if (took <= floor_) [[likely]]
      return;
    insert({message, type, took});
  }

  /// The messages kept, slowest first (equal times: lower message number first).
  [[nodiscard]] std::vector<slow_message> sorted() const;

 private:
  void insert(const slow_message& m);

  std::size_t keep_;
  std::vector<slow_message> heap_;  // a min-heap on took: the quickest of the kept at the front
  std::chrono::nanoseconds floor_;  // what a message must beat: the quickest kept once full
};

}  // namespace itch5::inside
