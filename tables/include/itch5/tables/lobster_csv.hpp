// The CSV form of LOBSTER's files (lobster_table.hpp): no header line, and a timestamp written as seconds
// after midnight with nine decimals (34200.000241945) instead of nanoseconds; every other value as in
// csv_row.hpp (integers in decimal). A variant of csv_table_sink for those two tables:
//
//   itch5::tables::lobster_csv_sink<lobster_message_table> messages(message_file);
//   sink.write(rows); ... sink.finish();   // flushes; the caller commits the file
//
// O(columns) per row, no allocation per row; an orderbook row formats only the levels that differ from the
// row before, in place or shifted one place (a symbol's consecutive rows differ in a level or two). Not
// thread-safe (one sink per file, used from one thread).
#pragma once

#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

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
      : lines_(out), bound_(csv_row_bound<Table>(prototype) + 2 + 48) {}

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
  // An orderbook row: a symbol's consecutive rows differ in a level or two, or by levels shifted one place
  // (a level that came or went above), so each side's levels keep their text from the row before, looked
  // up at the same place and the places beside it, and only a (price, size) not among them is formatted.
  // The same bytes as lobster_csv_formatter's.
  char* book_row(char* p, const lobster_orderbook_row& r) noexcept {
    const unsigned n = r.levels;
    std::swap(prev_, cur_);
    for (unsigned i = 0; i < n; ++i) {
      side_text(prev_[0], cur_[0], i, n, r.level[i].ask_price, r.level[i].ask_size);
      side_text(prev_[1], cur_[1], i, n, r.level[i].bid_price, r.level[i].bid_size);
      if (i > 0) *p++ = ',';
      const side_level& a = cur_[0][i];
      std::memcpy(p, a.bytes, sizeof a.bytes);  // a fixed size: a few vector moves (the bound has room)
      p += a.length;
      *p++ = ',';
      const side_level& b = cur_[1][i];
      std::memcpy(p, b.bytes, sizeof b.bytes);
      p += b.length;
    }
    *p++ = '\n';
    return p;
  }

  // One side's level `i` of the row: its text from the row before (places i, i - 1, i + 1) or formatted.
  struct side_level {
    std::int64_t price = 0;
    std::uint64_t size = 0;
    bool valid = false;
    std::uint8_t length = 0;
    char bytes[48] = {};  // "price,size": up to 20 + 1 + 20 characters
  };

  static void side_text(const std::unique_ptr<side_level[]>& before, std::unique_ptr<side_level[]>& now,
                        unsigned i, unsigned n, std::int64_t price, std::uint64_t size) noexcept {
    side_level& t = now[i];
    const auto same = [&](unsigned j) {
      const side_level& b = before[j];
      return b.valid && b.price == price && b.size == size;
    };
    if (same(i)) {
      t = before[i];
    } else if (i > 0 && same(i - 1)) {
      t = before[i - 1];
    } else if (i + 1 < n && same(i + 1)) {
      t = before[i + 1];
    } else {
      char* q = std::to_chars(t.bytes, t.bytes + 20, price).ptr;
      *q++ = ',';
      q = std::to_chars(q, q + 20, size).ptr;
      t.length = static_cast<std::uint8_t>(q - t.bytes);
      t.price = price;
      t.size = size;
      t.valid = true;
    }
  }

  itch5::io::line_writer lines_;
  std::size_t bound_;
  std::uint64_t rows_ = 0;
  // Per side (0 asks, 1 bids): the levels' text of the row before and of this one (orderbook rows only).
  std::array<std::unique_ptr<side_level[]>, 2> prev_ = make_sides(), cur_ = make_sides();

  static std::array<std::unique_ptr<side_level[]>, 2> make_sides() {
    if constexpr (!std::is_same_v<Table, lobster_orderbook_table>) return {};
    return {std::make_unique<side_level[]>(lobster_max_levels),
            std::make_unique<side_level[]>(lobster_max_levels)};
  }
};

}  // namespace itch5::tables
