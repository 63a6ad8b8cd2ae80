// Internal: the memory of the array books' level windows, carved from 2 MiB huge pages.
//
// Each array book side holds a window of level totals plus its occupancy bitmap (2,080 bytes for the
// default 256 levels), and a day touches them at random, one per book event. Allocated one by one from the
// heap they are scattered over thousands of 4 KiB pages, so a book event often misses the TLB as well as
// the cache; carved from huge_buffer chunks they share a few 2 MiB pages (bench: itch5inside ~10% faster
// on the 20 M day). Blocks are zeroed, 64-byte aligned and never freed one by one: the arena belongs to
// one book_engine, which outlives its books, and releases everything at once. Blocks larger than
// max_block_bytes (windows of thousands of levels) are refused (nullptr), so that a huge window option
// cannot reserve gigabytes for books that stay empty; their sides allocate from the heap, lazily. Each
// chunk is touched whole when it is mapped (huge_buffer::fault::now), i.e. when a book is created (at a
// stock directory message, early in the day), so that no add pays a huge page's first touch.
//
// Not thread-safe: one arena per engine, used from its thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <book/detail/huge_buffer.hpp>

namespace book::detail {

class level_arena {
 public:
  static constexpr std::size_t chunk_bytes = huge_buffer::huge_page;
  static constexpr std::size_t max_block_bytes = std::size_t{64} << 10;

  /// `words` zeroed 64-bit words, 64-byte aligned, valid until the arena is destroyed; nullptr when the
  /// block would exceed max_block_bytes.
  [[nodiscard]] std::uint64_t* allocate(std::size_t words) {
    const std::size_t bytes = (words * sizeof(std::uint64_t) + 63) / 64 * 64;
    if (bytes == 0 || bytes > max_block_bytes) return nullptr;
    if (chunks_.empty() || chunk_bytes - used_ < bytes) {
      chunks_.emplace_back(chunk_bytes, huge_buffer::fault::now);  // at a book's creation, not its first add
      used_ = 0;
    }
    std::byte* p = chunks_.back().data() + used_;
    used_ += bytes;
    return reinterpret_cast<std::uint64_t*>(p);
  }

  /// Bytes mapped so far.
  [[nodiscard]] std::size_t mapped_bytes() const noexcept { return chunks_.size() * chunk_bytes; }

 private:
  std::vector<huge_buffer> chunks_;
  std::size_t used_ = 0;  // bytes handed out from the last chunk
};

}  // namespace book::detail
