#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <itch5/io/byte_stream.hpp>
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

std::unique_ptr<byte_stream> open_input(const std::string& path, inflate_library inflater) {
  std::unique_ptr<detail::fd_stream> raw;
  if (path == "-") {
    raw = std::make_unique<detail::fd_stream>(STDIN_FILENO, false);
  } else {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw input_error(path + ": cannot open: " + std::strerror(errno));
    raw = std::make_unique<detail::fd_stream>(fd, true);
  }
  std::byte magic[2];
  std::size_t peeked = 0;
  try {
    peeked = raw->peek(magic, 2);
  } catch (const input_error& e) {
    // open(2) succeeds on a directory and fails only on the first read: name the input here, since the
    // caller has no reader (and no describe(path)) yet.
    throw input_error((path == "-" ? std::string("standard input") : path) + ": " + e.what());
  }
  if (peeked == 2 && magic[0] == std::byte{0x1f} && magic[1] == std::byte{0x8b}) {
    if (inflater == inflate_library::isal) {
#ifdef ITCH5_HAVE_ISAL
      return std::make_unique<detail::inflate_stream<detail::isal_inflater>>(std::move(raw));
#else
      throw input_error("this build has no ISA-L support (configure with -DITCH5_WITH_ISAL=ON)");
#endif
    }
    return std::make_unique<detail::inflate_stream<detail::zlib_inflater>>(std::move(raw));
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

 private:
  std::span<const std::byte> bytes_;
  std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<byte_stream> memory_input(std::span<const std::byte> bytes) {
  if (bytes.size() >= 2 && bytes[0] == std::byte{0x1f} && bytes[1] == std::byte{0x8b}) {
    return std::make_unique<detail::inflate_stream<detail::zlib_inflater>>(std::make_unique<memory_stream>(bytes));
  }
  return std::make_unique<memory_stream>(bytes);
}

}  // namespace itch5::io
