// A deliberately simple reference for the book engine: the shared reference book of the tests
// (itch5_test/reference_book.hpp: an unordered_map of orders, a std::map per book side), the inside
// recomputed from the maps after every applied message, and lines formatted with std::to_string. It applies
// the engine's documented rules for inconsistent input (itch5_test/book_rules.hpp, from
// book/anomaly_counts.hpp) so that streams with anomalies can be compared too. Shares no code with book/
// beyond the decoder.
#pragma once

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_map>

#include <itch5/dispatch.hpp>
#include <itch5/message_reader.hpp>
#include <itch5_test/book_rules.hpp>
#include <itch5_test/reference_book.hpp>

namespace naive {

class reference {
 public:
  void operator()(const itch5::stock_directory& m) {
    lines_[m.header.stock_locate].symbol = std::string(m.stock.str());
  }
  void operator()(const itch5::add_order& m) { add(m); }
  void operator()(const itch5::add_order_mpid& m) { add(m); }
  /// E/C/X/D/U, and any other message (which changes nothing).
  template <class M>
  void operator()(const M& m) {
    const itch5_test::book_change c = itch5_test::apply_book_message(book_, m);
    if (c.applied) emit(m.header, c.locate);
  }

  [[nodiscard]] const std::string& output() const { return out_; }

 private:
  // Per locate: the symbol printed on its lines, and the inside of its last line.
  struct line_state {
    std::string symbol;
    std::tuple<std::uint32_t, std::uint64_t, std::uint32_t, std::uint64_t> last{0, 0, 2000000000, 0};
  };

  // An add with valid fields names its locate when no directory message did.
  template <class A>
  void add(const A& m) {
    const itch5_test::book_change c = itch5_test::apply_book_message(book_, m);
    if (!itch5_test::add_fields_valid(c)) return;
    line_state& l = lines_[m.header.stock_locate];
    if (l.symbol.empty()) l.symbol = std::string(m.stock.str());
    if (c.applied) emit(m.header, m.header.stock_locate);
  }

  void emit(const itch5::message_header& h, std::uint16_t locate) {
    const auto& b = book_.book(locate);
    line_state& l = lines_[locate];
    auto now = std::make_tuple(b.bids.empty() ? 0u : b.bids.begin()->first,
                               b.bids.empty() ? 0u : b.bids.begin()->second.shares,
                               b.offers.empty() ? 2000000000u : b.offers.begin()->first,
                               b.offers.empty() ? 0u : b.offers.begin()->second.shares);
    if (now == l.last) return;
    l.last = now;
    out_ += std::to_string(h.timestamp.count()) + " " + std::to_string(locate) + " " + l.symbol + " " +
            std::to_string(std::get<0>(now)) + " " + std::to_string(std::get<1>(now)) + " " +
            std::to_string(std::get<2>(now)) + " " + std::to_string(std::get<3>(now)) + "\n";
  }

  itch5_test::reference_book book_;
  std::unordered_map<std::uint16_t, line_state> lines_;
  std::string out_;
};

/// Runs the reference over a whole BinaryFILE stream held in memory.
inline std::string run(std::span<const std::byte> bytes) {
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, false, 3}));
  reference ref;
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) itch5::dispatch_unchecked(msg.data(), ref);
  return ref.output();
}

}  // namespace naive
