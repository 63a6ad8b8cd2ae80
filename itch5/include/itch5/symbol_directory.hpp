// symbol_directory: the symbol of each stock locate, learnt from the stock directory ('R') messages as they
// pass, and which locates belong to a chosen set of symbols.
//
//   itch5::symbol_directory symbols({"aapl", "MSFT"});  // empty: every locate is selected
//   while (reader.next(msg) == itch5::read_status::message) {
//     if (!symbols.observe(msg)) continue;  // learns from directory messages, then: is msg's locate chosen?
//     ...
//   }
//   for (const auto& s : symbols.not_found()) ...  // chosen symbols that no directory message named
//
// A directory message comes before its stock's other messages, so a locate is known before it is used.
// Chosen symbols are matched without regard to case: they are upper-cased (ITCH symbols are upper case),
// and a learnt symbol is compared as it is (a caller that wants it folded upper-cases it for learn()).
// A locate once selected stays selected. observe() costs one type comparison and a bit test; learning
// costs a lookup among the chosen symbols. Not thread-safe; one directory per stream.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <itch5/stock_symbol.hpp>

namespace itch5 {

class symbol_directory {
 public:
  /// `chosen`: the symbols to select, in any case (repeats are ignored); none selects every locate.
  explicit symbol_directory(const std::vector<std::string>& chosen = {});

  /// Learns from `msg` when it is a stock directory message, then says whether the locate of `msg` is
  /// selected. `msg` starts at the type byte and is complete (as message_reader::next() returns it).
  [[nodiscard]] bool observe(std::span<const std::byte> msg);

  /// Learns that `locate` is `symbol`; returns whether `locate` is selected.
  bool learn(std::uint16_t locate, std::string_view symbol);

  /// Selects `locate` whatever its symbol (locate 0: the messages of no one stock).
  void select(std::uint16_t locate) { selected_.set(locate); }

  [[nodiscard]] bool selected(std::uint16_t locate) const noexcept { return all_ || selected_.test(locate); }

  /// The symbol last learnt for `locate` (trailing spaces trimmed), or "" when none was. The view lives as
  /// long as the directory and up to the next learn() of the same locate.
  [[nodiscard]] std::string_view symbol(std::uint16_t locate) const noexcept;

  /// The chosen symbols (upper case, each once, in the order given) that no learnt symbol matched.
  [[nodiscard]] std::vector<std::string> not_found() const;

 private:
  bool all_;
  std::vector<std::string> chosen_;  // upper case
  std::vector<bool> found_;
  std::bitset<65536> selected_;
  std::unordered_map<std::uint16_t, stock_symbol> symbols_;
};

}  // namespace itch5
