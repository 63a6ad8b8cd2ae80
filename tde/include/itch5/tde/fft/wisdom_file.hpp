// wisdom_file: which file a run keeps its FFTW wisdom in, and how its errors count. A file the user chose
// is loaded if it exists and saved at the end, and every error with it is an error; without a choice the
// per-user cache file of the precision is used ($XDG_CACHE_HOME/itch5/fftw-wisdom-double, or
// ~/.cache/itch5/...), where a file that cannot be read or is not wisdom is ignored (and replaced at the
// end) and a failure to save it is only a note.
//
//   const auto w = itch5::tde::wisdom_file::of(given, "double");
//   load_wisdom<double>(w);                      // before planning
//   ...
//   std::string note = save_wisdom<double>(w);  // at the end: why the cache was not saved, or ""
//
// The errors name the file, not the option that gave it: the program adds that. The same thread-safety as
// fft_wisdom.hpp, whose functions these call; of() reads the environment.
#pragma once

#include <string>

#include <itch5/tde/fft/fft_real.hpp>

namespace itch5::tde {

struct wisdom_file {
  std::string path;     ///< empty: no wisdom file
  bool chosen = false;  ///< given by the user: its errors are errors; the cache's never are

  /// The wisdom file of a run: `given` when it is a path, none for "none", else the cache file of
  /// `precision` ("double" or "float") under $XDG_CACHE_HOME/itch5 or ~/.cache/itch5 (none when neither
  /// variable holds an absolute path).
  [[nodiscard]] static wisdom_file of(const std::string& given, const std::string& precision);

  /// For a chosen file: throws std::runtime_error ("PATH: cannot be saved at the end: directory DIR:
  /// <reason>") when its directory cannot be written, so that a run does not find out at its end.
  void check_directory() const;
};

/// Loads the wisdom of `w` before planning; returns whether a file was loaded. A chosen file's directory
/// is checked first (check_directory()); a chosen file that cannot be read or is not wisdom for T throws
/// std::runtime_error naming it, while the cache's is ignored and its wisdom for T forgotten.
template <fft_real T>
bool load_wisdom(const wisdom_file& w);

/// Saves the wisdom for T to `w` at the end, creating the cache's directory. A chosen file's failure
/// throws std::runtime_error naming it; the cache's returns its reason ("" when saved, or without a file).
template <fft_real T>
[[nodiscard]] std::string save_wisdom(const wisdom_file& w);

}  // namespace itch5::tde
