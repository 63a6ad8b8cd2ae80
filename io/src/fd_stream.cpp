#include "fd_stream.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <itch5/io/input_error.hpp>

namespace itch5::io::detail {

fd_stream::fd_stream(int fd, bool owned) : fd_(fd), owned_(owned) {
  struct stat st {};
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) {
    total_ = static_cast<std::uint64_t>(st.st_size);
    ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  }
}

fd_stream::~fd_stream() {
  if (owned_) ::close(fd_);
}

std::size_t fd_stream::raw_read(std::byte* dst, std::size_t n) {
  for (;;) {
    ssize_t r = ::read(fd_, dst, n);
    if (r >= 0) return static_cast<std::size_t>(r);
    if (errno == EINTR) continue;
    throw input_error("read error at byte offset " + std::to_string(consumed_) + ": " + std::strerror(errno));
  }
}

std::size_t fd_stream::read(std::byte* dst, std::size_t n) {
  if (!pending_.empty()) {
    std::size_t k = std::min(n, pending_.size());
    std::memcpy(dst, pending_.data(), k);
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(k));
    consumed_ += k;
    return k;
  }
  std::size_t r = raw_read(dst, n);
  consumed_ += r;
  return r;
}

std::size_t fd_stream::peek(std::byte* dst, std::size_t n) {
  while (pending_.size() < n) {
    std::byte tmp[256];
    std::size_t r = raw_read(tmp, std::min(sizeof tmp, n - pending_.size()));
    if (r == 0) break;
    pending_.insert(pending_.end(), tmp, tmp + r);
  }
  std::size_t k = std::min(n, pending_.size());
  if (k != 0) std::memcpy(dst, pending_.data(), k);  // an empty vector's data() may be null
  return k;
}

}  // namespace itch5::io::detail
