// Internal: the zlib deflate engine for inflate_stream (gzip wrapper; zlib verifies CRC-32 and length).
#pragma once

#include <zlib.h>

#include <itch5/io/input_error.hpp>

#include "inflate_stream.hpp"

namespace itch5::io::detail {

class zlib_inflater {
 public:
  zlib_inflater() {
    // 16 + MAX_WBITS: a gzip header and trailer are expected.
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) throw input_error("cannot initialise zlib");
  }
  ~zlib_inflater() { inflateEnd(&zs_); }
  zlib_inflater(const zlib_inflater&) = delete;
  zlib_inflater& operator=(const zlib_inflater&) = delete;

  void begin_member() { inflateReset(&zs_); }

  inflate_status step() {
    sync_in();
    const int ret = inflate(&zs_, Z_NO_FLUSH);
    sync_out();
    if (ret == Z_STREAM_END) return inflate_status::member_end;
    if (ret == Z_OK || ret == Z_BUF_ERROR) return inflate_status::progress;
    error_ = ret;
    return inflate_status::failed;
  }

  [[nodiscard]] const char* message() const noexcept { return zs_.msg != nullptr ? zs_.msg : zError(error_); }

  unsigned char* next_in = nullptr;
  unsigned avail_in = 0;
  unsigned char* next_out = nullptr;
  unsigned avail_out = 0;

 private:
  void sync_in() {
    zs_.next_in = next_in;
    zs_.avail_in = avail_in;
    zs_.next_out = next_out;
    zs_.avail_out = avail_out;
  }
  void sync_out() {
    next_in = zs_.next_in;
    avail_in = zs_.avail_in;
    next_out = zs_.next_out;
    avail_out = zs_.avail_out;
  }

  z_stream zs_{};
  int error_ = Z_OK;
};

}  // namespace itch5::io::detail
