#include <itch5/io/output_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <thread>

#include <itch5/io/chunk_ring.hpp>

#include "compressor.hpp"

namespace itch5::io {

compression compression_of(std::string_view path) noexcept {
  if (path.size() > 3 && path.ends_with(".gz")) return compression::gzip;
  if (path.size() > 4 && path.ends_with(".zst")) return compression::zstd;
  return compression::none;
}

namespace {

// A compressor fed either directly (write() compresses) or through a thread of its own: write() copies the
// bytes into the chunk being filled and hands full chunks over a chunk_ring; the thread compresses them in
// order. An error there (a full disk) stops the compressing, and the next write() or finish() throws it.
class compress_pipe {
 public:
  compress_pipe(std::unique_ptr<detail::compressor> c, bool threaded) : compressor_(std::move(c)) {
    if (!threaded) return;
    ring_ = std::make_unique<io::chunk_ring<chunk, ring_chunks>>();
    filling_ = ring_->to_fill();
    thread_ = std::thread([this] { consume(); });
  }
  compress_pipe(const compress_pipe&) = delete;
  compress_pipe& operator=(const compress_pipe&) = delete;
  ~compress_pipe() {
    if (thread_.joinable()) {
      try {
        finish();
      } catch (...) {  // abandon() and discard() keep or drop what could be written
      }
    }
  }

  void write(std::string_view bytes) {
    if (!ring_) {
      compressor_->write(bytes);
      return;
    }
    if (failed_.load(std::memory_order_acquire)) std::rethrow_exception(error_);
    while (!bytes.empty()) {
      const std::size_t n = std::min(bytes.size(), chunk_bytes - used_);
      std::memcpy(filling_->bytes.data() + used_, bytes.data(), n);
      used_ += n;
      bytes.remove_prefix(n);
      if (used_ == chunk_bytes) publish(false);
    }
  }

  // Compresses the rest and ends the stream; rethrows the compressing thread's error. Call once.
  void finish() {
    if (ring_) {
      publish(true);
      thread_.join();
      if (error_) std::rethrow_exception(error_);
    }
    compressor_->finish();
  }

 private:
  static constexpr std::size_t chunk_bytes = std::size_t{1} << 20;
  static constexpr std::uint64_t ring_chunks = 4;
  struct chunk {
    std::array<char, chunk_bytes> bytes;
    std::size_t size;
    bool last;
  };

  void publish(bool last) {
    filling_->size = used_;
    filling_->last = last;
    ring_->publish(last);
    used_ = 0;
    if (!last) filling_ = ring_->to_fill();
  }

  void consume() {
    for (;;) {
      const chunk& c = ring_->to_read();
      const bool last = c.last;
      if (!error_) {
        try {
          compressor_->write({c.bytes.data(), c.size});
        } catch (...) {
          error_ = std::current_exception();
          failed_.store(true, std::memory_order_release);
        }
      }
      ring_->release();
      if (last) return;
    }
  }

  std::unique_ptr<detail::compressor> compressor_;
  std::unique_ptr<io::chunk_ring<chunk, ring_chunks>> ring_;  // null: compress in write()
  chunk* filling_ = nullptr;
  std::size_t used_ = 0;
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;  // written by the thread; read after failed_ or after joining it
  std::thread thread_;
};

// The process-wide table of temporary files in use, read by remove_temporary_outputs() from a signal
// handler: a slot is claimed (free -> filling), its path copied, then published (filling -> live); only live
// slots are read by the handler. A program with more outputs than slots still works; the extra temporary
// files are only not removed by a signal.
constexpr int temp_slots = 32;
constexpr std::size_t temp_path_max = 4096;
enum : int { slot_free = 0, slot_filling = 1, slot_live = 2 };
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");

struct temp_slot {
  std::atomic<int> state{slot_free};
  char path[temp_path_max];
};
temp_slot temp_table[temp_slots];

int register_temporary(const std::string& path) noexcept {
  if (path.size() >= temp_path_max) return -1;
  for (int i = 0; i < temp_slots; ++i) {
    int expected = slot_free;
    if (temp_table[i].state.compare_exchange_strong(expected, slot_filling, std::memory_order_acq_rel)) {
      std::memcpy(temp_table[i].path, path.c_str(), path.size() + 1);
      temp_table[i].state.store(slot_live, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unregister_temporary(int& slot) noexcept {
  if (slot >= 0) temp_table[slot].state.store(slot_free, std::memory_order_release);
  slot = -1;
}

bool is_regular_file(const std::string& path) noexcept {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The file a name finally refers to: `path` itself, or for a symbolic link (a chain of them) its last
// target, a relative target taken against the directory of the link that names it. The target need not
// exist (a dangling link is written through: the file is created where it points). Throws naming `path`
// on a loop or an unreadable link.
std::string final_target(const std::string& path) {
  std::string at = path;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return at;
    if (hops == 40) throw std::runtime_error(path + ": too many levels of symbolic links");
    std::string target(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 255) + 1, '\0');
    const ssize_t n = ::readlink(at.c_str(), target.data(), target.size());
    if (n < 0)
      throw std::runtime_error(path + ": cannot read the symbolic link " + at + ": " + std::strerror(errno));
    if (static_cast<std::size_t>(n) == target.size())
      throw std::runtime_error(path + ": symbolic link " + at + " changed while read");
    target.resize(static_cast<std::size_t>(n));
    if (target.empty()) throw std::runtime_error(path + ": symbolic link " + at + " is empty");
    if (target.front() != '/') {
      const std::size_t slash = at.rfind('/');
      if (slash != std::string::npos) target = at.substr(0, slash + 1) + target;
    }
    at = std::move(target);
  }
}

}  // namespace

int remove_temporary_outputs() noexcept {
  int removed = 0;
  for (auto& slot : temp_table) {
    if (slot.state.load(std::memory_order_acquire) == slot_live && ::unlink(slot.path) == 0) ++removed;
  }
  return removed;
}

class output_file::impl {
 public:
  impl(const std::string& path, output_options options)
      : path_(path), name_(path == "-" ? "standard output" : path) {
    if (path == "-") {
      fd_ = STDOUT_FILENO;
      return;
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
      // A device, FIFO or socket (/dev/null, a named pipe): written directly, nothing to rename.
      fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) throw std::runtime_error(path + ": cannot open for writing: " + std::strerror(errno));
      direct_ = true;
    } else {
      // Written beside the file the name finally refers to, so that the rename replaces that file and a
      // symbolic link keeps pointing at the new content.
      target_ = final_target(path);
      temp_ = target_ + ".tmp." + std::to_string(::getpid());
      // A new file gets 0666 less the umask, like any file a program creates. One that replaces a file is
      // created 0600 and then given that file's mode (keep_mode_and_owner), so that it is never open to
      // more people than the file it replaces, not even for the moment between the two.
      struct stat existing {};
      const bool replaces = ::stat(target_.c_str(), &existing) == 0 && S_ISREG(existing.st_mode);
      fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, replaces ? 0600 : 0666);
      if (fd_ < 0) throw std::runtime_error(path + ": cannot create " + temp_ + ": " + std::strerror(errno));
      slot_ = register_temporary(temp_);
      keep_mode_and_owner();
    }
    if (const compression format = compression_of(path); format != compression::none) {
      try {
        gz_ = std::make_unique<compress_pipe>(detail::make_compressor(format, options, fd_, name_),
                                              options.compress_thread);
      } catch (...) {
        discard();
        throw;
      }
    }
  }

  void write(std::string_view bytes) {
    if (gz_) {
      gz_->write(bytes);
      return;
    }
    detail::write_all(fd_, bytes.data(), bytes.size(), name_);
  }

  // Flushes and closes; throws on error. Leaves the bytes under the temporary name.
  void close() {
    if (closed_) return;
    closed_ = true;
    if (gz_) {
      const std::unique_ptr<compress_pipe> gz = std::move(gz_);
      gz->finish();  // compresses the rest and writes the trailer
    }
    if (fd_ == STDOUT_FILENO) return;
    if (::close(fd_) != 0) throw std::runtime_error(path_ + ": close error: " + std::strerror(errno));
  }

  void commit() {
    close();
    if (temp_.empty()) return;
    if (std::rename(temp_.c_str(), target_.c_str()) != 0) {
      throw std::runtime_error(path_ + ": cannot rename " + temp_ + ": " + std::strerror(errno));
    }
    unregister_temporary(slot_);
    temp_.clear();
    // A FILE.partial of an earlier, failed run would otherwise sit beside the complete FILE.
    const std::string stale = target_ + ".partial";
    if (is_regular_file(stale)) ::unlink(stale.c_str());
  }

  std::string abandon() noexcept {
    try {
      close();
    } catch (...) {  // keep what could be written
    }
    if (temp_.empty()) return path_;
    std::string partial = target_ + ".partial";
    if (std::rename(temp_.c_str(), partial.c_str()) != 0) {
      partial = temp_;
    } else if (is_regular_file(target_)) {
      // FILE is from an earlier run: left there, it would look like this run's complete output. (Behind a
      // symbolic link, the file it points at goes; the link stays.)
      ::unlink(target_.c_str());
    }
    unregister_temporary(slot_);
    temp_.clear();
    return partial;
  }

  // Drops the output; also undoes a half-finished constructor (the destructor of output_file never runs
  // for it).
  void discard() noexcept {
    if (!closed_ && (fd_ == STDOUT_FILENO || direct_)) {
      try {
        close();  // what went to standard output or a device is flushed
      } catch (...) {
      }
    } else if (!closed_) {
      closed_ = true;
      try {
        gz_.reset();
      } catch (...) {
      }
      if (fd_ >= 0) ::close(fd_);
    }
    if (!temp_.empty()) ::unlink(temp_.c_str());
    unregister_temporary(slot_);
    temp_.clear();
  }

  [[nodiscard]] bool open() const noexcept {
    return !temp_.empty() || ((fd_ == STDOUT_FILENO || direct_) && !closed_);
  }

 private:
  // The file being replaced keeps its permissions and, where the process may give it (root, or a group
  // of its own), its owner and group: a 0600 file stays 0600 rather than becoming 0644. Set on the
  // temporary file as soon as it is created, so the bytes are never readable by more people than before.
  void keep_mode_and_owner() noexcept {
    struct stat old {};
    if (::stat(target_.c_str(), &old) != 0 || !S_ISREG(old.st_mode)) return;
    // Owner first: fchown() may clear set-user-ID bits that fchmod() then sets again. EPERM (an owner the
    // process may not give) leaves this process's own, as a new file would have.
    if (::fchown(fd_, old.st_uid, old.st_gid) != 0 &&
        ::fchown(fd_, static_cast<uid_t>(-1), old.st_gid) != 0) {
      // Neither: the new file is this process's, as a new file would be.
    }
    if (::fchmod(fd_, old.st_mode & 07777) != 0) {
      // Not reached for a file this process created; the umask's mode stays.
    }
  }

  std::string path_;
  std::string name_;    // for messages: "standard output" rather than "-"
  std::string target_;  // the file written: path_, or the file a symbolic link path_ points to
  std::string temp_;
  int fd_ = -1;
  int slot_ = -1;        // in the table of temporary files, -1 when none
  bool direct_ = false;  // a non-regular file written in place
  bool closed_ = false;
  std::unique_ptr<compress_pipe> gz_;  // for a compressed output
};

output_file::output_file(std::string path, output_options options)
    : path_(std::move(path)), impl_(std::make_unique<impl>(path_, options)) {}

output_file::~output_file() {
  if (impl_->open()) impl_->abandon();
}

void output_file::write(std::string_view bytes) { impl_->write(bytes); }
void output_file::commit() { impl_->commit(); }
std::string output_file::abandon() noexcept { return impl_->abandon(); }
void output_file::discard() noexcept { impl_->discard(); }

}  // namespace itch5::io
