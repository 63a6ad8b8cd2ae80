#include <itch5/message_reader.hpp>

#include <itch5/io/capture.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <numeric>
#include <string>
#include <string_view>

namespace itch5 {
namespace {

std::string type_name(std::byte b) {
  auto c = static_cast<unsigned char>(b);
  char buf[32];
  if (c >= 0x20 && c < 0x7f) {
    std::snprintf(buf, sizeof buf, "'%c' (0x%02x)", c, c);
  } else {
    std::snprintf(buf, sizeof buf, "0x%02x", c);
  }
  return buf;
}

// A first message longer than its type's size by more than this is taken as a sign of non-ITCH data.
constexpr std::size_t first_message_slack = 64;

}  // namespace

std::string_view known_file_kind(std::span<const std::byte> head) noexcept {
  struct kind {
    std::string_view magic;
    std::string_view name;
  };
  using namespace std::string_view_literals;
  static constexpr kind kinds[] = {
      {"\x28\xb5\x2f\xfd"sv,
       "zstd-compressed (magic 28 b5 2f fd): only gzip is decompressed; decompress it first (zstd -dc FILE | "
       "... -)"},
      {"BZh"sv,
       "bzip2-compressed (magic 'BZh'): only gzip is decompressed; decompress it first (bzip2 -dc "
       "FILE | ... -)"},
      {"\xfd"
       "7zXZ\x00"sv,
       "xz-compressed (magic fd 37 7a 58 5a 00): only gzip is decompressed; decompress it "
       "first (xz -dc FILE | ... -)"},
      {"PK\x03\x04"sv, "a zip archive (magic 'PK'): extract the ITCH file first (unzip -p FILE | ... -)"},
      {"ITCH5HST"sv,
       "an itch5 histogram file (itch5inside --histograms; magic 'ITCH5HST'), not ITCH data: "
       "'itch5stats merge' reads it"},
      {"\xd4\xc3\xb2\xa1"sv, "a pcap capture"},
      {"\xa1\xb2\xc3\xd4"sv, "a pcap capture"},
      {"\x4d\x3c\xb2\xa1"sv, "a pcap capture"},
      {"\xa1\xb2\x3c\x4d"sv, "a pcap capture"},
      {"\x0a\x0d\x0d\x0a"sv, "a pcapng capture"},
  };
  // Short heads (tiny blocks) match on the bytes there are, at least 3.
  if (head.size() < 3) return {};
  for (const kind& k : kinds) {
    const std::size_t n = std::min(head.size(), k.magic.size());
    if (std::memcmp(head.data(), k.magic.data(), n) == 0) return k.name;
  }
  return {};
}

message_reader::message_reader(std::unique_ptr<io::block_source> source) : source_(std::move(source)) {}

std::uint64_t message_reader::unknown_total() const noexcept {
  return std::accumulate(unknown_.begin(), unknown_.end(), std::uint64_t{0});
}

read_status message_reader::fail(read_errc code, std::uint64_t offset, std::string detail) {
  status_ = read_status::error;
  error_ = {code, offset, messages_ + 1, std::move(detail)};
  return status_;
}

bool message_reader::classify_irregular(std::size_t len, std::span<const std::byte>& msg) {
  if (len == 0) {
    zero_offset_ = offset_of(cur_);
    if (!count_rest_of_input()) return true;
    status_ = read_status::end_of_session;
    if (after_zero_.count != 0 && (!allow_zero_tail_ || messages_ == 0)) {
      fail(read_errc::zero_length_before_end, zero_offset_,
           after_zero_.describe() + " after it not read (a zero-filled tail?)");
    }
    return true;
  }
  const std::byte* body = cur_ + 2;
  std::size_t need = message_size[static_cast<unsigned char>(body[0])];
  if (need == 0) {
    ++unknown_[static_cast<unsigned char>(body[0])];
    ++messages_;
    cur_ = body + len;
    return false;
  }
  if (len < need) {
    fail(read_errc::message_too_short, offset_of(cur_),
         "type " + type_name(body[0]) + " needs " + std::to_string(need) + " bytes, length prefix says " +
             std::to_string(len));
    return true;
  }
  ++oversized_;
  ++messages_;
  cur_ = body + len;
  msg = {body, len};
  return true;  // status_ is still `message`
}

bool message_reader::check_format() {
  std::size_t len = detail::load_be16(cur_);
  if (len == 0) return true;  // an immediate end-of-session marker is well-formed
  std::size_t need = message_size[static_cast<unsigned char>(cur_[2])];
  if (need != 0 && len >= need && len <= need + first_message_slack) return true;
  if (const std::string_view kind = known_file_kind({cur_, static_cast<std::size_t>(end_ - cur_)});
      !kind.empty()) {
    fail(read_errc::not_itch, offset_of(cur_), "the input is " + std::string(kind));
    return false;
  }
  fail(read_errc::not_itch, offset_of(cur_),
       "the first length prefix is " + std::to_string(len) + " and the type byte is " + type_name(cur_[2]) +
           "; ITCH 5.0 BinaryFILE data starts with a 2-byte big-endian length and a known message type of "
           "that length (e.g. 00 0c 53 for a System Event)");
  return false;
}

// Called in a catch block: the error being handled, raised by the source while reading. A capture's error
// is named by packet and capture offset (the offset in the BinaryFILE stream made from it means nothing);
// any other, like every error, at `at` (the start of the message in progress), the detail saying how far
// the (decompressed) input got and adding `note`.
read_status message_reader::fail_reading(std::uint64_t at, std::uint64_t input_ends_at,
                                         std::string_view note) {
  try {
    throw;
  } catch (const io::empty_capture_error& e) {
    return fail(read_errc::empty_capture, e.offset(), e.what());
  } catch (const io::capture_error& e) {
    return fail(read_errc::corrupt_capture, e.offset(), e.what());
  } catch (const std::exception& e) {
    return fail(read_errc::input_failure, at,
                std::string(e.what()) + " (input ends at byte offset " + std::to_string(input_ends_at) +
                    std::string(note) + ")");
  }
}

read_status message_reader::refill() {
  if (status_ != read_status::message) return status_;
  const auto carry = static_cast<std::size_t>(end_ - cur_);
  const std::uint64_t carry_offset = offset_of(cur_);
  std::span<std::byte> block;
  try {
    block = source_->next_block();
  } catch (const std::exception&) {
    return fail_reading(carry_offset, carry_offset + carry, "");
  }
  if (block.empty()) {
    if (carry == 0) {
      if (!seen_bytes_) return fail(read_errc::empty_input, 0, "the input has no bytes");
      status_ = read_status::end_of_input;
      return status_;
    }
    if (carry == 1) {
      return fail(read_errc::truncated_length_prefix, carry_offset,
                  "the input ends 1 byte into a 2-byte length prefix");
    }
    const std::size_t len = detail::load_be16(cur_);
    return fail(read_errc::truncated_message, carry_offset,
                "the length prefix says " + std::to_string(len) + " bytes but the input ends after " +
                    std::to_string(carry - 2));
  }
  seen_bytes_ = true;
  std::byte* start = block.data() - carry;
  if (carry > 0) std::memmove(start, cur_, carry);
  cur_ = start;
  end_ = block.data() + block.size();
  base_ptr_ = start;
  ++blocks_;
  base_offset_ = carry_offset;
  if (!format_checked_ && end_ - cur_ >= 3) {
    if (!check_format()) return status_;
    format_checked_ = true;
  }
  return status_;
}

// A zero length prefix ends a session only at the very end of the input: what follows it is counted here,
// by reading on without framing. Compressed input proves its integrity only at the end of each gzip member
// (CRC-32 and length), and a corrupt member can inflate to anything, two zero bytes included: the rest of
// it is inflated to the end, so that a corrupt member is reported as the error it is, named at the zero
// length prefix. An uncompressed input is read up to zero_tail_read_limit bytes (a regular file's size
// gives the rest; /dev/zero or a pipe has none: the count is then a lower bound). This is once per run.
bool message_reader::count_rest_of_input() {
  const std::uint64_t at = offset_of(cur_);
  const std::uint64_t after = offset_of(end_);
  after_zero_ = {static_cast<std::uint64_t>(end_ - cur_) - 2, true};
  // The block under cur_ may be reused by the source from the second call on: nothing reads it again.
  end_ = cur_;  // next() calls again find nothing to frame and return the status
  const bool compressed = source_->compressed();
  std::uint64_t read = 0;
  try {
    for (;;) {
      if (!compressed && read >= zero_tail_read_limit) {
        const std::uint64_t total = source_->total();
        const std::uint64_t consumed = source_->consumed();
        if (total != 0) {  // a regular file: its size says how much is left
          after_zero_.count += total > consumed ? total - consumed : 0;
        } else {
          after_zero_.exact = false;
        }
        break;
      }
      const std::span<std::byte> block = source_->next_block();
      if (block.empty()) break;
      read += block.size();
      after_zero_.count += block.size();
    }
  } catch (const std::exception&) {
    fail_reading(at, after + read,
                 "; found after a zero length prefix, which marks the end of the session but may itself come "
                 "from the corrupt data");
    return false;
  }
  return true;
}

std::string bytes_after_zero_length::describe() const {
  return (exact ? "" : "at least ") + std::to_string(count) + (count == 1 ? " byte" : " bytes");
}

}  // namespace itch5
