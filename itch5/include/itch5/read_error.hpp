// What went wrong when reading a BinaryFILE stream, and where.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace itch5 {

enum class read_errc {
  none,
  empty_input,              ///< No bytes at all.
  not_itch,                 ///< The first bytes are not an ITCH 5.0 message.
  truncated_length_prefix,  ///< One byte left where a 2-byte length prefix should be.
  truncated_message,        ///< The input ends inside a message.
  message_too_short,        ///< A known type whose length is below its fixed size.
  input_failure,            ///< The input could not be read (I/O error, corrupt or truncated gzip).
  zero_length_before_end,   ///< A zero length prefix (end of session) with more bytes after it.
  empty_capture,    ///< A capture without a MoldUDP64 message (of the filter): not the feed asked for.
  corrupt_capture,  ///< A pcap/pcapng capture or a MoldUDP64 packet in it is corrupt (offset in the capture).
};

[[nodiscard]] std::string_view to_string(read_errc e) noexcept;

struct read_error {
  read_errc code = read_errc::none;
  std::uint64_t offset = 0;          ///< Byte offset in the (decompressed) stream of the failing message.
  std::uint64_t message_number = 0;  ///< 1-based number of the failing message.
  std::string detail;                ///< Human-readable specifics.

  /// "FILE: byte offset N (message #M): <what>: <detail>"; for corrupt_capture, whose offset is in the
  /// capture and whose detail names the packet: "FILE: corrupt capture: <detail> (after M-1 messages)"; for
  /// empty_capture, "FILE: <detail>".
  [[nodiscard]] std::string describe(std::string_view input_name) const;
};

}  // namespace itch5
