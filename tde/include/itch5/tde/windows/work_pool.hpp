// work_pool: a fixed set of threads that run the items of a batch, each item on one of them, the calling
// thread included; for the delay estimates of itch5tde, where each item is an FFT cross-correlation
// (tens of microseconds to milliseconds), so one std::function call per item is negligible.
//
// run(items, fn) calls fn(worker, item) once for every item in [0, items), spread over the workers
// (worker 0 is the calling thread, 1 .. size()-1 the pool's threads; each worker runs one item at a time,
// so per-worker state indexed by `worker` needs no lock), and returns when all are done. Items are handed
// out in order from a shared counter: which worker runs which item varies, so fn must write its result
// where the caller reads it by item. The first exception thrown by fn is rethrown by run() once every
// started item has finished.
//
// start(items, fn) is the same on the pool's threads alone (workers 1 .. size()-1), returning at once so
// that the caller can do other work meanwhile; wait() blocks until those items are done and rethrows the
// first exception. One batch at a time: run() and start() require that no started batch is unfinished
// (call wait() first). Construction starts the threads; destruction waits for a started batch, then joins.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace itch5::tde {

class work_pool {
 public:
  /// `workers` >= 1: the calling thread plus workers - 1 threads (none for 1: run() is then a plain loop).
  explicit work_pool(std::size_t workers);
  work_pool(const work_pool&) = delete;
  work_pool& operator=(const work_pool&) = delete;
  ~work_pool();

  [[nodiscard]] std::size_t size() const noexcept { return threads_.size() + 1; }

  void run(std::size_t items, const std::function<void(std::size_t worker, std::size_t item)>& fn);

  /// Starts fn on the pool's threads and returns; requires size() >= 2. `fn` is kept until wait().
  void start(std::size_t items, std::function<void(std::size_t worker, std::size_t item)> fn);
  /// Waits for the batch of start() (returns at once without one) and rethrows its first exception.
  void wait();

 private:
  void loop(std::size_t worker);
  void work(std::size_t worker);
  void launch(std::size_t items, const std::function<void(std::size_t, std::size_t)>& fn);
  std::exception_ptr finish();

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::uint64_t generation_ = 0;
  bool stop_ = false;
  std::size_t busy_ = 0;  // pool threads still in the current generation
  const std::function<void(std::size_t, std::size_t)>* fn_ = nullptr;
  std::function<void(std::size_t, std::size_t)> started_;  // the function of start(), kept until wait()
  bool pending_ = false;                                   // a batch of start() not waited for
  std::size_t items_ = 0;
  std::atomic<std::size_t> next_{0};
  std::exception_ptr error_;
};

}  // namespace itch5::tde
