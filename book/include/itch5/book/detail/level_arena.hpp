// Internal: the memory of the array books' level windows, carved from 2 MiB huge pages.
//
// Each array book side holds a window of level totals plus its occupancy bitmap (2,080 bytes for the
// default 256 levels), and a day touches them at random, one per book event. Allocated one by one from the
// heap they are scattered over thousands of 4 KiB pages, so a book event often misses the TLB as well as
// the cache; carved from huge_buffer chunks they share a few 2 MiB pages (bench: itch5inside ~10% faster
// on the 20 M day). Blocks are zeroed, 64-byte aligned and never freed one by one: the arena belongs to
// one book_engine, which outlives its books, and releases everything at once. Blocks larger than
// max_block_bytes (windows of thousands of levels) are refused (nullptr), so that a huge window option
// cannot reserve gigabytes for books that stay empty; their sides allocate from the heap, lazily.
//
// A chunk is touched whole when it is mapped (huge_buffer::fault::now), so that no add pays a huge page's
// first touch. That touch costs 0.17 ms when the kernel has a free huge page and 2.5 ms when the memory is
// new to the process's virtual machine (measured on these VMs), and the stock directory that makes the
// books comes as a flood of messages at ~100 ns each: mapping chunks there stalled directory messages by
// 0.7-2.7 ms. So the arena maps its first chunk when constructed (before any message) and each later one
// on a helper thread (std::async), started when the chunk before is half used; allocate() never waits
// for it: while the next chunk is not ready it returns nullptr and the caller takes heap memory for now,
// moving into the arena later (array_book_side::move_to, driven by book_engine).
//
// Not thread-safe: one arena per engine, used from its thread (the helper only maps its own chunk).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <future>
#include <system_error>
#include <vector>

#include <itch5/book/detail/huge_buffer.hpp>

namespace itch5::book::detail {

class level_arena {
 public:
  static constexpr std::size_t chunk_bytes = huge_buffer::huge_page;
  static constexpr std::size_t max_block_bytes = std::size_t{64} << 10;

  /// With `map_now` the first chunk is mapped here; else by the first allocate() (for an arena that may
  /// never be used).
  explicit level_arena(bool map_now = true) {
    if (map_now) chunks_.emplace_back(chunk_bytes, huge_buffer::fault::now);
  }

  /// Whether blocks of `words` words are served (else allocate() always returns nullptr).
  [[nodiscard]] static constexpr bool fits(std::size_t words) noexcept {
    return words != 0 && block_bytes(words) <= max_block_bytes;
  }

  /// `words` zeroed 64-bit words, 64-byte aligned, valid until the arena is destroyed; nullptr when the
  /// block does not fit, or when the current chunk is full and the next one is still being mapped (try
  /// again later).
  [[nodiscard]] std::uint64_t* allocate(std::size_t words) {
    if (!fits(words)) return nullptr;
    const std::size_t bytes = block_bytes(words);
    if (chunks_.empty()) {
      chunks_.emplace_back(chunk_bytes, huge_buffer::fault::now);  // constructed with map_now = false
      used_ = 0;
    } else if (chunk_bytes - used_ < bytes) {
      if (!ahead_.valid()) map_ahead();
      if (ahead_.valid()) {
        if (ahead_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return nullptr;
        chunks_.push_back(ahead_.get());  // rethrows the helper's bad_alloc, as mapping here would throw it
        ++mapped_ahead_;
      } else {
        chunks_.emplace_back(chunk_bytes, huge_buffer::fault::now);  // no helper thread to be had
      }
      used_ = 0;
    }
    std::byte* p = chunks_.back().data() + used_;
    used_ += bytes;
    if (used_ >= chunk_bytes / 2 && !ahead_.valid()) map_ahead();
    return reinterpret_cast<std::uint64_t*>(p);
  }

  /// Bytes of the chunks in use (not counting one mapped ahead).
  [[nodiscard]] std::size_t mapped_bytes() const noexcept { return chunks_.size() * chunk_bytes; }
  /// Chunks in use that a helper thread mapped ahead of need.
  [[nodiscard]] std::size_t chunks_mapped_ahead() const noexcept { return mapped_ahead_; }

 private:
  static constexpr std::size_t block_bytes(std::size_t words) noexcept {
    return (words * sizeof(std::uint64_t) + 63) / 64 * 64;
  }

  void map_ahead() noexcept {
    try {
      ahead_ =
          std::async(std::launch::async, [] { return huge_buffer(chunk_bytes, huge_buffer::fault::now); });
    } catch (const std::system_error&) {
      // No thread to be had: allocate() maps the next chunk itself.
    }
  }

  std::vector<huge_buffer> chunks_;
  std::size_t used_ = 0;  // bytes handed out from the last chunk
  std::size_t mapped_ahead_ = 0;
  std::future<huge_buffer> ahead_;  // the next chunk, being mapped (its destructor waits for the helper)
};

}  // namespace itch5::book::detail
