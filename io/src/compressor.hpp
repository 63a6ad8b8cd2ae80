// Internal: the compressors behind output_file, one per engine, each writing what it produces to a file
// descriptor. output_file hands them large chunks (hundreds of KB), so the one virtual call per chunk costs
// nothing measurable.
//
//   gzip, ISA-L's igzip (levels 1-3 of output_options::gzip_level, where the build has ISA-L): several times
//        zlib's speed at a size between zlib's levels 1 and 6;
//   gzip, zlib through Boost.Iostreams' gzip_compressor (levels 4-9, and every level without ISA-L);
//   zstd, libzstd (output_options::zstd_level).
//
// Every engine writes a standard single-member file that gzip/zcat (or zstd -d) read.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <itch5/io/output_file.hpp>

namespace itch5::io::detail {

class compressor {
 public:
  virtual ~compressor() = default;
  /// Compresses `bytes` and writes what comes out. Throws std::runtime_error naming the output on error.
  virtual void write(std::string_view bytes) = 0;
  /// Compresses what is still buffered and writes the end of the stream (trailer). Call once.
  virtual void finish() = 0;
};

/// Writes all `n` bytes at `data` to `fd`, again after EINTR and short writes. Throws std::runtime_error
/// "NAME: write error: ..." (the uncompressed outputs of output_file write through it too).
void write_all(int fd, const char* data, std::size_t n, const std::string& name);

/// The compressor for `format` (not compression::none) writing to `fd`; `name` is for messages.
std::unique_ptr<compressor> make_compressor(compression format, const output_options& options, int fd,
                                            const std::string& name);

/// The engine make_compressor() uses for `format` and `options`, for --version style reports and tests:
/// "igzip", "zlib" or "zstd".
std::string_view compressor_engine(compression format, const output_options& options) noexcept;

}  // namespace itch5::io::detail
