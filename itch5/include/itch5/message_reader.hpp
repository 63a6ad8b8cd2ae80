// Framing of BinaryFILE streams (2-byte big-endian length, then the message) into whole messages.
//
//   itch5::message_reader reader(itch5::io::make_block_source(itch5::io::open_input(path)));
//   std::span<const std::byte> msg;
//   while (reader.next(msg) == itch5::read_status::message) {
//     itch5::dispatch_unchecked(msg.data(), handler);   // length already checked against the type
//   }
//   if (reader.status() == itch5::read_status::error) report(reader.error().describe(path));
//
// next() returns only messages of a known type whose length is at least the type's fixed size, so the
// caller may decode them without further checks. Messages of unknown type are skipped by their length and
// counted; messages longer than their type's size are returned (the extra bytes are ignored by decode) and
// counted. A zero length at the very end of the input ends the session. A zero length followed by more
// bytes (a zero-filled tail: a copy that stopped, a disk that lost blocks) is an error naming its offset
// and the bytes after it, unless allow_zero_tail() says to end the session there (then
// data_after_end_of_session() and bytes_after_end_of_session() say what was left). The bytes after a zero
// length are counted by reading on (not framed); from compressed input they are all inflated, so that a
// corrupt gzip member, whose garbage may inflate to a zero length, is reported as the error it is. A length
// below the type's size, a truncated final message or length prefix, input that does
// not start like ITCH, and read failures are errors carrying the byte offset and message number. The first
// message must be a known type of about its fixed length, which rejects text files and other formats up
// front.
//
// The span returned by next() points into the reader's block and is valid until the following call.
// Complexity: O(1) amortised per message; one branch-predictable length check in the common case.
// Not thread-safe; one reader per input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include <itch5/io/block_source.hpp>
#include <itch5/detail/endian.hpp>
#include <itch5/messages.hpp>
#include <itch5/read_error.hpp>

namespace itch5 {

enum class read_status {
  message,         ///< A message was returned.
  end_of_input,    ///< The input ended cleanly after a whole message.
  end_of_session,  ///< A zero length prefix ended the session.
  error,           ///< See error().
};

/// What followed a zero length prefix: counted by reading the rest (not framed).
struct bytes_after_zero_length {
  std::uint64_t count = 0;  ///< Bytes after the 2-byte zero length prefix.
  bool exact = true;        ///< False: the input went on past the count (an endless or huge stream).
  /// "1234 bytes", "1 byte", or "at least 268435456 bytes".
  [[nodiscard]] std::string describe() const;
};

/// What a file that is not ITCH 5.0 BinaryFILE data is, when its first bytes say so (zstd, bzip2, xz, zip,
/// an itch5 histogram file, a pcap or pcapng capture), as words for an error message ("zstd-compressed
/// (...)"); empty when they do not. At least 3 bytes of `head` are needed; fewer match nothing.
[[nodiscard]] std::string_view known_file_kind(std::span<const std::byte> head) noexcept;

class message_reader {
 public:
  explicit message_reader(std::unique_ptr<io::block_source> source);
  message_reader(const message_reader&) = delete;
  message_reader& operator=(const message_reader&) = delete;

  /// A zero length prefix followed by more bytes ends the session (see data_after_end_of_session()) instead
  /// of being an error. A zero length before any message stays an error (the input is no session at all).
  void allow_zero_tail(bool allow) noexcept { allow_zero_tail_ = allow; }

  /// Reading on past a zero length prefix (to count the bytes after it) stops after this many bytes of an
  /// uncompressed input of unknown size (a pipe, /dev/zero); the count is then a lower bound.
  static constexpr std::uint64_t zero_tail_read_limit = std::uint64_t{256} << 20;

  /// The next message (type byte first, `length` bytes as framed); see the header comment for the rules.
  [[nodiscard, gnu::always_inline]] read_status next(std::span<const std::byte>& msg) {
    for (;;) {
      auto avail = static_cast<std::size_t>(end_ - cur_);
      if (avail >= 2) [[likely]] {
        std::size_t len = detail::load_be16(cur_);
        if (avail >= len + 2) [[likely]] {
          const std::byte* body = cur_ + 2;
          if (len != 0 && len == message_size[static_cast<unsigned char>(body[0])]) [[likely]] {
            cur_ = body + len;
            ++messages_;
            msg = {body, len};
            return read_status::message;
          }
          if (classify_irregular(len, msg)) return status_;
          continue;
        }
      }
      if (refill() != read_status::message) return status_;
    }
  }

  /// How the last next() ended: message while reading, then end_of_input, end_of_session or error.
  [[nodiscard]] read_status status() const noexcept { return status_; }
  [[nodiscard]] const read_error& error() const noexcept { return error_; }

  /// Messages framed so far, unknown types included.
  [[nodiscard]] std::uint64_t messages() const noexcept { return messages_; }
  /// Messages skipped for an unknown type, by type byte.
  [[nodiscard]] const std::array<std::uint64_t, 256>& unknown_types() const noexcept { return unknown_; }
  [[nodiscard]] std::uint64_t unknown_total() const noexcept;
  /// Messages longer than their type's fixed size (the extra bytes were ignored).
  [[nodiscard]] std::uint64_t oversized() const noexcept { return oversized_; }

  /// Offset in the decompressed stream of the next unread byte.
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_of(cur_); }

  /// The unread bytes of the current block (whole frames, maybe a partial one at the end), for callers
  /// that prefetch what the next messages will touch. Valid until the next call to next(). A new block
  /// (see block_number()) makes earlier lookahead pointers meaningless.
  [[nodiscard]] std::span<const std::byte> lookahead() const noexcept {
    return {cur_, static_cast<std::size_t>(end_ - cur_)};
  }
  /// Whether the next frame lies whole in the current block, so that next() returns it (or the irregular
  /// frame it is) without reading: without waiting for the disk or an inflater.
  [[nodiscard]] bool next_frame_buffered() const noexcept {
    const auto avail = static_cast<std::size_t>(end_ - cur_);
    return avail >= 2 && avail >= std::size_t{detail::load_be16(cur_)} + 2;
  }
  /// Counts the blocks read so far.
  [[nodiscard]] std::uint64_t block_number() const noexcept { return blocks_; }
  /// Offset in the decompressed stream of a byte inside the current message or block.
  [[nodiscard]] std::uint64_t offset_of(const std::byte* p) const noexcept {
    return base_offset_ + static_cast<std::uint64_t>(p - base_ptr_);
  }

  /// Position and size of the underlying file (compressed for gzip), for progress reports.
  [[nodiscard]] std::uint64_t input_position() const noexcept { return source_->consumed(); }
  [[nodiscard]] std::uint64_t input_size() const noexcept { return source_->total(); }

  /// Whether the blocks are inflated from compressed input (gzip): inflating then takes a thread of its own.
  [[nodiscard]] bool compressed() const noexcept { return source_->compressed(); }

  /// After end_of_session: whether any bytes follow the zero length prefix (they are not framed).
  [[nodiscard]] bool data_after_end_of_session() const noexcept { return after_zero_.count != 0; }
  /// After end_of_session (or the error a zero length followed by bytes is): how many bytes followed it.
  [[nodiscard]] const bytes_after_zero_length& bytes_after_end_of_session() const noexcept {
    return after_zero_;
  }
  /// After end_of_session: the byte offset of the zero length prefix.
  [[nodiscard]] std::uint64_t end_of_session_offset() const noexcept { return zero_offset_; }

 private:
  // Unknown type, oversized, too short or zero length at cur_ (a whole frame is available). Returns true
  // when next() must return status_ (a message in `msg`, end of session or error), false to go on.
  bool classify_irregular(std::size_t len, std::span<const std::byte>& msg);
  read_status refill();
  read_status fail(read_errc code, std::uint64_t offset, std::string detail);
  read_status fail_reading(std::uint64_t at, std::uint64_t input_ends_at, std::string_view note);
  bool check_format();
  // At a zero length prefix (cur_): counts the bytes after it into after_zero_; false on a read error
  // (status_ is then error).
  bool count_rest_of_input();

  std::unique_ptr<io::block_source> source_;
  const std::byte* cur_ = nullptr;
  const std::byte* end_ = nullptr;
  const std::byte* base_ptr_ = nullptr;
  std::uint64_t base_offset_ = 0;
  std::uint64_t messages_ = 0;
  std::uint64_t blocks_ = 0;
  std::uint64_t oversized_ = 0;
  std::array<std::uint64_t, 256> unknown_{};
  read_status status_ = read_status::message;
  read_error error_;
  bool format_checked_ = false;
  bool seen_bytes_ = false;
  bool allow_zero_tail_ = false;
  std::uint64_t zero_offset_ = 0;       // where the zero length prefix was (end_of_session)
  bytes_after_zero_length after_zero_;  // what followed it
};

}  // namespace itch5
