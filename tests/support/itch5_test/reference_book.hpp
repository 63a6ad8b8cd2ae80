// The shared reference order book of the tests: live orders in an std::unordered_map by reference number,
// and per stock locate a std::map of price levels per side (price units -> shares and orders), best level
// first.
//
// Deliberately simple, and sharing no code with book/ or synth/, so that it can judge both. It applies no
// rules: each user checks a message against its own (the engine's rules for inconsistent input in
// itch5_test/book_rules.hpp, the generator's stream contract in tests/synth/synth_reference_book.hpp) and
// then changes the book. The one other reference, in tests/tools/itch5inside_test.cpp, stays separate on
// purpose: it reads every field straight from the bytes, so that it is independent of the decoder too.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
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
  /// A price level: the shares of its orders and how many they are (never 0: an empty level is erased).
  struct level {
    std::uint64_t shares = 0;
    std::uint32_t orders = 0;
  };
  struct levels {
    std::map<std::uint32_t, level, std::greater<>> bids;  ///< highest price first
    std::map<std::uint32_t, level> offers;                ///< lowest price first
  };

  /// The live order `ref`, or nullptr.
  [[nodiscard]] const order* find(std::uint64_t ref) const {
    auto it = orders_.find(ref);
    return it == orders_.end() ? nullptr : &it->second;
  }
  [[nodiscard]] bool live(std::uint64_t ref) const { return orders_.count(ref) != 0; }
  [[nodiscard]] std::size_t live_orders() const { return orders_.size(); }

  /// Adds `o` as order `ref`; false, and no change, when `ref` is live. An order of 0 shares is live but
  /// on no level.
  bool add(std::uint64_t ref, const order& o) {
    if (!orders_.emplace(ref, o).second) return false;
    if (o.shares != 0) change_level(o, static_cast<std::int64_t>(o.shares), 1);
    return true;
  }

  /// Takes min(shares, its shares) off live order `ref`, and removes the order when none are left.
  void reduce(std::uint64_t ref, std::uint32_t shares) {
    auto it = orders_.find(ref);
    order& o = it->second;
    const std::uint32_t n = shares < o.shares ? shares : o.shares;
    if (n != 0) change_level(o, -static_cast<std::int64_t>(n), n == o.shares ? -1 : 0);
    o.shares -= n;
    if (o.shares == 0) orders_.erase(it);
  }

  /// Removes live order `ref` with all its shares.
  void remove(std::uint64_t ref) {
    auto it = orders_.find(ref);
    if (it->second.shares != 0) change_level(it->second, -static_cast<std::int64_t>(it->second.shares), -1);
    orders_.erase(it);
  }

  /// The levels of `locate` (empty for a locate without orders).
  [[nodiscard]] const levels& book(std::uint16_t locate) const {
    static const levels none;
    auto it = books_.find(locate);
    return it == books_.end() ? none : it->second;
  }

 private:
  void change_level(const order& o, std::int64_t shares, int orders) {
    levels& b = books_[o.locate];
    auto change = [&](auto& side) {
      level& l = side[o.price];
      l.shares = static_cast<std::uint64_t>(static_cast<std::int64_t>(l.shares) + shares);
      l.orders = static_cast<std::uint32_t>(static_cast<std::int64_t>(l.orders) + orders);
      if ((l.shares == 0) != (l.orders == 0)) {
        throw std::logic_error("reference_book: a level's shares and order count disagree");
      }
      if (l.orders == 0) side.erase(o.price);
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
