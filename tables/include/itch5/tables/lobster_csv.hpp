// The CSV form of LOBSTER's files (lobster_table.hpp): no header line, and a timestamp written as seconds
// after midnight with nine decimals (34200.000241945) instead of nanoseconds; every other value as in
// csv_row.hpp (integers in decimal). A variant of csv_table_sink for those two tables:
//
//   itch5::tables::lobster_csv_sink<lobster_message_table> messages(message_file);
//   sink.write(rows); ... sink.finish();   // flushes; the caller commits the file
//
// O(columns) per row, no allocation per row; an orderbook row formats only the levels that differ from the
// row before (a symbol's consecutive rows differ in a level or two). Not thread-safe (one sink per file,
// used from one thread).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>

#include <itch5/io/line_writer.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/lobster_table.hpp>
#include <itch5/tables/table_sink.hpp>

namespace itch5::tables {

/// Writes `ns` nanoseconds as seconds with nine decimals ("34200.000241945") at `p`; returns the end.
inline char* format_lobster_time(char* p, std::int64_t ns) noexcept {
  if (ns < 0) {
    *p++ = '-';
    ns = -ns;
  }
  p = std::to_chars(p, p + 20, ns / 1'000'000'000).ptr;
  *p++ = '.';
  std::int64_t frac = ns % 1'000'000'000;
  for (int i = 8; i >= 0; --i) {
    p[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  return p + 9;
}

/// A visitor that writes one row's values in LOBSTER's form, separated by commas.
class lobster_csv_formatter {
 public:
  explicit lobster_csv_formatter(char* out) noexcept : p_(out) {}

  template <class T>
  void operator()(const field&, const T& v) noexcept {
    static_assert(std::is_same_v<T, itch5::timestamp> || std::is_integral_v<T>,
                  "LOBSTER's columns are times and integers");
    if (!first_) *p_++ = ',';
    first_ = false;
    if constexpr (std::is_same_v<T, itch5::timestamp>) {
      p_ = format_lobster_time(p_, static_cast<std::int64_t>(v.count()));
    } else {
      p_ = std::to_chars(p_, p_ + 20, v).ptr;
    }
  }

  /// Ends the line; returns the end of what was written.
  char* finish() noexcept {
    *p_++ = '\n';
    return p_;
  }

 private:
  char* p_;
  bool first_ = true;
};

/// Rows of a LOBSTER table as header-less CSV lines to an output file; finish() flushes them (the caller
/// commits the file). `prototype` gives the column count (the orderbook row's levels).
template <class Table>
class lobster_csv_sink final : public table_sink<Table> {
 public:
  explicit lobster_csv_sink(itch5::io::output_file& out, const typename Table::row& prototype = {})
      : lines_(out), bound_(csv_row_bound<Table>(prototype) + 2 + 88) {}

  void write(std::span<const typename Table::row> rows) override {
    for (const auto& r : rows) {
      char* p = lines_.reserve(bound_);
      if constexpr (std::is_same_v<Table, lobster_orderbook_table>) {
        lines_.commit(book_row(p, r));
      } else {
        lobster_csv_formatter f(p);
        Table::visit(f, r);
        lines_.commit(f.finish());
      }
    }
    rows_ += rows.size();
  }
  void finish() override { lines_.flush(); }
  [[nodiscard]] std::uint64_t rows() const noexcept { return rows_; }

 private:
  // An orderbook row: consecutive rows of a symbol differ in a level or two, so each level's text is kept
  // and formatted again only when the level changed (the same bytes as lobster_csv_formatter's).
  char* book_row(char* p, const lobster_orderbook_row& r) noexcept {
    for (unsigned i = 0; i < r.levels; ++i) {
      level_text& t = text_[i];
      if (!t.valid || !(r.level[i] == t.level)) {
        char* q = t.bytes;
        q = std::to_chars(q, q + 20, r.level[i].ask_price).ptr;
        *q++ = ',';
        q = std::to_chars(q, q + 20, r.level[i].ask_size).ptr;
        *q++ = ',';
        q = std::to_chars(q, q + 20, r.level[i].bid_price).ptr;
        *q++ = ',';
        q = std::to_chars(q, q + 20, r.level[i].bid_size).ptr;
        t.size = static_cast<std::uint8_t>(q - t.bytes);
        t.level = r.level[i];
        t.valid = true;
      }
      if (i > 0) *p++ = ',';
      std::memcpy(p, t.bytes, sizeof t.bytes);  // a fixed size: a few vector moves (the bound has room)
      p += t.size;
    }
    *p++ = '\n';
    return p;
  }

  struct level_text {
    lobster_level level;
    bool valid = false;
    std::uint8_t size = 0;
    char bytes[88];  // 4 fields of up to 20 characters and 3 commas
  };

  itch5::io::line_writer lines_;
  std::size_t bound_;
  std::uint64_t rows_ = 0;
  std::unique_ptr<level_text[]> text_ = std::is_same_v<Table, lobster_orderbook_table>
                                            ? std::make_unique<level_text[]>(lobster_max_levels)
                                            : nullptr;
};

}  // namespace itch5::tables
