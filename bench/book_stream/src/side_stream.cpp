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

void validate(const stream_config& cfg) {
  if (!itch5::on_tick_grid(cfg.start_price) || cfg.start_price.units() == 0) {
    throw std::invalid_argument("book_stream: the start price must be a positive price on the tick grid");
  }
  if (cfg.drift_interval == 0) throw std::invalid_argument("book_stream: drift_interval must be positive");
}

// One operation chosen by the generator: at level `key`, add or reduce `shares` (`full`: the whole level).
struct planned_op {
  std::int64_t key = 0;
  op_kind kind = op_kind::add;
  std::uint64_t shares = 0;
  bool full = false;
};

// The state of one side while its stream is generated. Levels are keyed by distance from the best end:
// key = tick for offers, -tick for bids, so the best level is the smallest key and depth d lies at
// best + d, on both sides.
class side_generator {
 public:
  side_generator(itch5::book::side_kind side, const stream_config& cfg, const depth_curve& curve)
      : cfg_(cfg),
        curve_(curve),
        side_(side),
        buy_(side == itch5::book::side_kind::buy),
        lowest_key_(buy_ ? -max_tick : 1),
        highest_key_(buy_ ? -1 : max_tick),
        start_(buy_ ? -static_cast<std::int64_t>(itch5::tick_index(cfg.start_price))
                    : static_cast<std::int64_t>(itch5::tick_index(cfg.start_price))),
        rng_(cfg.seed * 0x2545f4914f6cdd1dull + (buy_ ? 0xb1d : 0x0ffe4)),
        target_(start_),
        direction_(rng_.below(2) == 0 ? -1 : 1),
        until_move_(cfg.drift_interval) {}

  side_stream run() {
    side_stream out;
    out.side = side_;
    out.operations.reserve(cfg_.operations);
    const std::uint64_t total = cfg_.warmup_operations + cfg_.operations;
    for (std::uint64_t n = 0; n < total; ++n) {
      const bool emit = n >= cfg_.warmup_operations;
      if (n == cfg_.warmup_operations) snapshot(out);
      drift_target();
      const std::int64_t best_before = best_key();
      const planned_op op = choose(best_before, emit ? &out.clamped : nullptr);
      apply(op);
      if (emit) record(out, op, best_before);
    }
    if (cfg_.operations == 0) snapshot(out);
    finish(out);
    return out;
  }

 private:
  static constexpr std::int64_t max_tick = itch5::tick_index(itch5::max_price4);

  itch5::price4 price_of(std::int64_t key) const {
    return itch5::tick_price(static_cast<std::uint32_t>(buy_ ? -key : key));
  }
  std::int64_t best_key() const { return levels_.empty() ? 0 : levels_.begin()->first; }

  void snapshot(side_stream& out) const {
    out.initial.reserve(levels_.size());
    for (const auto& [key, shares] : levels_) out.initial.push_back({price_of(key), shares});
  }

  // The target inside: one level per drift_interval operations, reversing now and then and at the bounds.
  void drift_target() {
    if (--until_move_ != 0) return;
    until_move_ = cfg_.drift_interval;
    if (rng_.below(256) == 0) direction_ = -direction_;
    target_ += direction_;
    if (target_ - start_ >= static_cast<std::int64_t>(cfg_.drift_bound)) direction_ = -1;
    if (start_ - target_ >= static_cast<std::int64_t>(cfg_.drift_bound)) direction_ = 1;
    target_ = std::clamp(target_, lowest_key_, highest_key_);
  }

  // Draws the next operation; counts a depth clamped to the deepest key in `*clamped` (when not null).
  planned_op choose(std::int64_t best_before, std::uint64_t* clamped) {
    const std::uint32_t depth = curve_.depth_at(rng_.uniform());
    planned_op op;
    if (levels_.empty()) {
      op.key = target_;  // depth 0 by definition
      op.shares = lot(rng_);
      return op;
    }
    op.key = best_before + depth;
    if (op.key > highest_key_) {
      op.key = highest_key_;
      if (clamped != nullptr) ++*clamped;
    }
    const auto it = levels_.find(op.key);
    if (it == levels_.end()) {
      op.shares = lot(rng_);
    } else if (depth == 0 && best_before < target_) {
      // Better than the target: remove the best level, the inside retreats.
      op.kind = op_kind::reduce;
      op.shares = it->second;
      op.full = true;
    } else if (depth == 0 && best_before > target_ && rng_.below(2) == 0) {
      // Worse than the target: improve the best by 1 to 4 levels (an event at depth 0).
      const std::int64_t room = std::min(best_before - target_, max_improvement);
      op.key =
          std::max(best_before - 1 - static_cast<std::int64_t>(rng_.below(static_cast<std::uint64_t>(room))),
                   lowest_key_);
      op.shares = lot(rng_);
    } else if (rng_.below(100) < reduce_percent || it->second > max_level_shares) {
      op.kind = op_kind::reduce;
      op.full = it->second == 1 || (rng_.below(100) < full_percent && it->second <= max_level_shares);
      op.shares = op.full ? it->second : 1 + rng_.below(std::min(it->second, max_level_shares) - 1);
    } else {
      op.shares = lot(rng_);
    }
    return op;
  }

  void apply(const planned_op& op) {
    if (op.kind == op_kind::add) {
      levels_[op.key] += op.shares;
    } else if (op.full) {
      levels_.erase(op.key);
    } else {
      levels_[op.key] -= op.shares;
    }
  }

  void record(side_stream& out, const planned_op& op, std::int64_t best_before) const {
    out.operations.push_back({price_of(op.key), static_cast<std::uint32_t>(op.shares), op.kind});
    if (op.kind == op_kind::add) {
      ++out.adds;
    } else if (op.full) {
      ++out.full_reductions;
    } else {
      ++out.partial_reductions;
    }
    if (best_key() != best_before) ++out.best_changes;
  }

  void finish(side_stream& out) const {
    out.final_level_count = levels_.size();
    if (!levels_.empty()) {
      out.final_best = {price_of(levels_.begin()->first), levels_.begin()->second};
      out.final_worst = {price_of(levels_.rbegin()->first), levels_.rbegin()->second};
    }
  }

  const stream_config& cfg_;
  const depth_curve& curve_;
  const itch5::book::side_kind side_;
  const bool buy_;
  const std::int64_t lowest_key_;   // the best a level can be
  const std::int64_t highest_key_;  // the deepest
  const std::int64_t start_;
  itch5::synth::rng rng_;
  std::map<std::int64_t, std::uint64_t> levels_;
  std::int64_t target_;
  std::int64_t direction_;
  std::uint32_t until_move_;
};

}  // namespace

side_stream generate(itch5::book::side_kind side, const stream_config& cfg, const depth_curve& curve) {
  validate(cfg);
  return side_generator(side, cfg, curve).run();
}

}  // namespace book_stream
