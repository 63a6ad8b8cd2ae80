// The symbols of a synthetic day: plausible unique tickers, their stock-directory attributes, a starting
// price each, and Zipf-like activity weights.
//
// Names are real: the busiest symbols take the names of real, heavily traded issues busiest first (SPY,
// QQQ, AAPL, MSFT, ...), then those of a real 2019 directory (detail::real_symbols, 1,308 in all, with
// their market category, issue classification and ETP flag), so a day of the default size lists AAPL and
// MSFT and --symbols AAPL,MSFT finds them. Beyond those, made-up names of the real shapes: 2-5 capital
// letters (Nasdaq-listed issues mostly 4, NYSE/Arca/other exchanges mostly 2-3), unique, in a random mix of
// Nasdaq tiers (Q, G, S) and other exchanges (N, P, Z, A); Arca-listed ones are ETPs. All are sorted
// alphabetically and numbered 1..N as stock locates, as in a real directory. A fraction of symbols trade
// below $1.00 (starting between $0.20 and $1.00, tick $0.0001); the
// others start log-uniformly between $1 and $1,000, and 1% of them between $1,000 and $5,000.
// Activity: rank r (1-based; the r-th name above) weighs 1 / r^zipf, so with exponent
// 1.0-1.2 a few symbols carry most messages and a long tail carries few. A hot share h > 0 then gives the
// busiest symbol h of the total weight (one symbol with half the messages: h = 0.5), the others keeping their
// proportions. sample() draws a symbol index in proportion to its weight in O(1) (alias table).
//
// Construction O(N log N); sample O(1). Memory ~64 bytes per symbol. Immutable after construction.
#pragma once

#include <cstdint>
#include <vector>

#include <itch5/messages/stock_directory.hpp>
#include <itch5/stock_symbol.hpp>
#include <itch5/synth/alias_table.hpp>
#include <itch5/synth/rng.hpp>

namespace itch5::synth {

struct symbol_info {
  stock_directory directory;     ///< the R message (header left empty): name, category, attributes
  std::uint32_t start_tick = 0;  ///< tick index (itch5/tick.hpp) of the starting reference bid
  std::uint32_t rank = 0;        ///< activity rank, 1 = busiest
  double weight = 0;             ///< activity weight, 1 / rank^zipf (not normalised; rank 1: see hot_share)

  [[nodiscard]] const stock_symbol& name() const noexcept { return directory.stock; }
};

class symbol_universe {
 public:
  /// `count` in [1, 65535] (stock locates are 16 bits), `zipf` in [0, 5], `sub_dollar_fraction` in [0, 1],
  /// `hot_share` in [0, 1) (0: Zipf weights only). Throws std::invalid_argument otherwise. Draws from `r`.
  symbol_universe(std::uint32_t count, double zipf, double sub_dollar_fraction, rng& r, double hot_share = 0);

  [[nodiscard]] std::size_t size() const noexcept { return symbols_.size(); }
  /// Symbol with stock locate i + 1.
  [[nodiscard]] const symbol_info& operator[](std::size_t i) const noexcept { return symbols_[i]; }
  [[nodiscard]] const std::vector<symbol_info>& symbols() const noexcept { return symbols_; }

  /// A symbol index (locate - 1) drawn in proportion to the activity weights.
  [[nodiscard]] std::uint32_t sample(rng& r) const noexcept { return activity_.sample(r); }

  /// Symbol indices from the busiest to the quietest.
  [[nodiscard]] const std::vector<std::uint32_t>& by_rank() const noexcept { return by_rank_; }

 private:
  std::vector<symbol_info> symbols_;
  std::vector<std::uint32_t> by_rank_;
  alias_table activity_;
};

}  // namespace itch5::synth
