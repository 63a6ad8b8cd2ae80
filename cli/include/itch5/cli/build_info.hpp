// What this build of the itch5 programs is: project version, git commit, compiler, build type and the
// CMake options that change what the programs can do or how fast they run. --version prints it (handled
// by itch5::cli::options::parse).
//
//   std::cout << itch5::cli::build_info::current().version_text("itch5cat");
//   // itch5cat 0.1.0 (commit eee8bd0)
//   // compiler: GNU 12.2.0; build type: Release
//   // build options: ITCH5_WITH_ISAL=OFF (ISA-L inflate not available), ITCH5_SANITIZE=OFF, ITCH5_NATIVE=OFF
//
// The commit is stamped at build time (cmake/git_commit.cmake, run by every build), so it is right
// after new commits without a re-configure; the other facts are fixed when CMake configures the build.
#pragma once

#include <string>
#include <string_view>

namespace itch5::cli {

struct build_info {
  std::string_view version;     ///< CMake PROJECT_VERSION, "0.1.0"
  std::string_view git_commit;  ///< short hash, "-dirty" appended for a modified tree; "unknown" outside git
  std::string_view compiler;    ///< CMake's compiler id and version, "GNU 12.2.0"
  std::string_view build_type;  ///< "Release", "Debug", ... (empty when none was set)
  bool with_isal = false;       ///< ITCH5_WITH_ISAL: ISA-L's igzip can inflate .gz input
  bool sanitize = false;        ///< ITCH5_SANITIZE: AddressSanitizer and UndefinedBehaviorSanitizer
  bool native = false;          ///< ITCH5_NATIVE: compiled with -march=native

  /// The build this program was linked from.
  [[nodiscard]] static const build_info& current() noexcept;

  /// What --version prints: "PROGRAM VERSION (commit HASH)", then the compiler and build type, then the
  /// build options; three lines, each ending in '\n'.
  [[nodiscard]] std::string version_text(std::string_view program) const;
};

}  // namespace itch5::cli
