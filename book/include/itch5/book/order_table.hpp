// The live orders of a session, by order reference number, laid out for mostly increasing references.
//
// ITCH order references mostly increase one by one and most orders die young, so the table keeps a window
// of the W most recent references in a direct-mapped ring: reference r lives in slot r mod W, with no
// hashing and no probing. W is 2^20 unless the constructor is given other window bits (book_engine passes
// book_config::order_window_bits; tests and the fuzz target use small windows, to cross the window's edges
// often and keep the allocation small). New orders are written to consecutive slots and recent orders are
// found in lines that are still in cache. When a new reference moves the window forward (by 64 more than it
// needs, or W/16 for windows under 1,024, so that a run of consecutive references moves it once per 64
// inserts: moving it at every insert cost 13% of itch5inside's instructions; steps of W/16 = 65,536 moved
// thousands of live orders at once on a 400 M-message day, stalls of 1-70 ms), the live orders it leaves
// behind move to a hash table (detail::order_hash); references below the window (old orders,
// out-of-sequence input) live there too. References far beyond the window (a jump of more than W, possible
// only in unusual input) wait in an ordered map and enter the window when it reaches them (or go behind
// when it jumps past them); once 64 of them wait, the numbering has moved on and the window jumps. A
// reference is always in exactly one place and every lookup probes one structure. (Hashing every reference
// instead cost a cache miss on nearly every add: 60% of insert()'s time in a profile.)
//
// Complexity: O(1) for window references; expected O(1) for the hash table; O(log n) for the rare far
// references. Moving the window costs O(1) per live order it passes plus O(1) per 4,096 references: an
// occupancy bitmap of the ring (one bit per slot) with a summary bit per 64-bit word lets it visit only
// the words that hold live orders (scanning slot by slot made references with large gaps 60x slower than
// consecutive ones; see "Sparse numbering" for the rest of that story). Memory: the ring (12 bytes per slot,
// 12 MiB for the default W, on 2 MiB pages where the kernel grants them (detail::huge_buffer: a lookup
// of an old order then rarely misses the TLB too), all touched at construction so that no insert pays a
// huge page's first touch (2-3 ms each), plus W/8 bytes of bitmap) plus the hash table (24
// bytes per slot, at most 4 per order behind the window) plus the map: it follows the live orders, never
// the message count.
//
// Sparse numbering. The window pays off when references are dense: a day filtered to a few symbols
// (references that increase by tens of thousands) leaves every order alone in its part of the ring, to be
// moved behind a few inserts later, and costs ~2.3x the sequential day. So the table watches how fast the
// highest reference rises per insert over each epoch of 4,096 inserts (each rise capped at W): above W/64
// (at least 64) it turns sparse, below W/1024 (at least 4) dense again. While sparse, the window stays
// where it is and every reference outside it goes to the hash table, above the window too (the far map is
// emptied into it on the way in); going dense, the window starts just above the highest reference placed
// that way, so the rule "one place per reference" holds in both modes.
//
// Pointers returned by find() and insert() are invalidated by the next insert() or erase(). Not
// thread-safe.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

#include <itch5/book/detail/huge_buffer.hpp>
#include <itch5/book/detail/order_hash.hpp>
#include <itch5/book/detail/prefetch.hpp>
#include <itch5/book/order.hpp>

namespace itch5::book {

class order_table {
 public:
  /// log2 of the default window: 2^20 references (the ring is 12 MiB).
  static constexpr unsigned default_window_bits = 20;
  /// The accepted range of window_bits (values outside are clamped to it).
  static constexpr unsigned min_window_bits = 1;
  static constexpr unsigned max_window_bits = 30;
  /// Far references kept aside before the window moves to them anyway (a sustained jump in the numbering).
  static constexpr std::size_t ahead_limit = 64;
  /// Inserts per review of the numbering's density (see "Sparse numbering" above).
  static constexpr std::uint64_t epoch = 4096;

  /// The references a window of 2^window_bits holds, window_bits clamped to [min_window_bits,
  /// max_window_bits]: what the constructor allocates (12 bytes a reference, touched at once).
  [[nodiscard]] static constexpr std::uint64_t window_for(unsigned window_bits) noexcept {
    return std::uint64_t{1} << std::clamp(window_bits, min_window_bits, max_window_bits);
  }

  /// A table whose window holds window_for(window_bits) references.
  explicit order_table(unsigned window_bits = default_window_bits)
      : window_(window_for(window_bits)),
        ring_memory_(window_ * sizeof(order), detail::huge_buffer::fault::now),
        ring_(reinterpret_cast<order*>(ring_memory_.data())),
        used_(std::make_unique<std::uint64_t[]>(std::max<std::uint64_t>(window_ / 64, 1))),
        summary_(std::make_unique<std::uint64_t[]>(std::max<std::uint64_t>(window_ / 4096, 1))) {}

  /// References the window holds (a power of two).
  [[nodiscard]] std::uint64_t window() const noexcept { return window_; }

  /// The live order `ref`, or nullptr.
  [[nodiscard]] order* find(std::uint64_t ref) noexcept {
    if (ref - base_ < window_) [[likely]] {
      order& o = slot(ref);
      return o.used ? &o : nullptr;
    }
    return find_outside(ref);
  }

  /// Inserts a new order; returns nullptr (and changes nothing) when `ref` is already live.
  order* insert(std::uint64_t ref, std::uint32_t shares, itch5::price4 price, std::uint16_t locate,
                side_kind side) {
    note_reference(ref);
    if (ref - base_ >= window_) [[unlikely]]
      return insert_outside(ref, {shares, price, locate, side, true});
    return insert_in_window(ref, shares, price, locate, side);
  }

  /// Removes the live order `ref` (found by find() or insert()).
  void erase(std::uint64_t ref) noexcept {
    --size_;
    if (ref - base_ < window_) [[likely]] {
      vacate(ref);
    } else {
      erase_outside(ref);
    }
  }

  /// Starts loading the slot where `ref` lives (or would live) into the cache, and for the window its
  /// occupancy word (which erase() updates); no effect on the contents.
  void prefetch(std::uint64_t ref) const noexcept {
    if (ref - base_ < window_) {
      const std::uint64_t pos = ref & (window_ - 1);
      detail::prefetch_object(&ring_[pos]);
      detail::prefetch(&used_[pos >> 6]);
    } else if (ref < base_ || sparse_) {
      behind_.prefetch(ref);
    }
  }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t peak_size() const noexcept { return peak_; }
  /// Orders held behind the window (in the hash table) and far ahead of it (in the map).
  [[nodiscard]] std::size_t behind_size() const noexcept { return behind_.size(); }
  [[nodiscard]] std::size_t ahead_size() const noexcept { return ahead_.size(); }
  /// Whether the numbering is being treated as sparse (references outside the window hashed).
  [[nodiscard]] bool sparse() const noexcept { return sparse_; }
  /// Bytes held (the ring counted whole, though only touched pages are resident).
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return window_ * sizeof(order) + window_ / 8 + behind_.memory_bytes() + ahead_.size() * 64;
  }

 private:
  [[nodiscard]] order& slot(std::uint64_t ref) noexcept { return ring_[ref & (window_ - 1)]; }

  // How much further than needed the window moves (see the header comment).
  [[nodiscard]] std::uint64_t advance_step() const noexcept {
    return std::min<std::uint64_t>(64, window_ / 16);
  }

  // The window's paths of find(), insert() and erase() stay inline in the engine; the others (old orders,
  // far references, a move of the window) are calls.
  //
  // insert_in_window() takes the fields and stores them into the slot. (An `order` built first for both
  // paths of insert() lived on the stack, since insert_outside() takes it by reference: its fields were
  // stored there one by one and loaded back as 8 + 4 bytes to copy it, a load spanning two stores, which
  // the core cannot forward and waits for; perf put half of insert()'s samples there on the 50 M day.)
  order* insert_in_window(std::uint64_t ref, std::uint32_t shares, itch5::price4 price, std::uint16_t locate,
                          side_kind side) noexcept {
    order& s = slot(ref);
    if (s.used) return nullptr;
    s.shares = shares;
    s.price = price;
    s.locate = locate;
    s.side = side;
    s.used = true;
    mark(ref);
    return count(&s);
  }

  [[gnu::noinline]] order* find_outside(std::uint64_t ref) noexcept {
    if (ref < base_ || sparse_) return behind_.find(ref);
    auto it = ahead_.find(ref);
    return it == ahead_.end() ? nullptr : &it->second;
  }

  [[gnu::noinline]] order* insert_outside(std::uint64_t ref, const order& o) {
    if (ref < base_) return count(behind_.insert(ref, o));
    if (sparse_) {
      highest_hashed_ = std::max(highest_hashed_, ref);
      return count(behind_.insert(ref, o));
    }
    if (window_count_ == 0 || ref - base_ < 2 * window_ || ahead_.size() >= ahead_limit) {
      // A step of `advance_step` beyond what `ref` needs, so that consecutive references move the window
      // once per 64 inserts, not at each of them.
      advance(ref - (window_ - 1) + advance_step());
      return insert_in_window(ref, o.shares, o.price, o.locate, o.side);
    }
    auto [it, inserted] = ahead_.try_emplace(ref, o);
    return count(inserted ? &it->second : nullptr);
  }

  [[gnu::noinline]] void erase_outside(std::uint64_t ref) noexcept {
    if (ref < base_ || sparse_) {
      behind_.erase(ref);
    } else {
      ahead_.erase(ref);
    }
  }

  // Puts `o` in the window slot of `ref` and marks it in the bitmaps.
  void occupy(std::uint64_t ref, const order& o) noexcept {
    slot(ref) = o;
    mark(ref);
  }

  // Marks the window slot of `ref` occupied in the bitmaps.
  void mark(std::uint64_t ref) noexcept {
    const std::uint64_t pos = ref & (window_ - 1);
    used_[pos >> 6] |= std::uint64_t{1} << (pos & 63);
    summary_[pos >> 12] |= std::uint64_t{1} << ((pos >> 6) & 63);
    ++window_count_;
  }

  // Empties the window slot of `ref`.
  void vacate(std::uint64_t ref) noexcept {
    const std::uint64_t pos = ref & (window_ - 1);
    ring_[pos].used = false;
    if ((used_[pos >> 6] &= ~(std::uint64_t{1} << (pos & 63))) == 0) {
      summary_[pos >> 12] &= ~(std::uint64_t{1} << ((pos >> 6) & 63));
    }
    --window_count_;
  }

  // Calls f(ref) for every occupied slot of the references [from, from + n) (n <= W), in increasing order,
  // until the window is empty. Goes 4,096 slots at a time (one summary word), and within them visits only
  // the bitmap words that are not zero.
  template <class F>
  void for_each_occupied(std::uint64_t from, std::uint64_t n, F&& f) {
    const std::uint64_t mask = window_ - 1;
    std::uint64_t done = 0;  // references of the range looked at
    while (done < n && window_count_ > 0) {
      const std::uint64_t pos = (from + done) & mask;
      const std::uint64_t span =
          std::min({n - done, window_ - pos, 4096 - (pos & 4095)});  // within one block
      const std::uint64_t end = pos + span;                          // exclusive
      const std::uint64_t first_word = pos >> 6, last_word = (end - 1) >> 6;
      std::uint64_t words = summary_[pos >> 12] >> (first_word & 63);  // bit k: word first_word + k
      const std::uint64_t word_count = last_word - first_word + 1;
      if (word_count < 64) words &= (std::uint64_t{1} << word_count) - 1;
      while (words != 0 && window_count_ > 0) {
        const std::uint64_t w = first_word + static_cast<std::uint64_t>(std::countr_zero(words));
        words &= words - 1;
        std::uint64_t bits = used_[w];
        if (w == first_word) bits &= ~std::uint64_t{0} << (pos & 63);
        if (w == last_word && (end & 63) != 0) bits &= (std::uint64_t{1} << (end & 63)) - 1;
        while (bits != 0 && window_count_ > 0) {
          const std::uint64_t slot_pos = w * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
          bits &= bits - 1;
          f(from + done + (slot_pos - pos));
        }
      }
      done += span;
    }
  }

  order* count(order* o) noexcept {
    if (o != nullptr && ++size_ > peak_) peak_ = size_;
    return o;
  }

  // Moves the window's start to `new_base` (> base_): live orders it passes go behind, far orders that
  // it now covers come in.
  void advance(std::uint64_t new_base) {
    if (window_count_ > 0) {
      const std::uint64_t passed = std::min(new_base - base_, window_);
      for_each_occupied(base_, passed, [this](std::uint64_t r) {
        behind_.insert(r, slot(r));
        vacate(r);
      });
    }
    base_ = new_base;
    // Far references the window reached come in; those it jumped over go behind.
    while (!ahead_.empty()) {
      const auto first = ahead_.begin();
      if (first->first < base_) {
        behind_.insert(first->first, first->second);
      } else if (first->first - base_ < window_) {
        occupy(first->first, first->second);
      } else {
        break;
      }
      ahead_.erase(first);
    }
    prefetch_next_passed();
  }

  // Starts loading what the next move of the window will most likely read and write: the slots of the live
  // orders among the next advance_step() references it will pass (W references old: rarely still in
  // cache) and the hash slots they will go to. With consecutive references that move comes advance_step()
  // inserts later, long enough for both to arrive; without this, each order the window passed cost two
  // misses one after the other (perf: advance() ~6% of the books' thread on the 50 M day).
  void prefetch_next_passed() noexcept {
    for_each_occupied(base_, advance_step(), [this](std::uint64_t r) {
      detail::prefetch_object(&slot(r));
      behind_.prefetch(r);
    });
  }

  // Adds how far `ref` raises the highest reference so far to the epoch's sum (references below it, old or
  // out of sequence, add nothing and leave it); reviews the mode once per epoch.
  void note_reference(std::uint64_t ref) {
    if (ref > highest_ref_) {
      gap_sum_ += std::min(ref - highest_ref_, window_);
      highest_ref_ = ref;
    }
    if (++epoch_inserts_ == epoch) [[unlikely]]
      review();
  }

  [[gnu::noinline]] void review() {
    const std::uint64_t mean_gap = gap_sum_ / epoch;
    gap_sum_ = 0;
    epoch_inserts_ = 0;
    if (!sparse_ && mean_gap > std::max<std::uint64_t>(window_ / 64, 64)) {
      // Far references move into the hash table: while sparse, everything outside the window is there.
      for (const auto& [r, o] : ahead_) {
        behind_.insert(r, o);
        highest_hashed_ = std::max(highest_hashed_, r);
      }
      ahead_.clear();
      sparse_ = true;
    } else if (sparse_ && mean_gap < std::max<std::uint64_t>(window_ / 1024, 4)) {
      // The window restarts above every hashed reference, so each of them is behind it.
      if (highest_hashed_ >= base_) advance(highest_hashed_ + 1);
      highest_hashed_ = 0;
      sparse_ = false;
    }
  }

  std::uint64_t window_;             // W, a power of two
  detail::huge_buffer ring_memory_;  // the ring's bytes, zeroed (an unused slot is all zero)
  order* ring_;
  std::unique_ptr<std::uint64_t[]> used_;     // bit p: ring slot p is occupied
  std::unique_ptr<std::uint64_t[]> summary_;  // bit w: used_[w] is not zero
  std::uint64_t base_ = 0;                    // the window holds references [base_, base_ + W)
  std::size_t window_count_ = 0;
  detail::order_hash behind_;
  std::map<std::uint64_t, order> ahead_;
  std::size_t size_ = 0;
  std::size_t peak_ = 0;
  bool sparse_ = false;
  std::uint64_t highest_hashed_ = 0;  // while sparse: the highest reference above the window put in behind_
  std::uint64_t highest_ref_ = 0;     // the highest reference inserted so far
  std::uint64_t gap_sum_ = 0;         // this epoch's gaps between new references, each capped at W
  std::uint64_t epoch_inserts_ = 0;
};

}  // namespace itch5::book
