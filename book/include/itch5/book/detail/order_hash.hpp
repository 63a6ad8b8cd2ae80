// Internal: an open-addressing hash table of orders keyed by reference number, for the orders the
// order_table does not hold in its window (see order_table.hpp).
//
// Linear probing with Fibonacci hashing of the whole reference (no locality is expected here: these are
// old or out-of-sequence orders) and backward-shift deletion (no tombstones in the current table). Grows
// by doubling at half load, never shrinks.
//
// Growth is incremental: doubling allocates the new table (calloc: the operating system hands out zeroed
// pages as they are touched, no clearing pass) and every later insert() or erase() moves the next
// `migration_step` slots of the old table into it, so no single call pays for copying the whole table (on
// a 400 M-message day that was one stall of 460 ms). The new table is allocated earlier, at 3/8 load, and
// each call until the doubling touches one more of its pages, so that the migration's writes at random
// places do not each fault a fresh page in (the order table's window move puts dozens of orders behind in
// one message: 100-130 page faults, 0.3-0.5 ms on the 400 M day). While a migration runs, find() looks in the
// new table first and then in the old one; in the old table erase() and migration leave tombstones, which
// keep its probe chains intact until it is freed. The old table is drained after capacity / (2 *
// migration_step) operations, long before the new one reaches half load. Freeing a drained table of hundreds
// of MB at once is itself a stall of tens of milliseconds (the kernel unmaps every touched page), so a
// drained table is retired: every `retire_every`-th later call hands `retire_bytes` of its pages back
// (madvise MADV_DONTNEED, ~15 us), and it is freed once empty. (At every call, the order table's move of its
// window, which puts dozens of orders behind in one message, made 60 such calls at once: 0.9 ms on the 400 M
// day.) rehash::at_once keeps the old behaviour (copy everything in the insert that crosses half load, free
// at once): the baseline of bench/bm_order_hash.
//
// Pointers are invalidated by the next insert() or erase(). Not thread-safe.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include <sys/mman.h>
#include <unistd.h>

#include <itch5/book/detail/prefetch.hpp>
#include <itch5/book/order.hpp>

namespace itch5::book::detail {

enum class rehash { incremental, at_once };

template <rehash Policy = rehash::incremental>
class basic_order_hash {
 public:
  /// Old-table slots moved per insert() or erase() while a migration runs.
  static constexpr std::size_t migration_step = 8;
  /// Bytes of a drained table's pages handed back per retire_every insert() or erase() calls.
  static constexpr std::size_t retire_bytes = std::size_t{256} << 10;
  static constexpr std::uint32_t retire_every = 16;

  explicit basic_order_hash(std::size_t initial_capacity = 256) : current_(initial_capacity) {}

  [[nodiscard]] order* find(std::uint64_t ref) noexcept {
    if (order* o = current_.find(ref)) return o;
    return old_.capacity != 0 ? old_.find(ref) : nullptr;
  }

  /// Inserts `o` (o.used must be true); nullptr when `ref` is already present.
  order* insert(std::uint64_t ref, const order& o) {
    if (retiring_.capacity != 0 && ++retire_calls_ % retire_every == 0) retire_some();
    if constexpr (Policy == rehash::incremental) prepare_next();
    if (old_.capacity != 0) {
      if (old_.find(ref) != nullptr) return nullptr;
      migrate(migration_step);
    }
    if ((current_.size + 1) * 2 > current_.capacity) {
      if (current_.find(ref) != nullptr) return nullptr;  // checked before it becomes the old table
      grow();
    }
    order* placed = current_.insert(ref, o);
    if (placed != nullptr) ++size_;
    return placed;
  }

  /// Removes `ref`, which must be present.
  void erase(std::uint64_t ref) noexcept {
    if (retiring_.capacity != 0 && ++retire_calls_ % retire_every == 0) retire_some();
    if constexpr (Policy == rehash::incremental) touch_next();
    if (old_.capacity != 0) {
      if (!current_.erase(ref)) old_.bury(ref);
      migrate(migration_step);
    } else {
      current_.erase(ref);
    }
    --size_;
  }

  /// Starts loading the home slot of `ref` into the cache.
  void prefetch(std::uint64_t ref) const noexcept {
    current_.prefetch(ref);
    if (old_.capacity != 0) old_.prefetch(ref);
  }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return current_.capacity; }
  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return (current_.capacity + old_.capacity + retiring_.capacity + next_table_.capacity) * sizeof(entry);
  }
  /// Whether an old table is still being drained.
  [[nodiscard]] bool migrating() const noexcept { return old_.capacity != 0; }

 private:
  struct entry {
    std::uint64_t ref = 0;
    order value;        // value.used: occupied
    bool tomb = false;  // old table only: was occupied, keeps probe chains going
  };

  struct free_deleter {
    void operator()(entry* p) const noexcept { std::free(p); }
  };

  // One table: capacity a power of two (or 0 for none), zero bytes = empty slots.
  struct table {
    std::unique_ptr<entry, free_deleter> slots;
    std::size_t capacity = 0;
    std::size_t mask = 0;
    int shift = 64;
    std::size_t size = 0;

    table() = default;
    explicit table(std::size_t wanted) {
      capacity = std::bit_ceil(std::max<std::size_t>(wanted, 16));
      slots.reset(static_cast<entry*>(std::calloc(capacity, sizeof(entry))));
      if (!slots) throw std::bad_alloc();
      mask = capacity - 1;
      shift = 64 - std::countr_zero(capacity);
    }

    [[nodiscard]] entry& at(std::size_t i) const noexcept { return slots.get()[i]; }
    [[nodiscard]] std::size_t home(std::uint64_t ref) const noexcept {
      return static_cast<std::size_t>((ref * 0x9E3779B97F4A7C15ull) >> shift);
    }
    void prefetch(std::uint64_t ref) const noexcept { detail::prefetch_object(&at(home(ref))); }

    // Probing stops at a slot that is neither occupied nor a tombstone.
    [[nodiscard]] order* find(std::uint64_t ref) const noexcept {
      if (size == 0) return nullptr;
      for (std::size_t i = home(ref);; i = (i + 1) & mask) {
        entry& e = at(i);
        if (e.value.used) {
          if (e.ref == ref) return &e.value;
        } else if (!e.tomb) {
          return nullptr;
        }
      }
    }

    // Current table only (it never holds tombstones).
    order* insert(std::uint64_t ref, const order& o) noexcept {
      std::size_t i = home(ref);
      for (;; i = (i + 1) & mask) {
        entry& e = at(i);
        if (!e.value.used) break;
        if (e.ref == ref) return nullptr;
      }
      at(i) = entry{ref, o, false};
      ++size;
      return &at(i).value;
    }

    // Current table only: backward-shift deletion. Returns false when `ref` is not here.
    bool erase(std::uint64_t ref) noexcept {
      if (size == 0) return false;
      std::size_t hole = home(ref);
      for (;; hole = (hole + 1) & mask) {
        const entry& e = at(hole);
        if (!e.value.used) return false;
        if (e.ref == ref) break;
      }
      for (std::size_t j = (hole + 1) & mask;; j = (j + 1) & mask) {
        entry& next = at(j);
        if (!next.value.used) break;
        // Move `next` back into the hole unless its home lies cyclically in (hole, j].
        const std::size_t h = home(next.ref);
        const bool stays = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
        if (stays) continue;
        at(hole) = next;
        hole = j;
      }
      at(hole).value.used = false;
      --size;
      return true;
    }

    // Old table only: `ref` (present) becomes a tombstone.
    void bury(std::uint64_t ref) noexcept {
      for (std::size_t i = home(ref);; i = (i + 1) & mask) {
        entry& e = at(i);
        if (e.value.used && e.ref == ref) {
          e.value.used = false;
          e.tomb = true;
          --size;
          return;
        }
      }
    }
  };

  void grow() {
    if constexpr (Policy == rehash::at_once) {
      table bigger(current_.capacity * 2);
      for (std::size_t k = 0; k < current_.capacity; ++k) {
        const entry& e = current_.at(k);
        if (e.value.used) bigger.insert(e.ref, e.value);
      }
      current_ = std::move(bigger);
    } else {
      migrate(old_.capacity);  // finish a migration still running (not expected: see the header)
      retiring_ = table();     // likewise a retirement
      old_ = std::move(current_);
      current_ =
          next_table_.capacity == old_.capacity * 2 ? std::move(next_table_) : table(old_.capacity * 2);
      next_table_ = table();
      next_ = 0;
    }
  }

  // Moves up to `slots` slots of the old table into the current one, leaving tombstones; frees the old
  // table once every slot has been moved.
  void migrate(std::size_t slots) noexcept {
    if (old_.capacity == 0) return;
    const std::size_t end = std::min(old_.capacity, next_ + slots);
    for (; next_ < end; ++next_) {
      entry& e = old_.at(next_);
      if (!e.value.used) continue;
      current_.insert(e.ref, e.value);
      e.value.used = false;
      e.tomb = true;
      --old_.size;
    }
    if (next_ == old_.capacity) {
      if constexpr (Policy == rehash::incremental) {
        retiring_ = std::move(old_);
        retired_ = 0;
      }
      old_ = table();
    }
  }

  // From 3/8 load on (and no migration running), the table the next doubling will use exists and its
  // pages are being touched, one per call.
  void prepare_next() {
    if (next_table_.capacity == 0 && old_.capacity == 0 && current_.size * 8 >= current_.capacity * 3) {
      next_table_ = table(current_.capacity * 2);
      touched_ = 0;
    }
    touch_next();
  }

  void touch_next() noexcept {
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    if (next_table_.capacity == 0) return;
    const std::size_t bytes = next_table_.capacity * sizeof(entry);
    if (touched_ >= bytes) return;
    // A zero written where calloc's zeros are: the page is faulted in, the table still empty.
    static_cast<volatile std::byte*>(static_cast<void*>(next_table_.slots.get()))[touched_] = std::byte{0};
    touched_ += page;
  }

  // Hands the next retire_bytes of the drained table's pages back to the operating system; frees the
  // table (now cheap) once all are.
  void retire_some() noexcept {
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const auto base = reinterpret_cast<std::uintptr_t>(retiring_.slots.get());
    const std::size_t bytes = retiring_.capacity * sizeof(entry);
    const std::uintptr_t first_page = (base + page - 1) / page * page;  // whole pages inside the block
    const std::uintptr_t end_page = (base + bytes) / page * page;
    const std::uintptr_t from = first_page + retired_;
    if (from < end_page) {
      const std::size_t n = std::min<std::size_t>(retire_bytes, end_page - from);
      ::madvise(reinterpret_cast<void*>(from), n, MADV_DONTNEED);
      retired_ += n;
    } else {
      retiring_ = table();
    }
  }

  table current_;
  table old_;                       // being drained into current_, or capacity 0
  std::size_t next_ = 0;            // the next old slot to move
  table retiring_;                  // drained, its pages being handed back, or capacity 0
  std::size_t retired_ = 0;         // bytes of retiring_'s whole pages handed back
  std::uint32_t retire_calls_ = 0;  // calls while retiring_ is not empty
  table next_table_;         // the next doubling's table, allocated ahead (incremental policy), or capacity 0
  std::size_t touched_ = 0;  // bytes of next_table_ whose pages have been touched
  std::size_t size_ = 0;
};

using order_hash = basic_order_hash<rehash::incremental>;

}  // namespace itch5::book::detail
