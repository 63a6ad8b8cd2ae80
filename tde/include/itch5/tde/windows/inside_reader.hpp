// inside_reader: streams the changes of an inside-change file, plain or gzip-compressed (detected from the
// bytes by itch5::io::open_input), or standard input ("-").
//
// Blank lines and lines starting with '#' are skipped. A malformed line throws inside_format_error naming
// the file and the 1-based line number; binary input (an ITCH file given by mistake) is called that. The
// files are sorted by time (ties allowed), but a feed's timestamp that goes backwards is written by
// itch5inside as it came (and counted there as an anomaly): such a line is read with the timestamp of the
// line before (clamped, so the changes stay in time order) and counted by backwards(). I/O and
// gzip errors surface as itch5::io::input_error.
// next() is amortised O(line length) and does not allocate after the first block; the symbol view in the
// returned record stays valid until the next call to next(). One thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/inside_line.hpp>

namespace itch5::tde {

/// A malformed inside-change line: what() reads "FILE:LINE: reason".
class inside_format_error : public std::runtime_error {
 public:
  inside_format_error(const std::string& file, std::uint64_t line, std::string_view reason);
  [[nodiscard]] const std::string& file() const noexcept { return file_; }
  [[nodiscard]] std::uint64_t line() const noexcept { return line_; }

 private:
  std::string file_;
  std::uint64_t line_;
};

class inside_reader {
 public:
  /// Opens `path` ("-": standard input). Throws itch5::io::input_error when it cannot be opened.
  explicit inside_reader(const std::string& path);
  /// Reads from `stream`; `name` is used in error messages.
  inside_reader(std::unique_ptr<itch5::io::byte_stream> stream, std::string name);

  /// The next change; false at the end of the input.
  [[nodiscard]] bool next(itch5::inside_line& out);

  /// True when no change is left: reads ahead to the next change (kept for next(), its symbol view stays
  /// valid), so a file without any change line is known before it is used. Throws what next() throws.
  /// line_number() and changes() then count the change read ahead.
  [[nodiscard]] bool at_end();

  /// 1-based number of the line last returned (or being read when an error is thrown).
  [[nodiscard]] std::uint64_t line_number() const noexcept { return line_; }
  [[nodiscard]] std::uint64_t changes() const noexcept { return changes_; }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// Changes read so far whose timestamp was earlier than the line before (taken at that line's time).
  [[nodiscard]] std::uint64_t backwards() const noexcept { return backwards_; }
  /// The 1-based line number of the first of them (0 when none).
  [[nodiscard]] std::uint64_t first_backwards_line() const noexcept { return first_backwards_line_; }
  /// Bytes read so far from the underlying file (compressed bytes for gzip), and its size (0 when unknown,
  /// as for a pipe): for a progress line.
  [[nodiscard]] std::uint64_t input_position() const noexcept { return stream_->consumed(); }
  [[nodiscard]] std::uint64_t input_size() const noexcept { return stream_->total(); }

  /// Lines longer than this are rejected as malformed.
  static constexpr std::size_t max_line = 4096;

 private:
  bool next_line(std::string_view& line);
  bool read_change(itch5::inside_line& out);

  std::unique_ptr<itch5::io::byte_stream> stream_;
  std::string name_;
  std::vector<char> buf_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::uint64_t line_ = 0;
  std::uint64_t changes_ = 0;
  std::int64_t last_timestamp_ = 0;
  std::uint64_t backwards_ = 0;
  std::uint64_t first_backwards_line_ = 0;
  bool looked_ahead_ = false;  // ahead_ holds the result of a read_change() not yet returned by next()
  bool ahead_valid_ = false;
  itch5::inside_line ahead_;
};

/// Reads `reader` until each of `symbols` has appeared or the input ends, and returns those that never
/// appear (in the given order, each once). Stops as soon as the last one has appeared, so it costs the lines
/// up to there, or the whole input when one is absent. Throws what next() throws.
[[nodiscard]] std::vector<std::string> absent_symbols(inside_reader& reader,
                                                      const std::vector<std::string>& symbols);

/// "b.txt: 3 lines have a timestamp earlier than the line before (first at line 17); taken at the time of
/// the line before", or "" when the reader met none (so far).
[[nodiscard]] std::string backwards_text(const inside_reader& reader);

/// "NOPE does not appear in b.txt", or "NOPE, XYZ do not appear in b.txt"; "" without symbols.
[[nodiscard]] std::string absent_symbols_text(const std::vector<std::string>& symbols,
                                              const std::string& file);

}  // namespace itch5::tde
