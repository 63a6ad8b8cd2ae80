// Big-endian loads and stores on unaligned byte pointers.
//
// Every multi-byte ITCH field is big-endian and unaligned. These helpers copy the bytes into a native
// integer with std::memcpy (never a reinterpret_cast onto the buffer) and byte-swap. Compilers turn each
// into a single load + bswap. They do not check bounds: callers check a message's length once, then read
// fixed offsets inside it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace itch5::detail {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big);

template <class T>
constexpr T from_big_endian(T v) noexcept {
  if constexpr (std::endian::native == std::endian::big || sizeof(T) == 1) {
    return v;
  } else if constexpr (sizeof(T) == 2) {
    return static_cast<T>(__builtin_bswap16(v));
  } else if constexpr (sizeof(T) == 4) {
    return static_cast<T>(__builtin_bswap32(v));
  } else {
    static_assert(sizeof(T) == 8);
    return static_cast<T>(__builtin_bswap64(v));
  }
}

template <class T>
[[nodiscard]] inline T load_be(const std::byte* p) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return from_big_endian(v);
}

template <class T>
inline void store_be(std::byte* p, T v) noexcept {
  v = from_big_endian(v);  // the swap is its own inverse
  std::memcpy(p, &v, sizeof(T));
}

[[nodiscard]] inline std::uint16_t load_be16(const std::byte* p) noexcept {
  return load_be<std::uint16_t>(p);
}
[[nodiscard]] inline std::uint32_t load_be32(const std::byte* p) noexcept {
  return load_be<std::uint32_t>(p);
}
[[nodiscard]] inline std::uint64_t load_be64(const std::byte* p) noexcept {
  return load_be<std::uint64_t>(p);
}

/// The 6-byte ITCH timestamp.
[[nodiscard]] inline std::uint64_t load_be48(const std::byte* p) noexcept {
  return (std::uint64_t{load_be16(p)} << 32) | load_be32(p + 2);
}

inline void store_be48(std::byte* p, std::uint64_t v) noexcept {
  store_be<std::uint16_t>(p, static_cast<std::uint16_t>(v >> 32));
  store_be<std::uint32_t>(p + 2, static_cast<std::uint32_t>(v));
}

}  // namespace itch5::detail
