// Adds up the rows of the trades table (trades_table.hpp) per stock locate into the rows of the trade
// statistics table (trade_stats_table.hpp; which prints count is said there).
//
//   itch5::tables::trade_stats_builder stats;
//   stats.add(trade);                                     // per trades row, in feed order: O(1)
//   stats.each_row([](const trade_stats_row& r) { ... });  // at the end, locate order
//
// Sums are exact (128-bit; a volume or notional beyond 64 bits is written as the largest uint64). Memory:
// one entry per locate up to the highest seen (~130 bytes each, at most 65,536). One thread at a time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>

namespace itch5::tables {

class trade_stats_builder {
 public:
  /// Takes one trades row (every kind; the ones that do not count only touch their own columns).
  void add(const trade_row& t) {
    if (t.locate >= symbols_.size()) symbols_.resize(std::size_t{t.locate} + 1);
    symbol_stats& s = symbols_[t.locate];
    if (!s.seen || t.kind.code != 'B') s.symbol = t.symbol;  // a B's is its book's: none without one
    s.seen = true;
    s.last = t.timestamp;
    const std::uint64_t shares = t.shares.value_or(0);
    switch (t.kind.code) {
      case 'B': ++s.breaks; return;
      case 'C':
        if (t.printable == false) {
          ++s.non_printable_trades;
          s.non_printable_volume += shares;
          return;
        }
        break;
      case 'Q': s.cross_volume += shares; break;
      default: break;
    }
    if (shares == 0 || !t.price) return;
    const itch5::price4 p = *t.price;
    ++s.trades;
    s.volume += shares;
    s.notional += static_cast<u128>(p.units()) * shares;
    if (!s.first) s.first = s.high = s.low = p;
    s.last_price = p;
    s.high = std::max(*s.high, p);
    s.low = std::min(*s.low, p);
  }

  /// Calls f(const trade_stats_row&) for each locate with rows, in locate order.
  template <class F>
  void each_row(F&& f) const {
    for (std::size_t locate = 0; locate < symbols_.size(); ++locate) {
      const symbol_stats& s = symbols_[locate];
      if (!s.seen) continue;
      trade_stats_row r;
      r.timestamp = s.last;
      r.locate = static_cast<std::uint16_t>(locate);
      r.symbol = s.symbol;
      r.trades = s.trades;
      r.volume = clamped(s.volume);
      r.notional = clamped(s.notional);
      if (s.volume > 0) {
        // notional / volume rounded half up: (2 * notional + volume) / (2 * volume). At most the highest
        // price, so it fits a price4.
        r.vwap = itch5::price4(static_cast<std::uint32_t>((2 * s.notional + s.volume) / (2 * s.volume)));
      }
      r.first_price = s.first;
      r.last_price = s.last_price;
      r.high_price = s.high;
      r.low_price = s.low;
      r.cross_volume = clamped(s.cross_volume);
      r.non_printable_trades = s.non_printable_trades;
      r.non_printable_volume = clamped(s.non_printable_volume);
      r.breaks = s.breaks;
      f(static_cast<const trade_stats_row&>(r));
    }
  }

 private:
  __extension__ typedef unsigned __int128 u128;  // NOLINT(modernize-use-using): __extension__ needs typedef

  static std::uint64_t clamped(u128 v) noexcept {
    constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
    return v > top ? top : static_cast<std::uint64_t>(v);
  }

  struct symbol_stats {
    bool seen = false;
    itch5::stock_symbol symbol{};
    itch5::timestamp last{};
    std::uint64_t trades = 0;
    u128 volume = 0;
    u128 notional = 0;
    std::optional<itch5::price4> first, last_price, high, low;
    u128 cross_volume = 0;
    std::uint64_t non_printable_trades = 0;
    u128 non_printable_volume = 0;
    std::uint64_t breaks = 0;
  };

  std::vector<symbol_stats> symbols_;
};

}  // namespace itch5::tables
