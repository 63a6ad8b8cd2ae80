// The live orders of a session, by order reference number, laid out for mostly increasing references.
//
// ITCH order references mostly increase one by one and most orders die young, so the table keeps a window
// of the W most recent references in a direct-mapped ring: reference r lives in slot r mod W, with no
// hashing and no probing. W is 2^20 unless the constructor is given other window bits (book_engine passes
// book_config::order_window_bits; tests and the fuzz target use small windows, to cross the window's edges
// often and keep the allocation small). New orders are written to consecutive slots and recent orders are
// found in lines that are still in cache. When a new reference moves the window forward, the live orders it
// leaves behind move to a hash table (detail::order_hash); references below the window (old orders,
// out-of-sequence input) live there too. References far beyond the window (a jump of more than W, possible
// only in unusual input) wait in an ordered map and enter the window when it reaches them (or go behind
// when it jumps past them); once 64 of them wait, the numbering has moved on and the window jumps. A
// reference is always in exactly one place and every lookup probes one structure. (Hashing every reference
// instead cost a cache miss on nearly every add: 60% of insert()'s time in a profile.)
//
// Complexity: O(1) for window references; expected O(1) for the hash table; O(log n) for the rare far
// references; moving the window costs O(1) per reference it passes. Memory: the ring (12 bytes per slot,
// 12 MiB for the default W, pages touched only as used) plus the hash table (24 bytes per slot, at most 4
// per order behind the window) plus the map: it follows the live orders, never the message count.
// Pointers returned by find() and insert() are invalidated by the next insert() or erase(). Not
// thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>

#include <book/detail/order_hash.hpp>
#include <book/order.hpp>

namespace book {

class order_table {
 public:
  /// log2 of the default window: 2^20 references (the ring is 12 MiB, its pages touched only as used).
  static constexpr unsigned default_window_bits = 20;
  /// The accepted range of window_bits (values outside are clamped to it).
  static constexpr unsigned min_window_bits = 1;
  static constexpr unsigned max_window_bits = 30;
  /// Far references kept aside before the window moves to them anyway (a sustained jump in the numbering).
  static constexpr std::size_t ahead_limit = 64;

  /// A table whose window holds 2^window_bits references (clamped to [min_window_bits, max_window_bits]).
  explicit order_table(unsigned window_bits = default_window_bits)
      : window_(std::uint64_t{1} << std::clamp(window_bits, min_window_bits, max_window_bits)),
        ring_(static_cast<order*>(std::calloc(window_, sizeof(order)))) {
    if (ring_ == nullptr) throw std::bad_alloc();
  }

  /// References the window holds (a power of two).
  [[nodiscard]] std::uint64_t window() const noexcept { return window_; }

  /// The live order `ref`, or nullptr.
  [[nodiscard]] order* find(std::uint64_t ref) noexcept {
    if (ref - base_ < window_) [[likely]] {
      order& o = slot(ref);
      return o.used ? &o : nullptr;
    }
    if (ref < base_) return behind_.find(ref);
    auto it = ahead_.find(ref);
    return it == ahead_.end() ? nullptr : &it->second;
  }

  /// Inserts a new order; returns nullptr (and changes nothing) when `ref` is already live.
  order* insert(std::uint64_t ref, std::uint32_t shares, itch5::price4 price, std::uint16_t locate, side_kind side) {
    const order o{shares, price, locate, side, true};
    if (ref - base_ >= window_) [[unlikely]] {
      if (ref < base_) return count(behind_.insert(ref, o));
      if (window_count_ == 0 || ref - base_ < 2 * window_ || ahead_.size() >= ahead_limit) {
        advance(ref - (window_ - 1));
      } else {
        auto [it, inserted] = ahead_.try_emplace(ref, o);
        return count(inserted ? &it->second : nullptr);
      }
    }
    order& s = slot(ref);
    if (s.used) return nullptr;
    s = o;
    ++window_count_;
    return count(&s);
  }

  /// Removes the live order `ref` (found by find() or insert()).
  void erase(std::uint64_t ref) noexcept {
    --size_;
    if (ref - base_ < window_) [[likely]] {
      slot(ref).used = false;
      --window_count_;
    } else if (ref < base_) {
      behind_.erase(ref);
    } else {
      ahead_.erase(ref);
    }
  }

  /// Starts loading the slot where `ref` lives (or would live) into the cache; no effect on the contents.
  void prefetch(std::uint64_t ref) const noexcept {
    if (ref - base_ < window_) {
      __builtin_prefetch(&ring_.get()[ref & (window_ - 1)]);
    } else if (ref < base_) {
      behind_.prefetch(ref);
    }
  }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t peak_size() const noexcept { return peak_; }
  /// Orders held behind the window (in the hash table) and far ahead of it (in the map).
  [[nodiscard]] std::size_t behind_size() const noexcept { return behind_.size(); }
  [[nodiscard]] std::size_t ahead_size() const noexcept { return ahead_.size(); }
  /// Bytes held (the ring counted whole, though only touched pages are resident).
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return window_ * sizeof(order) + behind_.memory_bytes() + ahead_.size() * 64;
  }

 private:
  struct free_deleter {
    void operator()(order* p) const noexcept { std::free(p); }
  };

  [[nodiscard]] order& slot(std::uint64_t ref) noexcept { return ring_.get()[ref & (window_ - 1)]; }

  order* count(order* o) noexcept {
    if (o != nullptr && ++size_ > peak_) peak_ = size_;
    return o;
  }

  // Moves the window's start to `new_base` (> base_): live orders it passes go behind, far orders that
  // it now covers come in.
  void advance(std::uint64_t new_base) {
    if (window_count_ > 0) {
      const std::uint64_t end = new_base - base_ >= window_ ? base_ + window_ : new_base;
      for (std::uint64_t r = base_; r < end && window_count_ > 0; ++r) {
        order& s = slot(r);
        if (!s.used) continue;
        behind_.insert(r, s);
        s.used = false;
        --window_count_;
      }
    }
    base_ = new_base;
    // Far references the window reached come in; those it jumped over go behind.
    while (!ahead_.empty()) {
      const auto first = ahead_.begin();
      if (first->first < base_) {
        behind_.insert(first->first, first->second);
      } else if (first->first - base_ < window_) {
        slot(first->first) = first->second;
        ++window_count_;
      } else {
        break;
      }
      ahead_.erase(first);
    }
  }

  std::uint64_t window_;  // W, a power of two
  std::unique_ptr<order, free_deleter> ring_;
  std::uint64_t base_ = 0;  // the window holds references [base_, base_ + W)
  std::size_t window_count_ = 0;
  detail::order_hash behind_;
  std::map<std::uint64_t, order> ahead_;
  std::size_t size_ = 0;
  std::size_t peak_ = 0;
};

}  // namespace book
