// The shared reference order book of the tests: live orders in an std::unordered_map by reference number,
// and per stock locate a std::map of price levels per side (price units -> shares), best level first.
//
// Deliberately simple, and sharing no code with book/ or synth/, so that it can judge both. It applies no
// rules: each user checks a message against its own (the engine's anomaly rules in
// tests/book/naive_reference.hpp, the generator's stream contract in tests/synth/synth_reference_book.hpp)
// and then changes the book. The one other reference, in tests/tools/itch5inside_test.cpp, stays separate
// on purpose: it reads every field straight from the bytes, so that it is independent of the decoder too.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <unordered_map>

namespace itch5_test {

class reference_book {
 public:
  struct order {
    std::uint16_t locate;
    char side;  ///< 'B' or 'S'
    std::uint32_t price;
    std::uint32_t shares;
  };
  struct levels {
    std::map<std::uint32_t, std::uint64_t, std::greater<>> bids;  ///< highest price first
    std::map<std::uint32_t, std::uint64_t> offers;                ///< lowest price first
  };

  /// The live order `ref`, or nullptr.
  [[nodiscard]] const order* find(std::uint64_t ref) const {
    auto it = orders_.find(ref);
    return it == orders_.end() ? nullptr : &it->second;
  }
  [[nodiscard]] bool live(std::uint64_t ref) const { return orders_.count(ref) != 0; }
  [[nodiscard]] std::size_t live_orders() const { return orders_.size(); }

  /// Adds `o` as order `ref` (a level of 0 shares is not kept); false, and no change, when `ref` is live.
  bool add(std::uint64_t ref, const order& o) {
    if (!orders_.emplace(ref, o).second) return false;
    level(o, static_cast<std::int64_t>(o.shares));
    return true;
  }

  /// Takes min(shares, its shares) off live order `ref`, and removes the order when none are left.
  void reduce(std::uint64_t ref, std::uint32_t shares) {
    auto it = orders_.find(ref);
    order& o = it->second;
    const std::uint32_t n = shares < o.shares ? shares : o.shares;
    level(o, -static_cast<std::int64_t>(n));
    o.shares -= n;
    if (o.shares == 0) orders_.erase(it);
  }

  /// Removes live order `ref` with all its shares.
  void remove(std::uint64_t ref) {
    auto it = orders_.find(ref);
    level(it->second, -static_cast<std::int64_t>(it->second.shares));
    orders_.erase(it);
  }

  /// The levels of `locate` (empty for a locate without orders).
  [[nodiscard]] const levels& book(std::uint16_t locate) const {
    static const levels none;
    auto it = books_.find(locate);
    return it == books_.end() ? none : it->second;
  }

 private:
  void level(const order& o, std::int64_t delta) {
    levels& b = books_[o.locate];
    auto change = [&](auto& side) {
      auto& v = side[o.price];
      v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v) + delta);
      if (v == 0) side.erase(o.price);
    };
    if (o.side == 'B') {
      change(b.bids);
    } else {
      change(b.offers);
    }
  }

  std::unordered_map<std::uint64_t, order> orders_;
  std::unordered_map<std::uint16_t, levels> books_;
};

}  // namespace itch5_test
