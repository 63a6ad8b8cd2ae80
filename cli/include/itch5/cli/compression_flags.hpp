// The flags that set how compressed outputs are written (--gzip-level, --zstd-level), shared by the tools
// that write .gz and .zst outputs (itch5inside, itch5stats, itch5synth).
//
//   itch5::cli::compression_flags compression;   // the defaults of io::output_options
//   compression.add_to(opts);
//   itch5::io::output_file out(path, compression.output());
//
// An output's name picks the format (".gz", ".zst"); the level picks the engine for gzip: 1-3 ISA-L's igzip
// where the build has it (several times zlib's speed), 4-9 zlib (smaller, slower). Every engine writes a
// plain stream that gzip/zcat or zstd read. The README's "Compressed outputs" table gives the trade.
#pragma once

#include <cstdint>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/cli/options.hpp>

namespace itch5::cli {

struct compression_flags {
  std::int64_t gzip_level = itch5::io::output_options{}.gzip_level;
  std::int64_t zstd_level = itch5::io::output_options{}.zstd_level;

  /// Registers --gzip-level and --zstd-level with `opts`; the help says which engine this build uses.
  void add_to(options& opts);
  /// The output options the flags select.
  [[nodiscard]] itch5::io::output_options output() const noexcept;
};

}  // namespace itch5::cli
