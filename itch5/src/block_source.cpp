#include <itch5/block_source.hpp>

#include <atomic>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

namespace itch5 {
namespace {

// One block's storage: headroom bytes, then block_size bytes, 64-byte aligned.
class block_buffer {
 public:
  explicit block_buffer(std::size_t block_size)
      : size_(block_source::headroom + block_size),
        data_(static_cast<std::byte*>(::operator new(size_, std::align_val_t{64}))) {}
  ~block_buffer() { ::operator delete(data_, std::align_val_t{64}); }
  block_buffer(block_buffer&& o) noexcept : size_(o.size_), data_(std::exchange(o.data_, nullptr)) {}
  block_buffer(const block_buffer&) = delete;
  block_buffer& operator=(const block_buffer&) = delete;
  block_buffer& operator=(block_buffer&&) = delete;

  [[nodiscard]] std::byte* payload() const noexcept { return data_ + block_source::headroom; }

 private:
  std::size_t size_;
  std::byte* data_;
};

// Reads from `stream` until `n` bytes or the end of the input. An exception after some bytes is kept in
// `deferred` and the bytes are returned; an exception with no bytes propagates.
std::size_t fill(byte_stream& stream, std::byte* dst, std::size_t n, std::exception_ptr& deferred) {
  std::size_t got = 0;
  try {
    while (got < n) {
      std::size_t r = stream.read(dst + got, n - got);
      if (r == 0) break;
      got += r;
    }
  } catch (...) {
    if (got == 0) throw;
    deferred = std::current_exception();
  }
  return got;
}

// Reads on the caller's thread, alternating two buffers so the previous block stays valid.
class sync_block_source final : public block_source {
 public:
  sync_block_source(std::unique_ptr<byte_stream> stream, std::size_t block_size)
      : stream_(std::move(stream)), block_size_(block_size) {
    buffers_.emplace_back(block_size);
    buffers_.emplace_back(block_size);
  }

  std::span<std::byte> next_block() override {
    if (deferred_) std::rethrow_exception(std::exchange(deferred_, nullptr));
    if (ended_) return {};
    current_ ^= 1;
    std::byte* dst = buffers_[current_].payload();
    std::size_t n = fill(*stream_, dst, block_size_, deferred_);
    if (n == 0) ended_ = true;
    consumed_ = stream_->consumed();
    return {dst, n};
  }

  [[nodiscard]] std::uint64_t consumed() const noexcept override { return consumed_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return stream_->total(); }

 private:
  std::unique_ptr<byte_stream> stream_;
  std::size_t block_size_;
  std::vector<block_buffer> buffers_;
  unsigned current_ = 1;
  bool ended_ = false;
  std::uint64_t consumed_ = 0;
  std::exception_ptr deferred_;
};

// A producer thread fills a ring of slots; the consumer takes them in order. Block k is released to the
// producer when the consumer asks for block k + 2, so the previous block stays valid for the carry copy.
class threaded_block_source final : public block_source {
 public:
  threaded_block_source(std::unique_ptr<byte_stream> stream, std::size_t block_size, std::size_t slots)
      : stream_(std::move(stream)), block_size_(block_size), slots_(slots) {
    if (slots_.size() < 3) throw std::invalid_argument("threaded block source needs at least 3 slots");
    for (auto& s : slots_) s.buffer = std::make_unique<block_buffer>(block_size);
    total_ = stream_->total();
    producer_ = std::thread([this] { produce(); });
  }

  ~threaded_block_source() override {
    stop_.store(true, std::memory_order_release);
    released_.fetch_add(slots_.size(), std::memory_order_release);  // unblock a producer waiting for room
    released_.notify_one();
    producer_.join();
  }

  threaded_block_source(const threaded_block_source&) = delete;
  threaded_block_source& operator=(const threaded_block_source&) = delete;

  std::span<std::byte> next_block() override {
    if (ended_) return {};
    if (taken_ >= 2) {  // release block taken_ - 2
      released_.fetch_add(1, std::memory_order_release);
      released_.notify_one();
    }
    std::uint64_t want = taken_ + 1;
    for (std::uint64_t f = filled_.load(std::memory_order_acquire); f < want;
         f = filled_.load(std::memory_order_acquire)) {
      filled_.wait(f, std::memory_order_acquire);
    }
    slot& s = slots_[taken_ % slots_.size()];
    ++taken_;
    consumed_.store(s.consumed, std::memory_order_relaxed);
    if (s.error) {
      ended_ = true;
      std::rethrow_exception(s.error);
    }
    if (s.size == 0) ended_ = true;
    return {s.buffer->payload(), s.size};
  }

  [[nodiscard]] std::uint64_t consumed() const noexcept override {
    return consumed_.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint64_t total() const noexcept override { return total_; }

 private:
  struct slot {
    std::unique_ptr<block_buffer> buffer;
    std::size_t size = 0;
    std::uint64_t consumed = 0;
    std::exception_ptr error;  // set instead of data: the consumer rethrows it
  };

  void produce() {
    std::exception_ptr deferred;
    for (std::uint64_t k = 0;; ++k) {
      // Wait for room: the consumer must have released block k - slots.
      for (std::uint64_t r = released_.load(std::memory_order_acquire); k >= r + slots_.size();
           r = released_.load(std::memory_order_acquire)) {
        if (stop_.load(std::memory_order_acquire)) return;
        released_.wait(r, std::memory_order_acquire);
      }
      if (stop_.load(std::memory_order_acquire)) return;
      slot& s = slots_[k % slots_.size()];
      s.error = nullptr;
      s.size = 0;
      bool last = false;
      if (deferred) {
        s.error = std::exchange(deferred, nullptr);
        last = true;
      } else {
        try {
          s.size = fill(*stream_, s.buffer->payload(), block_size_, deferred);
          last = s.size == 0;
        } catch (...) {
          s.error = std::current_exception();
          last = true;
        }
      }
      s.consumed = stream_->consumed();
      filled_.fetch_add(1, std::memory_order_release);
      filled_.notify_one();
      if (last) return;
    }
  }

  std::unique_ptr<byte_stream> stream_;
  std::size_t block_size_;
  std::vector<slot> slots_;
  std::uint64_t total_ = 0;
  std::thread producer_;
  std::atomic<std::uint64_t> filled_{0};    // blocks published by the producer
  std::atomic<std::uint64_t> released_{0};  // blocks handed back by the consumer
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> consumed_{0};
  std::uint64_t taken_ = 0;  // consumer side only
  bool ended_ = false;       // consumer side only
};

}  // namespace

std::unique_ptr<block_source> make_block_source(std::unique_ptr<byte_stream> stream,
                                                const block_options& options) {
  if (options.block_size == 0) throw std::invalid_argument("block size must be positive");
  if (options.threaded) {
    return std::make_unique<threaded_block_source>(std::move(stream), options.block_size, options.slots);
  }
  return std::make_unique<sync_block_source>(std::move(stream), options.block_size);
}

}  // namespace itch5
