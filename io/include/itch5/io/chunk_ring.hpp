// itch5::io::chunk_ring: a single-producer, single-consumer ring of chunks between two threads.
//
//   itch5::io::chunk_ring<my_chunk, 8> ring;    // or chunk_ring<my_chunk>(n): n chunks, chosen at run time
//   // producer thread                          // consumer thread
//   my_chunk* c = ring.to_fill();               const my_chunk& c = ring.to_read();
//   ... fill *c ...                             ... use c ...
//   ring.publish(/*last=*/false);               ring.release();
//
// The one hand-off between threads of the project: itch5inside's line thread and decode thread (batched
// wake-ups, so the hand-off costs no system call per chunk while both sides keep up) and the block
// source's read-ahead thread (a wake-up per block, and the consumer keeps the previous block while it reads
// the next). Each call is O(1); tests/io/chunk_ring_test.cpp runs it on tiny rings.
#pragma once

#include <atomic>
#include <concepts>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>

namespace itch5::io {

/// When a chunk_ring wakes a side that sleeps.
enum class ring_wake {
  /// Once half the ring waits to be read (or the last chunk comes), once half the ring is free: no system
  /// call per chunk while both sides keep up, at the cost of a consumer that may sleep while fewer than
  /// half the chunks wait (a producer that pauses between chunks delays its consumer).
  batched,
  /// At every publish() and every release(): the consumer sees each chunk as soon as it is published.
  each_chunk,
};

/// The `Ring` of a chunk_ring whose capacity is given to its constructor.
inline constexpr std::uint64_t runtime_capacity = 0;

// A single-producer, single-consumer ring of chunks between two threads: the producer fills the chunk
// to_fill() gives and publishes it; the consumer takes chunks in order with to_read() and hands each back
// with release(), oldest first. The consumer may take further chunks before releasing those it holds (the
// block source keeps block k valid until it takes block k + 2): to_read() and release() each move a cursor
// of their own, and a held chunk is never given to the producer. The capacity, `Ring` chunks, is a template
// argument (itch5inside's rings: a power of two, the index a mask) or, with runtime_capacity, a constructor
// argument (the block source's block_options::slots).
//
// Each side sleeps only when it must (the producer on a full ring, the consumer on an empty one). With
// ring_wake::batched it is woken in batches, not per chunk: the consumer once half the ring waits (or the
// last chunk comes), the producer once half the ring is free. Woken for every chunk, itch5inside's line
// thread cost the books' thread a futex call per 2,048 lines (~3,800 on the 20 M day), ~3% of its time.
// Neither wake-up is missed: a side waits on the value it last saw, so a change before it sleeps wakes it
// at once, and a sleeping side's partner reaches the half-way mark before it can wait itself. For the
// producer that needs the consumer to hold at most capacity - capacity / 2 chunks when it waits in
// to_read() (holding one, as the block source does, is always safe); ring_wake::each_chunk has no such
// limit. Chunks are not initialised (the producer writes what it publishes; chunks() sets up what must
// last, such as buffers): the ring's pages are touched as used, not zeroed per run (short runs, such as
// fuzz_inside's, would spend most of their time faulting them in).
//
// Thread safety: to_fill() and publish() on one thread, to_read(), release() and stop() on another;
// chunks() before either uses the ring.
template <std::default_initializable Chunk, std::uint64_t Ring = runtime_capacity,
          ring_wake Wake = ring_wake::batched>
class chunk_ring {
 public:
  chunk_ring() requires(Ring != runtime_capacity) : chunks_(std::make_unique_for_overwrite<Chunk[]>(Ring)) {}

  /// A ring of `capacity` chunks; throws std::invalid_argument when it is 0.
  explicit chunk_ring(std::uint64_t capacity) requires(Ring == runtime_capacity)
      : chunks_(std::make_unique_for_overwrite<Chunk[]>(checked(capacity))),
        capacity_(capacity),
        half_(capacity / 2) {}

  chunk_ring(const chunk_ring&) = delete;
  chunk_ring& operator=(const chunk_ring&) = delete;

  [[nodiscard]] std::uint64_t capacity() const noexcept {
    if constexpr (Ring != runtime_capacity) {
      return Ring;
    } else {
      return capacity_;
    }
  }

  /// Every chunk, to set up what outlives one pass through the ring (buffers) before either thread uses it.
  [[nodiscard]] std::span<Chunk> chunks() noexcept { return {chunks_.get(), capacity()}; }

  /// Producer: the chunk to fill next, waiting while every chunk is in the consumer's hands; nullptr once
  /// stop() was called.
  Chunk* to_fill() {
    for (std::uint64_t t = tail_.load(std::memory_order_acquire); head_ - t >= capacity() && !stopped();
         t = tail_.load(std::memory_order_acquire)) {
      tail_.wait(t, std::memory_order_acquire);
    }
    return stopped() ? nullptr : &chunks_[head_ % capacity()];
  }

  /// Producer: hands over the chunk to_fill() gave; `last` wakes the consumer whatever waits.
  void publish(bool last) {
    head_shared_.store(++head_, std::memory_order_release);
    // A stale tail only overstates what waits, so it never keeps the consumer asleep.
    if (Wake == ring_wake::each_chunk || last || head_ - tail_.load(std::memory_order_acquire) >= half()) {
      head_shared_.notify_one();
    }
  }

  /// Consumer: takes the next published chunk, waiting for one. It stays the consumer's (the producer does
  /// not touch it) until release() hands it back.
  const Chunk& to_read() {
    for (std::uint64_t h = head_shared_.load(std::memory_order_acquire); h == read_;
         h = head_shared_.load(std::memory_order_acquire)) {
      head_shared_.wait(h, std::memory_order_acquire);
    }
    return chunks_[read_++ % capacity()];
  }

  /// Consumer: hands back the oldest chunk to_read() took and release() has not handed back.
  void release() {
    tail_.store(++released_, std::memory_order_release);
    // A stale head only understates what waits, so it never keeps the producer asleep.
    if (Wake == ring_wake::each_chunk ||
        head_shared_.load(std::memory_order_acquire) - released_ <= capacity() - half()) {
      tail_.notify_one();
    }
  }

  /// Consumer: makes the producer's to_fill() return nullptr from now on, waking it if it waits.
  void stop() {
    stop_.store(true, std::memory_order_release);
    tail_.fetch_add(capacity(), std::memory_order_release);  // a changed value wakes a waiting producer
    tail_.notify_one();
  }

 private:
  static std::uint64_t checked(std::uint64_t capacity) {
    if (capacity == 0) throw std::invalid_argument("chunk_ring: the capacity must be positive");
    return capacity;
  }

  [[nodiscard]] std::uint64_t half() const noexcept {
    if constexpr (Ring != runtime_capacity) {
      return Ring / 2;
    } else {
      return half_;
    }
  }

  bool stopped() const noexcept { return stop_.load(std::memory_order_acquire); }

  std::unique_ptr<Chunk[]> chunks_;
  std::uint64_t capacity_ = Ring;              // chunks (runtime_capacity only; else Ring is used)
  std::uint64_t half_ = Ring / 2;              // capacity_ / 2 (likewise)
  std::uint64_t head_ = 0;                     // chunks published (producer's copy)
  std::uint64_t read_ = 0;                     // chunks taken by to_read() (consumer's)
  std::uint64_t released_ = 0;                 // chunks released (consumer's copy)
  std::atomic<std::uint64_t> head_shared_{0};  // chunks published
  std::atomic<std::uint64_t> tail_{0};         // chunks released
  std::atomic<bool> stop_{false};
};

}  // namespace itch5::io
