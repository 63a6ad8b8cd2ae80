// Optimisation barriers for benchmark bodies: keep a computed value alive, and force pending memory
// writes to happen, without generating any instruction.
//
//   std::uint64_t sum = 0;
//   for (...) sum += decode(...);
//   microbench::do_not_optimize(sum);   // the loop cannot be deleted as dead code
//
// Both are empty inline-assembly statements the compiler must assume read `value` (and, with the
// "memory" clobber, any memory), so it neither drops the work nor moves it across the barrier.
// GCC and Clang only. Complexity O(1), zero instructions beyond materialising `value`; thread-safe.
#pragma once

namespace microbench {

/// Makes the compiler believe `value` is read here: the computation producing it cannot be removed.
template <class T>
inline void do_not_optimize(const T& value) noexcept {
  __asm__ __volatile__("" : : "r,m"(value) : "memory");
}

/// Makes the compiler believe all memory is read and written here: stores before it are performed, loads
/// after it are redone.
inline void clobber_memory() noexcept { __asm__ __volatile__("" : : : "memory"); }

}  // namespace microbench
