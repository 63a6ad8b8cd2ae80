// Cold caches on demand: a buffer, larger than the last-level cache by default, read one 64-byte line at
// a time before every timed unit (config::disturb_cache), so the code under test finds its data evicted
// from every cache level, as it would after a burst of unrelated work.
//
//   microbench::cache_disturber d(0);   // twice the last-level cache; allocated and paged in now
//   d.touch();                          // untimed, before each iteration or item
//
// touch() only loads (no dirty lines whose write-back would land in the next timed region) and walks the
// buffer in order, so the hardware prefetcher makes it as fast as memory bandwidth allows: about 1.3 ms
// for the default 16 MiB on the project's 2-core guest (~13 GB/s). Budget for it: --per-item
// --disturb-cache reads the buffer once per item.
//
// The last-level cache size is the largest level under /sys/devices/system/cpu/cpu0/cache (what the
// kernel reports), else sysconf(_SC_LEVEL3_CACHE_SIZE), else 32 MiB. A hypervisor may report less than
// the host has (the project's KVM guest: 8 MiB in sysfs, 64 MiB through CPUID): pass a size to be sure.
//
// Complexity: touch() O(size / 64) loads. Memory: the buffer. Thread-safety: one thread per disturber.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace microbench {

class cache_disturber {
 public:
  /// Allocates `bytes` (0: twice last_level_cache_bytes(); rounded up to whole lines) and writes every
  /// page once so that touch() never page-faults.
  explicit cache_disturber(std::uint64_t bytes);

  /// Loads the first word of every 64-byte line of the buffer, in order, and returns their sum (word i of
  /// the buffer holds i, so the sum proves every line was read).
  std::uint64_t touch() noexcept;

  [[nodiscard]] std::uint64_t size() const noexcept { return lines_ * line; }

  /// The last-level cache size in bytes (see the header comment).
  [[nodiscard]] static std::uint64_t last_level_cache_bytes();

  static constexpr std::uint64_t line = 64;

 private:
  std::unique_ptr<std::uint64_t[]> buffer_;
  std::uint64_t lines_ = 0;
};

}  // namespace microbench
