#include <itch5/tables/sink_thread.hpp>

namespace itch5::tables {

sink_thread::sink_thread() : thread_([this] { run(); }) {}

sink_thread::~sink_thread() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void sink_thread::post(batch_writer& w, std::size_t slot, std::size_t rows,
                       std::atomic<std::uint64_t>& released) {
  bool was_empty;
  {
    const std::lock_guard lock(mutex_);
    was_empty = queue_.empty();
    queue_.push_back({&w, slot, rows, &released});
  }
  if (was_empty) wake_.notify_one();  // the thread sleeps only on an empty queue
}

void sink_thread::wait_released(const std::atomic<std::uint64_t>& released, std::uint64_t count) {
  if (released.load(std::memory_order_acquire) >= count) return;
  std::unique_lock lock(mutex_);
  ++waiting_;
  released_.wait(lock, [&] { return released.load(std::memory_order_acquire) >= count; });
  --waiting_;
}

void sink_thread::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stop_, and nothing left
    const entry e = queue_.front();
    lock.unlock();
    if (!failed_.load(std::memory_order_relaxed)) {
      try {
        e.writer->write_buffer(e.slot, e.rows);
      } catch (...) {
        failure_ = std::current_exception();
        failed_.store(true, std::memory_order_release);
      }
    }
    lock.lock();
    // Under the mutex: a waiter sees the count change only once it cannot miss the wake-up, and a row
    // batch that saw its last count (and may then be destroyed) is not touched after.
    e.released->fetch_add(1, std::memory_order_release);
    queue_.pop_front();
    if (waiting_ > 0) released_.notify_all();
  }
}

}  // namespace itch5::tables
