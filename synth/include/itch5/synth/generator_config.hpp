// Settings of the synthetic ITCH day (see generator.hpp), with the defaults the itch5synth tool shows.
//
// A config plus its seed fully determines the output bytes. resolve() fills in the values that depend on
// the run size (symbol count, mean gap) and checks every field, so a resolved config is what actually ran
// and can be printed.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

namespace itch5::synth {

/// How order reference numbers are handed out. The messages are the same for every pattern (the
/// references come from a stream of their own), so a pattern's cost can be compared with the default's.
enum class reference_pattern {
  sequential,  ///< 1, 2, 3, ...: what Nasdaq sends (the default)
  gapped,      ///< increasing with gaps of 1 to 65,536 (mean ~32 k): a day filtered to a few symbols
  random,      ///< distinct, scattered over 64 bits: a feed that hashes or encodes its references
  reuse,       ///< the references of dead orders handed out again, oldest first, once 1,024 are free
};

/// "sequential", "gapped", "random", "reuse".
[[nodiscard]] std::string_view to_string(reference_pattern p) noexcept;
/// The pattern named `name`; throws std::invalid_argument for another name.
[[nodiscard]] reference_pattern parse_reference_pattern(std::string_view name);

struct generator_config {
  std::uint64_t messages = 20'000'000;  ///< total messages written, system and directory messages included
  std::uint32_t symbols = 0;            ///< 0: default_symbols(messages)
  std::uint64_t seed = 1;
  /// false (the default): the trading messages are spread over a real day's shape, 04:00 to 20:00 with
  /// the regular session's U-shaped activity (generator.hpp), whatever their number; mean_gap is then
  /// the mean over that span (set by resolve()). true: they run from 09:30 at mean_gap, a day compressed
  /// into minutes for dense tests (the generator's only behaviour before issue 31).
  bool compress = false;
  /// Mean gap between trading messages. With compress: 0 is default_mean_gap(messages). Without: set by
  /// resolve() to the mean that spreads them over 04:00-20:00 (shaped_mean_gap), whatever it was.
  std::chrono::nanoseconds mean_gap{0};
  double zipf = 1.1;                  ///< exponent of the activity weights 1 / rank^zipf
  double sub_dollar_fraction = 0.07;  ///< share of symbols priced below $1.00
  double live_fraction = 0.0075;      ///< live orders at the end, as a fraction of the trading messages
  reference_pattern references = reference_pattern::sequential;  ///< how order references are numbered
  /// Share of the trading activity of the busiest symbol, in [0, 0.99]; 0: its Zipf weight (issue 11's "one
  /// symbol with half of all messages" is 0.5).
  double hot_share = 0;
  /// Multiplies the distance from the inside (in price levels) of every new order, in [1, 1000]; removals
  /// keep the measured curve of real days (p50 1, p99 203 levels). 1 keeps that curve; larger values make
  /// the deep orders outlive the near ones, and books thousands of levels deep.
  double depth_scale = 1;

  // The delayed copy (written only when the caller asks for it).
  std::chrono::nanoseconds delay{250'000};  ///< fixed delay added to every timestamp
  std::chrono::nanoseconds jitter{2'000};   ///< plus a uniform draw in [-jitter, +jitter]
  double drop = 0.02;                       ///< probability that an order is missing from the copy

  /// Symbols by default: 0.7 * sqrt(messages), between 10 and 10,000: 313 for 200k messages, 3,130 for 20M,
  /// 10,000 from 204M on (a real day lists ~8,000-12,000 symbols for 270-650M messages, ~40k messages per
  /// symbol; fewer symbols for smaller runs keep the books of the busy ones realistically deep).
  [[nodiscard]] static std::uint32_t default_symbols(std::uint64_t messages) noexcept;
  /// Mean gap by default: min(150 us, 6.5 h / messages), so large runs fit in a trading session.
  [[nodiscard]] static std::chrono::nanoseconds default_mean_gap(std::uint64_t messages) noexcept;
  /// Mean gap of a shaped day of `trading` trading messages: 98% of 04:00-20:00 over their number, at
  /// least 1 us (from ~56 G messages on).
  [[nodiscard]] static std::chrono::nanoseconds shaped_mean_gap(std::uint64_t trading) noexcept;

  /// Messages before and after the trading activity for `symbols` symbols: system events, one R and one H
  /// per symbol, the Y messages.
  [[nodiscard]] static std::uint64_t fixed_messages(std::uint32_t symbols) noexcept;

  /// A copy with the defaults filled in. Throws std::invalid_argument naming the setting when a value is
  /// out of range or the settings do not fit together (too few messages for the symbols, a run that
  /// would not fit in a day).
  [[nodiscard]] generator_config resolve() const;
};

}  // namespace itch5::synth
