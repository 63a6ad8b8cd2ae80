// UDP endpoints as the tools write them: [GROUP@]HOST:PORT, IPv4 or IPv6 ([::1]:PORT), resolved to socket
// addresses.
//
//   127.0.0.1:26477           a unicast address (to send to, or to bind and receive on)
//   [::1]:26477               IPv6 in brackets
//   233.54.12.111@10.0.0.5:26477   multicast group 233.54.12.111 received on the interface whose address is
//                             10.0.0.5 (receiving); sending to a group takes the interface from an option
//   localhost:0               a name (getaddrinfo); port 0 = any free port when binding
//
// parse() checks the syntax only (no name lookup); resolve() looks the names up and throws
// endpoint_error with one line naming the endpoint: a host that does not resolve, a multicast group used
// as a host without an interface, a group that is not multicast. Thread-safe (no shared state).
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace itch5::net {

/// A bad endpoint or a socket that cannot be set up: one line, naming the endpoint.
class endpoint_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A resolved socket address (IPv4 or IPv6).
struct socket_address {
  sockaddr_storage storage{};
  socklen_t length = 0;

  [[nodiscard]] int family() const noexcept { return storage.ss_family; }
  [[nodiscard]] bool is_multicast() const noexcept;
  [[nodiscard]] std::uint16_t port() const noexcept;
  /// "127.0.0.1:26477", "[::1]:26477".
  [[nodiscard]] std::string text() const;
};

struct endpoint {
  std::string text;   ///< As written, for messages.
  std::string group;  ///< Multicast group ("" for unicast).
  std::string host;   ///< Host (unicast) or the interface address to receive a group on.
  std::uint16_t port = 0;

  /// Parses [GROUP@]HOST:PORT (IPv6 addresses in brackets). Throws endpoint_error on bad syntax.
  [[nodiscard]] static endpoint parse(std::string_view text);
};

/// The address of `host` ("" = any address of `family_hint`) and `port`. Throws endpoint_error naming
/// `what` when it does not resolve.
[[nodiscard]] socket_address resolve(const std::string& host, std::uint16_t port, const std::string& what,
                                     int family_hint = AF_UNSPEC);

/// Checks a command line's list of feeds (itch5inside --listen, itch5capture --listen): one endpoint or an
/// A/B pair, each of valid syntax (endpoint::parse; no name lookup). Throws std::invalid_argument (a usage
/// error) starting with `flag`: "--listen: one feed or an A/B pair, not 3", "--listen: <parse's message>".
void check_feeds(const std::vector<std::string>& endpoints, std::string_view flag);

}  // namespace itch5::net
