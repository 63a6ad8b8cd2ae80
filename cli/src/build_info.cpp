#include <itch5/cli/build_info.hpp>

namespace itch5::cli {
namespace detail {
extern const char* const git_commit;  // generated at build time by cmake/git_commit.cmake
}  // namespace detail

// ITCH5_BUILD_* come from cli/CMakeLists.txt (compile definitions of this file only).
const build_info& build_info::current() noexcept {
  static const build_info info{ITCH5_BUILD_VERSION,    detail::git_commit,         ITCH5_BUILD_COMPILER,
                               ITCH5_BUILD_TYPE,       ITCH5_BUILD_WITH_ISAL != 0, ITCH5_BUILD_SANITIZE != 0,
                               ITCH5_BUILD_NATIVE != 0};
  return info;
}

std::string build_info::version_text(std::string_view program) const {
  auto on_off = [](bool b) { return std::string(b ? "ON" : "OFF"); };
  std::string s;
  s += std::string(program) + " " + std::string(version) + " (commit " + std::string(git_commit) + ")\n";
  s += "compiler: " + std::string(compiler) +
       "; build type: " + (build_type.empty() ? std::string("(none)") : std::string(build_type)) + "\n";
  s += "build options: ITCH5_WITH_ISAL=" + on_off(with_isal) +
       (with_isal ? " (ISA-L inflate available)" : " (ISA-L inflate not available)") +
       ", ITCH5_SANITIZE=" + on_off(sanitize) + ", ITCH5_NATIVE=" + on_off(native) + "\n";
  return s;
}

}  // namespace itch5::cli
