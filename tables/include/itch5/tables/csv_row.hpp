// A table's rows as CSV (column.hpp, schema.hpp): format_csv_row writes one row as one line into a caller's
// buffer, csv_table_writer writes a header and then rows through an io::line_writer.
//
//   itch5::tables::csv_table_writer<trades_table> csv(out_file);   // writes the header line
//   csv.write(row);                                                 // per row: no allocation
//   csv.flush();                                                    // before out_file.commit()
//
// Values: integers, timestamps (ns) and prices (integer units) in decimal; a symbol with trailing spaces
// trimmed and any character that is not printable ASCII, or a comma or a double quote, written as '?' (so no
// field ever needs quoting); a letter as its character (nothing for 0); bool as 0 or 1; an empty optional as
// nothing; text as it is, in double quotes (each double quote inside doubled, RFC 4180) only when it holds a
// comma, a double quote or a line break. O(columns) per row (plus the text's length).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include <itch5/io/line_writer.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/schema.hpp>

namespace itch5::tables {

/// The most bytes one CSV field of a value of type T takes (for text: of an empty one; text_bound() adds
/// what its characters take).
template <class T>
constexpr std::size_t csv_field_bound() noexcept {
  switch (column_type_of<T>()) {
    case column_type::symbol: return itch5::stock_symbol::width;
    case column_type::letter:
    case column_type::boolean: return 1;
    case column_type::text: return 2;  // the quotes
    default: return 20;
  }
}

namespace detail {
/// The most bytes text `t` takes beyond csv_field_bound<text>(): each character, doubled if a quote.
constexpr std::size_t text_bound(const text& t) noexcept { return 2 * t.value.size(); }

struct csv_bound_collector {
  std::size_t bytes = 1;  // the newline
  bool has_text = false;
  template <class T>
  void operator()(const field&, const T& v) noexcept {
    bytes += csv_field_bound<T>() + 1;
    if constexpr (std::is_same_v<T, text>) {
      bytes += text_bound(v);
      has_text = true;
    } else if constexpr (std::is_same_v<T, std::optional<text>>) {
      if (v) bytes += text_bound(*v);
      has_text = true;
    }
  }
};

inline char* csv_text(char* p, std::string_view s) noexcept {
  const bool quote = s.find_first_of(",\"\r\n") != std::string_view::npos;
  if (!quote) {
    for (const char c : s) *p++ = c;
    return p;
  }
  *p++ = '"';
  for (const char c : s) {
    if (c == '"') *p++ = '"';
    *p++ = c;
  }
  *p++ = '"';
  return p;
}

// "00" to "99": two decimal digits at a time.
inline constexpr auto digit_pairs = [] {
  std::array<char, 200> t{};
  for (int i = 0; i < 100; ++i) {
    t[static_cast<std::size_t>(2 * i)] = static_cast<char>('0' + i / 10);
    t[static_cast<std::size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
  }
  return t;
}();

// The decimal digits of v at p; returns the end. Counts the digits first (a bit length and one comparison)
// and writes two at a time from the end: about half the instructions of std::to_chars on the wide rows
// of the N-level book, whose formatting is most of their cost.
inline char* decimal(char* p, std::uint64_t v) noexcept {
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  static constexpr std::uint64_t powers[20] = {1ull,
                                               10ull,
                                               100ull,
                                               1000ull,
                                               10000ull,
                                               100000ull,
                                               1000000ull,
                                               10000000ull,
                                               100000000ull,
                                               1000000000ull,
                                               10000000000ull,
                                               100000000000ull,
                                               1000000000000ull,
                                               10000000000000ull,
                                               100000000000000ull,
                                               1000000000000000ull,
                                               10000000000000000ull,
                                               100000000000000000ull,
                                               1000000000000000000ull,
                                               10000000000000000000ull};
  const int bits = 64 - std::countl_zero(v);
  const int t = (bits * 1233) >> 12;  // floor(log10(2^bits)), digits - 1 or digits - 2
  const int n = t + 1 - (v < powers[t] ? 1 : 0);
  char* const end = p + n;
  char* q = end;
  while (v >= 100) {
    q -= 2;
    std::memcpy(q, digit_pairs.data() + 2 * (v % 100), 2);
    v /= 100;
  }
  if (v >= 10) {
    std::memcpy(q - 2, digit_pairs.data() + 2 * v, 2);
  } else {
    q[-1] = static_cast<char>('0' + v);
  }
  return end;
}

inline char* csv_symbol(char* p, const itch5::stock_symbol& s) noexcept {
  for (const char c : s.str()) {
    *p++ = (c > ' ' && c < 127 && c != ',' && c != '"') ? c : '?';
  }
  return p;
}
}  // namespace detail

/// The most bytes format_csv_row writes for rows shaped like `prototype` (the same columns), or for this very
/// row when the table has text columns (their length is the row's).
template <class Table>
std::size_t csv_row_bound(const typename Table::row& prototype = {}) {
  detail::csv_bound_collector c;
  Table::visit(c, prototype);
  return c.bytes;
}

/// Whether rows of `Table` shaped like `prototype` have text columns (so that their bound is per row).
template <class Table>
bool csv_has_text(const typename Table::row& prototype = {}) {
  detail::csv_bound_collector c;
  Table::visit(c, prototype);
  return c.has_text;
}

/// A visitor that writes the values of one row, separated by commas, from `out` on.
class csv_row_formatter {
 public:
  explicit csv_row_formatter(char* out) noexcept : p_(out) {}

  template <class T>
  void operator()(const field&, const T& v) noexcept {
    if (!first_) *p_++ = ',';
    first_ = false;
    value(v);
  }

  /// The end of what was written so far (no newline).
  [[nodiscard]] char* end() const noexcept { return p_; }

  /// Ends the line; returns the end of what was written.
  char* finish() noexcept {
    *p_++ = '\n';
    return p_;
  }

 private:
  template <class T>
  void value(const T& v) noexcept {
    if constexpr (detail::is_optional<T>::value) {
      if (v) value(*v);
    } else if constexpr (std::is_same_v<T, itch5::timestamp>) {
      integer(static_cast<std::int64_t>(v.count()));
    } else if constexpr (std::is_same_v<T, itch5::price4> || std::is_same_v<T, itch5::price8>) {
      integer(v.units());
    } else if constexpr (std::is_same_v<T, itch5::stock_symbol>) {
      p_ = detail::csv_symbol(p_, v);
    } else if constexpr (std::is_same_v<T, letter>) {
      if (v.code != 0)
        *p_++ = (v.code > ' ' && v.code < 127 && v.code != ',' && v.code != '"') ? v.code : '?';
    } else if constexpr (std::is_same_v<T, bool>) {
      *p_++ = v ? '1' : '0';
    } else if constexpr (std::is_same_v<T, text>) {
      p_ = detail::csv_text(p_, v.value);
    } else {
      integer(v);
    }
  }

  template <class I>
  void integer(I v) noexcept {
    if constexpr (std::is_signed_v<I>) {
      if (v < 0) {
        *p_++ = '-';
        p_ = detail::decimal(p_, 0 - static_cast<std::uint64_t>(v));
        return;
      }
    }
    p_ = detail::decimal(p_, static_cast<std::uint64_t>(v));
  }

  char* p_;
  bool first_ = true;
};

/// Writes `r` as one CSV line at `out` (room for csv_row_bound<Table>(r) bytes); returns the end.
template <class Table>
char* format_csv_row(char* out, const typename Table::row& r) noexcept {
  csv_row_formatter f(out);
  Table::visit(f, r);
  return f.finish();
}

/// A table written as CSV: the header line at construction, then one line per write(). The output must
/// outlive the writer; call flush() before committing it.
template <class Table>
class csv_table_writer {
 public:
  explicit csv_table_writer(itch5::io::output_file& out, const typename Table::row& prototype = {})
      : lines_(out), bound_(csv_row_bound<Table>(prototype)), per_row_bound_(csv_has_text<Table>(prototype)) {
    lines_.append(csv_header(schema_of<Table>(prototype)));
  }

  void write(const typename Table::row& r) {
    char* p = lines_.reserve(per_row_bound_ ? csv_row_bound<Table>(r) : bound_);
    lines_.commit(format_csv_row<Table>(p, r));
    ++rows_;
  }

  void flush() { lines_.flush(); }
  [[nodiscard]] std::uint64_t rows() const noexcept { return rows_; }

 private:
  itch5::io::line_writer lines_;
  std::size_t bound_;
  bool per_row_bound_;  // text columns: each row's bound from its own text
  std::uint64_t rows_ = 0;
};

}  // namespace itch5::tables
