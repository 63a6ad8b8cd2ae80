// A progress line on stderr for long runs: bytes read, messages per second, ETA from the input position.
//
// Shown only when stderr is a terminal (and not disabled); redrawn at most every half second in place with
// a carriage return, and erased by finish(). update() is cheap enough to call once per block of input.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace itch5::cli {

class progress {
 public:
  /// `enabled` is usually !quiet; the line is drawn only when stderr is also a terminal.
  explicit progress(bool enabled);

  /// `position` and `total` are bytes of the underlying file (compressed for gzip; total 0 if unknown).
  void update(std::uint64_t position, std::uint64_t total, std::uint64_t messages);
  void finish();

 private:
  bool active_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

/// Peak resident set size of this process in bytes.
[[nodiscard]] std::uint64_t peak_rss_bytes();

/// "1.23 GB", "456.7 MB" (decimal units).
[[nodiscard]] std::string human_bytes(double bytes);
/// "12.3 M", "4.56 k".
[[nodiscard]] std::string human_count(double n);

}  // namespace itch5::cli
