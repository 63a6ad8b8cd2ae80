// The CSV form of LOBSTER's files (lobster_table.hpp): no header line, and a timestamp written as seconds
// after midnight with nine decimals (34200.000241945) instead of nanoseconds; every other value as in
// csv_row.hpp (integers in decimal). A variant of csv_table_sink for those two tables:
//
//   itch5::tables::lobster_csv_sink<lobster_message_table> messages(message_file);
//   sink.write(rows); ... sink.finish();   // flushes; the caller commits the file
//
// O(columns) per row, no allocation per row. Not thread-safe (one sink per file, used from one thread).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include <itch5/io/line_writer.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/csv_row.hpp>
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
      : lines_(out), bound_(csv_row_bound<Table>(prototype) + 2) {}

  void write(std::span<const typename Table::row> rows) override {
    for (const auto& r : rows) {
      char* p = lines_.reserve(bound_);
      lobster_csv_formatter f(p);
      Table::visit(f, r);
      lines_.commit(f.finish());
    }
    rows_ += rows.size();
  }
  void finish() override { lines_.flush(); }
  [[nodiscard]] std::uint64_t rows() const noexcept { return rows_; }

 private:
  itch5::io::line_writer lines_;
  std::size_t bound_;
  std::uint64_t rows_ = 0;
};

}  // namespace itch5::tables
