// itch5::io::chunk_ring: a single-producer, single-consumer ring of chunks between two threads.
//
//   itch5::io::chunk_ring<my_chunk, 8> ring;
//   // producer thread                          // consumer thread
//   my_chunk* c = ring.to_fill();               const my_chunk& c = ring.to_read();
//   ... fill *c ...                             ... use c ...
//   ring.publish(/*last=*/false);               ring.release();
//
// Used by itch5inside's line thread and decode thread. Wake-ups are batched (see the class comment), so the
// hand-off costs no system call per chunk while both sides keep up.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace itch5::io {

// A single-producer, single-consumer ring of `Ring` chunks between two threads (itch5inside's
// line_thread and decode_thread):
// the producer fills the chunk to_fill() gives and publishes it, the consumer takes chunks in order with
// to_read() and hands each back with release(). Each side sleeps only when it must (the producer on a full
// ring, the consumer on an empty one) and is woken in batches, not per chunk: the consumer once half the
// ring waits (or the last chunk comes), the producer once half the ring is free. Woken for every chunk,
// the line thread cost the books' thread a futex call per 2,048 lines (~3,800 on the 20 M day), ~3% of its
// time. Neither wake-up is missed: a side waits on the value it last saw, so a change before it sleeps
// wakes it at once, and a sleeping side's partner reaches the half-way mark before it can wait itself.
// Chunks are not initialised (the producer writes what it publishes): the ring's pages are touched as used,
// not zeroed per run (short runs, such as fuzz_inside's, would spend most of their time faulting them in).
template <class Chunk, std::uint64_t Ring>
class chunk_ring {
 public:
  static constexpr std::uint64_t half = Ring / 2;

  chunk_ring() : chunks_(std::make_unique_for_overwrite<Chunk[]>(Ring)) {}

  /// Producer: the chunk to fill next, waiting while every chunk is in the consumer's hands; nullptr once
  /// stop() was called.
  Chunk* to_fill() {
    for (std::uint64_t t = tail_.load(std::memory_order_acquire); head_ - t >= Ring && !stopped();
         t = tail_.load(std::memory_order_acquire)) {
      tail_.wait(t, std::memory_order_acquire);
    }
    return stopped() ? nullptr : &chunks_[head_ % Ring];
  }

  /// Producer: hands over the chunk to_fill() gave; `last` wakes the consumer whatever waits.
  void publish(bool last) {
    head_shared_.store(++head_, std::memory_order_release);
    // A stale tail only overstates what waits, so it never keeps the consumer asleep.
    if (last || head_ - tail_.load(std::memory_order_acquire) >= half) head_shared_.notify_one();
  }

  /// Consumer: the next published chunk, waiting for one.
  const Chunk& to_read() {
    for (std::uint64_t h = head_shared_.load(std::memory_order_acquire); h == taken_;
         h = head_shared_.load(std::memory_order_acquire)) {
      head_shared_.wait(h, std::memory_order_acquire);
    }
    return chunks_[taken_ % Ring];
  }

  /// Consumer: hands the chunk to_read() gave back.
  void release() {
    tail_.store(++taken_, std::memory_order_release);
    // A stale head only understates what waits, so it never keeps the producer asleep.
    if (head_shared_.load(std::memory_order_acquire) - taken_ <= Ring - half) tail_.notify_one();
  }

  /// Consumer: makes the producer's to_fill() return nullptr from now on, waking it if it waits.
  void stop() {
    stop_.store(true, std::memory_order_release);
    tail_.fetch_add(Ring, std::memory_order_release);  // a changed value wakes a waiting producer
    tail_.notify_one();
  }

 private:
  bool stopped() const noexcept { return stop_.load(std::memory_order_acquire); }

  std::unique_ptr<Chunk[]> chunks_;
  std::uint64_t head_ = 0;                     // chunks published (producer's copy)
  std::uint64_t taken_ = 0;                    // chunks released (consumer's copy)
  std::atomic<std::uint64_t> head_shared_{0};  // chunks published
  std::atomic<std::uint64_t> tail_{0};         // chunks released
  std::atomic<bool> stop_{false};
};

}  // namespace itch5::io
