// The synthetic TotalView-ITCH 5.0 day: a deterministic, book-consistent message stream that looks like a
// real session in the ways that matter to order books and their statistics.
//
// Stream: S 'O', S 'S', one R per symbol (locates 1..N), one H 'T' per symbol, a few Y, pre-market adds
// that build the opening books (40% of the orders live at the end), the trading messages with S 'Q' at
// 09:30 and S 'M' at 16:00 among them, then S 'E', 'C'. Each message's kind is drawn without replacement from
// exact per-kind budgets (adds ~44% with ~4% of them F, deletes 43%, replaces 9%, executions 2% with 10% of
// them C, cancels 1%, non-displayed trades P 0.6%, NOII I 0.15%, an occasional L), so the file has exactly
// the requested number of messages and the mix holds at every point of the day.
//
// Symbols: each event's symbol comes from Zipf-like weights (symbol_universe), then its kind from the
// budgets with the removal kinds weighted by how far the symbol's live orders are above or below its
// share of the day's live-order path, so every book holds its share: busy books stay deep, quiet ones
// thin, and the total grows steadily to live_fraction of the trading messages.
//
// Prices: adds land at a depth drawn from the measured depth distribution (quantile_curve through p50 1,
// p75 6, p90 14, p99 203, p99.9 2000) behind the best of their side, or join it, or improve it by up to
// half the spread when at least two ticks separate the sides; deletes, cancels and replaces draw a target
// depth from the same curve and take an order at the nearest populated level at or beyond it (the
// deepest level when the book does not reach it); executions take the oldest order at the best. The side
// of a removal follows the sides' shares of the live orders, which keeps books two-sided. Each symbol has
// a reference price doing a random walk (~2% a day); executions, removals and improvements lean towards
// it and, on the side it moves away from, new orders queue behind the best instead of joining it, so the
// inside follows it and books re-centre over the day.
//
// Time: a day of any size has a real day's shape (generator_config::compress false, the default). The
// gaps of gap_model run an activity clock that is mapped piecewise linearly onto 04:00-20:00 with a
// relative intensity per segment: low pre-market rising from 08:00 (~6% of the trading messages, the
// opening books' adds first), the regular session's U (09:30-10:00 and 15:30-16:00 thirty times the early
// pre-market's rate, lunch nine times; ~91%), an hour of post-market and a quiet evening (~3%). S Q and
// S M are written where the clock crosses 09:30 and 16:00. The gaps are summed once in advance (a copy of
// their random stream), so the last message lands just before 20:00 whatever their sum; bursts (gaps
// under 300 ns) stay bursts and other gaps stay above 300 ns. compress true: trading from 09:30 at
// mean_gap, the pre-market adds evenly over 04:00-09:30 (a compressed day for dense tests).
//
// Guarantees: every E/C/X/D/U refers to a live order (X cancels fewer shares than the order has, E/C at
// most what it has), order references of A/F and of U's new order are unique and increasing, no book is
// ever crossed, timestamps are non-decreasing and below 24 h, prices lie on the tick grid.
//
// Delayed copy: the same stream, its timestamps the original ones each shifted by delay +
// uniform[-jitter, +jitter], then sorted and given to the messages in stream order (the k-th message gets
// the k-th smallest shifted time). So the copy's timestamps are non-decreasing, every message's shift lies
// in delay +- jitter and the mean shift is the delay whatever the jitter (clamping each time to the
// previous one would bias it upwards once the jitter exceeds the gaps). A fraction `drop` of the orders
// is missing whole: the add and every later message referring to it, along its chain of replacements. The
// copy is book-consistent too. It uses its own random stream, so the main output is the same with or
// without it.
//
// Cost: O(log L) per message for a side with L populated price levels, plus O(K) for the K = 10 kinds;
// several million messages per second. A shaped day draws its gaps twice (once to sum them): ~1% more.
// Memory: ~24 bytes per live order, 16 per populated price level, ~100 bytes per symbol, ~80 bytes per
// copy message of the last 2 * jitter of the clock, plus 1 MiB output buffers: it does not grow with the
// message count beyond the live orders. Not thread-safe; one run at a time per generator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include <itch5/synth/generator_config.hpp>
#include <itch5/synth/generator_stats.hpp>

namespace itch5::synth {

class generator {
 public:
  /// Receives the framed BinaryFILE bytes in order, in chunks of about 1 MiB.
  using sink = std::function<void(std::span<const std::byte>)>;
  /// Called every 65,536 messages with the number written so far.
  using progress = std::function<void(std::uint64_t messages)>;

  /// Resolves and checks `config` (see generator_config::resolve); throws std::invalid_argument.
  explicit generator(const generator_config& config);

  /// The resolved configuration.
  [[nodiscard]] const generator_config& config() const noexcept { return config_; }

  /// Writes the whole day to `out` and, when `delayed` is non-null, the delayed copy to `*delayed`.
  /// Exceptions thrown by the sinks propagate. May be called again; every run writes the same bytes.
  generator_stats run(const sink& out, const sink* delayed = nullptr, const progress& on_progress = {}) const;

 private:
  generator_config config_;
};

}  // namespace itch5::synth
