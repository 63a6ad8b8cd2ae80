// The columns of a table, defined once per table as a visit of its row (the table's one place):
//
//   struct trade_row { itch5::timestamp timestamp; std::uint16_t locate; itch5::price4 price; ... };
//   struct trades_table {
//     static constexpr std::string_view name = "trades";
//     using row = trade_row;
//     template <class V> static void visit(V& v, const row& r) {
//       v({"timestamp", "nanoseconds since midnight"}, r.timestamp);
//       v({"locate", "stock locate"}, r.locate);
//       v({"price", "execution price"}, r.price);
//       ...
//     }
//   };
//
// A visitor is called once per column, in column order, with the column's field (name and meaning) and the
// row's value; the value's C++ type gives the column's type (column_type_of below). Visitors:
//   - schema_of<Table>(prototype) (schema.hpp): the columns' names, types and meanings, for headers, docs
//     (markdown_columns) and the Python package's Arrow schema;
//   - csv_row (csv_row.hpp): the row as one CSV line, formatted into a caller's buffer;
//   - the Python package's column builders.
// A table whose column count depends on options (the N-level book) visits its repeated columns with an
// index: {"bid_px_", "...", i} is column "bid_px_00", "bid_px_01", ...; a visitor that only writes values
// never builds the name.
//
// Value types and their column types:
//   std::int64_t, std::int32_t              int (signed)
//   std::uint64_t, std::uint32_t, std::uint16_t   uint
//   itch5::timestamp                        nanoseconds since midnight, int64
//   itch5::price4                           price in $0.0001 (integer units, as the inside file)
//   itch5::price8                           price in $0.00000001 (integer units; MWCB levels)
//   itch5::stock_symbol                     symbol (trailing spaces trimmed; dictionary-encoded in Arrow)
//   text (a std::string_view)               free text such as a code's meaning; CSV-quoted only when it holds
//                                           a comma, a double quote or a line break. The characters must
//                                           outlive the rows (static strings, as the meaning tables are)
//   letter (a char code such as a side or a message type)   one character, empty when 0
//   bool                                    0 or 1 in CSV, boolean in Arrow
//   std::optional<T> of the above           the same, nullable: empty in CSV, null in Arrow
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <itch5/price.hpp>
#include <itch5/stock_symbol.hpp>
#include <itch5/timestamp.hpp>

namespace itch5::tables {

/// A column's name and meaning; with index >= 0 the name is `name` followed by the index in two or more
/// digits (bid_px_00).
struct field {
  std::string_view name;
  std::string_view meaning;
  int index = -1;

  /// The column's full name.
  [[nodiscard]] std::string full_name() const;
};

/// A one-character code (side 'B'/'S', message type, reason letters), as its own type so that it is never
/// taken for a number. 0 means none (an empty CSV field).
struct letter {
  char code = 0;
  friend constexpr bool operator==(letter, letter) noexcept = default;
};

enum class column_type : std::uint8_t {
  int64,      ///< signed integer
  uint64,     ///< unsigned integer (uint16 and uint32 values too)
  timestamp,  ///< int64 nanoseconds since midnight
  price4,     ///< int64 units of $0.0001
  price8,     ///< int64 units of $0.00000001
  symbol,     ///< text up to 8 characters
  letter,     ///< one character, or empty
  boolean,    ///< 0 or 1
  text,       ///< free text (UTF-8 in Arrow)
};

/// Free text (a code's meaning in words): a view of characters that outlive the rows holding it, such as
/// string literals. Empty is an empty CSV field.
struct text {
  std::string_view value;
  friend constexpr bool operator==(text, text) noexcept = default;
};

/// The column type's name in docs ("int64", "price4", ...).
[[nodiscard]] std::string_view column_type_name(column_type t) noexcept;

/// What a column holds: name, type, meaning, whether it may be empty (null).
struct column {
  std::string name;
  column_type type = column_type::int64;
  std::string meaning;
  bool nullable = false;

  friend bool operator==(const column&, const column&) = default;
};

namespace detail {
template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {
  using value_type = T;
};
}  // namespace detail

/// The column type of a value type (see the list at the top).
template <class T>
constexpr column_type column_type_of() noexcept {
  if constexpr (detail::is_optional<T>::value) {
    return column_type_of<typename detail::is_optional<T>::value_type>();
  } else if constexpr (std::is_same_v<T, itch5::timestamp>) {
    return column_type::timestamp;
  } else if constexpr (std::is_same_v<T, itch5::price4>) {
    return column_type::price4;
  } else if constexpr (std::is_same_v<T, itch5::price8>) {
    return column_type::price8;
  } else if constexpr (std::is_same_v<T, itch5::stock_symbol>) {
    return column_type::symbol;
  } else if constexpr (std::is_same_v<T, letter>) {
    return column_type::letter;
  } else if constexpr (std::is_same_v<T, bool>) {
    return column_type::boolean;
  } else if constexpr (std::is_same_v<T, text>) {
    return column_type::text;
  } else if constexpr (std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::int32_t>) {
    return column_type::int64;
  } else if constexpr (std::is_same_v<T, std::uint64_t> || std::is_same_v<T, std::uint32_t> ||
                       std::is_same_v<T, std::uint16_t>) {
    return column_type::uint64;
  } else {
    static_assert(sizeof(T) == 0, "not a column value type (itch5/tables/column.hpp)");
  }
}

/// Whether a value type is nullable (std::optional).
template <class T>
inline constexpr bool nullable_v = detail::is_optional<T>::value;

}  // namespace itch5::tables
