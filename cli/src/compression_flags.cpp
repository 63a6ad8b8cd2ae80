#include <itch5/cli/compression_flags.hpp>

#include <string>

namespace itch5::cli {

void compression_flags::add_to(options& opts) {
  const bool isal = itch5::io::inflate_library_available(itch5::io::inflate_library::isal);
  opts.add("gzip-level", gzip_level,
           std::string("Compression level of .gz outputs, 1 (fast) .. 9 (small). 1-") +
               std::to_string(itch5::io::max_igzip_level) + " use ISA-L's igzip" +
               (isal ? "" : " in builds that have it (not this one: zlib here)") +
               ", several times faster than zlib; " + std::to_string(itch5::io::max_igzip_level + 1) +
               "-9 zlib. Any level is read by gzip and zcat.",
           1, 9);
  opts.add("zstd-level", zstd_level, "Compression level of .zst outputs, 1 (fast) .. 19 (small).", 1, 19);
}

itch5::io::output_options compression_flags::output() const noexcept {
  itch5::io::output_options o;
  o.gzip_level = static_cast<int>(gzip_level);
  o.zstd_level = static_cast<int>(zstd_level);
  return o;
}

}  // namespace itch5::cli
