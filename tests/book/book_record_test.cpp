// detail::book_record: a message encoded from its wire bytes (record_encoder through dispatch_unchecked) and
// replayed (replay) reaches the handler as a message of the same type with every field a book engine reads:
// the header's locate and timestamp for all 23 types, and the order fields and symbols of A F E C X D U R.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include <itch5/dispatch.hpp>
#include <itch5/messages.hpp>

#include <itch5/book/detail/book_record.hpp>

#include "message_builders.hpp"

namespace {

namespace tm = testing_messages;

// Encodes `m` to its wire bytes, decodes them into a record as the decode thread does.
template <itch5::message M>
itch5::book::detail::book_record record_of(const M& m) {
  std::array<std::byte, 64> wire{};
  itch5::encode(m, wire.data());
  itch5::book::detail::book_record r;
  itch5::book::detail::record_encoder encode{&r};
  EXPECT_EQ(itch5::dispatch_unchecked(wire.data(), encode), itch5::dispatch_result::delivered);
  return r;
}

// Keeps the one message replay() hands it, whatever its type.
template <itch5::message Want>
struct capture {
  int calls = 0;
  char type = 0;
  Want got{};
  template <itch5::message M>
  void operator()(const M& m) {
    ++calls;
    type = M::type;
    if constexpr (std::is_same_v<M, Want>) got = m;
  }
};

template <itch5::message M>
M round_trip(const M& m) {
  capture<M> c;
  itch5::book::detail::replay(record_of(m), c);
  EXPECT_EQ(c.calls, 1);
  EXPECT_EQ(c.type, M::type);
  EXPECT_EQ(c.got.header.stock_locate, m.header.stock_locate);
  EXPECT_EQ(c.got.header.timestamp, m.header.timestamp);
  return c.got;
}

constexpr std::int64_t late = 86'399'999'999'999;  // the last nanosecond of a day: all 48 bits in use

TEST(BookRecord, AddOrdersKeepReferenceSideSharesSymbolAndPrice) {
  const auto a = tm::add(late, 65535, 0xfedcba9876543210ull, 'S', 4'000'000'000u, 1'999'999'999u, "ZVZZT");
  const auto got = round_trip(a);
  EXPECT_EQ(got.order_ref, a.order_ref);
  EXPECT_EQ(got.side, 'S');
  EXPECT_EQ(got.shares, a.shares);
  EXPECT_EQ(got.stock, a.stock);
  EXPECT_EQ(got.price, a.price);

  const auto f = tm::add_mpid(5, 7, 42, 'B', 100, 1234500, "AAPL");
  const auto got_f = round_trip(f);
  EXPECT_EQ(got_f.order_ref, 42u);
  EXPECT_EQ(got_f.side, 'B');
  EXPECT_EQ(got_f.shares, 100u);
  EXPECT_EQ(got_f.stock, f.stock);
  EXPECT_EQ(got_f.price, f.price);
}

TEST(BookRecord, AnInvalidSideCodeIsKeptAsSent) {  // the engine counts it as an anomaly
  const auto got = round_trip(tm::add(1, 1, 9, 'x', 1, 1));
  EXPECT_EQ(got.side, 'x');
}

TEST(BookRecord, ReductionsKeepReferenceAndShares) {
  const auto e = round_trip(tm::exec(late, 3, 0xffffffffffffffffull, 4'294'967'295u));
  EXPECT_EQ(e.order_ref, 0xffffffffffffffffull);
  EXPECT_EQ(e.executed_shares, 4'294'967'295u);
  const auto c = round_trip(tm::exec_price(2, 3, 77, 12, 999));
  EXPECT_EQ(c.order_ref, 77u);
  EXPECT_EQ(c.executed_shares, 12u);
  const auto x = round_trip(tm::cancel(2, 3, 78, 13));
  EXPECT_EQ(x.order_ref, 78u);
  EXPECT_EQ(x.cancelled_shares, 13u);
  const auto d = round_trip(tm::del(2, 3, 79));
  EXPECT_EQ(d.order_ref, 79u);
}

TEST(BookRecord, ReplaceKeepsBothReferencesSharesAndPrice) {
  const auto u = tm::replace(late, 9, 1000, 0x8000000000000001ull, 250, 4'294'967'295u);
  const auto got = round_trip(u);
  EXPECT_EQ(got.original_order_ref, 1000u);
  EXPECT_EQ(got.new_order_ref, 0x8000000000000001ull);
  EXPECT_EQ(got.shares, 250u);
  EXPECT_EQ(got.price, u.price);
}

TEST(BookRecord, StockDirectoryKeepsTheSymbol) {
  for (const char* s : {"A", "BRK A", "ZZZZZZZZ", ""}) {
    SCOPED_TRACE(s);
    const auto r = tm::directory(12, s, 3);
    EXPECT_EQ(round_trip(r).stock, r.stock);
  }
}

// Every type, book or not, comes back as itself with its header (the others keep nothing else).
template <class... M>
void every_type(itch5::type_list<M...>) {
  std::uint16_t locate = 100;
  (
      [&] {
        SCOPED_TRACE(std::string(1, M::type));
        ++locate;
        M m{};
        m.header = tm::hdr(locate, late - locate);
        (void)round_trip(m);
      }(),
      ...);
}

TEST(BookRecord, EveryTypeComesBackAsItselfWithItsHeader) { every_type(itch5::all_message_types{}); }

}  // namespace
