// Internal: a byte_stream over a POSIX file descriptor (a regular file, a pipe, standard input).
#pragma once

#include <string>
#include <vector>

#include <itch5/io/byte_stream.hpp>

namespace itch5::io::detail {

class fd_stream final : public byte_stream {
 public:
  /// Takes ownership of `fd` when `owned`.
  fd_stream(int fd, bool owned);
  ~fd_stream() override;
  fd_stream(const fd_stream&) = delete;
  fd_stream& operator=(const fd_stream&) = delete;

  std::size_t read(std::byte* dst, std::size_t n) override;
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return consumed_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return total_; }

  /// Reads up to `n` bytes ahead without consuming them (they are returned again by read()).
  /// Returns how many bytes are available (fewer than `n` only at the end of the input).
  std::size_t peek(std::byte* dst, std::size_t n);

 private:
  std::size_t raw_read(std::byte* dst, std::size_t n);

  int fd_;
  bool owned_;
  std::uint64_t consumed_ = 0;
  std::uint64_t total_ = 0;
  std::vector<std::byte> pending_;  // peeked bytes not yet returned
};

}  // namespace itch5::io::detail
