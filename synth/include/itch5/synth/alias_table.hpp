// Sampling from a fixed discrete distribution in O(1): Walker's alias method (Vose's construction).
//
// The generator draws a symbol for every message from Zipf-like weights over up to tens of thousands of
// symbols; an alias table answers each draw with one bounded integer, one 64-bit coin and one table look-up.
// The construction uses only deterministic double arithmetic, so a set of weights yields the same table
// (and the same draws for a seed) on every platform.
//
// Build O(n); sample O(1). Memory 12 bytes per outcome. Immutable after construction: sample() may be
// called from several threads, each with its own rng.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <itch5/synth/rng.hpp>

namespace itch5::synth {

class alias_table {
 public:
  alias_table() = default;

  /// Weights must be finite, >= 0, and not all 0; throws std::invalid_argument otherwise.
  explicit alias_table(std::span<const double> weights);

  /// An outcome in [0, size()) with probability weight / sum of weights.
  [[nodiscard]] std::uint32_t sample(rng& r) const noexcept {
    auto i = static_cast<std::uint32_t>(r.below(threshold_.size()));
    return r.next() < threshold_[i] ? i : alias_[i];
  }

  [[nodiscard]] std::size_t size() const noexcept { return threshold_.size(); }

  /// Probability of outcome i as represented by the table (for tests).
  [[nodiscard]] double probability(std::uint32_t i) const;

 private:
  std::vector<std::uint64_t> threshold_;  // keep i when next() < threshold_[i] (UINT64_MAX: always)
  std::vector<std::uint32_t> alias_;
};

}  // namespace itch5::synth
