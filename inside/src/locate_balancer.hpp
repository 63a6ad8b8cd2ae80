// Which book thread of the sharded run (run_sharded.hpp) handles a message: stock locates go to threads as
// their first order message comes, each to the thread with the least load so far; stock directory messages
// go to all, the rest to none. Also keeps the load accounting. O(1) per message (O(threads) at a locate's
// first order); used by the reading thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <itch5/messages.hpp>
#include <itch5/peek.hpp>

#include "sharded_batch.hpp"

namespace itch5::inside {

// The most active symbols, which trade early and often, are spread first, and the others fill in behind
// them. (A fixed locate % 2 put 59% of the book work of the 20 M generated day of seed 3 on one thread, 72%
// of the 2 M day's messages: their most active symbols happen to have even locates; this puts 54%.) The
// output does not depend on the assignment, only the balance does.
class locate_balancer {
 public:
  explicit locate_balancer(unsigned threads) : threads_(threads), load_(threads, 0) {}

  /// The book thread of `msg`: to_all for a stock directory message (every thread names the locate's
  /// book), to_none for a message that touches no book, else the thread of its locate (assigned now if this
  /// is the locate's first order message), which is charged for it.
  std::uint8_t owner_of(std::span<const std::byte> msg) {
    const char type = itch5::peek_type(msg);
    if (type == itch5::stock_directory::type) return to_all;
    if (!itch5::is_order_message(type)) return to_none;
    std::uint8_t& o = owners_[itch5::peek_stock_locate(msg)];
    if (o == to_none) [[unlikely]] {
      // The least loaded; on a tie the highest number, so that the first (most active) symbols of the
      // day go to the threads that do not also read.
      o = static_cast<std::uint8_t>(threads_ - 1);
      for (unsigned s = threads_ - 1; s-- > 0;) {
        if (load_[s] < load_[o]) o = static_cast<std::uint8_t>(s);
      }
    }
    load_[o] += book_message_cost;
    return o;
  }

  /// Charges the reading thread (book thread 0) for a message read.
  void charge_read() noexcept { ++load_[0]; }

  /// The thread that keeps the books of `locate`, to_none if no order message named it.
  [[nodiscard]] std::uint8_t owner(std::uint16_t locate) const noexcept { return owners_[locate]; }

 private:
  // Load in eighths of a book message: thread 0 also reads, frames, copies and merges every message, and
  // is charged 1 per message read. Measured on 2 cores (docs/performance.md, Book threads): charging the
  // reading thread 1/8 of a book message per message read beats 1/4 by 1.10x on the 50 M generated day
  // (seed 1) and 1.06x on the 20 M day (seed 3); 1/6 to 1/12 are alike, 1/16 and no charge are slower.
  // The other threads have costs of their own (frames written by another core, their own order tables),
  // so the reading thread's overhead weighs less than its ~20 ns a message suggests.
  static constexpr std::uint64_t book_message_cost = 8;

  unsigned threads_;
  std::vector<std::uint8_t> owners_ = std::vector<std::uint8_t>(std::size_t{1} << 16, to_none);
  std::vector<std::uint64_t> load_;
};

}  // namespace itch5::inside
