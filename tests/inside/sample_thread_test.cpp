// inside/src/sample_thread: samples recorded through the statistics' own thread give the tables that
// recording them directly gives (every chunk boundary and ring wrap crossed, feed samples, latencies and
// depth samples interleaved), with one table or both, and nothing recorded at all.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>

#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include "sample_thread.hpp"

namespace {

using itch5::inside::sample_thread;
using itch5::stats::depth_statistics;
using itch5::stats::feed_statistics;
using std::chrono::nanoseconds;

std::string name_of(std::uint16_t locate) { return "S" + std::to_string(locate); }

// Feeds the same pseudo-random samples to `through` (a sample_thread) and to the two direct tables.
template <class Through>
void record_day(Through& through, feed_statistics* feed, depth_statistics* depth, std::size_t n,
                std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::int64_t ts = 34'200'000'000'000;
  for (std::size_t i = 0; i < n; ++i) {
    const auto locate = static_cast<std::uint16_t>(1 + rng() % 700);
    ts += static_cast<std::int64_t>(rng() % 3000);  // several events per microsecond at times
    if (feed != nullptr) {
      const nanoseconds took(20 + rng() % 5000);
      through.record(locate, nanoseconds(ts), took);
      feed->record(locate, nanoseconds(ts), took);
      if (rng() % 4 == 0) {
        const nanoseconds latency(static_cast<std::int64_t>(rng() % 100'000) - 50);
        through.record_latency(locate, latency);
        feed->record_latency(locate, latency);
      }
    }
    if (depth != nullptr) {
      const auto event_depth = static_cast<std::uint32_t>(rng() % 40);
      const auto book_depth = static_cast<std::uint32_t>(rng() % 300);
      through.record(locate, event_depth, book_depth);
      depth->record(locate, event_depth, book_depth);
    }
  }
}

// Lets record_day drive one sample_thread while it also records directly.
struct both {
  sample_thread& samples;
  void record(std::uint16_t l, nanoseconds ts, nanoseconds took) { samples.record(l, ts, took); }
  void record_latency(std::uint16_t l, nanoseconds v) { samples.record_latency(l, v); }
  void record(std::uint16_t l, std::uint32_t e, std::uint32_t b) { samples.record(l, e, b); }
};

TEST(SampleThread, GivesTheTablesOfRecordingDirectly) {
  // 300 k events: ~2.3 samples each, far more than the ring holds (16 chunks of 4,096).
  feed_statistics feed_threaded, feed_direct;
  depth_statistics depth_threaded, depth_direct;
  {
    sample_thread samples(&feed_threaded, &depth_threaded);
    both through{samples};
    record_day(through, &feed_direct, &depth_direct, 300'000, 7);
    samples.finish();
    samples.finish();  // once is enough; again does nothing
  }
  const auto feed = feed_threaded.finish(name_of);
  EXPECT_EQ(feed, feed_direct.finish(name_of));
  EXPECT_TRUE(feed.latency);
  EXPECT_EQ(feed.aggregate.samples, 300'000u);
  const auto depth = depth_threaded.table(name_of);
  EXPECT_EQ(depth, depth_direct.table(name_of));
  EXPECT_EQ(depth.aggregate.event.count(), 300'000u);
}

TEST(SampleThread, OneTableAlone) {
  feed_statistics feed_threaded, feed_direct;
  {
    sample_thread samples(&feed_threaded, nullptr);
    both through{samples};
    record_day(through, &feed_direct, nullptr, 70'000, 8);
  }  // the destructor hands over the rest and waits
  EXPECT_EQ(feed_threaded.finish(name_of), feed_direct.finish(name_of));

  depth_statistics depth_threaded, depth_direct;
  {
    sample_thread samples(nullptr, &depth_threaded);
    both through{samples};
    record_day(through, nullptr, &depth_direct, 70'000, 9);
    samples.finish();
  }
  EXPECT_EQ(depth_threaded.table(name_of), depth_direct.table(name_of));
}

TEST(SampleThread, NothingRecorded) {
  feed_statistics feed;
  depth_statistics depth;
  sample_thread samples(&feed, &depth);
  samples.finish();
  EXPECT_EQ(feed.total_samples(), 0u);
  EXPECT_TRUE(depth.table(name_of).symbols.empty());
}

}  // namespace
