// A UDP socket that receives datagrams in batches (recvmmsg) with the kernel's receive timestamp of each
// (SO_TIMESTAMPNS: CLOCK_REALTIME when the packet reached the socket, before any wait of this process), for
// live MoldUDP64 feeds.
//
// The endpoint (endpoint.hpp) says what to bind: HOST:PORT binds that unicast address (port 0: a free one,
// see local()); GROUP@IFACE:PORT binds the port and joins the multicast group on the interface whose
// address is IFACE (IPv4), or whose name or address is IFACE (IPv6). A group written as the host, without an
// interface, is an error unless receiver_options::interface names one. Errors are endpoint_error with one
// line naming the endpoint: a port in use, an address that is not local, a host that does not resolve.
//
// The receive buffer is asked for large (receiver_options::receive_buffer, by SO_RCVBUFFORCE where the
// process may, else SO_RCVBUF up to net.core.rmem_max) so a burst waits in the kernel while the consumer
// is busy. Complexity: receive() is one recvmmsg call for up to `batch` datagrams, no allocation. Not
// thread-safe: one thread receives.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <sys/socket.h>

#include <itch5/net/endpoint.hpp>

namespace itch5::net {

struct receiver_options {
  std::string interface;             ///< Interface address for a group given as the host ("" = none).
  int receive_buffer = 32 << 20;     ///< Bytes of kernel receive buffer asked for.
  std::size_t batch = 64;            ///< Datagrams per receive().
  std::size_t max_datagram = 65536;  ///< Larger datagrams are truncated (and counted).
};

class udp_receiver {
 public:
  /// Binds (and joins) as `where` says. Throws endpoint_error.
  explicit udp_receiver(const endpoint& where, const receiver_options& options = {});
  ~udp_receiver();
  udp_receiver(const udp_receiver&) = delete;
  udp_receiver& operator=(const udp_receiver&) = delete;

  [[nodiscard]] int fd() const noexcept { return fd_; }
  /// The bound address (the port chosen when the endpoint said 0).
  [[nodiscard]] socket_address local() const;
  /// The endpoint as written.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// The receive buffer the kernel granted (bytes, as getsockopt reports it).
  [[nodiscard]] int receive_buffer() const noexcept { return granted_buffer_; }

  /// Waits at most `timeout` for a datagram (poll). True when one is waiting; false on timeout or when a
  /// signal interrupted the wait.
  bool wait(std::chrono::nanoseconds timeout) const;
  /// Receives the datagrams waiting, up to `batch`, without blocking: how many (0 when none).
  std::size_t receive();
  /// Datagram `i` of the last receive(), valid until the next receive().
  [[nodiscard]] std::span<const std::byte> datagram(std::size_t i) const noexcept {
    return {buffers_.data() + i * options_.max_datagram, lengths_[i]};
  }
  /// Its arrival: the kernel's receive timestamp, ns since the epoch (UTC); the clock read right after
  /// receive() when the kernel gave none.
  [[nodiscard]] std::uint64_t arrival_ns(std::size_t i) const noexcept { return arrivals_[i]; }
  /// Datagrams cut to max_datagram so far.
  [[nodiscard]] std::uint64_t truncated() const noexcept { return truncated_; }

 private:
  receiver_options options_;
  std::string name_;
  int fd_ = -1;
  int granted_buffer_ = 0;
  std::vector<std::byte> buffers_;
  std::vector<char> controls_;
  std::vector<std::size_t> lengths_;
  std::vector<std::uint64_t> arrivals_;
  std::vector<mmsghdr> headers_;
  std::vector<iovec> iovs_;
  std::uint64_t truncated_ = 0;
};

}  // namespace itch5::net
