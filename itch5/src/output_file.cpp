#include <itch5/output_file.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>

namespace itch5 {
namespace io = boost::iostreams;

class output_file::impl {
 public:
  impl(const std::string& path, output_options options) : path_(path) {
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
      temp_ = path + ".tmp." + std::to_string(::getpid());
      fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd_ < 0) throw std::runtime_error(path + ": cannot create " + temp_ + ": " + std::strerror(errno));
    }
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) {
      gz_ = std::make_unique<io::filtering_ostream>();
      gz_->push(io::gzip_compressor(io::gzip_params(options.gzip_level)), 1 << 16);
      gz_->push(io::file_descriptor_sink(fd_, io::never_close_handle), 1 << 16);
      // Only now: a filtering_ostream without a complete chain is bad(), and exceptions() would throw.
      gz_->exceptions(std::ios::badbit | std::ios::failbit);
    }
  }

  void write(std::string_view bytes) {
    if (gz_) {
      try {
        gz_->write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      } catch (const std::exception& e) {
        throw std::runtime_error(path_ + ": write error: " + e.what());
      }
      return;
    }
    while (!bytes.empty()) {
      ssize_t w = ::write(fd_, bytes.data(), bytes.size());
      if (w < 0) {
        if (errno == EINTR) continue;
        throw std::runtime_error(path_ + ": write error: " + std::strerror(errno));
      }
      bytes.remove_prefix(static_cast<std::size_t>(w));
    }
  }

  // Flushes and closes; throws on error. Leaves the bytes under the temporary name.
  void close() {
    if (closed_) return;
    closed_ = true;
    if (gz_) {
      try {
        gz_->reset();  // flushes the compressor and writes the gzip trailer
      } catch (const std::exception& e) {
        throw std::runtime_error(path_ + ": write error: " + e.what());
      }
      gz_.reset();
    }
    if (fd_ == STDOUT_FILENO) return;
    if (::close(fd_) != 0) throw std::runtime_error(path_ + ": close error: " + std::strerror(errno));
  }

  void commit() {
    close();
    if (temp_.empty()) return;
    if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
      throw std::runtime_error(path_ + ": cannot rename " + temp_ + ": " + std::strerror(errno));
    }
    temp_.clear();
  }

  std::string abandon() noexcept {
    try {
      close();
    } catch (...) {  // keep what could be written
    }
    if (temp_.empty()) return path_;
    std::string partial = path_ + ".partial";
    if (std::rename(temp_.c_str(), partial.c_str()) != 0) partial = temp_;
    temp_.clear();
    return partial;
  }

  [[nodiscard]] bool open() const noexcept { return !temp_.empty() || ((fd_ == STDOUT_FILENO || direct_) && !closed_); }

 private:
  std::string path_;
  std::string temp_;
  int fd_ = -1;
  bool direct_ = false;  // a non-regular file written in place
  bool closed_ = false;
  std::unique_ptr<io::filtering_ostream> gz_;
};

output_file::output_file(std::string path, output_options options)
    : path_(std::move(path)), impl_(std::make_unique<impl>(path_, options)) {}

output_file::~output_file() {
  if (impl_->open()) impl_->abandon();
}

void output_file::write(std::string_view bytes) { impl_->write(bytes); }
void output_file::commit() { impl_->commit(); }
std::string output_file::abandon() noexcept { return impl_->abandon(); }

}  // namespace itch5
