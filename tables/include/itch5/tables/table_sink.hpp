// Where a table's rows go: a CSV file (csv_table_sink), the Python package's Arrow batches, a test's
// vector. The engine's outputs gather rows in batches and hand each batch over with one (virtual) call, so
// a sink costs nothing per row but its own work.
//
//   itch5::tables::csv_table_sink<trades_table> csv(out_file);
//   options.tables.trades = &csv;     // the run writes batches to it, then calls finish()
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>

#include <itch5/io/output_file.hpp>

#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/sink_thread.hpp>

namespace itch5::tables {

template <class Table>
class table_sink {
 public:
  using row = typename Table::row;
  virtual ~table_sink() = default;
  /// The next rows, in order. Called from the run's books' thread, or from its sink_thread if it has one
  /// (never two calls at once).
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
///
/// With a `writer` (sink_thread.hpp), the sink's write() runs on that thread: a full batch is handed to it
/// and the next rows go to another of `buffers` buffers (allocated at construction), waiting only while all
/// of them wait to be written. finish() waits for this batch's writes, then calls the sink's finish() on
/// the calling thread; a write's exception is rethrown by the next flush() or finish().
template <class Table>
class row_batch final : private sink_thread::batch_writer {
 public:
  using row = typename Table::row;
  static constexpr std::size_t buffers = 4;  // with a writer

  explicit row_batch(table_sink<Table>& sink, std::size_t capacity = 4096, sink_thread* writer = nullptr)
      : sink_(sink), writer_(writer), capacity_(capacity) {
    for (std::size_t i = 0; i < (writer ? buffers : 1); ++i) buffers_[i] = std::make_unique<row[]>(capacity);
    rows_ = buffers_[0].get();
  }
  row_batch(const row_batch&) = delete;
  row_batch& operator=(const row_batch&) = delete;
  /// Waits for the writes of this batch's buffers (however the run ended).
  ~row_batch() {
    if (writer_) writer_->wait_released(released_, published_);
  }

  /// The next row to fill in (a default row, or what the slot held last time: set every field).
  row& next() {
    if (size_ == capacity_) flush();
    return rows_[size_++];
  }
  /// The slot `k` rows after the next one, in the buffer being filled; nullptr past its end (a hint for
  /// prefetching the slots about to be written).
  [[nodiscard]] row* ahead(std::size_t k) const noexcept {
    return size_ + k < capacity_ ? rows_ + size_ + k : nullptr;
  }
  void flush() {
    if (size_ == 0) return;
    if (writer_ == nullptr) {
      sink_.write(std::span<const row>(rows_, size_));
      size_ = 0;
      return;
    }
    writer_->post(*this, published_ % buffers, size_, released_);
    ++published_;
    size_ = 0;
    // The next buffer is free once the post before the last `buffers - 1` is written.
    if (published_ >= buffers) writer_->wait_released(released_, published_ - (buffers - 1));
    rows_ = buffers_[published_ % buffers].get();
    rethrow();
  }
  /// Flushes and finishes the sink.
  void finish() {
    flush();
    if (writer_) {
      writer_->wait_released(released_, published_);
      rethrow();
    }
    sink_.finish();
  }

 private:
  void write_buffer(std::size_t slot, std::size_t rows) override {
    sink_.write(std::span<const row>(buffers_[slot].get(), rows));
  }
  void rethrow() const {
    if (const std::exception_ptr e = writer_->failure()) std::rethrow_exception(e);
  }

  table_sink<Table>& sink_;
  sink_thread* writer_;
  std::array<std::unique_ptr<row[]>, buffers> buffers_;  // one without a writer
  row* rows_;                                            // the buffer being filled
  std::size_t capacity_;
  std::size_t size_ = 0;
  std::uint64_t published_ = 0;             // buffers handed to the writer
  std::atomic<std::uint64_t> released_{0};  // of those, written (or dropped)
};

}  // namespace itch5::tables
