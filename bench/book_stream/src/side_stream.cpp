#include <book_stream/side_stream.hpp>

#include <algorithm>
#include <map>
#include <stdexcept>

#include <itch5/synth/rng.hpp>
#include <itch5/tick.hpp>

namespace book_stream {
namespace {

constexpr std::uint64_t reduce_percent = 55;  // of operations on a live level, away from the drift rule
constexpr std::uint64_t full_percent = 30;    // of those reductions: remove the whole level
constexpr std::uint64_t max_level_shares = 1'000'000'000;  // keeps every operation's shares in 32 bits
constexpr std::int64_t max_improvement = 4;                // levels an improving add may jump

std::uint32_t lot(itch5::synth::rng& rng) {
  if (rng.below(10) == 0) return static_cast<std::uint32_t>(1 + rng.below(99));
  return static_cast<std::uint32_t>(100 * (1 + rng.below(5)));
}

}  // namespace

side_stream generate(book::side_kind side, const stream_config& cfg, const depth_curve& curve) {
  if (!itch5::on_tick_grid(cfg.start_price) || cfg.start_price.units() == 0) {
    throw std::invalid_argument("book_stream: the start price must be a positive price on the tick grid");
  }
  if (cfg.drift_interval == 0) throw std::invalid_argument("book_stream: drift_interval must be positive");

  // Levels are keyed by distance from the best end: key = tick for offers, -tick for bids, so the best
  // level is the smallest key and depth d lies at best + d, on both sides.
  const bool buy = side == book::side_kind::buy;
  const std::int64_t max_tick = itch5::tick_index(itch5::max_price4);
  const std::int64_t lowest_key = buy ? -max_tick : 1;   // the best a level can be
  const std::int64_t highest_key = buy ? -1 : max_tick;  // the deepest
  const auto price_of = [&](std::int64_t key) {
    return itch5::tick_price(static_cast<std::uint32_t>(buy ? -key : key));
  };
  const std::int64_t start = buy ? -static_cast<std::int64_t>(itch5::tick_index(cfg.start_price))
                                 : static_cast<std::int64_t>(itch5::tick_index(cfg.start_price));

  itch5::synth::rng rng(cfg.seed * 0x2545f4914f6cdd1dull + (buy ? 0xb1d : 0x0ffe4));
  std::map<std::int64_t, std::uint64_t> levels;
  std::int64_t target = start;
  std::int64_t direction = rng.below(2) == 0 ? -1 : 1;
  std::uint32_t until_move = cfg.drift_interval;

  side_stream out;
  out.side = side;
  out.operations.reserve(cfg.operations);
  const auto snapshot = [&] {
    out.initial.reserve(levels.size());
    for (const auto& [key, shares] : levels) out.initial.push_back({price_of(key), shares});
  };

  const std::uint64_t total = cfg.warmup_operations + cfg.operations;
  for (std::uint64_t n = 0; n < total; ++n) {
    const bool emit = n >= cfg.warmup_operations;
    if (n == cfg.warmup_operations) snapshot();

    // The target inside: one level per drift_interval operations, reversing now and then and at the bounds.
    if (--until_move == 0) {
      until_move = cfg.drift_interval;
      if (rng.below(256) == 0) direction = -direction;
      target += direction;
      if (target - start >= static_cast<std::int64_t>(cfg.drift_bound)) direction = -1;
      if (start - target >= static_cast<std::int64_t>(cfg.drift_bound)) direction = 1;
      target = std::clamp(target, lowest_key, highest_key);
    }

    const std::uint32_t depth = curve.depth_at(rng.uniform());
    const std::int64_t best_before = levels.empty() ? 0 : levels.begin()->first;
    std::int64_t key = 0;
    op_kind kind = op_kind::add;
    std::uint64_t shares = 0;
    bool full = false;
    if (levels.empty()) {
      key = target;  // depth 0 by definition
      shares = lot(rng);
    } else {
      key = best_before + depth;
      if (key > highest_key) {
        key = highest_key;
        if (emit) ++out.clamped;
      }
      const auto it = levels.find(key);
      if (it == levels.end()) {
        shares = lot(rng);
      } else if (depth == 0 && best_before < target) {
        // Better than the target: remove the best level, the inside retreats.
        kind = op_kind::reduce;
        shares = it->second;
        full = true;
      } else if (depth == 0 && best_before > target && rng.below(2) == 0) {
        // Worse than the target: improve the best by 1 to 4 levels (an event at depth 0).
        const std::int64_t room = std::min(best_before - target, max_improvement);
        key =
            std::max(best_before - 1 - static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(room))),
                     lowest_key);
        shares = lot(rng);
      } else if (rng.below(100) < reduce_percent || it->second > max_level_shares) {
        kind = op_kind::reduce;
        full = it->second == 1 || (rng.below(100) < full_percent && it->second <= max_level_shares);
        shares = full ? it->second : 1 + rng.below(std::min(it->second, max_level_shares) - 1);
      } else {
        shares = lot(rng);
      }
    }

    if (kind == op_kind::add) {
      levels[key] += shares;
    } else if (full) {
      levels.erase(key);
    } else {
      levels[key] -= shares;
    }
    if (!emit) continue;
    out.operations.push_back({price_of(key), static_cast<std::uint32_t>(shares), kind});
    if (kind == op_kind::add) {
      ++out.adds;
    } else if (full) {
      ++out.full_reductions;
    } else {
      ++out.partial_reductions;
    }
    const std::int64_t best_after = levels.empty() ? 0 : levels.begin()->first;
    if (best_after != best_before) ++out.best_changes;
  }
  if (cfg.operations == 0) snapshot();
  out.final_level_count = levels.size();
  if (!levels.empty()) {
    out.final_best = {price_of(levels.begin()->first), levels.begin()->second};
    out.final_worst = {price_of(levels.rbegin()->first), levels.rbegin()->second};
  }
  return out;
}

}  // namespace book_stream
