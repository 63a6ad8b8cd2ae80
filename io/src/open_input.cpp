#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/capture.hpp>
#include <itch5/io/input_error.hpp>

#include "fd_stream.hpp"
#include "inflate_stream.hpp"
#include "zlib_inflater.hpp"
#ifdef ITCH5_HAVE_ISAL
#include "isal_inflater.hpp"
#endif

namespace itch5::io {

bool inflate_library_available(inflate_library lib) noexcept {
#ifdef ITCH5_HAVE_ISAL
  (void)lib;
  return true;
#else
  return lib == inflate_library::zlib;
#endif
}

inflate_library default_inflate_library() noexcept {
  return inflate_library_available(inflate_library::isal) ? inflate_library::isal : inflate_library::zlib;
}

namespace {

// The first bytes of another stream, read ahead to look for a capture's magic, then the rest of it. An
// error while reading ahead is raised on the first read(), as the stream itself would.
class prefixed_stream final : public byte_stream {
 public:
  explicit prefixed_stream(std::unique_ptr<byte_stream> inner) : inner_(std::move(inner)) {
    try {
      while (len_ < sizeof head_) {
        std::size_t r = inner_->read(head_ + len_, sizeof head_ - len_);
        if (r == 0) break;
        len_ += r;
      }
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  std::size_t read(std::byte* dst, std::size_t n) override {
    if (pos_ < len_) {
      std::size_t k = std::min(n, len_ - pos_);
      std::memcpy(dst, head_ + pos_, k);
      pos_ += k;
      return k;
    }
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    return inner_->read(dst, n);
  }
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return inner_->consumed(); }
  [[nodiscard]] std::uint64_t total() const noexcept override { return inner_->total(); }
  [[nodiscard]] bool compressed() const noexcept override { return inner_->compressed(); }
  [[nodiscard]] bool borrows_memory() const noexcept override { return inner_->borrows_memory(); }
  [[nodiscard]] std::span<const std::byte> head() const noexcept { return {head_, len_}; }

 private:
  std::unique_ptr<byte_stream> inner_;
  std::byte head_[4];
  std::size_t len_ = 0;
  std::size_t pos_ = 0;
  std::exception_ptr error_;
};

// `s` decoded from a capture when its first bytes say so (a capture inside gzip included).
std::unique_ptr<byte_stream> maybe_capture(std::unique_ptr<byte_stream> s, const capture_options& capture,
                                           const std::string& name) {
  auto p = std::make_unique<prefixed_stream>(std::move(s));
  if (!looks_like_capture(p->head())) return p;
  try {
    return capture_input(std::move(p), capture);
  } catch (const input_error& e) {
    throw capture_error(name + ": " + e.what(), 0, 0);
  }
}

std::string input_name(const std::string& path) { return path == "-" ? std::string("standard input") : path; }

}  // namespace

std::unique_ptr<byte_stream> open_input(const std::string& path, inflate_library inflater) {
  return open_input(path, inflater, capture_options{});
}

std::unique_ptr<byte_stream> open_input(const std::string& path, inflate_library inflater,
                                        const capture_options& capture) {
  std::unique_ptr<detail::fd_stream> raw;
  if (path == "-") {
    raw = std::make_unique<detail::fd_stream>(STDIN_FILENO, false);
  } else {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw input_error(path + ": cannot open: " + std::strerror(errno));
    raw = std::make_unique<detail::fd_stream>(fd, true);
  }
  std::byte magic[4];
  std::size_t peeked = 0;
  try {
    peeked = raw->peek(magic, 4);
  } catch (const input_error& e) {
    // open(2) succeeds on a directory and fails only on the first read: name the input here, since the
    // caller has no reader (and no describe(path)) yet.
    throw input_error((path == "-" ? std::string("standard input") : path) + ": " + e.what());
  }
  if (peeked >= 2 && magic[0] == std::byte{0x1f} && magic[1] == std::byte{0x8b}) {
    if (inflater == inflate_library::isal) {
#ifdef ITCH5_HAVE_ISAL
      return maybe_capture(std::make_unique<detail::inflate_stream<detail::isal_inflater>>(std::move(raw)),
                           capture, input_name(path));
#else
      throw input_error("this build has no ISA-L support (configure with -DITCH5_WITH_ISAL=ON)");
#endif
    }
    return maybe_capture(std::make_unique<detail::inflate_stream<detail::zlib_inflater>>(std::move(raw)),
                         capture, input_name(path));
  }
  if (looks_like_capture({magic, peeked})) {
    try {
      return capture_input(std::move(raw), capture);
    } catch (const input_error& e) {
      throw capture_error(input_name(path) + ": " + e.what(), 0, 0);
    }
  }
  return raw;
}

namespace {

class memory_stream final : public byte_stream {
 public:
  explicit memory_stream(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::size_t read(std::byte* dst, std::size_t n) override {
    std::size_t k = std::min(n, bytes_.size() - pos_);
    std::memcpy(dst, bytes_.data() + pos_, k);
    pos_ += k;
    return k;
  }
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return pos_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return bytes_.size(); }
  [[nodiscard]] bool borrows_memory() const noexcept override { return true; }

 private:
  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<byte_stream> memory_input(std::span<const std::byte> bytes) {
  return memory_input(bytes, capture_options{});
}

std::unique_ptr<byte_stream> memory_input(std::span<const std::byte> bytes, const capture_options& capture) {
  if (bytes.size() >= 2 && bytes[0] == std::byte{0x1f} && bytes[1] == std::byte{0x8b}) {
    return maybe_capture(std::make_unique<detail::inflate_stream<detail::zlib_inflater>>(
                             std::make_unique<memory_stream>(bytes)),
                         capture, "memory input");
  }
  if (looks_like_capture(bytes.first(std::min<std::size_t>(bytes.size(), 4)))) {
    return capture_input(std::make_unique<memory_stream>(bytes), capture);
  }
  return std::make_unique<memory_stream>(bytes);
}

}  // namespace itch5::io
