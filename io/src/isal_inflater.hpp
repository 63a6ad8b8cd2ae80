// Internal: ISA-L's igzip as the deflate engine for inflate_stream (built with ITCH5_WITH_ISAL). igzip
// parses the gzip header and verifies the CRC-32 itself (crc_flag = ISAL_GZIP).
#pragma once

#include <isa-l/igzip_lib.h>

#include <memory>

#include "inflate_stream.hpp"

namespace itch5::io::detail {

class isal_inflater {
 public:
  isal_inflater() : state_(std::make_unique<inflate_state>()) {}

  void begin_member() {
    isal_inflate_init(state_.get());
    state_->crc_flag = ISAL_GZIP;
  }

  inflate_status step() {
    state_->next_in = next_in;
    state_->avail_in = avail_in;
    state_->next_out = next_out;
    state_->avail_out = avail_out;
    const int ret = isal_inflate(state_.get());
    next_in = state_->next_in;
    avail_in = state_->avail_in;
    next_out = state_->next_out;
    avail_out = state_->avail_out;
    if (ret != ISAL_DECOMP_OK) {
      error_ = ret;
      return inflate_status::failed;
    }
    return state_->block_state == ISAL_BLOCK_FINISH ? inflate_status::member_end : inflate_status::progress;
  }

  [[nodiscard]] const char* message() const noexcept {
    switch (error_) {
      case ISAL_INVALID_BLOCK: return "invalid deflate block";
      case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
      case ISAL_INVALID_LOOKBACK: return "invalid lookback distance";
      case ISAL_INVALID_WRAPPER: return "invalid gzip header";
      case ISAL_UNSUPPORTED_METHOD: return "unsupported compression method";
      case ISAL_INCORRECT_CHECKSUM: return "incorrect checksum";
      default: return "igzip error";
    }
  }

  unsigned char* next_in = nullptr;
  unsigned avail_in = 0;
  unsigned char* next_out = nullptr;
  unsigned avail_out = 0;

 private:
  std::unique_ptr<inflate_state> state_;  // large (huffman tables): on the heap
  int error_ = ISAL_DECOMP_OK;
};

}  // namespace itch5::io::detail
