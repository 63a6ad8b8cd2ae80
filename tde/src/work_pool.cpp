#include <itch5/tde/windows/work_pool.hpp>

#include <stdexcept>
#include <utility>

namespace itch5::tde {

work_pool::work_pool(std::size_t workers) {
  for (std::size_t w = 1; w < workers; ++w) threads_.emplace_back([this, w] { loop(w); });
}

work_pool::~work_pool() {
  if (pending_) (void)finish();  // the items may use what the caller destroys next
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : threads_) t.join();
}

void work_pool::work(std::size_t worker) {
  for (std::size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < items_;) {
    try {
      (*fn_)(worker, i);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
      next_.store(items_, std::memory_order_relaxed);  // hand out nothing more
    }
  }
}

void work_pool::loop(std::size_t worker) {
  std::uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work(worker);
    {
      std::lock_guard lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

void work_pool::launch(std::size_t items, const std::function<void(std::size_t, std::size_t)>& fn) {
  {
    std::lock_guard lock(mutex_);
    fn_ = &fn;
    items_ = items;
    next_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    busy_ = threads_.size();
    ++generation_;
  }
  start_.notify_all();
}

std::exception_ptr work_pool::finish() {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  fn_ = nullptr;
  pending_ = false;
  return std::exchange(error_, nullptr);
}

void work_pool::run(std::size_t items, const std::function<void(std::size_t, std::size_t)>& fn) {
  if (items == 0) return;
  if (threads_.empty() || items == 1) {
    for (std::size_t i = 0; i < items; ++i) fn(0, i);
    return;
  }
  launch(items, fn);
  work(0);
  if (std::exception_ptr error = finish()) std::rethrow_exception(error);
}

void work_pool::start(std::size_t items, std::function<void(std::size_t, std::size_t)> fn) {
  if (threads_.empty()) throw std::logic_error("work_pool::start: no thread besides the caller's");
  started_ = std::move(fn);
  pending_ = true;
  launch(items, started_);
}

void work_pool::wait() {
  if (!pending_) return;
  std::exception_ptr error = finish();
  started_ = nullptr;
  if (error) std::rethrow_exception(error);
}

}  // namespace itch5::tde
