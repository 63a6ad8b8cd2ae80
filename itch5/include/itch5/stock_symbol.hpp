// The 8-byte, space-padded stock symbol of ITCH messages, held by value.
#pragma once

#include <algorithm>
#include <array>
#include <compare>
#include <string_view>

namespace itch5 {

class stock_symbol {
 public:
  static constexpr std::size_t width = 8;

  constexpr stock_symbol() noexcept { chars_.fill(' '); }

  /// Pads `s` with spaces to 8 characters; longer strings are cut to 8.
  static constexpr stock_symbol from(std::string_view s) noexcept {
    stock_symbol r;
    std::copy_n(s.begin(), std::min(s.size(), width), r.chars_.begin());
    return r;
  }

  /// The symbol without its trailing spaces ("AAPL"). The view points into this object.
  [[nodiscard]] constexpr std::string_view str() const noexcept {
    std::size_t n = width;
    while (n > 0 && chars_[n - 1] == ' ') --n;
    return {chars_.data(), n};
  }

  /// All 8 characters, padding included.
  [[nodiscard]] constexpr const std::array<char, width>& raw() const noexcept { return chars_; }
  [[nodiscard]] constexpr std::array<char, width>& raw() noexcept { return chars_; }

  friend constexpr bool operator==(const stock_symbol&, const stock_symbol&) noexcept = default;

 private:
  std::array<char, width> chars_;
};

}  // namespace itch5
