// Internal: a software prefetch that the optimizer cannot delete.
//
// GCC 12 at -O2 and -O3 removes __builtin_prefetch from the engine's look-ahead: its interprocedural
// mod-ref analysis (-fipa-modref) finds that a function whose only effect is a prefetch (book_engine's
// prefetch_far(), order_table::prefetch(), ...) writes no memory and returns nothing, so every call to it
// is dead and goes, prefetch included. Until this helper, itch5inside's Release build held no prefetch
// instruction at all. The signal fence is a compiler-only barrier (it emits no instruction) that gives the
// call an effect the optimizer must keep; the prefetch itself is unchanged. tests/book/prefetch_kept_test
// checks the built itch5inside for prefetch instructions.
#pragma once

#include <atomic>

namespace itch5::book::detail {

/// Starts loading the cache line holding `p` (for reading, into every cache level). Changes nothing.
[[gnu::always_inline]] inline void prefetch(const void* p) noexcept {
  __builtin_prefetch(p);
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

/// Starts loading every cache line of `*p`, an object of at most 64 bytes that may straddle two lines (a
/// 12-byte order at a multiple of 12 bytes does for 2 slots in 16: prefetching its first byte alone left
/// its last, the occupancy flag find() reads first, to a demand miss). Changes nothing.
template <class T>
[[gnu::always_inline]] inline void prefetch_object(const T* p) noexcept {
  static_assert(sizeof(T) <= 64);
  const char* first = reinterpret_cast<const char*>(p);
  prefetch(first);
  prefetch(first + sizeof(T) - 1);
}

/// Starts loading the cache line holding `p` for writing (x86-64: PREFETCHW, which GCC emits for
/// __builtin_prefetch(p, 1) only where -march allows; a NOP on processors without it), so that a store there
/// need not wait for the line to be taken from another core. Changes nothing.
[[gnu::always_inline]] inline void prefetch_for_write(const void* p) noexcept {
#if defined(__x86_64__)
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1);
  std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

}  // namespace itch5::book::detail
