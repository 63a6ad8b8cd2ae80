// The --inflate flag of the tools that read ITCH (itch5cat, itch5inside): which library inflates .gz input.
//
//   itch5::cli::inflate_flag inflate;            // "auto" unless the command line or a config file says
//   otherwise inflate.add_to(opts); auto in = itch5::io::open_input(path, inflate.library(), capture);
//
// auto is ISA-L's igzip where the build has it (ITCH5_WITH_ISAL, on by default when libisal-dev is
// installed) and zlib otherwise; zlib and isal name one library each. Naming isal in a build without it is
// reported by open_input() when the input turns out to be gzip, as one line.
#pragma once

#include <string>

#include <itch5/io/byte_stream.hpp>

#include <itch5/cli/options.hpp>

namespace itch5::cli {

struct inflate_flag {
  std::string name = "auto";  ///< auto | zlib | isal

  /// Registers --inflate with `opts`; its help says what auto means in this build.
  void add_to(options& opts);
  /// The library `name` selects.
  [[nodiscard]] itch5::io::inflate_library library() const noexcept;
};

}  // namespace itch5::cli
