// Builds BinaryFILE bytes (2-byte big-endian length + message) in memory: for the synthetic generator and
// for tests that need exact input bytes.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <itch5/detail/endian.hpp>
#include <itch5/messages.hpp>

namespace itch5 {

class frame_writer {
 public:
  /// Appends `m` framed with its fixed length.
  template <message M>
  void write(const M& m) {
    std::size_t at = grow(2 + M::size);
    detail::store_be<std::uint16_t>(bytes_.data() + at, static_cast<std::uint16_t>(M::size));
    encode(m, bytes_.data() + at + 2);
  }

  /// Appends an arbitrary frame: `length` as the prefix, then `body` (which may differ in size, to build
  /// corrupt input on purpose).
  void write_raw(std::uint16_t length, std::span<const std::byte> body) {
    std::size_t at = grow(2 + body.size());
    detail::store_be<std::uint16_t>(bytes_.data() + at, length);
    std::copy(body.begin(), body.end(), bytes_.begin() + static_cast<std::ptrdiff_t>(at + 2));
  }

  /// Appends the zero length that ends a session.
  void write_end_of_session() { grow(2); }

  [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return bytes_; }
  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }
  void clear() noexcept { bytes_.clear(); }

 private:
  std::size_t grow(std::size_t n) {
    std::size_t at = bytes_.size();
    bytes_.resize(at + n);
    return at;
  }

  std::vector<std::byte> bytes_;
};

}  // namespace itch5
