// Internal: a byte_stream that inflates gzip data read from another byte_stream, with zlib.
//
// zlib's inflate is driven directly (rather than through Boost.Iostreams' gzip_decompressor) because the
// reader must (a) hand over every byte inflated before a corruption point, (b) name the compressed byte
// offset of the corruption, and (c) tell trailing garbage from a next member. Boost's filter throws away
// the bytes it inflated in the failing call and reports no position; see docs/design.md.
//
// Multi-member files (concatenated gzip streams, as written by pigz or `cat a.gz b.gz`) are read as one
// stream. Trailing zero bytes after the last member are ignored, as gzip does. Anything else after the last
// member is an error, raised after all inflated bytes were returned.
#pragma once

#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <zlib.h>

#include <itch5/byte_stream.hpp>

namespace itch5::detail {

class gzip_stream final : public byte_stream {
 public:
  explicit gzip_stream(std::unique_ptr<byte_stream> compressed);
  ~gzip_stream() override;
  gzip_stream(const gzip_stream&) = delete;
  gzip_stream& operator=(const gzip_stream&) = delete;

  std::size_t read(std::byte* dst, std::size_t n) override;
  [[nodiscard]] std::uint64_t consumed() const noexcept override {
    return inner_->consumed() - zs_.avail_in;
  }
  [[nodiscard]] std::uint64_t total() const noexcept override { return inner_->total(); }
  [[nodiscard]] bool compressed() const noexcept override { return true; }

 private:
  bool fill();  // refills the input buffer (keeping unread bytes); false at the end of the input
  [[noreturn]] void fail(const std::string& what) const;
  void start_next_member_or_finish();

  std::unique_ptr<byte_stream> inner_;
  z_stream zs_{};
  std::vector<unsigned char> in_;
  bool in_member_ = true;  // false between members, after a Z_STREAM_END
  bool finished_ = false;
  bool input_ended_ = false;
  std::uint64_t members_ = 0;
  std::exception_ptr deferred_;
};

}  // namespace itch5::detail
