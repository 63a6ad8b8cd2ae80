// Checks every file a run will read and write before it reads anything, so that no flag combination can
// overwrite an input or write two outputs into one file.
//
//   itch5::cli::path_guard paths;
//   paths.input(cfg.input, "INPUT");
//   paths.output(cfg.output, "--output");
//   paths.output(cfg.stats, "--stats");
//   paths.check();  // throws itch5::cli::path_error naming both paths of the first conflict
//
// Files are compared by identity, not by name: an existing path by device and inode after following
// symbolic links (so "x", "./x", a symlink to x and a hard link to x are all x), a path that does not exist
// yet by its directory's device and inode plus its last name component. The rules:
// - an output must not be an input, nor another output of the same run, nor the FILE.partial name an
//   output would fall back to on failure; "-" (standard output) at most once, and standard output must not
//   be redirected (or appended) to an input;
// - "-" (standard input) at most once among the inputs; an input must exist and not be a directory;
// - an output's directory must exist and be writable (it is written as a temporary file there, then
//   renamed); an existing output must be a regular file the user may write, or a device or FIFO (written in
//   place; a character device such as /dev/null may be given more than once).
// - a distinct input (distinct_input: e.g. the files itch5stats merge adds up) must not be the same file
//   as another distinct input, under any name: reading it twice would count it twice.
// An input-and-output (a cache such as an FFTW wisdom file) is read at the start and replaced at the end:
// it must not be any other input or output.
//
// Not thread-safe; meant for a program's start-up.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace itch5::cli {

/// A conflict or an unusable path; what() is one line naming the path(s) and the flag(s).
class path_error : public std::invalid_argument {
 public:
  enum class kind {
    conflict,  ///< the command line asks for something unsafe (a usage error: exit status 2)
    unusable,  ///< a path cannot be read or written (missing input, unwritable directory: exit status 1)
  };
  path_error(kind k, const std::string& what) : std::invalid_argument(what), kind_(k) {}
  [[nodiscard]] kind what_kind() const noexcept { return kind_; }
  /// The tools' exit status for this error: 2 for a conflict, 1 for an unusable path.
  [[nodiscard]] int exit_status() const noexcept { return kind_ == kind::conflict ? 2 : 1; }

 private:
  kind kind_;
};

class path_guard {
 public:
  /// A file the run reads; "-" is standard input. `role` names it in messages ("INPUT", "A", "--config").
  void input(std::string path, std::string role);
  /// An input as input(), which must moreover not be the same file as any other distinct input.
  void distinct_input(std::string path, std::string role);
  /// A file the run writes; "-" is standard output. Empty paths are ignored (the output is off).
  void output(std::string path, std::string role);
  /// A file read at the start if it exists and replaced at the end. Empty paths are ignored.
  void input_output(std::string path, std::string role);

  /// Checks everything given so far; throws path_error on the first problem.
  void check() const;

 private:
  enum class use { in, out, in_out };
  struct entry {
    std::string path;
    std::string role;
    use how;
    bool distinct = false;
  };
  std::vector<entry> entries_;
};

}  // namespace itch5::cli
