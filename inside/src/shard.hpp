// One book thread of the sharded run (run_sharded.hpp): its own books and order table, fed the messages of
// a batch that are its own (the order messages of its locates) and every stock directory message, with the
// prefetch stages of run_loop. It formats its lines into the batch's shard_output, noting the batch index of
// the message of each line (a message makes at most one line), and likewise its statistics and depth samples
// and each message's change of its live order count, for the merger. Each shard is used by one thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/peek.hpp>

#include <itch5/book/book_engine.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/line_sink.hpp>

#include "frame_cursor.hpp"
#include "line_formatter.hpp"
#include "outputs.hpp"
#include "shard_samples.hpp"
#include "sharded_batch.hpp"

namespace itch5::inside {

// A line_sink that appends to the string it is pointed at (a shard's lines of the batch at hand).
class string_sink final : public line_sink {
 public:
  void write(std::string_view lines) override { target->append(lines); }
  std::string* target = nullptr;
};

template <class Book, bool Timed, bool Depth>
class shard {
 public:
  using observer_type = shard_observer<Book, Timed, Depth>;

  shard(const inside_options& opt, unsigned index)
      : index_(static_cast<std::uint8_t>(index)),
        lines_(sink_, opt.books.output_buffer_bytes),
        obs_(opt, {lines_}, {&samples_}, {opt, &samples_}),
        engine_(opt.books, obs_) {}

  void handle(const batch& in, shard_output& out) {
    // The frames of this thread's locates, then those messages with the prefetch of run_loop.
    mine_.clear();
    const std::byte* const base = in.frames.data();
    std::size_t at = 0;
    for (std::uint32_t i = 0; i < in.count; ++i) {
      const std::size_t len = itch5::peek_frame_length(base + at);
      const std::uint8_t owner = in.owner[i];
      if (owner == index_ || owner == to_all) {
        mine_.push_back({static_cast<std::uint32_t>(at + itch5::frame_length_size), i});
      }
      at += len + itch5::frame_length_size;
    }
    out.lines.clear();
    out.line_index.clear();
    out.line_end.clear();
    out.live_delta.assign(in.count, 0);
    samples_.feed.clear();
    samples_.depth.clear();
    sink_.target = &out.lines;
    auto frame = [&](std::size_t j) {
      const std::byte* m = base + mine_[j].offset;
      return std::span<const std::byte>(m, itch5::peek_frame_length(m - itch5::frame_length_size));
    };
    const std::size_t n = mine_.size();
    std::uint64_t lines = lines_.lines();
    for (std::size_t j = 0; j < n; ++j) {
      if (j + prefetch_far_distance < n) engine_.prefetch_far(frame(j + prefetch_far_distance));
      if (j + prefetch_level_distance < n) engine_.prefetch_level(frame(j + prefetch_level_distance));
      const std::uint32_t i = mine_[j].index;
      const std::byte* m = base + mine_[j].offset;
      samples_.index = i;
      const std::size_t live = engine_.orders().size();
      if constexpr (Timed) {
        const auto t0 = std::chrono::steady_clock::now();
        itch5::dispatch_unchecked(m, engine_);
        obs_.end_message(std::chrono::steady_clock::now() - t0);
      } else {
        itch5::dispatch_unchecked(m, engine_);
      }
      out.live_delta[i] = static_cast<std::int8_t>(static_cast<std::ptrdiff_t>(engine_.orders().size()) -
                                                   static_cast<std::ptrdiff_t>(live));
      if (lines_.lines() != lines) {
        lines = lines_.lines();
        out.line_index.push_back(i);
        out.line_end.push_back(static_cast<std::uint32_t>(out.lines.size() + lines_.buffered()));
      }
    }
    lines_.flush();
    std::swap(out.samples.feed, samples_.feed);
    std::swap(out.samples.depth, samples_.depth);
  }

  [[nodiscard]] const observer_type& obs() const noexcept { return obs_; }
  [[nodiscard]] std::uint64_t lines() const noexcept { return lines_.lines(); }
  [[nodiscard]] const book::book_engine<Book, observer_type>& engine() const noexcept { return engine_; }

 private:
  struct mine {
    std::uint32_t offset;  // of the message (its type byte) in the batch
    std::uint32_t index;   // in the batch
  };

  std::uint8_t index_;
  string_sink sink_;
  line_formatter lines_;
  shard_samples samples_;
  observer_type obs_;
  book::book_engine<Book, observer_type> engine_;
  std::vector<mine> mine_;
};

}  // namespace itch5::inside
