// The statistics of one book thread recorded on a thread of their own: the books' thread only stores each
// sample (24 bytes) in chunks of an io::chunk_ring and hands full chunks over; the sample thread feeds them,
// in order, to stats::feed_statistics and stats::depth_statistics. Stands in for those two in the outputs
// of one book thread (feed_output, depth_output: the same record() calls), as shard_samples does on a book
// thread of the sharded run.
//
//   stats::feed_statistics feed;                 // either may be null: its samples are then not made
//   stats::depth_statistics depth;
//   sample_thread samples(&feed, &depth);
//   samples.record(locate, ts, took);            // the books' thread: feed_output, depth_output
//   ...
//   samples.finish();                            // hands over the rest and waits; then read feed, depth
//
// Each table sees its samples in the order they were recorded, so the tables are those of recording on the
// books' thread (tests: SampleThread*). Why: on the 20 M-message day the statistics took ~40% of the
// books' thread (a dozen histogram and rate-window updates per event, per symbol and aggregate; docs/
// performance.md, "The whole job"); here they run beside it, on the core the books' thread does not use.
// One producer thread.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <thread>

#include <itch5/io/chunk_ring.hpp>
#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include <itch5/book/detail/prefetch.hpp>

namespace itch5::inside {

class sample_thread {
 public:
  /// Starts the thread; `feed` and `depth` (either may be null) are touched only by it until finish().
  sample_thread(stats::feed_statistics* feed, stats::depth_statistics* depth);
  sample_thread(const sample_thread&) = delete;
  sample_thread& operator=(const sample_thread&) = delete;
  ~sample_thread();

  /// feed_output's samples: stats::feed_statistics::record and record_latency.
  void record(std::uint16_t locate, std::chrono::nanoseconds ts, std::chrono::nanoseconds took) {
    next() = {ts.count(), took.count(), locate, sample::kind_type::feed};
  }
  void record_latency(std::uint16_t locate, std::chrono::nanoseconds latency) {
    next() = {0, latency.count(), locate, sample::kind_type::latency};
  }
  /// depth_output's samples: stats::depth_statistics::record.
  void record(std::uint16_t locate, std::uint32_t event_depth, std::uint32_t book_depth) {
    next() = {event_depth, book_depth, locate, sample::kind_type::depth};
  }

  /// Hands over the rest and waits for the thread to record it; then the tables hold every sample. Once;
  /// later calls do nothing.
  void finish();

  [[nodiscard]] stats::feed_statistics* feed() const noexcept { return feed_; }
  [[nodiscard]] stats::depth_statistics* depth() const noexcept { return depth_; }

 private:
  struct sample {
    enum class kind_type : std::uint8_t { feed, latency, depth };  // scoped: feed() and depth() are taken
    std::int64_t a;  // feed: the timestamp (ns); depth: the event depth
    std::int64_t b;  // feed: the processing time (ns); latency: the latency (ns); depth: the book depth
    std::uint16_t locate;
    kind_type kind;
  };
  static_assert(sizeof(sample) == 24);
  static constexpr std::size_t chunk_samples = 4096;  // 96 KB
  struct chunk {
    std::array<sample, chunk_samples> samples;
    std::size_t count;
    bool last;
  };
  // Chunks in flight: 512 Ki samples (12 MB), twice a statistics batch (stats::feed_statistics::
  // batch_samples), so that while the sample thread records a batch (~10 ms on the 20 M-message day) the
  // books' thread keeps storing samples rather than waiting for a free chunk. (With 16 chunks it waited:
  // --depth took 3.24 s where recording on the books' thread took 2.69 s.)
  static constexpr std::uint64_t ring = 128;

  sample& next() {
    if (used_ == chunk_samples) [[unlikely]]
      publish(false);
    sample* const samples = filling_->samples.data();
    if (used_ + 16 < chunk_samples) book::detail::prefetch_for_write(samples + used_ + 16);
    return samples[used_++];
  }

  // Hands the chunk being filled to the sample thread and takes the next (waiting while all chunks are in
  // the sample thread's hands).
  void publish(bool last);
  void consume();  // the sample thread

  stats::feed_statistics* feed_;
  stats::depth_statistics* depth_;
  io::chunk_ring<chunk, ring> chunks_;
  chunk* filling_;        // the chunk being filled (never stopped, so never null)
  std::size_t used_ = 0;  // samples in it
  std::thread thread_;    // last: starts once everything above is constructed
};

}  // namespace itch5::inside
