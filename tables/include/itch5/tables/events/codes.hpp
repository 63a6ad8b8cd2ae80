// What the one-character (and short alphabetic) codes of ITCH's market-state messages mean, as data that the
// event tables (events/*_table.hpp) turn into their `..._meaning` text columns: a code's list is a constexpr
// array of (code, meaning) pairs, searched linearly (a few dozen entries at most, a message's few codes).
//
//   itch5::tables::text t = itch5::tables::events::meaning_of(system_event_codes, 'O');  // "start of
//   messages"
//
// A code the specification does not define has no meaning (empty text). A space, which the specification uses
// for "not available", is listed with that meaning; as a letter column it is empty (code_letter). Constant
// data only: safe from any thread.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include <itch5/stock_symbol.hpp>

#include <itch5/tables/column.hpp>

namespace itch5::tables::events {

/// A one-character code and what it means.
struct code_meaning {
  char code;
  std::string_view meaning;
};

/// A code of up to 8 characters (a halt reason, an issue sub-type) and what it means.
struct word_meaning {
  std::string_view code;
  std::string_view meaning;
};

/// The meaning of `code` in `list`, empty if the list has no such code.
template <std::size_t N>
constexpr text meaning_of(const std::array<code_meaning, N>& list, char code) noexcept {
  for (const code_meaning& c : list) {
    if (c.code == code) return {c.meaning};
  }
  return {};
}

/// The meaning of `code` (trailing spaces ignored) in `list`, empty if the list has no such code.
template <std::size_t N>
constexpr text meaning_of(const std::array<word_meaning, N>& list, std::string_view code) noexcept {
  while (!code.empty() && code.back() == ' ') code.remove_suffix(1);
  for (const word_meaning& c : list) {
    if (c.code == code) return {c.meaning};
  }
  return {};
}

/// A code as a letter column: a space (the specification's "not available") is no letter (empty).
constexpr letter code_letter(char c) noexcept { return letter{c == ' ' ? '\0' : c}; }

/// An alphabetic code of N <= 8 characters (space-padded) as a short text column of the symbol type.
template <std::size_t N>
constexpr itch5::stock_symbol code_word(const std::array<char, N>& chars) noexcept {
  static_assert(N <= itch5::stock_symbol::width);
  return itch5::stock_symbol::from(std::string_view(chars.data(), N));
}

}  // namespace itch5::tables::events
