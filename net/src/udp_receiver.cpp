#include <itch5/net/udp_receiver.hpp>

#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>

#include "multicast.hpp"

namespace itch5::net {

namespace {

std::string sys_error(const std::string& what, const std::string& doing) {
  const int e = errno;
  std::string s = what + ": " + doing + ": " + std::strerror(e);
  if (e == EADDRINUSE) s += " (the port is in use: another listener has it)";
  if (e == EADDRNOTAVAIL) s += " (not an address of this host)";
  return s;
}

}  // namespace

udp_receiver::udp_receiver(const endpoint& where, const receiver_options& options)
    : options_(options), name_("--listen " + where.text) {
  if (options_.batch == 0) options_.batch = 1;
  if (options_.max_datagram < 64) options_.max_datagram = 64;
  std::string group = where.group;
  std::string iface = where.host;
  socket_address host_addr;
  if (group.empty()) {
    host_addr = resolve(where.host, where.port, name_);
    if (host_addr.is_multicast()) {
      if (options_.interface.empty())
        throw endpoint_error(detail::group_without_interface(name_, where.host));
      group = where.host;
      iface = options_.interface;
    }
  }
  socket_address bind_addr;
  if (!group.empty()) {
    bind_addr = resolve(group, where.port, name_ + ": group");
    if (!bind_addr.is_multicast())
      throw endpoint_error(name_ + ": " + group + " is not a multicast group (224.0.0.0/4, ff00::/8)");
  } else {
    bind_addr = host_addr;
  }
  fd_ = ::socket(bind_addr.family(), SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw endpoint_error(sys_error(name_, "socket"));
  try {
    const int one = 1;
    if (!group.empty()) setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (setsockopt(fd_, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) != 0)
      throw endpoint_error(sys_error(name_, "SO_TIMESTAMPNS"));
    int size = options_.receive_buffer;
    if (setsockopt(fd_, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
      setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    socklen_t len = sizeof granted_buffer_;
    getsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &granted_buffer_, &len);
    if (::bind(fd_, reinterpret_cast<const sockaddr*>(&bind_addr.storage), bind_addr.length) != 0)
      throw endpoint_error(sys_error(name_, "cannot bind " + bind_addr.text()));
    if (!group.empty()) {
      if (bind_addr.family() == AF_INET) {
        ip_mreq m{};
        m.imr_multiaddr = reinterpret_cast<const sockaddr_in*>(&bind_addr.storage)->sin_addr;
        m.imr_interface = detail::ipv4_interface(iface, name_);
        if (setsockopt(fd_, IPPROTO_IP, IP_ADD_MEMBERSHIP, &m, sizeof m) != 0)
          throw endpoint_error(sys_error(name_, "cannot join " + group + " on " + iface));
      } else {
        ipv6_mreq m{};
        m.ipv6mr_multiaddr = reinterpret_cast<const sockaddr_in6*>(&bind_addr.storage)->sin6_addr;
        m.ipv6mr_interface = detail::ipv6_interface(iface, name_);
        if (setsockopt(fd_, IPPROTO_IPV6, IPV6_JOIN_GROUP, &m, sizeof m) != 0)
          throw endpoint_error(sys_error(name_, "cannot join " + group + " on " + iface));
      }
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
  const std::size_t n = options_.batch;
  buffers_.resize(n * options_.max_datagram);
  constexpr std::size_t control_size = CMSG_SPACE(sizeof(timespec)) + 64;
  controls_.resize(n * control_size);
  lengths_.resize(n);
  arrivals_.resize(n);
  headers_.resize(n);
  iovs_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    iovs_[i] = {buffers_.data() + i * options_.max_datagram, options_.max_datagram};
    headers_[i].msg_hdr.msg_iov = &iovs_[i];
    headers_[i].msg_hdr.msg_iovlen = 1;
  }
}

udp_receiver::~udp_receiver() {
  if (fd_ >= 0) ::close(fd_);
}

socket_address udp_receiver::local() const {
  socket_address a;
  a.length = sizeof a.storage;
  getsockname(fd_, reinterpret_cast<sockaddr*>(&a.storage), &a.length);
  return a;
}

bool udp_receiver::wait(std::chrono::nanoseconds timeout) const {
  pollfd p{fd_, POLLIN, 0};
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(timeout).count();
  return ::poll(&p, 1, static_cast<int>(ms)) > 0 && (p.revents & POLLIN) != 0;
}

std::size_t udp_receiver::receive() {
  constexpr std::size_t control_size = CMSG_SPACE(sizeof(timespec)) + 64;
  const std::size_t n = options_.batch;
  for (std::size_t i = 0; i < n; ++i) {
    headers_[i].msg_hdr.msg_control = controls_.data() + i * control_size;
    headers_[i].msg_hdr.msg_controllen = control_size;
    headers_[i].msg_hdr.msg_flags = 0;
  }
  const int got = ::recvmmsg(fd_, headers_.data(), static_cast<unsigned>(n), MSG_DONTWAIT, nullptr);
  if (got <= 0) {
    if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
      throw endpoint_error(sys_error(name_, "recvmmsg"));
    return 0;
  }
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  const std::uint64_t fallback =
      static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(now.tv_nsec);
  for (int i = 0; i < got; ++i) {
    msghdr& h = headers_[static_cast<std::size_t>(i)].msg_hdr;
    lengths_[static_cast<std::size_t>(i)] = headers_[static_cast<std::size_t>(i)].msg_len;
    if ((h.msg_flags & MSG_TRUNC) != 0) ++truncated_;
    std::uint64_t t = fallback;
    for (cmsghdr* c = CMSG_FIRSTHDR(&h); c != nullptr; c = CMSG_NXTHDR(&h, c)) {
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
        timespec ts{};
        std::memcpy(&ts, CMSG_DATA(c), sizeof ts);
        t = static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(ts.tv_nsec);
      }
    }
    arrivals_[static_cast<std::size_t>(i)] = t;
  }
  return static_cast<std::size_t>(got);
}

}  // namespace itch5::net
