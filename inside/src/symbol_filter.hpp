// Which stock locates make lines and samples (inside_options::symbols), learned at each locate's first
// book event, and the printable name of every locate learned (for the statistics rows).
//
// wanted() is one byte load per event once a locate is known; learning a locate (its first event) is cold
// and asks an itch5::symbol_directory, the itch5 room's matching of chosen symbols (also itch5cat's), with
// the book's symbol folded to upper case. Used by the books' thread only (one filter per observer).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <itch5/stock_symbol.hpp>
#include <itch5/symbol_directory.hpp>

#include <itch5/book/detail/locate_array.hpp>

namespace itch5::inside {

/// A locate's printable name (symbol_filter::name_of), for the rows of the statistics tables.
using name_function = std::function<std::string(std::uint16_t)>;

/// The symbol as printed: trailing spaces trimmed, anything unprintable or a space inside replaced by '?',
/// so a malformed symbol can never break the space-separated line format.
std::string printable_symbol(const itch5::stock_symbol& s);

/// ASCII letters to upper case (symbols are matched so: "aapl" selects AAPL).
std::string upper_case(std::string_view s);

/// The requested symbols, upper case (empty: all).
std::unordered_set<std::string> symbol_set(const std::vector<std::string>& symbols);

class symbol_filter {
 public:
  explicit symbol_filter(const std::vector<std::string>& symbols) : directory_(symbols) {}

  /// Whether the events of `locate` (whose book is named `symbol`) make lines and samples. The first call
  /// for a locate learns it, and calls on_wanted(locate, printable name) if it is wanted.
  template <class OnWanted>
  bool wanted(std::uint16_t locate, const itch5::stock_symbol& symbol, OnWanted&& on_wanted) {
    const std::uint8_t st = state_[locate];
    if (st != unknown) [[likely]]
      return st == yes;
    return learn(locate, symbol, on_wanted);
  }

  /// Whether every locate is wanted (no symbols were chosen).
  [[nodiscard]] bool takes_all() const noexcept {
    return directory_.selected(0) && directory_.selected(65535);
  }

  /// The printable name of a locate learned, "?" for one never learned.
  [[nodiscard]] std::string name_of(std::uint16_t locate) const {
    const auto it = names_.find(locate);
    return it != names_.end() && !it->second.empty() ? it->second : "?";
  }

 private:
  enum : std::uint8_t { unknown = 0, yes = 1, no = 2 };

  template <class OnWanted>
  [[gnu::noinline, gnu::cold]] bool learn(std::uint16_t locate, const itch5::stock_symbol& symbol,
                                          OnWanted& on_wanted) {
    // wanted() calls this only for a locate still unknown.
    std::uint8_t& st = state_[locate];
    const std::string& name = names_[locate] = printable_symbol(symbol);
    st = directory_.learn(locate, upper_case(symbol.str())) ? yes : no;
    if (st == yes) on_wanted(locate, std::string_view(name));
    return st == yes;
  }

  itch5::symbol_directory directory_;  // the chosen symbols (none: every locate)
  // Per locate: unknown, yes or no (zeroed: unknown).
  book::detail::locate_array<std::uint8_t> state_ = book::detail::locate_array<std::uint8_t>::zeroed();
  std::unordered_map<std::uint16_t, std::string> names_;  // locates learned, for the statistics rows
};

}  // namespace itch5::inside
