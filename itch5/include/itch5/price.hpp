// Fixed-point ITCH prices: Price(4) (four implied decimals, 32 bits) and Price(8) (eight, 64 bits).
//
// A price is kept as its integer number of units (1 unit of price4 = $0.0001). Arithmetic on prices is
// integer arithmetic; formatting into decimal text is done by format_price() into a caller's buffer.
#pragma once

#include <charconv>
#include <compare>
#include <cstdint>

namespace itch5 {

template <int Decimals, class Rep>
class price {
 public:
  using rep = Rep;
  static constexpr int decimals = Decimals;

  constexpr price() noexcept = default;
  constexpr explicit price(Rep units) noexcept : units_(units) {}

  /// The integer number of 10^-Decimals dollar units.
  [[nodiscard]] constexpr Rep units() const noexcept { return units_; }

  friend constexpr auto operator<=>(price, price) noexcept = default;

 private:
  Rep units_ = 0;
};

using price4 = price<4, std::uint32_t>;
using price8 = price<8, std::uint64_t>;

/// The largest valid Price(4): $200,000.0000. Also the value itch5inside prints for an empty offer.
inline constexpr price4 max_price4{2'000'000'000u};

/// Writes `p` as decimal dollars ("123.4500", all decimals kept) at `out`; returns the end.
/// `out` must have room for 32 characters.
template <int Decimals, class Rep>
char* format_price(char* out, price<Decimals, Rep> p) noexcept {
  Rep scale = 1;
  for (int i = 0; i < Decimals; ++i) scale = static_cast<Rep>(scale * 10);
  out = std::to_chars(out, out + 24, p.units() / scale).ptr;
  *out++ = '.';
  Rep frac = p.units() % scale;
  for (int i = Decimals - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  return out + Decimals;
}

}  // namespace itch5
