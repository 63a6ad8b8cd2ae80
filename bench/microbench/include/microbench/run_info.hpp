// What a benchmark result depends on besides the code: the build (compiler, flags, build type, git
// commit, captured when the library was configured and built) and the machine (CPU model, kernel, date),
// written as the '# key: value' lines that open a verbose dump.
//
//   auto info = microbench::run_info::collect();
//   info.add("option.iterations", "1000");   // anything else worth recording
//   info.write(std::cout);                   // "# compiler: GNU 12.2.0\n# flags: -O3 ...\n..."
//
// The git commit is read when the build runs (every build re-checks it) and ends in "-dirty" when the
// tracked files differed from the commit; "unknown" outside a git checkout.
// Complexity: collect() reads /proc/cpuinfo and calls uname(2) once. Thread-safety: plain data.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace microbench {

class run_info {
 public:
  /// Build and machine facts, in this order: compiler, flags, build_type, git_commit, cpu_model, cpus,
  /// kernel, date (UTC, ISO 8601).
  [[nodiscard]] static run_info collect();

  /// Appends a fact; keys are written as they are, values with newlines replaced by spaces.
  void add(std::string key, std::string value);

  /// The value recorded under `key`, or an empty view.
  [[nodiscard]] std::string_view get(std::string_view key) const noexcept;

  /// Writes one "# key: value" line per fact.
  void write(std::ostream& out) const;

  [[nodiscard]] const std::vector<std::pair<std::string, std::string>>& facts() const noexcept {
    return facts_;
  }

 private:
  std::vector<std::pair<std::string, std::string>> facts_;
};

namespace build {
// Filled in by the build (generated sources, see bench/microbench/CMakeLists.txt).
extern const char* const compiler;    ///< "GNU 12.2.0"
extern const char* const flags;       ///< CMAKE_CXX_FLAGS, build-type flags and the project's options
extern const char* const build_type;  ///< "Release"
extern const char* const git_commit;  ///< 40 hex digits, "-dirty" appended for a modified tree
}  // namespace build

}  // namespace microbench
