// Synthetic operation streams for one book side: the input of bench/bm_order_book.
//
//   book_stream::stream_config cfg;
//   cfg.operations = 10000;
//   cfg.seed = 7;
//   const auto s = book_stream::generate(itch5::book::side_kind::buy, cfg);
//   for (const auto& l : s.initial) side.add(l.price, l.shares);   // the book before the stream
//   for (const auto& op : s.operations) {
//     if (op.kind == book_stream::op_kind::add) side.add(op.price, op.shares);
//     else side.reduce(op.price, op.shares);
//   }
//
// Every operation's event depth (levels from the side's best price just before it, docs/design.md)
// follows a depth_curve (by default the measured one): each operation draws a depth d, then acts on the
// level d levels behind the current best. If that level is empty the operation adds there; otherwise it
// reduces it (probability 0.55; a full reduction removing the level with probability 0.3, else a partial
// one leaving 1 to shares - 1) or adds to it. Adds are round lots of 100 to 500 shares, one in ten an odd
// lot of 1 to 99. The generator keeps the reference of live levels, so a reduction never removes more
// than its level holds and never targets an empty level: the stream is book-consistent by construction.
//
// The inside drifts: a target price moves one level every `drift_interval` operations, reversing with
// probability 1/256 at each move and at `drift_bound` levels from the start. At depth 0 the side follows
// it: when the best is worse than the target, half the depth-0 operations improve the best by 1 to 4
// levels (still depth 0: at or better than the best); when it is better, depth-0 operations remove the
// best level. The best therefore wanders by hundreds of levels per 10,000 operations, and an array book
// side re-centres its window now and then (every ~128 levels of improvement or ~640 of retreat with the
// default window of 1024).
//
// Before the emitted operations, `warmup_operations` are generated and applied to the reference only, so
// that the stream starts from a book in its steady state (thousands of levels, dense near the inside,
// sparse out to ~20,000 levels), returned in `initial`, best level first.
//
// Deterministic: the same config, side and curve give the same stream (itch5::synth::rng, integer
// arithmetic except depth_curve's logarithms). Complexity: O((warmup + operations) log L) for L live levels.
// Thread-safety: a pure function.
#pragma once

#include <cstdint>
#include <vector>

#include <itch5/price.hpp>

#include <itch5/book/side_kind.hpp>
#include <book_stream/depth_curve.hpp>

namespace book_stream {

enum class op_kind : std::uint8_t { add, reduce };

/// One book side operation: add(price, shares) or reduce(price, shares).
struct operation {
  itch5::price4 price;
  std::uint32_t shares;
  op_kind kind;
};

struct level {
  itch5::price4 price;
  std::uint64_t shares;
};

struct stream_config {
  std::uint64_t operations = 10000;  ///< emitted operations
  std::uint64_t seed = 1;
  std::uint64_t warmup_operations = 100000;  ///< generated before the first emitted one, not emitted
  itch5::price4 start_price{2'500'000};      ///< $250.00, where the target inside starts
  std::uint32_t drift_interval = 32;         ///< operations per level of drift of the target inside
  std::uint32_t drift_bound = 2000;          ///< the target stays within this many levels of the start
};

struct side_stream {
  itch5::book::side_kind side{};
  std::vector<level> initial;         ///< the side before the first operation, best first
  std::vector<operation> operations;  ///< the stream

  // What the emitted operations did (for the tests and --help's numbers).
  std::uint64_t adds = 0;
  std::uint64_t partial_reductions = 0;
  std::uint64_t full_reductions = 0;  ///< reductions that removed their level
  std::uint64_t best_changes = 0;     ///< operations after which the best price differs
  std::uint64_t clamped = 0;          ///< depths cut short by the price grid's ends (0 with the defaults)

  // The side after the last operation, for checking an implementation that replayed the stream.
  std::uint64_t final_level_count = 0;
  level final_best{};  ///< {0, 0} when empty
  level final_worst{};
};

/// Generates the stream for side `side` (see the header comment). Throws std::invalid_argument when the
/// start price is off the tick grid or drift_interval is 0.
[[nodiscard]] side_stream generate(itch5::book::side_kind side, const stream_config& cfg,
                                   const depth_curve& curve = depth_curve::measured());

}  // namespace book_stream
