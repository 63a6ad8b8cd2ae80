// A UDP socket that sends datagrams to one endpoint: unicast HOST:PORT, or a multicast group, sent out of
// the interface whose address is given (GROUP@IFACE:PORT, or sender_options::interface; a group without one
// is an error rather than a guess of the route). Multicast TTL 1 and loopback on by default, so a receiver on
// the same host gets the packets and they go no further than the first router.
//
// send() is one sendto() on an unconnected blocking socket (an unreachable port does not fail later sends);
// errors other than a full buffer (ENOBUFS, retried) throw endpoint_error. Complexity O(bytes); no
// allocation. Not thread-safe.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include <itch5/net/endpoint.hpp>

namespace itch5::net {

struct sender_options {
  std::string interface;      ///< Interface address (IPv4) or name/address (IPv6) for a multicast group.
  int ttl = 1;                ///< Multicast hops.
  int send_buffer = 4 << 20;  ///< Bytes of kernel send buffer asked for.
};

class udp_sender {
 public:
  /// Resolves `to` and opens the socket. Throws endpoint_error.
  explicit udp_sender(const endpoint& to, const sender_options& options = {});
  ~udp_sender();
  udp_sender(const udp_sender&) = delete;
  udp_sender& operator=(const udp_sender&) = delete;

  /// Sends one datagram. Throws endpoint_error (naming the destination) when the kernel refuses it.
  void send(std::span<const std::byte> datagram);

  [[nodiscard]] const socket_address& destination() const noexcept { return to_; }

 private:
  std::string name_;
  socket_address to_;
  int fd_ = -1;
};

}  // namespace itch5::net
