#include <itch5/net/endpoint.hpp>

#include <arpa/inet.h>
#include <netdb.h>

#include <charconv>
#include <cstring>

namespace itch5::net {

bool socket_address::is_multicast() const noexcept {
  if (family() == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&storage);
    return IN_MULTICAST(ntohl(a->sin_addr.s_addr));
  }
  if (family() == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&storage);
    return IN6_IS_ADDR_MULTICAST(&a->sin6_addr);
  }
  return false;
}

std::uint16_t socket_address::port() const noexcept {
  if (family() == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
  if (family() == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
  return 0;
}

std::string socket_address::text() const {
  char buf[INET6_ADDRSTRLEN] = "?";
  if (family() == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr, buf, sizeof buf);
    return std::string(buf) + ":" + std::to_string(port());
  }
  if (family() == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr, buf, sizeof buf);
    return "[" + std::string(buf) + "]:" + std::to_string(port());
  }
  return "?";
}

namespace {

// "[::1]" -> "::1"; a bare name or IPv4 address as it is. False on unbalanced brackets or an empty host.
bool strip_brackets(std::string_view s, std::string& out) {
  if (!s.empty() && s.front() == '[') {
    if (s.size() < 3 || s.back() != ']') return false;
    out = std::string(s.substr(1, s.size() - 2));
    return true;
  }
  if (s.empty() || s.find_first_of("[]") != std::string_view::npos) return false;
  out = std::string(s);
  return true;
}

}  // namespace

endpoint endpoint::parse(std::string_view text) {
  endpoint e;
  e.text = std::string(text);
  const std::string shown = "'" + e.text + "'";
  const std::string form = " (expected [GROUP@]HOST:PORT, IPv6 in brackets: [::1]:26477)";
  std::string_view rest = text;
  if (const auto at = rest.find('@'); at != std::string_view::npos) {
    if (!strip_brackets(rest.substr(0, at), e.group))
      throw endpoint_error("endpoint " + shown + ": empty or malformed multicast group" + form);
    rest = rest.substr(at + 1);
  }
  const auto colon = rest.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == rest.size())
    throw endpoint_error("endpoint " + shown + ": no port" + form);
  const std::string_view host = rest.substr(0, colon);
  // An IPv6 address without brackets has more than one colon: the port cannot be told from it.
  if (host.find(':') != std::string_view::npos && (host.empty() || host.front() != '['))
    throw endpoint_error("endpoint " + shown + ": IPv6 addresses go in brackets" + form);
  if (!strip_brackets(host, e.host)) throw endpoint_error("endpoint " + shown + ": no host" + form);
  const std::string_view port = rest.substr(colon + 1);
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (ec != std::errc() || end != port.data() + port.size() || value > 65535)
    throw endpoint_error("endpoint " + shown + ": port '" + std::string(port) + "' is not a number 0-65535");
  e.port = static_cast<std::uint16_t>(value);
  return e;
}

socket_address resolve(const std::string& host, std::uint16_t port, const std::string& what,
                       int family_hint) {
  addrinfo hints{};
  hints.ai_family = family_hint;
  hints.ai_socktype = SOCK_DGRAM;
  hints.ai_flags = host.empty() ? AI_PASSIVE : 0;
  addrinfo* list = nullptr;
  const std::string service = std::to_string(port);
  const int rc = getaddrinfo(host.empty() ? nullptr : host.c_str(), service.c_str(), &hints, &list);
  if (rc != 0 || list == nullptr) {
    throw endpoint_error(what + ": host '" + host + "' does not resolve (" +
                         (rc == EAI_SYSTEM ? std::strerror(errno) : gai_strerror(rc)) + ")");
  }
  socket_address a;
  std::memcpy(&a.storage, list->ai_addr, list->ai_addrlen);
  a.length = list->ai_addrlen;
  freeaddrinfo(list);
  return a;
}

void check_feeds(const std::vector<std::string>& endpoints, std::string_view flag) {
  if (endpoints.size() > 2)
    throw std::invalid_argument(std::string(flag) + ": one feed or an A/B pair, not " +
                                std::to_string(endpoints.size()));
  for (const auto& e : endpoints) {
    try {
      (void)endpoint::parse(e);
    } catch (const endpoint_error& bad) {
      throw std::invalid_argument(std::string(flag) + ": " + bad.what());
    }
  }
}

}  // namespace itch5::net
