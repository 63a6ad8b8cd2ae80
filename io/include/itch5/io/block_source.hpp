// Large blocks of input bytes for the message reader, optionally read ahead on a second thread.
//
// Each block comes with `headroom` writable bytes in front of it, so the reader can copy the partial
// message left at the end of the previous block there and parse it contiguously with the new bytes: no
// per-message stitching, no per-message read call.
//
// With `threaded`, a producer thread fills a ring of blocks (inflating gzip there) while the caller parses:
// a single-producer / single-consumer hand-off per block, two threads in all. Errors raised while reading
// are delivered in order, after the bytes read before them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <itch5/io/byte_stream.hpp>

namespace itch5::io {

struct block_options {
  std::size_t block_size = std::size_t{1} << 20;  ///< Bytes per block.
  bool threaded = true;                           ///< Read ahead on a producer thread.
  std::size_t slots = 6;                          ///< Blocks in the ring when threaded (>= 3).
};

class block_source {
 public:
  /// Writable bytes available before every block: room for a carried partial message (2 + 65535 bytes).
  static constexpr std::size_t headroom = 65536 + 64;

  virtual ~block_source() = default;

  /// The next block; empty at the end of the input. The returned bytes stay valid, and writable together
  /// with the `headroom` bytes before them, until the call after the next one.
  /// Throws input_error (from the underlying stream) after all bytes read before the error were returned.
  virtual std::span<std::byte> next_block() = 0;

  /// Position in the underlying file (compressed bytes for gzip) at the end of the last returned block.
  [[nodiscard]] virtual std::uint64_t consumed() const noexcept = 0;
  /// Size of the underlying file, 0 when unknown.
  [[nodiscard]] virtual std::uint64_t total() const noexcept = 0;
  /// True when the blocks are inflated from compressed input (gzip), whose integrity is known only at the
  /// end of each member.
  [[nodiscard]] virtual bool compressed() const noexcept = 0;
};

[[nodiscard]] std::unique_ptr<block_source> make_block_source(std::unique_ptr<byte_stream> stream,
                                                              const block_options& options = {});

}  // namespace itch5::io
