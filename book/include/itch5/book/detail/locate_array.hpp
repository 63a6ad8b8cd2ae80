// Internal: a table with one entry for every possible stock locate (65,536), for the book engine's books
// and the inside runner's per-locate state.
//
// The entries live in anonymous pages mapped on first touch (detail::huge_buffer, ordinary pages): room for
// every locate from the start, so an entry never moves and no message pays for a table growing (a vector
// doubling moved every book at 4,096 and 8,192 books: 0.5 and 0.9 ms directory messages on a
// 10,000-symbol day), while the table costs only the pages its locates touch. Unlike malloc or calloc of
// the same megabytes, which a sanitizer build shadows whole at every allocation and free (fuzz_inside,
// which runs thousands of short inputs, spent most of its time there), mmap'ed pages cost nothing until
// used.
//
// Two ways to fill it: emplace_back() constructs the entries in locate order (the engine makes every book
// up to the highest locate seen), or zeroed() makes all of them exist at once as zero bytes (trivial types
// whose zero is their "unknown" state). Not thread-safe.
#pragma once

#include <cassert>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

#include <itch5/book/detail/huge_buffer.hpp>

namespace itch5::book::detail {

template <class T>
class locate_array {
 public:
  static constexpr std::size_t capacity = std::size_t{1} << 16;

  /// An empty table (size() 0).
  locate_array() = default;

  /// A table of `capacity` entries, every one zero bytes.
  [[nodiscard]] static locate_array zeroed() {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);
    locate_array a;
    a.size_ = capacity;
    return a;
  }

  locate_array(locate_array&& o) noexcept : memory_(std::move(o.memory_)), size_(std::exchange(o.size_, 0)) {}
  locate_array& operator=(locate_array&&) = delete;
  locate_array(const locate_array&) = delete;
  locate_array& operator=(const locate_array&) = delete;
  ~locate_array() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (std::size_t i = size_; i-- > 0;) data()[i].~T();
    }
  }

  /// Constructs the next entry (index size()) from `args`. Precondition: size() < capacity.
  template <class... Args>
  T& emplace_back(Args&&... args) {
    assert(size_ < capacity);
    T* p = ::new (static_cast<void*>(data() + size_)) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] T& operator[](std::size_t i) noexcept { return data()[i]; }
  [[nodiscard]] const T& operator[](std::size_t i) const noexcept { return data()[i]; }

 private:
  static_assert(alignof(T) <= 4096, "entries are page aligned at most");
  [[nodiscard]] T* data() const noexcept { return reinterpret_cast<T*>(memory_.data()); }

  huge_buffer memory_{capacity * sizeof(T), huge_buffer::fault::lazily, huge_buffer::pages::small};
  std::size_t size_ = 0;
};

}  // namespace itch5::book::detail
