// An output that is never half-written: standard output, a file, or a gzip-compressed file.
//
// A named file is written under a temporary name in the same directory ("FILE.tmp.<pid>") and renamed to
// FILE by commit(). A run that stops early calls abandon() (the destructor does too): what was written is
// flushed and kept as "FILE.partial", never under the final name, so a consumer that sees FILE knows it is
// complete; a FILE left by an earlier run is removed at that moment, so that it cannot sit beside the new
// FILE.partial looking like this run's complete output. commit() likewise removes a FILE.partial left by an
// earlier run. discard() drops the output altogether (nothing kept). Standard output ("-") and existing
// non-regular files (/dev/null, a FIFO) are written directly; commit(), abandon() and discard() flush them.
//
// Replacing a file keeps what it was: its permission bits (a 0600 file stays 0600; set on the temporary
// file when it is created, so the bytes are never readable by more people) and, where the process may give
// them, its owner and group. A new file gets 0666 less the umask. A symbolic link (or a chain of them) is
// written through: the temporary file, FILE.partial and the rename are beside the file it finally points to
// (a relative target taken against the link's directory; a dangling link's file is created), and the link
// stays a link.
//
// Names ending in ".gz" are gzip-compressed on the fly and names ending in ".zst" zstd-compressed
// (compression_of()), on a thread of the output's own (output_options::compress_thread): write() copies
// the bytes into one of a few 1 MiB chunks and returns, so the caller's thread never waits for deflate
// unless the compressor falls a whole ring of chunks behind. gzip levels 1-3 use ISA-L's igzip where the
// build has it (ITCH5_WITH_ISAL), several times zlib's speed; levels 4-9, and every level without ISA-L,
// use zlib (through Boost.Iostreams). Either way the file is plain gzip that gzip and zcat read. An error of
// the compressing thread (a full disk) is thrown by the next write(), or by commit().
//
// Callers hand over whole records (complete lines): write() never splits what it is given across a flush
// boundary it controls, so the partial output holds complete records only.
//
// Interrupted runs: every temporary file in use is also listed in a process-wide table, which
// remove_temporary_outputs() empties from a signal handler (it only calls unlink(), which is
// async-signal-safe), for a program killed before it could abandon() or discard() its outputs.
//
// Thread safety: an output_file is used by one thread at a time; the table is safe to read from a signal
// handler while outputs are created and finished on any thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

namespace itch5::io {

/// How an output is compressed, from its name.
enum class compression { none, gzip, zstd };

/// gzip for a name ending in ".gz", zstd for ".zst", none otherwise.
[[nodiscard]] compression compression_of(std::string_view path) noexcept;

/// The highest gzip level that ISA-L's igzip compresses (where the build has it); zlib above.
inline constexpr int max_igzip_level = 3;

struct output_options {
  /// Level of .gz outputs, 1 (fast) to 9 (small): 1-3 ISA-L's igzip where the build has it, else zlib.
  /// Default 1: on the inside file of a generated day igzip level 1 compresses several times faster than
  /// zlib's default level 6, to a file ~10% larger (README, "Compressed outputs").
  int gzip_level = 1;
  /// Level of .zst outputs, 1 (fast) to 19 (small).
  int zstd_level = 1;
  /// Compress on a thread of the output's own (true) or in write() itself (false). The bytes are the same.
  bool compress_thread = true;
};

class output_file {
 public:
  explicit output_file(std::string path, output_options options = {});
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// Appends bytes. Throws std::runtime_error naming the file on a write error.
  void write(std::string_view bytes);

  /// Finishes the output and gives it its final name (removing a FILE.partial of an earlier run). Throws
  /// on error.
  void commit();

  /// Finishes the output as FILE.partial (for "-": flushes) and removes a FILE of an earlier run. Returns
  /// the name the bytes were kept under.
  std::string abandon() noexcept;

  /// Drops the output: the temporary file is removed, FILE and FILE.partial are left as they were (for "-"
  /// and non-regular files: flushes).
  void discard() noexcept;

  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] bool is_stdout() const noexcept { return path_ == "-"; }

 private:
  class impl;
  std::string path_;
  std::unique_ptr<impl> impl_;
};

/// Removes every temporary file of an output_file not yet committed, abandoned or discarded. Only calls
/// unlink(): safe in a signal handler. Returns how many it removed.
int remove_temporary_outputs() noexcept;

}  // namespace itch5::io
