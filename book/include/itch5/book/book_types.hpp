// The book side implementations a tool can choose at run time, and how to choose one.
//
// A book family names its side template: `Book::side<side_kind::buy>`. Adding an implementation means
// writing its side type (satisfying the book_side concept) and listing its family in `all_book_types`;
// tools dispatch with with_book_type() and need no change. The first entry is the default: the fastest,
// as measured by bench/bm_order_book and the end-to-end benchmark.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <itch5/book/array_book_side.hpp>
#include <itch5/book/book_side.hpp>
#include <itch5/book/map_book_side.hpp>

namespace itch5::book {

struct array_book {
  static constexpr std::string_view name = "array";
  template <side_kind K>
  using side = array_book_side<K>;
};

struct map_book {
  static constexpr std::string_view name = "map";
  template <side_kind K>
  using side = map_book_side<K>;
};

using all_book_types = std::tuple<array_book, map_book>;

/// A book family whose two sides satisfy the book_side concept.
template <class B>
concept book_family = book_side<typename B::template side<side_kind::buy>> &&
    book_side<typename B::template side<side_kind::sell>> && requires {
  { B::name } -> std::convertible_to<std::string_view>;
};

/// Names of all book families, the default first.
[[nodiscard]] inline std::vector<std::string> book_type_names() {
  return std::apply([](auto... b) { return std::vector<std::string>{std::string(decltype(b)::name)...}; },
                    all_book_types{});
}

/// Calls `f.template operator()<B>()` for the family named `name`; throws std::invalid_argument otherwise.
template <class F>
decltype(auto) with_book_type(std::string_view name, F&& f) {
  using result = decltype(f.template operator()<std::tuple_element_t<0, all_book_types>>());
  if constexpr (std::is_void_v<result>) {
    bool found = std::apply(
        [&](auto... b) {
          return ((decltype(b)::name == name ? (f.template operator()<decltype(b)>(), true) : false) || ...);
        },
        all_book_types{});
    if (!found) throw std::invalid_argument("unknown book type '" + std::string(name) + "'");
  } else {
    std::optional<result> r;
    std::apply(
        [&](auto... b) {
          ((decltype(b)::name == name && !r ? (r.emplace(f.template operator()<decltype(b)>()), true)
                                            : false) ||
           ...);
        },
        all_book_types{});
    if (!r) throw std::invalid_argument("unknown book type '" + std::string(name) + "'");
    return *r;
  }
}

static_assert(std::apply([](auto... b) { return (book_family<decltype(b)> && ...); }, all_book_types{}));

}  // namespace itch5::book
