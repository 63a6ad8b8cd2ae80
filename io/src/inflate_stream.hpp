// Internal: a byte_stream that inflates gzip data read from another byte_stream.
//
// The gzip container logic (one member after another, zero padding, trailing garbage, deferred errors)
// is written once here; the deflate engine is a policy: zlib (the default, zlib_inflater.hpp) or ISA-L's
// igzip (isal_inflater.hpp, when built with ITCH5_WITH_ISAL).
//
// Inflate is driven directly rather than through Boost.Iostreams' gzip_decompressor because the reader
// must (a) hand over every byte inflated before a corruption point, (b) name the compressed byte offset
// of the corruption, and (c) tell trailing garbage from a next member. Boost's filter drops the bytes it
// inflated in the failing call and reports no position (see docs/design.md).
//
// Multi-member files (concatenated gzip streams, as written by pigz or `cat a.gz b.gz`) read as one
// stream. Trailing zero bytes after the last member are ignored, as gzip does. Anything else after the last
// member is an error, raised after all inflated bytes were returned.
//
// Inflater policy: `void begin_member()`, `status step()` over the public next_in/avail_in/next_out/
// avail_out members, and `const char* message()` after an error.
#pragma once

#include <algorithm>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/input_error.hpp>

namespace itch5::io::detail {

enum class inflate_status { progress, member_end, failed };

template <class Inflater>
class inflate_stream final : public byte_stream {
 public:
  explicit inflate_stream(std::unique_ptr<byte_stream> compressed)
      : inner_(std::move(compressed)), in_(input_buffer_size) {
    z_.next_in = in_.data();
    z_.avail_in = 0;
    z_.begin_member();
  }

  std::size_t read(std::byte* dst, std::size_t n) override {
    if (deferred_) std::rethrow_exception(std::exchange(deferred_, nullptr));
    z_.next_out = reinterpret_cast<unsigned char*>(dst);
    z_.avail_out = static_cast<unsigned>(std::min<std::size_t>(n, 1u << 30));
    const unsigned want = z_.avail_out;
    try {
      while (z_.avail_out > 0 && !finished_) {
        if (!in_member_) {
          if (z_.avail_in == 0 && z_.avail_out < want) break;  // as below: do not block with bytes in hand
          start_next_member_or_finish();
          continue;
        }
        if (z_.avail_in == 0) {
          // Hand over what is inflated before asking for more input, which may block on a pipe.
          if (z_.avail_out < want) break;
          if (!fill()) {
            drain_at_end_of_input();
            continue;
          }
        }
        const unsigned before_in = z_.avail_in, before_out = z_.avail_out;
        switch (z_.step()) {
          case inflate_status::member_end:
            ++members_;
            in_member_ = false;
            break;
          case inflate_status::failed: fail(std::string("corrupt gzip data: ") + z_.message());
          case inflate_status::progress:
            if (z_.avail_in == before_in && z_.avail_out == before_out && z_.avail_in > 0) {
              fail("corrupt gzip data (inflate made no progress)");
            }
            break;
        }
      }
    } catch (const input_error&) {
      const std::size_t got = want - z_.avail_out;
      if (got == 0) throw;
      deferred_ = std::current_exception();  // hand over the bytes first
      return got;
    }
    return want - z_.avail_out;
  }

  [[nodiscard]] std::uint64_t consumed() const noexcept override { return inner_->consumed() - z_.avail_in; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return inner_->total(); }
  [[nodiscard]] bool compressed() const noexcept override { return true; }
  [[nodiscard]] bool borrows_memory() const noexcept override { return inner_->borrows_memory(); }

 private:
  static constexpr std::size_t input_buffer_size = std::size_t{1} << 18;

  [[noreturn]] void fail(const std::string& what) const {
    throw input_error(what + " at compressed byte offset " + std::to_string(consumed()));
  }

  // The input ended inside a member. The inflater may still hold decoded bytes (igzip keeps the last input
  // bytes in a buffer of its own until more arrive): one step without input hands them over. When it hands
  // over nothing, the file is truncated. Called again on the next read() while it keeps handing over bytes.
  void drain_at_end_of_input() {
    const unsigned before_out = z_.avail_out;
    switch (z_.step()) {
      case inflate_status::member_end:
        ++members_;
        in_member_ = false;
        return;
      case inflate_status::failed: fail(std::string("corrupt gzip data: ") + z_.message());
      case inflate_status::progress:
        if (z_.avail_out == before_out) fail("unexpected end of gzip data (truncated file?)");
        return;
    }
  }

  // Refills the input buffer, keeping unread bytes; false at the end of the input.
  bool fill() {
    if (input_ended_) return false;
    if (z_.avail_in > 0 && z_.next_in != in_.data()) std::memmove(in_.data(), z_.next_in, z_.avail_in);
    z_.next_in = in_.data();
    const std::size_t room = in_.size() - z_.avail_in;
    const std::size_t r = inner_->read(reinterpret_cast<std::byte*>(in_.data() + z_.avail_in), room);
    if (r == 0) {
      input_ended_ = true;
      return false;
    }
    z_.avail_in += static_cast<unsigned>(r);
    return true;
  }

  // Between members: begins the next member if the gzip magic follows, skips zero padding, and treats
  // anything else as trailing garbage.
  void start_next_member_or_finish() {
    for (;;) {
      while (z_.avail_in > 0 && z_.next_in[0] == 0) {
        ++z_.next_in;
        --z_.avail_in;
      }
      if (z_.avail_in == 0) {
        if (!fill()) {
          finished_ = true;
          return;
        }
        continue;
      }
      if (z_.avail_in < 2 && fill()) continue;
      if (z_.avail_in >= 2 && z_.next_in[0] == 0x1f && z_.next_in[1] == 0x8b) {
        z_.begin_member();
        in_member_ = true;
        return;
      }
      fail("trailing garbage after gzip member " + std::to_string(members_) +
           " (not a gzip header and not zero padding)");
    }
  }

  std::unique_ptr<byte_stream> inner_;
  std::vector<unsigned char> in_;
  Inflater z_;
  bool in_member_ = true;
  bool finished_ = false;
  bool input_ended_ = false;
  std::uint64_t members_ = 0;
  std::exception_ptr deferred_;
};

}  // namespace itch5::io::detail
