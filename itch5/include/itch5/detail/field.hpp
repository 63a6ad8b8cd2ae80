// Declarative message layouts: each message type lists its fields once, as (offset, name, member), and
// decode(), encode() and the text printer are generated from that list. A compile-time check verifies that
// the fields tile the message exactly from byte 11 to its fixed size, so an offset typo cannot compile.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>

#include <itch5/detail/endian.hpp>
#include <itch5/price.hpp>
#include <itch5/stock_symbol.hpp>

namespace itch5::detail {

/// One field of message type C: `Offset` bytes from the type byte, stored in member `member`.
template <std::size_t Offset, class C, class T>
struct field {
  static constexpr std::size_t offset = Offset;
  using value_type = T;
  const char* name;
  T C::*member;
};

template <std::size_t Offset, class C, class T>
constexpr field<Offset, C, T> at(const char* name, T C::*member) noexcept {
  return {name, member};
}

template <class... F>
constexpr std::tuple<F...> fields(F... f) noexcept {
  return {f...};
}

// Wire codecs per field type. Alpha fields are copied as they are; integers and prices are big-endian.
template <class T>
struct wire;

template <>
struct wire<char> {
  static constexpr std::size_t size = 1;
  static char read(const std::byte* p) noexcept { return static_cast<char>(*p); }
  static void write(std::byte* p, char v) noexcept { *p = static_cast<std::byte>(v); }
};

template <class U>
requires std::is_unsigned_v<U>
struct wire<U> {
  static constexpr std::size_t size = sizeof(U);
  static U read(const std::byte* p) noexcept { return load_be<U>(p); }
  static void write(std::byte* p, U v) noexcept { store_be<U>(p, v); }
};

template <int D, class R>
struct wire<price<D, R>> {
  static constexpr std::size_t size = sizeof(R);
  static price<D, R> read(const std::byte* p) noexcept { return price<D, R>(load_be<R>(p)); }
  static void write(std::byte* p, price<D, R> v) noexcept { store_be<R>(p, v.units()); }
};

template <std::size_t N>
struct wire<std::array<char, N>> {
  static constexpr std::size_t size = N;
  static std::array<char, N> read(const std::byte* p) noexcept {
    std::array<char, N> v;
    std::memcpy(v.data(), p, N);
    return v;
  }
  static void write(std::byte* p, const std::array<char, N>& v) noexcept { std::memcpy(p, v.data(), N); }
};

template <>
struct wire<stock_symbol> {
  static constexpr std::size_t size = stock_symbol::width;
  static stock_symbol read(const std::byte* p) noexcept {
    stock_symbol s;
    std::memcpy(s.raw().data(), p, size);
    return s;
  }
  static void write(std::byte* p, const stock_symbol& v) noexcept { std::memcpy(p, v.raw().data(), size); }
};

/// True when the fields of M start at byte 11, follow each other without gaps or overlaps, and end at
/// M::size.
template <class M>
consteval bool layout_tiles_message() {
  std::size_t next = 11;
  bool ok = true;
  std::apply(
      [&](auto... f) {
        ((ok = ok && decltype(f)::offset == next,
          next = decltype(f)::offset + wire<typename decltype(f)::value_type>::size),
         ...);
      },
      M::layout());
  return ok && next == M::size;
}

}  // namespace itch5::detail
