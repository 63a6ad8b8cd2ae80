// itch5/peek.hpp: every helper on real encoded messages (the book test builders, then itch5::encode), each
// also on the smallest frame it accepts, copied into an exactly-sized heap buffer so that a read past the
// documented minimum shows up under ASan. Expected values are the ones the messages were built with.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include <itch5/frame_writer.hpp>
#include <itch5/messages.hpp>
#include <itch5/peek.hpp>

#include "../book/message_builders.hpp"

namespace {

namespace build = testing_messages;

template <class M>
std::vector<std::byte> encoded(const M& m) {
  std::vector<std::byte> b(M::size);
  itch5::encode(m, b.data());
  return b;
}

// The first `n` bytes of `b`, alone in a heap buffer of exactly `n` bytes.
struct exact_prefix {
  exact_prefix(const std::vector<std::byte>& b, std::size_t n) : bytes(new std::byte[n]), size(n) {
    std::memcpy(bytes.get(), b.data(), n);
  }
  std::span<const std::byte> span() const { return {bytes.get(), size}; }
  std::unique_ptr<std::byte[]> bytes;
  std::size_t size;
};

TEST(Peek, OffsetsMatchTheSpec) {
  // itch50-messages.md: Type(1) StockLocate(2) TrackingNumber(2) Timestamp(6); order ref first after it.
  EXPECT_EQ(itch5::message_header::stock_locate_offset, 1u);
  EXPECT_EQ(itch5::order_reference_offset, 11u);
  EXPECT_EQ(itch5::order_reference_end, 19u);
  EXPECT_EQ(itch5::frame_length_size, 2u);
}

TEST(Peek, TypeOfEveryBookMessage) {
  EXPECT_EQ(itch5::peek_type(encoded(build::system_event(5, 'O'))), 'S');
  EXPECT_EQ(itch5::peek_type(encoded(build::directory(7, "AAPL"))), 'R');
  EXPECT_EQ(itch5::peek_type(encoded(build::add(1, 7, 42, 'B', 100, 10000))), 'A');
  EXPECT_EQ(itch5::peek_type(encoded(build::add_mpid(1, 7, 42, 'B', 100, 10000))), 'F');
  EXPECT_EQ(itch5::peek_type(encoded(build::exec(1, 7, 42, 10))), 'E');
  EXPECT_EQ(itch5::peek_type(encoded(build::exec_price(1, 7, 42, 10, 9999))), 'C');
  EXPECT_EQ(itch5::peek_type(encoded(build::cancel(1, 7, 42, 10))), 'X');
  EXPECT_EQ(itch5::peek_type(encoded(build::del(1, 7, 42))), 'D');
  EXPECT_EQ(itch5::peek_type(encoded(build::replace(1, 7, 42, 43, 10, 10000))), 'U');
  EXPECT_EQ(itch5::peek_type(exact_prefix(encoded(build::del(1, 7, 42)), 1).span()), 'D');
}

TEST(Peek, StockLocate) {
  EXPECT_EQ(itch5::peek_stock_locate(encoded(build::system_event(5, 'O'))), 0u);
  EXPECT_EQ(itch5::peek_stock_locate(encoded(build::directory(0xbeef, "AAPL"))), 0xbeefu);
  EXPECT_EQ(itch5::peek_stock_locate(encoded(build::add(1, 0x1234, 42, 'B', 100, 10000))), 0x1234u);
  EXPECT_EQ(itch5::peek_stock_locate(encoded(build::replace(1, 65535, 42, 43, 10, 10000))), 65535u);
  const auto smallest =
      exact_prefix(encoded(build::del(1, 0xa1b2, 42)), itch5::message_header::stock_locate_offset + 2);
  EXPECT_EQ(itch5::peek_stock_locate(smallest.span()), 0xa1b2u);
}

TEST(Peek, OrderReferenceOfEveryOrderMessage) {
  const std::uint64_t ref = 0x0102030405060708;
  EXPECT_EQ(itch5::peek_order_reference(encoded(build::add(1, 7, ref, 'S', 100, 10000))), ref);
  EXPECT_EQ(itch5::peek_order_reference(encoded(build::add_mpid(1, 7, ref, 'B', 100, 10000))), ref);
  EXPECT_EQ(itch5::peek_order_reference(encoded(build::exec(1, 7, ref, 10))), ref);
  EXPECT_EQ(itch5::peek_order_reference(encoded(build::exec_price(1, 7, ref, 10, 9999))), ref);
  EXPECT_EQ(itch5::peek_order_reference(encoded(build::cancel(1, 7, ref, 10))), ref);
  EXPECT_EQ(itch5::peek_order_reference(encoded(build::del(1, 7, ref))), ref);
  // U: the original reference, not the new one.
  EXPECT_EQ(itch5::peek_order_reference(encoded(build::replace(1, 7, ref, ~ref, 10, 10000))), ref);
  const auto smallest = exact_prefix(encoded(build::exec(1, 7, ~ref, 10)), itch5::order_reference_end);
  EXPECT_EQ(itch5::peek_order_reference(smallest.span()), ~ref);
}

TEST(Peek, SideAndPriceOfAnAdd) {
  // itch50-messages.md: A and F carry Buy/Sell Indicator at 19 and Price at 32.
  EXPECT_EQ(itch5::add_side_offset, 19u);
  EXPECT_EQ(itch5::add_price_offset, 32u);
  EXPECT_EQ(itch5::add_price_end, 36u);
  EXPECT_EQ(itch5::peek_add_side(encoded(build::add(1, 7, 42, 'B', 100, 1234567))), 'B');
  EXPECT_EQ(itch5::peek_add_price(encoded(build::add(1, 7, 42, 'B', 100, 1234567))), itch5::price4(1234567));
  EXPECT_EQ(itch5::peek_add_side(encoded(build::add_mpid(1, 7, 42, 'S', 100, 4000000001u))), 'S');
  EXPECT_EQ(itch5::peek_add_price(encoded(build::add_mpid(1, 7, 42, 'S', 100, 4000000001u))),
            itch5::price4(4000000001u));
  const auto smallest = exact_prefix(encoded(build::add_mpid(1, 7, 42, 'S', 100, 99)), itch5::add_price_end);
  EXPECT_EQ(itch5::peek_add_side(smallest.span()), 'S');
  EXPECT_EQ(itch5::peek_add_price(smallest.span()), itch5::price4(99));
}

TEST(Peek, IsOrderMessage) {
  for (char t : {'A', 'F', 'E', 'C', 'X', 'D', 'U'}) EXPECT_TRUE(itch5::is_order_message(t)) << t;
  for (char t : {'S', 'R', 'H', 'Y', 'L', 'V', 'W', 'K', 'J', 'h', 'P', 'Q', 'B', 'I', 'N', 'O', '\0', 'a'}) {
    EXPECT_FALSE(itch5::is_order_message(t)) << t;
  }
}

TEST(Peek, FrameLength) {
  itch5::frame_writer w;
  w.write(build::del(1, 7, 42));
  w.write(build::directory(7, "AAPL"));
  const auto& b = w.bytes();
  ASSERT_EQ(b.size(),
            2 * itch5::frame_length_size + itch5::order_delete::size + itch5::stock_directory::size);
  EXPECT_EQ(itch5::peek_frame_length(b.data()), itch5::order_delete::size);
  const std::byte* second = b.data() + itch5::frame_length_size + itch5::order_delete::size;
  EXPECT_EQ(itch5::peek_frame_length(second), itch5::stock_directory::size);
  EXPECT_EQ(itch5::peek_type({second + itch5::frame_length_size, itch5::stock_directory::size}), 'R');
  const std::byte big[itch5::frame_length_size] = {std::byte{0xab}, std::byte{0xcd}};
  EXPECT_EQ(itch5::peek_frame_length(big), 0xabcdu);
}

}  // namespace
