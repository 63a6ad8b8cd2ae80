// chunk_ring on its own: a producer and a consumer thread on tiny rings (1, 2, 3 chunks, compile-time and
// run-time capacity, both wake-up policies) with random pauses on either side so that the ring runs full and
// empty, the consumer holding chunks as the block source does, stop() while the producer waits, and the
// wake-ups the batched policy promises. A lost wake-up would hang: a watchdog turns that into a failure.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include <itch5/io/chunk_ring.hpp>

namespace {

using itch5::io::chunk_ring;
using itch5::io::ring_wake;
using itch5::io::runtime_capacity;
using namespace std::chrono_literals;

// A chunk whose words all follow from its sequence number: a torn, stale or overwritten chunk shows.
struct item {
  std::uint64_t seq;
  std::uint64_t words[5];
  bool last;
};

void fill(item& c, std::uint64_t seq, bool last) {
  c.seq = seq;
  for (std::uint64_t i = 0; i < 5; ++i) c.words[i] = seq * 0x9e3779b97f4a7c15u + i;
  c.last = last;
}

bool intact(const item& c, std::uint64_t seq) {
  if (c.seq != seq) return false;
  for (std::uint64_t i = 0; i < 5; ++i) {
    if (c.words[i] != seq * 0x9e3779b97f4a7c15u + i) return false;
  }
  return true;
}

// Ends the process with a message if not dismissed within `limit`: a lost wake-up leaves both threads
// asleep for ever, and no other side could wake them.
class watchdog {
 public:
  explicit watchdog(std::chrono::seconds limit)
      : thread_([this, limit] {
          std::unique_lock lock(mutex_);
          if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            std::fprintf(stderr, "chunk_ring_test: no progress for %lld s (a lost wake-up?)\n",
                         static_cast<long long>(limit.count()));
            std::abort();
          }
        }) {}
  ~watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;  // last: starts once the above exist
};

// Random pauses for one side: none most of the time, a yield `percent` of the time, and one time in 64 of
// those a short sleep, long enough for the other side to fill or drain a tiny ring and go to sleep.
class jitter {
 public:
  jitter(std::uint64_t seed, unsigned percent) : rng_(seed), percent_(percent) {}
  void operator()() {
    if (percent_ == 0) return;
    const std::uint64_t r = rng_();
    if (r % 100 >= percent_) return;
    if ((r >> 32) % 64 == 0) {
      std::this_thread::sleep_for(20us);
    } else {
      std::this_thread::yield();
    }
  }

 private:
  std::mt19937_64 rng_;
  unsigned percent_;
};

constexpr std::uint64_t stress_items = 100'000;

// Streams `items` chunks through `ring`: the producer numbers them, the consumer checks each one's order
// and contents, and holds `hold` chunks besides the one it reads (releasing the oldest first), checking
// that the producer never writes into a held chunk.
template <class Ring>
void stream_through(Ring& ring, std::uint64_t items, unsigned hold, unsigned producer_pauses,
                    unsigned consumer_pauses, std::uint64_t seed) {
  watchdog dog(60s);
  std::atomic<bool> producer_stopped{false};
  std::thread producer([&] {
    jitter pause(seed, producer_pauses);
    for (std::uint64_t seq = 0; seq < items; ++seq) {
      pause();
      item* const c = ring.to_fill();
      if (c == nullptr) {  // never stopped: only a broken ring gets here
        producer_stopped.store(true);
        return;
      }
      const bool last = seq + 1 == items;
      fill(*c, seq, last);
      ring.publish(last);
    }
  });
  jitter pause(seed + 1, consumer_pauses);
  std::deque<std::pair<const item*, std::uint64_t>> held;
  std::uint64_t bad_order = 0, overwritten = 0, early_last = 0;
  for (std::uint64_t seq = 0; seq < items; ++seq) {
    if (held.size() > hold) {
      if (!intact(*held.front().first, held.front().second)) ++overwritten;
      held.pop_front();
      ring.release();
    }
    pause();
    const item& c = ring.to_read();
    if (!intact(c, seq)) ++bad_order;
    if (c.last != (seq + 1 == items)) ++early_last;
    for (const auto& [h, s] : held) {
      if (!intact(*h, s)) ++overwritten;
    }
    held.emplace_back(&c, seq);
  }
  for (; !held.empty(); held.pop_front()) ring.release();
  producer.join();
  EXPECT_FALSE(producer_stopped.load()) << "to_fill() gave nullptr on a ring never stopped";
  EXPECT_EQ(bad_order, 0u) << "chunks read out of order or torn";
  EXPECT_EQ(overwritten, 0u) << "the producer wrote into a chunk the consumer held";
  EXPECT_EQ(early_last, 0u);
}

// Each side pausing in turn, then both: the ring runs mostly full, mostly empty, then both.
template <class Ring>
void stress(Ring& ring, unsigned hold, std::uint64_t seed) {
  const std::uint64_t third = stress_items / 3;
  stream_through(ring, third, hold, 0, 10, seed);
  stream_through(ring, third, hold, 10, 0, seed + 10);
  stream_through(ring, third, hold, 5, 5, seed + 20);
}

TEST(ChunkRing, CompileTimeCapacities) {
  {
    chunk_ring<item, 1> ring;
    stress(ring, 0, 1);
  }
  {
    chunk_ring<item, 2> ring;
    stress(ring, 0, 2);
  }
  {
    chunk_ring<item, 3> ring;
    stress(ring, 0, 3);
  }
  {
    chunk_ring<item, 16> ring;
    stress(ring, 0, 4);
  }
}

TEST(ChunkRing, RuntimeCapacities) {
  for (std::uint64_t capacity : {1u, 2u, 3u, 6u}) {
    SCOPED_TRACE(capacity);
    chunk_ring<item> ring(capacity);
    EXPECT_EQ(ring.capacity(), capacity);
    stress(ring, 0, 10 + capacity);
  }
}

TEST(ChunkRing, WakeUpPerChunk) {
  for (std::uint64_t capacity : {1u, 2u, 3u}) {
    SCOPED_TRACE(capacity);
    chunk_ring<item, runtime_capacity, ring_wake::each_chunk> ring(capacity);
    stress(ring, 0, 20 + capacity);
  }
  chunk_ring<item, 2, ring_wake::each_chunk> ring;
  stress(ring, 0, 30);
}

// The block source's use: the consumer keeps block k while it reads block k + 1. Also with batched
// wake-ups, where holding one chunk is documented to be safe on any capacity.
TEST(ChunkRing, ConsumerHoldingAChunk) {
  for (std::uint64_t capacity : {2u, 3u, 6u}) {
    SCOPED_TRACE(capacity);
    chunk_ring<item, runtime_capacity, ring_wake::each_chunk> per_chunk(capacity);
    stress(per_chunk, 1, 40 + capacity);
    chunk_ring<item> batched(capacity);
    stress(batched, 1, 50 + capacity);
  }
  chunk_ring<item, 4, ring_wake::each_chunk> two_held;
  stress(two_held, 2, 60);
}

TEST(ChunkRing, ZeroCapacityIsRejected) { EXPECT_THROW(chunk_ring<item>(0), std::invalid_argument); }

// On one thread, without waiting: the producer gets the chunks in ring order, the consumer reads them in
// publication order, and chunks() covers the ring.
TEST(ChunkRing, ChunksGoRoundInOrder) {
  chunk_ring<item> ring(3);
  ASSERT_EQ(ring.chunks().size(), 3u);
  for (std::uint64_t seq = 0; seq < 10; ++seq) {
    item* const c = ring.to_fill();
    ASSERT_EQ(c, &ring.chunks()[seq % 3]);
    fill(*c, seq, false);
    ring.publish(false);
    if (seq % 2 == 1) {  // two published, two read
      EXPECT_TRUE(intact(ring.to_read(), seq - 1));
      EXPECT_TRUE(intact(ring.to_read(), seq));
      ring.release();
      ring.release();
    }
  }
  chunk_ring<item, 4> fixed;
  EXPECT_EQ(fixed.capacity(), 4u);
  EXPECT_EQ(fixed.chunks().size(), 4u);
}

// A producer waiting on a full ring (nothing read) wakes when the consumer stops the ring, and to_fill()
// gives nullptr; it gives nullptr at once after stop() even with room.
template <class Ring>
void stop_wakes_a_waiting_producer(Ring& ring) {
  watchdog dog(60s);
  std::atomic<std::uint64_t> published{0};
  std::atomic<bool> returned{false};
  std::thread producer([&] {
    for (std::uint64_t seq = 0;; ++seq) {
      item* const c = ring.to_fill();
      if (c == nullptr) break;
      fill(*c, seq, false);
      ring.publish(false);
      published.fetch_add(1);
    }
    returned.store(true);
  });
  while (published.load() < ring.capacity()) std::this_thread::sleep_for(1ms);
  std::this_thread::sleep_for(50ms);  // the producer is now asleep in to_fill()
  EXPECT_FALSE(returned.load()) << "to_fill() did not wait on a full ring";
  EXPECT_EQ(published.load(), ring.capacity());
  ring.stop();
  producer.join();
  EXPECT_TRUE(returned.load());
  EXPECT_EQ(published.load(), ring.capacity());
}

TEST(ChunkRing, StopWakesAProducerWaitingOnAFullRing) {
  {
    chunk_ring<item, 1> ring;
    stop_wakes_a_waiting_producer(ring);
  }
  {
    chunk_ring<item, 3> ring;
    stop_wakes_a_waiting_producer(ring);
  }
  {
    chunk_ring<item, runtime_capacity, ring_wake::each_chunk> ring(3);
    stop_wakes_a_waiting_producer(ring);
  }
}

TEST(ChunkRing, StopMakesToFillGiveNullEvenWithRoom) {
  chunk_ring<item> ring(4);
  item* const c = ring.to_fill();
  ASSERT_NE(c, nullptr);
  fill(*c, 0, false);
  ring.publish(false);
  ring.stop();
  EXPECT_EQ(ring.to_fill(), nullptr);
  EXPECT_TRUE(intact(ring.to_read(), 0));  // what was published is still there to read
}

// A consumer asleep in to_read() must get the chunks published while it sleeps, within `limit`. If it does
// not, the test fails and then publishes until the ring is full, which wakes it under any policy.
template <class Ring>
void consumer_gets(Ring& ring, std::uint64_t count, bool last, const char* what) {
  watchdog dog(60s);
  std::atomic<std::uint64_t> got{0};
  std::thread consumer([&] {
    for (std::uint64_t seq = 0; seq < count; ++seq) {
      if (intact(ring.to_read(), seq)) got.fetch_add(1);
      ring.release();
    }
  });
  std::this_thread::sleep_for(50ms);  // the consumer is now asleep in to_read()
  for (std::uint64_t seq = 0; seq < count; ++seq) {
    item* const c = ring.to_fill();  // never null: the ring is not stopped
    fill(*c, seq, last && seq + 1 == count);
    ring.publish(last && seq + 1 == count);
  }
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (got.load() < count && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(got.load(), count) << what;
  for (std::uint64_t seq = count; got.load() < count && seq < ring.capacity(); ++seq) {  // the rescue
    fill(*ring.to_fill(), seq, false);
    ring.publish(false);
  }
  consumer.join();
}

TEST(ChunkRing, LastChunkWakesAConsumerBelowTheHalfWayMark) {
  chunk_ring<item, 8> ring;  // half: 4
  consumer_gets(ring, 3, true, "3 chunks, the last marked, did not wake the consumer");
  chunk_ring<item, 8> one;
  consumer_gets(one, 1, true, "a single last chunk did not wake the consumer");
}

TEST(ChunkRing, HalfTheRingWakesABatchedConsumer) {
  chunk_ring<item, 8> ring;
  consumer_gets(ring, 4, false, "half the ring waiting did not wake the consumer");
}

TEST(ChunkRing, EachChunkWakesAPerChunkConsumer) {
  chunk_ring<item, 8, ring_wake::each_chunk> ring;
  consumer_gets(ring, 1, false, "one chunk did not wake a per-chunk consumer");
}

}  // namespace
