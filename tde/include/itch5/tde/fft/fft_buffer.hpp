// fft_buffer<E>: a fixed-size, zero-initialised array allocated with fftw_malloc, so it has the SIMD
// alignment FFTW's fastest codelets need, and every buffer has the same alignment (one plan serves all).
//
// Move-only (moving transfers ownership, the source becomes empty); freed with fftw_free. Allocation is
// O(n) once (zero fill); element access is O(1). Not synchronised: one thread at a time per buffer.
#pragma once

#include <cstddef>
#include <new>
#include <span>
#include <utility>

#include <itch5/tde/fft/detail/fftw_api.hpp>
#include <itch5/tde/fft/fft_real.hpp>

namespace itch5::tde {

template <fft_element E>
class fft_buffer {
  using api = detail::fftw_api<typename detail::real_of<E>::type>;

 public:
  using value_type = E;

  fft_buffer() noexcept = default;

  /// `n` value-initialised (zero) elements. Throws std::bad_alloc.
  explicit fft_buffer(std::size_t n) : size_(n) {
    if (n == 0) return;
    if (n > static_cast<std::size_t>(-1) / sizeof(E)) throw std::bad_alloc();
    data_ = static_cast<E*>(api::malloc(n * sizeof(E)));
    if (data_ == nullptr) throw std::bad_alloc();
    for (std::size_t i = 0; i < n; ++i) new (data_ + i) E{};
  }

  fft_buffer(const fft_buffer&) = delete;
  fft_buffer& operator=(const fft_buffer&) = delete;
  fft_buffer(fft_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  fft_buffer& operator=(fft_buffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~fft_buffer() { release(); }

  [[nodiscard]] E* data() noexcept { return data_; }
  [[nodiscard]] const E* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  E& operator[](std::size_t i) noexcept { return data_[i]; }
  const E& operator[](std::size_t i) const noexcept { return data_[i]; }
  E* begin() noexcept { return data_; }
  E* end() noexcept { return data_ + size_; }
  const E* begin() const noexcept { return data_; }
  const E* end() const noexcept { return data_ + size_; }
  [[nodiscard]] std::span<E> span() noexcept { return {data_, size_}; }
  [[nodiscard]] std::span<const E> span() const noexcept { return {data_, size_}; }

 private:
  void release() noexcept {
    if (data_ != nullptr) api::free(data_);  // E is trivially destructible
    data_ = nullptr;
    size_ = 0;
  }

  E* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace itch5::tde
