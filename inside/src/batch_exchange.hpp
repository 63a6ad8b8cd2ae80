// The hand-over of batches in the sharded run (run_sharded.hpp) between the reading thread, which is book
// thread 0, and book threads 1..N-1: one atomic count of batches published (its top bit: no more will
// come), one count of batches handled per book thread, C++20 wait/notify on both, once per batch. A book
// thread's exception stops it and is rethrown to the reading thread by wait_handled(). The destructor
// stops and joins the book threads however the run is left, so declare the exchange after everything its
// work touches.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <thread>
#include <vector>

namespace itch5::inside {

class batch_exchange {
 public:
  explicit batch_exchange(unsigned threads) : failures_(threads) {
    for (unsigned s = 0; s < threads; ++s) done_.push_back(std::make_unique<std::atomic<std::uint64_t>>(0));
  }
  batch_exchange(const batch_exchange&) = delete;
  batch_exchange& operator=(const batch_exchange&) = delete;
  ~batch_exchange() {
    published_.fetch_or(no_more);
    published_.notify_all();
    for (auto& t : threads_) t.join();
  }

  /// Starts book threads 1..N-1; thread s calls work(s, k) for each batch k published, in order.
  template <class Work>
  void start(Work work) {
    for (unsigned s = 1; s < done_.size(); ++s) {
      threads_.emplace_back([this, s, work] {
        try {
          for (std::uint64_t k = 0;; ++k) {
            if (!wait_published(k)) return;
            work(s, k);
            done_[s]->store(k + 1, std::memory_order_release);
            done_[s]->notify_one();
          }
        } catch (...) {
          failures_[s] = std::current_exception();
          done_[s]->store(~std::uint64_t{0}, std::memory_order_release);  // never wait for this thread again
          done_[s]->notify_one();
        }
      });
    }
  }

  /// Reading thread: batches 0..count-1 are ready for the book threads.
  void publish(std::uint64_t count) {
    published_.store(count, std::memory_order_release);
    published_.notify_all();
  }

  /// Reading thread: book thread 0 (the reading thread itself) has handled batches 0..count-1.
  void handled_by_reader(std::uint64_t count) noexcept { done_[0]->store(count, std::memory_order_relaxed); }

  /// Reading thread: waits until every book thread has handled batch k; rethrows a book thread's exception.
  void wait_handled(std::uint64_t k) {
    for (unsigned s = 0; s < done_.size(); ++s) {
      std::uint64_t d = done_[s]->load(std::memory_order_acquire);
      while (d <= k) {
        done_[s]->wait(d, std::memory_order_acquire);
        d = done_[s]->load(std::memory_order_acquire);
      }
      if (failures_[s]) std::rethrow_exception(failures_[s]);
    }
  }

 private:
  static constexpr std::uint64_t no_more = std::uint64_t{1} << 63;

  // Book thread: waits until batch k is published; false when no more will come.
  bool wait_published(std::uint64_t k) {
    std::uint64_t p = published_.load(std::memory_order_acquire);
    while ((p & ~no_more) <= k) {
      if ((p & no_more) != 0) return false;
      published_.wait(p, std::memory_order_acquire);
      p = published_.load(std::memory_order_acquire);
    }
    return true;
  }

  std::atomic<std::uint64_t> published_{0};
  std::vector<std::unique_ptr<std::atomic<std::uint64_t>>> done_;  // batches handled, per book thread
  std::vector<std::exception_ptr> failures_;  // per book thread; read after its done count says so
  std::vector<std::thread> threads_;
};

}  // namespace itch5::inside
