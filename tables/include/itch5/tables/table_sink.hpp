// Where a table's rows go: a CSV file (csv_table_sink), the Python package's Arrow batches, a test's
// vector. The engine's outputs gather rows in batches and hand each batch over with one (virtual) call, so
// a sink costs nothing per row but its own work.
//
//   itch5::tables::csv_table_sink<trades_table> csv(out_file);
//   options.tables.trades = &csv;     // the run writes batches to it, then calls finish()
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <itch5/io/output_file.hpp>

#include <itch5/tables/csv_row.hpp>

namespace itch5::tables {

template <class Table>
class table_sink {
 public:
  using row = typename Table::row;
  virtual ~table_sink() = default;
  /// The next rows, in order. Called from the run's books' thread.
  virtual void write(std::span<const row> rows) = 0;
  /// After the last rows (also after a run stopped by a read error or a cancel, with the rows made so far).
  virtual void finish() {}
};

/// Rows as CSV lines with a header (csv_row.hpp) to an output file; finish() flushes them (the caller
/// commits the file). `prototype` shapes the header for tables whose columns depend on options.
template <class Table>
class csv_table_sink final : public table_sink<Table> {
 public:
  explicit csv_table_sink(itch5::io::output_file& out, const typename Table::row& prototype = {})
      : csv_(out, prototype) {}
  void write(std::span<const typename Table::row> rows) override {
    for (const auto& r : rows) csv_.write(r);
  }
  void finish() override { csv_.flush(); }
  [[nodiscard]] std::uint64_t rows() const noexcept { return csv_.rows(); }

 private:
  csv_table_writer<Table> csv_;
};

/// Rows gathered for one call of a sink's write(): add() rows, and the batch goes out when full and at
/// flush(). One allocation, of `capacity` rows, at construction.
template <class Table>
class row_batch {
 public:
  using row = typename Table::row;
  explicit row_batch(table_sink<Table>& sink, std::size_t capacity = 4096)
      : sink_(sink), rows_(std::make_unique<row[]>(capacity)), capacity_(capacity) {}

  /// The next row to fill in (a default row, or what the slot held last time: set every field).
  row& next() {
    if (size_ == capacity_) flush();
    return rows_[size_++];
  }
  void flush() {
    if (size_ > 0) sink_.write(std::span<const row>(rows_.get(), size_));
    size_ = 0;
  }
  /// Flushes and finishes the sink.
  void finish() {
    flush();
    sink_.finish();
  }

 private:
  table_sink<Table>& sink_;
  std::unique_ptr<row[]> rows_;
  std::size_t capacity_;
  std::size_t size_ = 0;
};

}  // namespace itch5::tables
