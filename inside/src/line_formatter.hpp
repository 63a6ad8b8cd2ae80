// Formats inside lines (book/inside_line.hpp format) into a buffer and hands full buffers to a line_sink:
// keeps each locate's line text as of its last inside change (an event reformats only the side it changed),
// the timestamp's cached high digits and the line count. Used on the books' thread by the lines output
// (lines formatted inline), or on a line thread of its own fed by line_thread. No allocation per line; the
// sink is called once per full buffer. Not thread-safe: one thread uses it at a time.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include <itch5/detail/decimal.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/book/detail/locate_array.hpp>
#include <itch5/book/inside_line.hpp>
#include <itch5/book/price_level.hpp>
#include <itch5/book/side_kind.hpp>

#include <itch5/inside/line_sink.hpp>

namespace itch5::inside {

class line_formatter {
 public:
  line_formatter(line_sink& sink, std::size_t buffer_bytes)
      : sink_(sink),
        discard_(sink.discards()),
        buffer_size_(std::max<std::size_t>(buffer_bytes, min_buffer_size)),
        buffer_(std::make_unique_for_overwrite<char[]>(buffer_size_)) {}

  /// Sets up the line text of `locate` (both sides empty), named `name` (printable, see printable_symbol).
  void name(std::uint16_t locate, std::string_view name) {
    line_text& t = lines_text_[locate];
    const std::string prefix = " " + std::to_string(locate) + " " + std::string(name) + " ";
    std::memcpy(t.prefix.chars.data(), prefix.data(), prefix.size());
    t.prefix.size = static_cast<std::uint32_t>(prefix.size());
    set(t.bid, book::format_bid(t.bid.chars.data(), book::price_level{}));
    set(t.offer, book::format_offer(t.offer.chars.data(), book::price_level{}));
  }

  /// The best level of `side` of `locate` is now `best`; with `line`, also writes the symbol's line.
  void change(itch5::timestamp ts, std::uint16_t locate, book::side_kind side, const book::price_level& best,
              bool line) {
    if (discard_) [[unlikely]] {  // a sink that drops the lines: count them only
      lines_ += line ? 1 : 0;
      return;
    }
    line_text& t = lines_text_[locate];
    if (side == book::side_kind::buy) {
      set(t.bid, book::format_bid(t.bid.chars.data(), best));
    } else {
      set(t.offer, book::format_offer(t.offer.chars.data(), best));
    }
    if (line) write_line(ts, t);
  }

  void flush() {
    if (used_ > 0) sink_.write({buffer_.get(), used_});
    used_ = 0;
  }

  /// At the end of a run: hands the rest to the sink; returns the lines written (as line_thread::finish).
  std::uint64_t finish() {
    flush();
    return lines_;
  }

  [[nodiscard]] std::uint64_t lines() const noexcept { return lines_; }
  /// Bytes of lines formatted and not yet handed to the sink.
  [[nodiscard]] std::size_t buffered() const noexcept { return used_; }

 private:
  static constexpr std::size_t min_buffer_size = 4096;  // book_config::output_buffer_bytes below this: 4096

  // A piece of line text, copied with a fixed-size memcpy (no call): the longest piece is 21 characters.
  struct text {
    static constexpr std::size_t capacity = 32;
    std::array<char, capacity> chars{};
    std::uint32_t size = 0;
  };

  // The text of a symbol's line as of its last inside change. An event changes one side, so only that
  // side is formatted again and the rest is copied; the result is what format_inside_line() writes.
  struct line_text {
    text prefix;  // " <locate> <symbol> "
    text bid;     // "<px> <qty>"
    text offer;
  };

  static void set(text& t, const char* end) noexcept {
    t.size = static_cast<std::uint32_t>(end - t.chars.data());
  }

  static char* put(char* out, const text& t) noexcept {
    std::memcpy(out, t.chars.data(), text::capacity);
    return out + t.size;
  }

  // The timestamp, with its digits above the last eight (they change every 100 ms) kept from the last line.
  char* put_timestamp(char* out, itch5::timestamp ts) noexcept {
    const auto ns = static_cast<std::uint64_t>(ts.count());
    if (ns < 100'000'000) return itch5::detail::format_decimal(out, ns);
    const std::uint64_t high = ns / 100'000'000;
    if (high != timestamp_high_) {
      timestamp_high_ = high;
      set(timestamp_text_, itch5::detail::format_decimal(timestamp_text_.chars.data(), high));
    }
    out = put(out, timestamp_text_);
    return itch5::detail::format_8_digits(out, static_cast<std::uint32_t>(ns % 100'000'000));
  }

  void write_line(itch5::timestamp ts, const line_text& t) {
    if (used_ + book::max_inside_line + text::capacity > buffer_size_) flush();
    char* out = buffer_.get() + used_;
    out = put_timestamp(out, ts);
    out = put(out, t.prefix);
    out = put(out, t.bid);
    *out++ = ' ';
    out = put(out, t.offer);
    *out++ = '\n';
    used_ = static_cast<std::size_t>(out - buffer_.get());
    ++lines_;
  }

  line_sink& sink_;
  bool discard_;  // sink_.discards()
  book::detail::locate_array<line_text> lines_text_ = book::detail::locate_array<line_text>::zeroed();
  std::uint64_t timestamp_high_ = ~std::uint64_t{0};
  text timestamp_text_;
  std::size_t buffer_size_;
  std::unique_ptr<char[]> buffer_;
  std::size_t used_ = 0;
  std::uint64_t lines_ = 0;
};

}  // namespace itch5::inside
