// Endpoints, the receiver and the sender, over the loopback interface only.
#include <gtest/gtest.h>

#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <itch5/net/endpoint.hpp>
#include <itch5/net/udp_receiver.hpp>
#include <itch5/net/udp_sender.hpp>

namespace {

using itch5::net::endpoint;
using itch5::net::endpoint_error;

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const endpoint_error& e) {
    return e.what();
  }
  return "";
}

std::uint64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(t.tv_nsec);
}

TEST(Endpoint, ParsesHostPortGroupAndIpv6) {
  endpoint e = endpoint::parse("127.0.0.1:26477");
  EXPECT_EQ(e.host, "127.0.0.1");
  EXPECT_EQ(e.group, "");
  EXPECT_EQ(e.port, 26477);
  e = endpoint::parse("[::1]:0");
  EXPECT_EQ(e.host, "::1");
  EXPECT_EQ(e.port, 0);
  e = endpoint::parse("233.54.12.111@10.0.0.5:26400");
  EXPECT_EQ(e.group, "233.54.12.111");
  EXPECT_EQ(e.host, "10.0.0.5");
  EXPECT_EQ(e.port, 26400);
  e = endpoint::parse("[ff02::1:3]@lo:9");
  EXPECT_EQ(e.group, "ff02::1:3");
  EXPECT_EQ(e.host, "lo");
  e = endpoint::parse("localhost:65535");
  EXPECT_EQ(e.host, "localhost");
  EXPECT_EQ(e.port, 65535);
}

TEST(Endpoint, BadSyntaxIsOneLineNamingIt) {
  for (const char* bad : {"127.0.0.1", "127.0.0.1:", ":26477", "host:port", "host:65536", "::1:26477",
                          "@127.0.0.1:1", "[::1:26477"}) {
    const std::string what = error_of([&] { (void)endpoint::parse(bad); });
    EXPECT_NE(what.find(std::string("'") + bad + "'"), std::string::npos) << bad << ": " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
}

// A command line's feeds: one or an A/B pair of valid syntax; otherwise a usage error naming the flag.
TEST(Endpoint, CheckFeedsTakesOneOrTwoAndNamesTheFlag) {
  EXPECT_NO_THROW(itch5::net::check_feeds({"127.0.0.1:1"}, "--listen"));
  EXPECT_NO_THROW(itch5::net::check_feeds({"127.0.0.1:1", "[::1]:2"}, "--listen"));
  EXPECT_NO_THROW(itch5::net::check_feeds({"no-such-host.invalid:1"}, "--listen"));  // syntax only
  try {
    itch5::net::check_feeds({"127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"}, "--listen");
    ADD_FAILURE() << "three feeds taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "--listen: one feed or an A/B pair, not 3");
  }
  try {
    itch5::net::check_feeds({"127.0.0.1:1", "127.0.0.1"}, "--feeds");
    ADD_FAILURE() << "an endpoint without a port taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("--feeds: endpoint '127.0.0.1': no port", 0), 0u) << e.what();
  }
}

TEST(Endpoint, AHostThatDoesNotResolveSaysSo) {
  const std::string what =
      error_of([] { itch5::net::udp_receiver r(endpoint::parse("no-such-host.invalid:26477")); });
  EXPECT_NE(what.find("'no-such-host.invalid' does not resolve"), std::string::npos) << what;
  const std::string sent =
      error_of([] { itch5::net::udp_sender s(endpoint::parse("no-such-host.invalid:26477")); });
  EXPECT_NE(sent.find("does not resolve"), std::string::npos) << sent;
}

TEST(Endpoint, AMulticastGroupWithoutAnInterfaceIsRefused) {
  const std::string what = error_of([] { itch5::net::udp_receiver r(endpoint::parse("239.1.2.3:26477")); });
  EXPECT_NE(what.find("239.1.2.3 is a multicast group and no interface was given"), std::string::npos)
      << what;
  const std::string sent = error_of([] { itch5::net::udp_sender s(endpoint::parse("239.1.2.3:26477")); });
  EXPECT_NE(sent.find("no interface was given"), std::string::npos) << sent;
  const std::string not_group =
      error_of([] { itch5::net::udp_receiver r(endpoint::parse("127.0.0.1@127.0.0.1:26477")); });
  EXPECT_NE(not_group.find("is not a multicast group"), std::string::npos) << not_group;
}

TEST(Receiver, APortInUseIsOneLine) {
  itch5::net::udp_receiver first(endpoint::parse("127.0.0.1:0"));
  const std::uint16_t port = first.local().port();
  ASSERT_NE(port, 0);
  const std::string where = "127.0.0.1:" + std::to_string(port);
  const std::string what = error_of([&] { itch5::net::udp_receiver second(endpoint::parse(where)); });
  EXPECT_NE(what.find("--listen " + where), std::string::npos) << what;
  EXPECT_NE(what.find("in use"), std::string::npos) << what;
}

// Sends `count` datagrams of distinct contents to the receiver and reads them back: all of them, in
// order (loopback keeps order), each with a kernel timestamp between the send and the read.
void round_trip(const std::string& host) {
  itch5::net::udp_receiver rx(endpoint::parse(host + ":0"));
  const std::string to = host + ":" + std::to_string(rx.local().port());
  itch5::net::udp_sender tx(endpoint::parse(to));
  constexpr int count = 200;
  const std::uint64_t before = now_ns();
  for (int i = 0; i < count; ++i) {
    std::vector<std::byte> d(static_cast<std::size_t>(1 + i * 7), std::byte{static_cast<unsigned char>(i)});
    tx.send(d);
  }
  int got = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (got < count && std::chrono::steady_clock::now() < give_up) {
    if (!rx.wait(std::chrono::milliseconds(200))) continue;
    const std::size_t n = rx.receive();
    for (std::size_t k = 0; k < n; ++k, ++got) {
      const auto d = rx.datagram(k);
      ASSERT_EQ(d.size(), static_cast<std::size_t>(1 + got * 7));
      EXPECT_EQ(d.front(), std::byte{static_cast<unsigned char>(got)});
      EXPECT_GE(rx.arrival_ns(k), before);
      EXPECT_LE(rx.arrival_ns(k), now_ns());
    }
  }
  EXPECT_EQ(got, count);
  EXPECT_EQ(rx.truncated(), 0u);
}

TEST(Receiver, ReceivesWhatTheSenderSendsOverIpv4Loopback) { round_trip("127.0.0.1"); }

TEST(Receiver, ReceivesWhatTheSenderSendsOverIpv6Loopback) {
  try {
    itch5::net::udp_receiver probe(endpoint::parse("[::1]:0"));
  } catch (const endpoint_error& e) {
    GTEST_SKIP() << "no IPv6 loopback here: " << e.what();
  }
  round_trip("[::1]");
}

}  // namespace
