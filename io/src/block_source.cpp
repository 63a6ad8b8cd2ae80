#include <itch5/io/block_source.hpp>

#include <atomic>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <itch5/io/chunk_ring.hpp>

namespace itch5::io {
namespace {

// One block's storage: headroom bytes, then block_size bytes, 64-byte aligned.
class block_buffer {
 public:
  explicit block_buffer(std::size_t block_size)
      : size_(block_source::headroom + block_size),
        data_(static_cast<std::byte*>(::operator new (size_, std::align_val_t{64}))) {}
  ~block_buffer() { ::operator delete (data_, std::align_val_t{64}); }
  block_buffer(block_buffer&& o) noexcept : size_(o.size_), data_(std::exchange(o.data_, nullptr)) {}
  block_buffer(const block_buffer&) = delete;
  block_buffer& operator=(const block_buffer&) = delete;
  block_buffer& operator=(block_buffer&&) = delete;

  [[nodiscard]] std::byte* payload() const noexcept { return data_ + block_source::headroom; }

 private:
  std::size_t size_;
  std::byte* data_;
};

// Reads from `stream` until `n` bytes, the end of the input, or a short read (a pipe with nothing more
// for now: its bytes are handed on rather than waiting to fill the block). An exception after some bytes
// is kept in `deferred` and the bytes are returned; an exception with no bytes propagates.
std::size_t fill(byte_stream& stream, std::byte* dst, std::size_t n, std::exception_ptr& deferred) {
  std::size_t got = 0;
  try {
    while (got < n) {
      const std::size_t want = n - got;
      const std::size_t r = stream.read(dst + got, want);
      got += r;
      if (r < want) break;
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
  [[nodiscard]] bool compressed() const noexcept override { return stream_->compressed(); }

 private:
  std::unique_ptr<byte_stream> stream_;
  std::size_t block_size_;
  std::vector<block_buffer> buffers_;
  unsigned current_ = 1;
  bool ended_ = false;
  std::uint64_t consumed_ = 0;
  std::exception_ptr deferred_;
};

// One block of threaded_block_source's ring.
struct read_ahead_slot {
  std::unique_ptr<block_buffer> buffer;
  std::size_t size = 0;
  std::uint64_t consumed = 0;
  std::exception_ptr error;  // set instead of data: the consumer rethrows it
};

// What threaded_block_source's producer thread shares with the consumer: the stream it reads, the ring it
// fills, and whether it has returned.
struct read_ahead {
  read_ahead(std::unique_ptr<byte_stream> s, std::size_t block, std::size_t slots)
      : stream(std::move(s)), block_size(block), borrowed(stream->borrows_memory()), ring(at_least_3(slots)) {
    for (read_ahead_slot& sl : ring.chunks()) sl.buffer = std::make_unique<block_buffer>(block_size);
  }

  static std::size_t at_least_3(std::size_t slots) {
    if (slots < 3) throw std::invalid_argument("threaded block source needs at least 3 slots");
    return slots;
  }

  void produce() {
    std::exception_ptr deferred;
    for (bool last = false; !last;) {
      // Waits while every slot is published or held by the consumer (it keeps the previous block).
      read_ahead_slot* const s = ring.to_fill();
      if (s == nullptr) return;  // stopped
      s->error = nullptr;
      s->size = 0;
      if (deferred) {
        s->error = std::exchange(deferred, nullptr);
        last = true;
      } else {
        try {
          s->size = fill(*stream, s->buffer->payload(), block_size, deferred);
          last = s->size == 0;
        } catch (...) {
          s->error = std::current_exception();
          last = true;
        }
      }
      s->consumed = stream->consumed();
      ring.publish(last);
    }
  }

  // The producer thread's body: produce(), then says it has returned.
  void run() {
    produce();
    returned.store(true, std::memory_order_release);
    returned.notify_one();
  }

  std::unique_ptr<byte_stream> stream;
  std::size_t block_size;
  bool borrowed;  // stream->borrows_memory()
  chunk_ring<read_ahead_slot, runtime_capacity, ring_wake::each_chunk> ring;
  std::atomic<bool> returned{false};
};

// A producer thread fills a ring of blocks (a chunk_ring, woken per block); the consumer takes them in
// order. Block k is released to the producer when the consumer asks for block k + 2, so the previous block
// stays valid for the carry copy.
//
// The producer shares ownership of the ring and runs detached: a consumer that stops early (a reader
// destroyed before the end of its input) signals it and returns at once, even when the producer is blocked
// in a read() on a pipe that delivers nothing more; the producer exits when that read returns. But over
// memory the caller owns (byte_stream::borrows_memory), the consumer waits for the producer to return, so
// that no read copies from memory the caller frees next (ThreadSanitizer saw one in threads_test).
class threaded_block_source final : public block_source {
 public:
  threaded_block_source(std::unique_ptr<byte_stream> stream, std::size_t block_size, std::size_t slots)
      : ahead_(std::make_shared<read_ahead>(std::move(stream), block_size, slots)) {
    total_ = ahead_->stream->total();
    compressed_ = ahead_->stream->compressed();
    std::thread([a = ahead_] { a->run(); }).detach();
  }

  ~threaded_block_source() override {
    ahead_->ring.stop();
    if (ahead_->borrowed) ahead_->returned.wait(false, std::memory_order_acquire);
  }

  threaded_block_source(const threaded_block_source&) = delete;
  threaded_block_source& operator=(const threaded_block_source&) = delete;

  std::span<std::byte> next_block() override {
    if (ended_) return {};
    if (taken_ >= 2) ahead_->ring.release();  // block taken_ - 2
    const read_ahead_slot& s = ahead_->ring.to_read();
    ++taken_;
    consumed_ = s.consumed;
    if (s.error) {
      ended_ = true;
      std::rethrow_exception(s.error);
    }
    if (s.size == 0) ended_ = true;
    return {s.buffer->payload(), s.size};
  }

  [[nodiscard]] std::uint64_t consumed() const noexcept override { return consumed_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return total_; }
  [[nodiscard]] bool compressed() const noexcept override { return compressed_; }

 private:
  std::shared_ptr<read_ahead> ahead_;
  std::uint64_t total_ = 0;
  bool compressed_ = false;
  std::uint64_t consumed_ = 0;  // consumer side only
  std::uint64_t taken_ = 0;     // consumer side only
  bool ended_ = false;          // consumer side only
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

}  // namespace itch5::io
