// Internal: the interface to join or send a multicast group on, from an address or (IPv6) a name.
#pragma once

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <cstring>
#include <string>

#include <itch5/net/endpoint.hpp>

namespace itch5::net::detail {

/// The IPv4 address of interface `iface` (an address), for IP_ADD_MEMBERSHIP / IP_MULTICAST_IF.
inline in_addr ipv4_interface(const std::string& iface, const std::string& what) {
  const socket_address a = resolve(iface, 0, what + ": interface", AF_INET);
  return reinterpret_cast<const sockaddr_in*>(&a.storage)->sin_addr;
}

/// The index of IPv6 interface `iface`: a name ("lo", "eth0") or one of its addresses.
inline unsigned ipv6_interface(const std::string& iface, const std::string& what) {
  if (const unsigned index = if_nametoindex(iface.c_str()); index != 0) return index;
  in6_addr want{};
  if (inet_pton(AF_INET6, iface.c_str(), &want) == 1) {
    ifaddrs* list = nullptr;
    if (getifaddrs(&list) == 0) {
      unsigned found = 0;
      for (ifaddrs* i = list; i != nullptr && found == 0; i = i->ifa_next) {
        if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET6) continue;
        if (std::memcmp(&reinterpret_cast<const sockaddr_in6*>(i->ifa_addr)->sin6_addr, &want, sizeof want) ==
            0)
          found = if_nametoindex(i->ifa_name);
      }
      freeifaddrs(list);
      if (found != 0) return found;
    }
  }
  throw endpoint_error(what + ": '" + iface + "' is neither the name nor an address of an interface");
}

inline std::string group_without_interface(const std::string& what, const std::string& group) {
  return what + ": " + group +
         " is a multicast group and no interface was given: write GROUP@INTERFACE_ADDRESS:PORT "
         "(e.g. 233.54.12.111@10.0.0.5:26477) or give --interface";
}

}  // namespace itch5::net::detail
