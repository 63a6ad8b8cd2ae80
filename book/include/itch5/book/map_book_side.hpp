// A book side as an ordered map from price to total shares (best price first).
//
// Complexity: add/reduce O(log L) for L levels; best/worst O(1). Memory: one map node per level.
// Not thread-safe (one engine thread owns all books).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include <itch5/tick.hpp>

#include <itch5/book/book_config.hpp>
#include <itch5/book/price_level.hpp>
#include <itch5/book/side_kind.hpp>

namespace itch5::book {

template <side_kind K>
class map_book_side {
 public:
  static constexpr side_kind kind = K;

  explicit map_book_side(const book_config& = {}) {}

  /// Adds q shares at p; returns whether the best level changed.
  bool add(itch5::price4 p, std::uint64_t q) {
    const auto it = levels_.try_emplace(p, 0).first;
    it->second += q;
    return it == levels_.begin();
  }

  /// Removes q shares at p; returns whether the best level changed.
  bool reduce(itch5::price4 p, std::uint64_t q) {
    auto it = levels_.find(p);
    if (it == levels_.end()) return false;  // precondition violated; the engine never does this
    const bool at_best = it == levels_.begin();
    if (it->second <= q) {
      levels_.erase(it);
    } else {
      it->second -= q;
    }
    return at_best;
  }

  [[nodiscard]] price_level best() const noexcept {
    if (levels_.empty()) return {};
    return {levels_.begin()->first, levels_.begin()->second};
  }

  [[nodiscard]] price_level worst() const noexcept {
    if (levels_.empty()) return {};
    return {levels_.rbegin()->first, levels_.rbegin()->second};
  }

  /// Price levels from the best to the worst: levels_between(best().price, worst().price), 0 when empty.
  [[nodiscard]] std::uint32_t level_span() const noexcept {
    if (levels_.empty()) return 0;
    return itch5::levels_between(levels_.begin()->first, levels_.rbegin()->first);
  }

  [[nodiscard]] std::size_t level_count() const noexcept { return levels_.size(); }
  [[nodiscard]] bool empty() const noexcept { return levels_.empty(); }

  /// Calls f(price_level) for the levels from the best on, until f returns false or the levels end.
  template <class F>
  void for_each_level(F&& f) const {
    for (const auto& [price, shares] : levels_) {
      if (!f(price_level{price, shares})) return;
    }
  }

 private:
  std::map<itch5::price4, std::uint64_t, better_first<K>> levels_;
};

}  // namespace itch5::book
