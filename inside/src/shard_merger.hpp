// The merger of the sharded run (run_sharded.hpp): puts the book threads' outputs of a batch back into
// message order, on the reading thread, with one k-way merge by message index (detail::merge_by_index) for
// the lines and the feed samples alike: lines written to the sink in chunks of complete lines, feed samples
// fed to one feed_statistics (with their messages' latencies), depth samples to one depth_statistics (their
// order does not matter), live order counts summed for the peak. So everything but the measured processing
// times is what one book thread gives. No allocation once its buffers have grown.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <itch5/io/capture.hpp>

#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include <itch5/inside/line_sink.hpp>

#include <itch5/inside/detail/merge_by_index.hpp>

#include "sharded_batch.hpp"

namespace itch5::inside {

template <bool Timed, bool Depth>
class shard_merger {
 public:
  /// `feed` (with Timed) and `depth` (with Depth) receive the samples; `latencies`: whether batches carry
  /// their messages' feed latencies.
  shard_merger(unsigned threads, std::size_t output_buffer_bytes, line_sink& sink,
               stats::feed_statistics* feed, stats::depth_statistics* depth, bool latencies)
      : threads_(threads),
        sink_(sink),
        out_limit_(std::max<std::size_t>(output_buffer_bytes, 4096)),
        feed_(feed),
        depth_(depth),
        latencies_(latencies) {
    out_.reserve(out_limit_ + 4096);
  }

  /// Merges batch `b`, whose output of book thread s is output_of(s).
  template <class OutputOf>
  void merge(const batch& b, const OutputOf& output_of) {
    merge_lines(output_of);
    if constexpr (Timed) merge_feed(b, output_of);
    // Depth histograms do not depend on the order of their samples.
    if constexpr (Depth) {
      for (unsigned s = 0; s < threads_; ++s) {
        for (const auto& x : output_of(s).samples.depth) {
          depth_->record(x.locate, x.event_depth, x.book_depth);
        }
      }
    }
    // Live orders after every message: the peak of the sum of the threads' counts.
    for (std::uint32_t i = 0; i < b.count; ++i) {
      std::int64_t delta = 0;
      for (unsigned s = 0; s < threads_; ++s) delta += output_of(s).live_delta[i];
      live_ += delta;
      peak_ = std::max(peak_, live_);
    }
  }

  /// After the last batch: hands the lines still buffered to the sink.
  void finish() {
    if (!out_.empty()) sink_.write(out_);
    out_.clear();
  }

  /// The most orders live at once, over every message merged.
  [[nodiscard]] std::size_t peak_live_orders() const noexcept { return static_cast<std::size_t>(peak_); }

 private:
  // Lines: runs of lines taken from the thread with the earliest message, as long as it stays the earliest.
  template <class OutputOf>
  void merge_lines(const OutputOf& output_of) {
    detail::merge_by_index(
        at_, threads_, [&](unsigned s) { return output_of(s).line_index.size(); },
        [&](unsigned s, std::size_t j) { return output_of(s).line_index[j]; },
        [&](unsigned s, std::size_t first, std::size_t last) {
          const shard_output& o = output_of(s);
          const std::size_t from = first == 0 ? 0 : o.line_end[first - 1];
          const std::size_t to = o.line_end[last - 1];
          if (out_.size() + (to - from) > out_limit_ && !out_.empty()) {
            sink_.write(out_);
            out_.clear();
          }
          out_.append(o.lines, from, to - from);
        });
  }

  // Feed statistics in message order (the aggregate's arrival times and rates depend on it).
  template <class OutputOf>
  void merge_feed(const batch& b, const OutputOf& output_of) {
    detail::merge_by_index(
        at_, threads_, [&](unsigned s) { return output_of(s).samples.feed.size(); },
        [&](unsigned s, std::size_t j) { return output_of(s).samples.feed[j].index; },
        [&](unsigned s, std::size_t first, std::size_t last) {
          const auto& f = output_of(s).samples.feed;
          for (std::size_t j = first; j < last; ++j) {
            const shard_samples::feed_sample& x = f[j];
            feed_->record(x.locate, x.ts, x.took);
            if (latencies_ && b.latencies[x.index] != itch5::io::latency_queue::none) {
              feed_->record_latency(x.locate, std::chrono::nanoseconds(b.latencies[x.index]));
            }
          }
        });
  }

  unsigned threads_;
  line_sink& sink_;
  std::size_t out_limit_;  // lines buffered before they go to the sink
  std::string out_;
  stats::feed_statistics* feed_;
  stats::depth_statistics* depth_;
  bool latencies_;
  std::int64_t live_ = 0;
  std::int64_t peak_ = 0;
  std::vector<std::size_t> at_;  // merge_by_index's position in each thread's output
};

}  // namespace itch5::inside
