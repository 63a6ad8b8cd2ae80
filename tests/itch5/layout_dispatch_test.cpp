// Message layouts against the spec's table (typed into itch5_test::spec_table), the size table, and
// compile-time dispatch of every message type to generic and partial handlers.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/messages.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::builder;
using itch5_test::bytes;
using itch5_test::spec_table;

struct layout_fact {
  char type;
  std::size_t size;
  std::size_t fields;
  std::size_t end;  // offset + width of the last field
  const char* name;
};

template <class M>
layout_fact fact_of() {
  std::size_t n = std::tuple_size_v<decltype(M::layout())>;
  std::size_t end = 0;
  std::apply(
      [&](auto... f) {
        ((end = decltype(f)::offset + itch5::detail::wire<typename decltype(f)::value_type>::size), ...);
      },
      M::layout());
  return {M::type, M::size, n, end, M::name};
}

template <class... M>
std::vector<layout_fact> all_facts(itch5::type_list<M...>) {
  return {fact_of<M>()...};
}

TEST(Layout, EveryTypeMatchesTheSpecTableInOrder) {
  auto facts = all_facts(itch5::all_message_types{});
  ASSERT_EQ(facts.size(), spec_table.size());
  ASSERT_EQ(itch5::all_message_types::size, 23u);
  for (std::size_t i = 0; i < facts.size(); ++i) {
    SCOPED_TRACE(std::string("type ") + spec_table[i].type);
    EXPECT_EQ(facts[i].type, spec_table[i].type);
    EXPECT_EQ(facts[i].size, spec_table[i].length);
    EXPECT_EQ(facts[i].fields, spec_table[i].fields);
    EXPECT_EQ(facts[i].end, spec_table[i].length) << "the last field must end at the message's end";
  }
}

TEST(Layout, SizeTableHasExactlyTheSpecTypes) {
  std::set<unsigned char> spec_types;
  for (const auto& e : spec_table) {
    spec_types.insert(static_cast<unsigned char>(e.type));
    EXPECT_EQ(itch5::message_size[static_cast<unsigned char>(e.type)], e.length) << e.type;
  }
  EXPECT_EQ(spec_types.size(), 23u) << "spec types must be distinct";
  for (unsigned t = 0; t < 256; ++t) {
    if (!spec_types.contains(static_cast<unsigned char>(t))) {
      EXPECT_EQ(itch5::message_size[t], 0u) << "type byte " << t << " is not in the spec";
    }
  }
}

// The names and type bytes that tools print: each type's own name, nothing for a byte of no type, and the
// type bytes in the order of the spec's table.
TEST(Layout, TypeNamesAndTypeBytesAreTheSpecTypes) {
  auto facts = all_facts(itch5::all_message_types{});
  std::string types;
  for (const auto& e : spec_table) types.push_back(e.type);
  EXPECT_EQ(itch5::message_types(), types);
  EXPECT_EQ(itch5::message_types(), "SRHYLVWKJhAFECXDUPQBINO");
  for (const auto& f : facts) EXPECT_STREQ(itch5::message_type_name(f.type), f.name) << f.type;
  EXPECT_STREQ(itch5::message_type_name('A'), "add_order");
  for (unsigned t = 0; t < 256; ++t) {
    if (types.find(static_cast<char>(t)) == std::string::npos) {
      EXPECT_EQ(itch5::message_type_name(static_cast<char>(t)), nullptr) << "type byte " << t;
    }
  }
}

TEST(Layout, HeaderIsElevenBytes) { EXPECT_EQ(itch5::message_header::size, 11u); }

// A message of `type` of the spec's length: the header with the given locate, then bytes 11, 12, ...
bytes sample_message(char type, std::uint16_t locate) {
  builder b;
  b.header(type, locate, 0x0102, 0x0a0b'0c0d'0e0f);
  for (std::size_t i = 11; i < itch5_test::spec_length(type); ++i) b.u8(static_cast<std::uint8_t>(i));
  return b.get();
}

TEST(Dispatch, UncheckedDeliversEveryTypeToAGenericHandler) {
  for (std::size_t i = 0; i < spec_table.size(); ++i) {
    const char type = spec_table[i].type;
    SCOPED_TRACE(std::string("type ") + type);
    bytes b = sample_message(type, static_cast<std::uint16_t>(100 + i));
    int calls = 0;
    char seen_type = 0;
    std::size_t seen_size = 0;
    itch5::message_header seen_header;
    auto handler = [&](const auto& m) {
      using M = std::decay_t<decltype(m)>;
      ++calls;
      seen_type = M::type;
      seen_size = M::size;
      seen_header = m.header;
    };
    EXPECT_EQ(itch5::dispatch_unchecked(b.data(), handler), itch5::dispatch_result::delivered);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(seen_type, type);
    EXPECT_EQ(seen_size, spec_table[i].length);
    EXPECT_EQ(seen_header.stock_locate, 100 + i);
    EXPECT_EQ(seen_header.tracking_number, 0x0102);
    EXPECT_EQ(seen_header.timestamp.count(), 0x0a0b'0c0d'0e0f);
  }
}

struct adds_only {
  int adds = 0;
  std::uint64_t last_ref = 0;
  void operator()(const itch5::add_order& m) {
    ++adds;
    last_ref = m.order_ref;
  }
};

TEST(Dispatch, PartialHandlerIgnoresOtherTypes) {
  adds_only h;
  bytes add = itch5_test::add_order_bytes(77, 'B', 100, "AAPL", 10000);
  bytes del = itch5_test::order_delete_bytes(77);
  EXPECT_EQ(itch5::dispatch_unchecked(add.data(), h), itch5::dispatch_result::delivered);
  EXPECT_EQ(itch5::dispatch_unchecked(del.data(), h), itch5::dispatch_result::ignored);
  EXPECT_EQ(itch5::dispatch(del, h), itch5::dispatch_result::ignored);
  EXPECT_EQ(h.adds, 1);
  EXPECT_EQ(h.last_ref, 77u);
}

TEST(Dispatch, UnknownTypes) {
  int calls = 0;
  auto handler = [&](const auto&) { ++calls; };
  for (char t : {'Z', 'a', '0', '\0', '\x7f'}) {
    bytes b = builder().header(t, 1, 2, 3).u64(0).u64(0).get();
    EXPECT_EQ(itch5::dispatch_unchecked(b.data(), handler), itch5::dispatch_result::unknown_type) << int(t);
    EXPECT_EQ(itch5::dispatch(b, handler), itch5::dispatch_result::unknown_type) << int(t);
    EXPECT_EQ(itch5::dispatch(std::span<const std::byte>(b.data(), 1), handler),
              itch5::dispatch_result::unknown_type)
        << int(t);
  }
  EXPECT_EQ(calls, 0);
}

TEST(Dispatch, CheckedLengths) {
  int calls = 0;
  auto handler = [&](const auto&) { ++calls; };
  EXPECT_EQ(itch5::dispatch(std::span<const std::byte>(), handler), itch5::dispatch_result::too_short);
  bytes d = itch5_test::order_delete_bytes(1);
  EXPECT_EQ(itch5::dispatch(std::span<const std::byte>(d.data(), 18), handler),
            itch5::dispatch_result::too_short);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(itch5::dispatch(d, handler), itch5::dispatch_result::delivered);
  d.push_back(std::byte{0});  // oversized: still delivered, extra byte ignored
  EXPECT_EQ(itch5::dispatch(d, handler), itch5::dispatch_result::delivered);
  EXPECT_EQ(calls, 2);
}

}  // namespace
