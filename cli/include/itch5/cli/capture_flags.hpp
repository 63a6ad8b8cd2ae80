// The capture flags shared by the tools that read ITCH (--filter, --port, --reorder-window, --timestamp,
// --time-zone), and the
// io::capture_options they make: one BPF expression, gap reports on stderr as "<tool>: warning: <input>:
// gap: ...". Not thread-safe while being set up; the report callback may run on the read-ahead thread
// (one fprintf per line).
#pragma once

#include <cstdint>
#include <string>

#include <itch5/io/capture.hpp>
#include <itch5/read_error.hpp>

#include <itch5/cli/options.hpp>

namespace itch5::cli {

struct capture_flags {
  std::string filter;                  ///< BPF expression.
  std::uint64_t port = 0;              ///< 0 = any; else 'udp dst port N' (and-ed with filter).
  std::uint64_t reorder_window = 32;   ///< Packets held while waiting for late ones.
  std::string timestamp = "exchange";  ///< exchange | capture
  std::string time_zone = "America/New_York";

  /// Registers the flags with `opts`.
  void add_to(options& opts);
  /// The BPF expression of --filter and --port together ("" when neither is given).
  [[nodiscard]] std::string expression() const;
  /// True when --filter, --port or --timestamp capture was given (they need a capture as input).
  [[nodiscard]] bool given() const noexcept { return !filter.empty() || port != 0 || timestamp == "capture"; }
  /// Throws std::invalid_argument on a --time-zone that cannot be read.
  void check() const;
  /// Appended to the error line of an ITCH framing error (not corrupt_capture, not input_failure) in a
  /// capture's messages, whose byte offset is in the message stream decoded from the capture.
  static constexpr const char* framing_note =
      " (the byte offset is in the BinaryFILE stream of the capture's MoldUDP64 messages)";
  /// framing_note when `e` is such an error in the messages of a capture (`stats` of the input), else "".
  [[nodiscard]] static const char* framing_note_for(const itch5::io::capture_stats& stats,
                                                    const itch5::read_error& e) noexcept;
  /// After opening the input: throws std::runtime_error ("<input_name>: --filter, --port and --timestamp
  /// capture apply to a pcap or pcapng capture; this input is not one") when those flags were given and
  /// the input (`stats` of it) is not a capture.
  void check_input(const itch5::io::capture_stats& stats, const std::string& input_name) const;
  /// Options for io::open_input: the expression, the window, `stats`, and gap reports on stderr.
  [[nodiscard]] itch5::io::capture_options make(const std::string& tool, const std::string& input_name,
                                                itch5::io::capture_stats* stats) const;
};

}  // namespace itch5::cli
