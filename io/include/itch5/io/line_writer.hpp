// line_writer: gathers output lines in a buffer and hands them to an output_file in large chunks of whole
// lines, so that the output sees few, large writes and a run that stops early keeps complete lines only.
//
//   itch5::io::line_writer lines(out);
//   char* p = lines.reserve(max_line);  // format straight into the buffer ...
//   p = format(p, ...);
//   lines.commit(p);                    // ... up to the end of a whole line
//   lines.append("text\n");             // or copy text that holds whole lines
//   lines.flush();                      // before out.commit()
//
// reserve() and append() hand the buffer to the output first when what is asked does not fit, so a chunk
// always ends where a commit() or an append() ended: callers commit whole lines. O(1) per line plus the
// copy; one allocation, of the capacity, at construction. One thread at a time; the output must outlive
// the writer. Nothing is written by the destructor: call flush().
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>

#include <itch5/io/output_file.hpp>

namespace itch5::io {

class line_writer {
 public:
  static constexpr std::size_t default_capacity = std::size_t{1} << 18;

  explicit line_writer(output_file& out, std::size_t capacity = default_capacity)
      : out_(out), capacity_(capacity), buf_(std::make_unique_for_overwrite<char[]>(capacity)) {}
  line_writer(const line_writer&) = delete;
  line_writer& operator=(const line_writer&) = delete;

  /// Room for `n` bytes at the end of the buffer (n <= capacity()), handing what it holds to the output
  /// first when they do not fit. Write there, then commit().
  [[nodiscard]] char* reserve(std::size_t n) {
    if (n > capacity_) throw std::length_error("line_writer::reserve: more than the buffer's capacity");
    if (used_ + n > capacity_) flush();
    return buf_.get() + used_;
  }

  /// Keeps what was written from reserve()'s pointer up to `end`.
  void commit(const char* end) noexcept { used_ = static_cast<std::size_t>(end - buf_.get()); }

  /// Copies `text` (whole lines) to the end; text longer than the buffer goes to the output in one write.
  void append(std::string_view text) {
    if (text.size() > capacity_) {
      flush();
      out_.write(text);
      return;
    }
    char* p = reserve(text.size());
    std::memcpy(p, text.data(), text.size());
    commit(p + text.size());
  }

  /// Hands what the buffer holds to the output.
  void flush() {
    if (used_ > 0) out_.write({buf_.get(), used_});
    used_ = 0;
  }

  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  /// Bytes gathered and not yet handed to the output.
  [[nodiscard]] std::size_t buffered() const noexcept { return used_; }

 private:
  output_file& out_;
  std::size_t capacity_;
  std::unique_ptr<char[]> buf_;
  std::size_t used_ = 0;
};

}  // namespace itch5::io
