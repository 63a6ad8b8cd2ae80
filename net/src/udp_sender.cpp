#include <itch5/net/udp_sender.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "multicast.hpp"

namespace itch5::net {

udp_sender::udp_sender(const endpoint& to, const sender_options& options) : name_("--to " + to.text) {
  std::string iface = options.interface;
  if (!to.group.empty()) {
    to_ = resolve(to.group, to.port, name_ + ": group");
    if (!to_.is_multicast())
      throw endpoint_error(name_ + ": " + to.group + " is not a multicast group (224.0.0.0/4, ff00::/8)");
    iface = to.host;
  } else {
    to_ = resolve(to.host, to.port, name_);
    if (to_.is_multicast() && iface.empty())
      throw endpoint_error(detail::group_without_interface(name_, to.host));
  }
  if (to_.port() == 0) throw endpoint_error(name_ + ": port 0 is no destination");
  fd_ = ::socket(to_.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw endpoint_error(name_ + ": socket: " + std::strerror(errno));
  try {
    int size = options.send_buffer;
    if (setsockopt(fd_, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof size) != 0)
      setsockopt(fd_, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    if (to_.is_multicast()) {
      const int ttl = options.ttl;
      const int loop = 1;
      bool ok = true;
      if (to_.family() == AF_INET) {
        const in_addr a = detail::ipv4_interface(iface, name_);
        ok = setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_IF, &a, sizeof a) == 0 &&
             setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_TTL, &ttl, sizeof ttl) == 0 &&
             setsockopt(fd_, IPPROTO_IP, IP_MULTICAST_LOOP, &loop, sizeof loop) == 0;
      } else {
        const unsigned index = detail::ipv6_interface(iface, name_);
        ok = setsockopt(fd_, IPPROTO_IPV6, IPV6_MULTICAST_IF, &index, sizeof index) == 0 &&
             setsockopt(fd_, IPPROTO_IPV6, IPV6_MULTICAST_HOPS, &ttl, sizeof ttl) == 0 &&
             setsockopt(fd_, IPPROTO_IPV6, IPV6_MULTICAST_LOOP, &loop, sizeof loop) == 0;
      }
      if (!ok)
        throw endpoint_error(name_ + ": cannot send to the group on " + iface + ": " + std::strerror(errno));
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

udp_sender::~udp_sender() {
  if (fd_ >= 0) ::close(fd_);
}

void udp_sender::send(std::span<const std::byte> datagram) {
  for (;;) {
    const ssize_t r = ::sendto(fd_, datagram.data(), datagram.size(), 0,
                               reinterpret_cast<const sockaddr*>(&to_.storage), to_.length);
    if (r >= 0) return;
    if (errno == EINTR || errno == ENOBUFS || errno == EAGAIN) continue;
    // A port unreachable reported for an earlier datagram: nothing listens yet; the feed goes on regardless.
    if (errno == ECONNREFUSED) continue;
    throw endpoint_error(name_ + ": sendto " + to_.text() + ": " + std::strerror(errno));
  }
}

}  // namespace itch5::net
