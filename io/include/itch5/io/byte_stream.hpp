// A sequential source of bytes: a raw file, standard input, or the inflated contents of a .gz file.
//
// open_input() picks the kind from the bytes, not the name: data starting with the gzip magic (1f 8b) is
// inflated whatever the file is called, so `file.itch` that is really gzip, or gzip on stdin, just works.
// A pcap or pcapng capture (raw or inside gzip) is read as the BinaryFILE stream of its MoldUDP64 messages
// (capture.hpp).
// Streams are used from one thread at a time. Errors are reported as itch5::io::input_error exceptions; a
// stream that hits an error after producing bytes returns those bytes first and throws on the next read(),
// so nothing decoded before a corruption point is lost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace itch5::io {

struct capture_options;  // capture.hpp

class byte_stream {
 public:
  virtual ~byte_stream() = default;

  /// Reads up to `n` (> 0) bytes into `dst`. Returns 0 only at the end of the input.
  /// Throws input_error on failure (after returning any bytes produced before it).
  virtual std::size_t read(std::byte* dst, std::size_t n) = 0;

  /// Bytes consumed so far from the underlying file: compressed bytes for gzip input.
  [[nodiscard]] virtual std::uint64_t consumed() const noexcept = 0;

  /// Size of the underlying file in bytes, or 0 when unknown (a pipe).
  [[nodiscard]] virtual std::uint64_t total() const noexcept = 0;

  /// True when the bytes returned are inflated from compressed input.
  [[nodiscard]] virtual bool compressed() const noexcept { return false; }

  /// True when read() copies from memory the caller owns (memory_input()), so the stream must not be read
  /// once the caller may have freed it. A threaded block source then waits, when destroyed, for the read its
  /// producer thread has in progress (never long: memory does not block) instead of leaving it running.
  [[nodiscard]] virtual bool borrows_memory() const noexcept { return false; }
};

/// Which inflate implementation decodes .gz input. Both deliver the same bytes and fail on the same inputs;
/// the error wording of a corrupt stream differs.
enum class inflate_library {
  zlib,  ///< zlib (Debian's zlib1g): every build has it.
  isal,  ///< ISA-L igzip (about twice zlib's speed), when the build has ITCH5_WITH_ISAL; otherwise
         ///< open_input() throws.
};

/// True when this build can use `lib`.
[[nodiscard]] bool inflate_library_available(inflate_library lib) noexcept;

/// The default: isal when this build has it, else zlib.
[[nodiscard]] inflate_library default_inflate_library() noexcept;

/// Opens `path` ("-" for standard input), detecting gzip by its magic bytes.
/// Throws input_error naming the path when it cannot be opened.
[[nodiscard]] std::unique_ptr<byte_stream> open_input(const std::string& path,
                                                      inflate_library inflater = default_inflate_library());
/// As above; a capture is read with `capture` (filter, statistics, gap reports).
[[nodiscard]] std::unique_ptr<byte_stream> open_input(const std::string& path, inflate_library inflater,
                                                      const capture_options& capture);

/// A stream over bytes held by the caller (not copied; they must outlive the stream). Bytes starting with
/// the gzip magic are inflated, as open_input() does for files. For tests, fuzzers and embedding.
[[nodiscard]] std::unique_ptr<byte_stream> memory_input(std::span<const std::byte> bytes);
[[nodiscard]] std::unique_ptr<byte_stream> memory_input(std::span<const std::byte> bytes,
                                                        const capture_options& capture);

}  // namespace itch5::io
