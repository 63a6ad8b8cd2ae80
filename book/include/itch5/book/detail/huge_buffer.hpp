// Internal: zeroed memory for the engine's large direct-mapped tables, backed by 2 MiB pages where the
// kernel allows it.
//
// The order table's ring (12 MiB) and the array books' levels are read at random, one cache line per
// message: with 4 KiB pages nearly every such read also misses the TLB and walks the page tables, and a
// software prefetch cannot hide what it does not start early enough. huge_buffer maps its bytes
// anonymously (zeroed by the kernel, pages touched only as used unless asked), aligned to 2 MiB, and asks for
// transparent huge pages (madvise MADV_HUGEPAGE), which kernels set to "madvise" (the Debian and Ubuntu
// default) grant only on request. Where they are refused or unavailable the memory is simply 4 KiB pages.
// The first touch of a huge page costs the kernel zeroing 2 MiB and often compacting memory to find it:
// 1-3 ms measured on the 400 M-message day, a stall of whichever message touched it. fault::now takes
// that cost in the constructor instead (the engine is built before the first message).
//
// Move-only; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include <sys/mman.h>

namespace itch5::book::detail {

class huge_buffer {
 public:
  static constexpr std::size_t huge_page = std::size_t{2} << 20;

  huge_buffer() = default;
  enum class fault { lazily, now };
  /// pages::small maps ordinary pages only (no 2 MiB alignment, no MADV_HUGEPAGE): for tables whose
  /// entries are touched sparsely, where a huge page would zero 2 MiB for the first entry of each.
  enum class pages { huge, small };

  /// `bytes` zeroed bytes, aligned to 2 MiB when at least that many (else to a page); throws bad_alloc.
  /// With fault::now every page is touched here, so that no later access pays for a first touch.
  explicit huge_buffer(std::size_t bytes, fault when = fault::lazily, pages kind = pages::huge) {
    if (bytes == 0) return;
    const bool huge = kind == pages::huge && bytes >= huge_page;
    const std::size_t size = huge ? (bytes + huge_page - 1) / huge_page * huge_page : bytes;
    // Map one huge page more than asked and trim, so that the start is 2 MiB aligned.
    const std::size_t mapped = huge ? size + huge_page : size;
    void* p = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    auto* base = static_cast<std::byte*>(p);
    if (huge) {
      const auto addr = reinterpret_cast<std::uintptr_t>(base);
      const std::size_t lead = (huge_page - addr % huge_page) % huge_page;
      if (lead != 0) ::munmap(base, lead);
      ::munmap(base + lead + size, huge_page - lead);  // lead < huge_page: never empty
      base += lead;
#ifdef MADV_HUGEPAGE
      ::madvise(base, size, MADV_HUGEPAGE);  // a hint: failure leaves ordinary pages
#endif
    }
    data_ = base;
    size_ = size;
    if (when == fault::now) {
      // One write per 4 KiB page: with huge pages granted, the first write of each 2 MiB maps all of it.
      for (std::size_t at = 0; at < size; at += 4096)
        static_cast<volatile std::byte*>(data_)[at] = std::byte{0};
    }
  }
  huge_buffer(huge_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  huge_buffer& operator=(huge_buffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  huge_buffer(const huge_buffer&) = delete;
  huge_buffer& operator=(const huge_buffer&) = delete;
  ~huge_buffer() { release(); }

  [[nodiscard]] std::byte* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

 private:
  void release() noexcept {
    if (data_ != nullptr) ::munmap(data_, size_);
    data_ = nullptr;
    size_ = 0;
  }

  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace itch5::book::detail
