#include "gzip_stream.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include <itch5/input_error.hpp>

namespace itch5::detail {
namespace {
constexpr std::size_t input_buffer_size = std::size_t{1} << 18;
}

gzip_stream::gzip_stream(std::unique_ptr<byte_stream> compressed)
    : inner_(std::move(compressed)), in_(input_buffer_size) {
  // 16 + MAX_WBITS: expect a gzip header and trailer (CRC-32 and length are verified by zlib).
  if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) throw input_error("cannot initialise zlib");
  zs_.next_in = in_.data();
  zs_.avail_in = 0;
}

gzip_stream::~gzip_stream() { inflateEnd(&zs_); }

void gzip_stream::fail(const std::string& what) const {
  throw input_error(what + " at compressed byte offset " + std::to_string(consumed()));
}

bool gzip_stream::fill() {
  if (input_ended_) return false;
  if (zs_.avail_in > 0 && zs_.next_in != in_.data()) std::memmove(in_.data(), zs_.next_in, zs_.avail_in);
  zs_.next_in = in_.data();
  std::size_t room = in_.size() - zs_.avail_in;
  std::size_t r = inner_->read(reinterpret_cast<std::byte*>(in_.data() + zs_.avail_in), room);
  if (r == 0) {
    input_ended_ = true;
    return false;
  }
  zs_.avail_in += static_cast<uInt>(r);
  return true;
}

// Called between members: begins the next member if the gzip magic follows, skips zero padding, and
// treats anything else as trailing garbage.
void gzip_stream::start_next_member_or_finish() {
  for (;;) {
    while (zs_.avail_in > 0 && zs_.next_in[0] == 0) {  // zero padding, as gzip tolerates
      ++zs_.next_in;
      --zs_.avail_in;
    }
    if (zs_.avail_in == 0) {
      if (!fill()) {
        finished_ = true;
        return;
      }
      continue;
    }
    if (zs_.avail_in < 2 && fill()) continue;
    if (zs_.avail_in >= 2 && zs_.next_in[0] == 0x1f && zs_.next_in[1] == 0x8b) {
      inflateReset(&zs_);
      in_member_ = true;
      return;
    }
    fail("trailing garbage after gzip member " + std::to_string(members_) +
         " (not a gzip header and not zero padding)");
  }
}

std::size_t gzip_stream::read(std::byte* dst, std::size_t n) {
  if (deferred_) std::rethrow_exception(std::exchange(deferred_, nullptr));
  zs_.next_out = reinterpret_cast<unsigned char*>(dst);
  zs_.avail_out = static_cast<uInt>(std::min<std::size_t>(n, 1u << 30));
  const uInt want = zs_.avail_out;
  try {
    while (zs_.avail_out > 0 && !finished_) {
      if (!in_member_) {
        start_next_member_or_finish();
        continue;
      }
      if (zs_.avail_in == 0 && !fill()) fail("unexpected end of gzip data (truncated file?)");
      int ret = inflate(&zs_, Z_NO_FLUSH);
      if (ret == Z_STREAM_END) {
        ++members_;
        in_member_ = false;
      } else if (ret == Z_BUF_ERROR) {
        // No progress without more input; the loop fills it (or reports truncation).
        if (zs_.avail_in > 0) fail("corrupt gzip data (inflate made no progress)");
      } else if (ret != Z_OK) {
        fail(std::string("corrupt gzip data: ") + (zs_.msg != nullptr ? zs_.msg : "inflate error " +
                                                                                      std::to_string(ret)));
      }
    }
  } catch (const input_error&) {
    std::size_t got = want - zs_.avail_out;
    if (got == 0) throw;
    deferred_ = std::current_exception();  // hand over the bytes first
    return got;
  }
  return want - zs_.avail_out;
}

}  // namespace itch5::detail
