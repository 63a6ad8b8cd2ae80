// An output that is never half-written: standard output, a file, or a gzip-compressed file.
//
// A named file is written under a temporary name in the same directory ("FILE.tmp.<pid>") and renamed to
// FILE by commit(). A run that stops early calls abandon() (the destructor does too): what was written is
// flushed and kept as "FILE.partial", never under the final name, so a consumer that sees FILE knows it is
// complete. Names ending in ".gz" are compressed on the fly (Boost.Iostreams' gzip_compressor over zlib).
// Standard output ("-") and existing non-regular files (/dev/null, a FIFO) are written directly;
// commit() and abandon() flush them.
//
// Callers hand over whole records (complete lines): write() never splits what it is given across a flush
// boundary it controls, so the partial output holds complete records only.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace itch5 {

struct output_options {
  int gzip_level = 6;  ///< zlib level for .gz outputs, 1 (fast) to 9 (small).
};

class output_file {
 public:
  explicit output_file(std::string path, output_options options = {});
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// Appends bytes. Throws std::runtime_error naming the file on a write error.
  void write(std::string_view bytes);

  /// Finishes the output and gives it its final name. Throws on error.
  void commit();

  /// Finishes the output as FILE.partial (for "-": flushes). Returns the name the bytes were kept under.
  std::string abandon() noexcept;

  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] bool is_stdout() const noexcept { return path_ == "-"; }

 private:
  class impl;
  std::string path_;
  std::unique_ptr<impl> impl_;
};

}  // namespace itch5
