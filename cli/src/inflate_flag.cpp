#include <itch5/cli/inflate_flag.hpp>

namespace itch5::cli {

void inflate_flag::add_to(options& opts) {
  const bool isal = itch5::io::inflate_library_available(itch5::io::inflate_library::isal);
  opts.add("inflate", name,
           std::string(
               "Inflate library for .gz input: auto (isal where the build has it, else zlib; this build: ") +
               (isal ? "isal" : "zlib") +
               "), zlib, or isal (ISA-L igzip, about twice as fast; in builds made where libisal-dev is "
               "installed).")
      .choices({"auto", "zlib", "isal"});
}

itch5::io::inflate_library inflate_flag::library() const noexcept {
  if (name == "zlib") return itch5::io::inflate_library::zlib;
  if (name == "isal") return itch5::io::inflate_library::isal;
  return itch5::io::default_inflate_library();
}

}  // namespace itch5::cli
