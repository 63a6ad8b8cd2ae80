// A thread that writes tables for the books' thread: the run's row batches (row_batch, table_sink.hpp)
// hand each full batch to it and go on filling another buffer, and it calls the sinks' write() with the
// batches, one at a time, in the order they came.
//
//   itch5::tables::sink_thread writer;       // declared after the sinks, before the run
//   options.tables.writer = &writer;         // itch5inside's CSV tables: formatted and written here
//   run_inside(reader, options, ...);        // each batch's finish() waits for its own rows
//
// Why: a table's sink formats its rows and writes its file on the thread that calls it. The 10-level book
// is a ~300-byte CSV row per change of a symbol's top levels, several per inside change: on the 20 M-message
// day its formatting took 2.4 s of the books' thread (run: 5.2 s against 1.0 s for the inside file alone),
// with the second core idle. Through this thread the books' thread only fills rows.
//
// A sink called through the thread sees its batches in order, from this thread only, never two calls at
// once (one thread writes every sink): a sink that must be called on the books' thread (the Python
// package's) is not given one. The first exception a write() throws is kept, later batches are dropped
// (released unwritten), and each row batch rethrows it on the books' thread at its next hand-over or at its
// finish(). Cost: a mutex, and a futex wake when the thread sleeps, per batch (not per row).
//
// Thread safety: post() from one thread at a time (the books' thread); failure() from any.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace itch5::tables {

class sink_thread {
 public:
  /// What writes one buffer of rows (a row_batch): called on the thread.
  class batch_writer {
   public:
    virtual void write_buffer(std::size_t slot, std::size_t rows) = 0;

   protected:
    ~batch_writer() = default;
  };

  /// Starts the thread.
  sink_thread();
  /// Writes what was posted (unless a write failed), then ends the thread. The row batches that posted
  /// must still exist (a row_batch waits for its own writes when it is destroyed, so declare the thread
  /// before them).
  ~sink_thread();
  sink_thread(const sink_thread&) = delete;
  sink_thread& operator=(const sink_thread&) = delete;

  /// Queues the write of `rows` rows of `w`'s buffer `slot`. Once written (or dropped after a failure), the
  /// thread adds 1 to `released` (and wakes wait_released()).
  void post(batch_writer& w, std::size_t slot, std::size_t rows, std::atomic<std::uint64_t>& released);

  /// Waits until `released` (a post()'s counter) is at least `count`.
  void wait_released(const std::atomic<std::uint64_t>& released, std::uint64_t count);

  /// The first exception a write threw, or null.
  [[nodiscard]] std::exception_ptr failure() const noexcept {
    return failed_.load(std::memory_order_acquire) ? failure_ : nullptr;
  }

 private:
  struct entry {
    batch_writer* writer;
    std::size_t slot;
    std::size_t rows;
    std::atomic<std::uint64_t>* released;
  };

  void run();

  std::mutex mutex_;
  std::condition_variable wake_;      // the thread: a post, or the end
  std::condition_variable released_;  // wait_released(): a counter changed
  std::deque<entry> queue_;           // guarded by mutex_
  int waiting_ = 0;                   // threads in wait_released(); guarded by mutex_
  bool stop_ = false;                 // guarded by mutex_
  std::exception_ptr failure_;        // set once, by the thread, before failed_
  std::atomic<bool> failed_{false};
  std::thread thread_;  // last: starts once everything above is constructed
};

}  // namespace itch5::tables
