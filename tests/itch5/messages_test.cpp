// Hand-built bytes for every ITCH 5.0 message type (spec: itch50-messages.md), decoded with decode<M>() and
// checked field by field, then encode() of the decoded struct must give the same bytes back.
//
// Field values are chosen so that a swapped, shifted or byte-reversed field shows up: distinct byte
// patterns, 48-bit timestamps with their top bits set, prices above 2^31 units, 8-byte share counts.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include <itch5/messages.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::builder;
using itch5_test::bytes;

// Decodes from an exactly-sized heap copy, so ASan reports a read past M::size.
template <class M>
M decode_exact(const bytes& b) {
  EXPECT_EQ(b.size(), M::size) << "hand-built " << M::name << " has the wrong length";
  std::unique_ptr<std::byte[]> buf(new std::byte[b.size()]);
  std::memcpy(buf.get(), b.data(), b.size());
  return itch5::decode<M>(buf.get());
}

// encode() into an exactly-sized heap buffer (ASan reports a write past M::size) must give `expected`.
template <class M>
void expect_encodes_to(const M& m, const bytes& expected) {
  std::unique_ptr<std::byte[]> buf(new std::byte[M::size]);
  std::memset(buf.get(), 0xa5, M::size);
  itch5::encode(m, buf.get());
  bytes got(buf.get(), buf.get() + M::size);
  EXPECT_EQ(got, expected) << M::name << " does not re-encode to its bytes";
}

void expect_header(const itch5::message_header& h, std::uint16_t locate, std::uint16_t tracking,
                   std::int64_t ns) {
  EXPECT_EQ(h.stock_locate, locate);
  EXPECT_EQ(h.tracking_number, tracking);
  EXPECT_EQ(h.timestamp.count(), ns);
}

std::array<char, 2> a2(const char (&s)[3]) { return {s[0], s[1]}; }
std::array<char, 4> a4(const char (&s)[5]) { return {s[0], s[1], s[2], s[3]}; }
std::array<char, 8> a8(const char (&s)[9]) { return {s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]}; }

// 0xFEDCBA987654: every one of the 48 bits matters, the top one set.
constexpr std::uint64_t high_ts = 0xFEDC'BA98'7654;
constexpr std::int64_t high_ts_ns = 280'223'976'814'164;

TEST(Builder, AddOrderMatchesLiteralBytes) {
  // The builder itself, against bytes written out by hand from the spec table.
  const bytes literal = {
      std::byte{0x41},                   // 'A'
      std::byte{0x00}, std::byte{0x0d},  // locate 13
      std::byte{0x00}, std::byte{0x00},  // tracking 0
      std::byte{0x00}, std::byte{0x00}, std::byte{0x00}, std::byte{0x00}, std::byte{0x30},
      std::byte{0x39}, std::byte{0x00}, std::byte{0x00}, std::byte{0x00}, std::byte{0x00},  // order ref 42
      std::byte{0x00}, std::byte{0x00}, std::byte{0x00}, std::byte{0x2a}, std::byte{0x42},  // 'B'
      std::byte{0x00}, std::byte{0x00}, std::byte{0x00}, std::byte{0x64},                   // 100 shares
      std::byte{0x41}, std::byte{0x41}, std::byte{0x50}, std::byte{0x4c},                   // "AAPL    "
      std::byte{0x20}, std::byte{0x20}, std::byte{0x20}, std::byte{0x20}, std::byte{0x00},
      std::byte{0x1d}, std::byte{0x07}, std::byte{0xa4},  // $190.2500
  };
  bytes built =
      builder().header('A', 13, 0, 12345).u64(42).ch('B').u32(100).alpha("AAPL", 8).u32(1'902'500).get();
  EXPECT_EQ(built, literal);

  auto m = decode_exact<itch5::add_order>(literal);
  expect_header(m.header, 13, 0, 12345);
  EXPECT_EQ(m.order_ref, 42u);
  EXPECT_EQ(m.side, 'B');
  EXPECT_EQ(m.shares, 100u);
  EXPECT_EQ(m.stock.str(), "AAPL");
  EXPECT_EQ(m.price.units(), 1'902'500u);
  expect_encodes_to(m, literal);
}

TEST(Decode, SystemEvent) {
  bytes b = builder().header('S', 0, 0x0102, high_ts).ch('O').get();
  auto m = decode_exact<itch5::system_event>(b);
  expect_header(m.header, 0, 0x0102, high_ts_ns);
  EXPECT_EQ(m.event_code, 'O');
  expect_encodes_to(m, b);
}

TEST(Decode, StockDirectory) {
  bytes b = builder()
                .header('R', 13, 0x0203, 0x1f1a'ced9'f000)
                .alpha("AAPL", 8)
                .ch('Q')
                .ch('N')
                .u32(0x0102'0304)
                .ch('Y')
                .ch('C')
                .alpha("Z", 2)
                .ch('P')
                .ch('N')
                .ch(' ')
                .ch('1')
                .ch('E')
                .u32(0x0a0b'0c0d)
                .ch('I')
                .get();
  auto m = decode_exact<itch5::stock_directory>(b);
  expect_header(m.header, 13, 0x0203, 34'200'000'000'000);
  EXPECT_EQ(m.stock.str(), "AAPL");
  EXPECT_EQ(m.stock.raw(), a8("AAPL    "));
  EXPECT_EQ(m.market_category, 'Q');
  EXPECT_EQ(m.financial_status, 'N');
  EXPECT_EQ(m.round_lot_size, 0x0102'0304u);
  EXPECT_EQ(m.round_lots_only, 'Y');
  EXPECT_EQ(m.issue_classification, 'C');
  EXPECT_EQ(m.issue_subtype, a2("Z "));
  EXPECT_EQ(m.authenticity, 'P');
  EXPECT_EQ(m.short_sale_threshold, 'N');
  EXPECT_EQ(m.ipo_flag, ' ');
  EXPECT_EQ(m.luld_reference_price_tier, '1');
  EXPECT_EQ(m.etp_flag, 'E');
  EXPECT_EQ(m.etp_leverage_factor, 0x0a0b'0c0du);
  EXPECT_EQ(m.inverse_indicator, 'I');
  expect_encodes_to(m, b);
}

TEST(Decode, StockTradingAction) {
  bytes b =
      builder().header('H', 0x8001, 0xffff, high_ts).alpha("ZVZZT", 8).ch('H').ch(' ').alpha("T1", 4).get();
  auto m = decode_exact<itch5::stock_trading_action>(b);
  expect_header(m.header, 0x8001, 0xffff, high_ts_ns);
  EXPECT_EQ(m.stock.str(), "ZVZZT");
  EXPECT_EQ(m.trading_state, 'H');
  EXPECT_EQ(m.reserved, ' ');
  EXPECT_EQ(m.reason, a4("T1  "));
  expect_encodes_to(m, b);
}

TEST(Decode, RegShoRestriction) {
  bytes b = builder().header('Y', 0x1234, 0x5678, 1).alpha("QQQ", 8).ch('1').get();
  auto m = decode_exact<itch5::reg_sho_restriction>(b);
  expect_header(m.header, 0x1234, 0x5678, 1);
  EXPECT_EQ(m.stock.str(), "QQQ");
  EXPECT_EQ(m.reg_sho_action, '1');
  expect_encodes_to(m, b);
}

TEST(Decode, MarketParticipantPosition) {
  bytes b = builder()
                .header('L', 0x00ff, 0xff00, 0x8000'0000'0000)
                .alpha("GSCO", 4)
                .alpha("MSFT", 8)
                .ch('Y')
                .ch('N')
                .ch('A')
                .get();
  auto m = decode_exact<itch5::market_participant_position>(b);
  expect_header(m.header, 0x00ff, 0xff00, 140'737'488'355'328);
  EXPECT_EQ(m.mpid, a4("GSCO"));
  EXPECT_EQ(m.stock.str(), "MSFT");
  EXPECT_EQ(m.primary_market_maker, 'Y');
  EXPECT_EQ(m.market_maker_mode, 'N');
  EXPECT_EQ(m.participant_state, 'A');
  expect_encodes_to(m, b);
}

TEST(Decode, MwcbDeclineLevelPrice8) {
  bytes b = builder()
                .header('V', 0, 3, high_ts)
                .u64(271'811'000'000)        // $2,718.11000000
                .u64(0x0102'0304'0506'0708)  // every byte distinct
                .u64(0xf0e0'd0c0'b0a0'9080)  // top bit set
                .get();
  auto m = decode_exact<itch5::mwcb_decline_level>(b);
  expect_header(m.header, 0, 3, high_ts_ns);
  EXPECT_EQ(m.level1.units(), 271'811'000'000u);
  EXPECT_EQ(m.level2.units(), 0x0102'0304'0506'0708u);
  EXPECT_EQ(m.level3.units(), 0xf0e0'd0c0'b0a0'9080u);
  static_assert(decltype(m.level1)::decimals == 8);
  expect_encodes_to(m, b);
}

TEST(Decode, MwcbStatus) {
  bytes b = builder().header('W', 0, 4, 0x0000'0000'ffff).ch('2').get();
  auto m = decode_exact<itch5::mwcb_status>(b);
  expect_header(m.header, 0, 4, 65535);
  EXPECT_EQ(m.breached_level, '2');
  expect_encodes_to(m, b);
}

TEST(Decode, IpoQuotingPeriodUpdate) {
  bytes b = builder().header('K', 77, 5, high_ts).alpha("NEWCO", 8).u32(36'000).ch('A').u32(123'456).get();
  auto m = decode_exact<itch5::ipo_quoting_period_update>(b);
  expect_header(m.header, 77, 5, high_ts_ns);
  EXPECT_EQ(m.stock.str(), "NEWCO");
  EXPECT_EQ(m.release_time, 36'000u);
  EXPECT_EQ(m.release_qualifier, 'A');
  EXPECT_EQ(m.ipo_price.units(), 123'456u);  // $12.3456
  expect_encodes_to(m, b);
}

TEST(Decode, LuldAuctionCollar) {
  bytes b = builder()
                .header('J', 4242, 6, 1'000'000'000)
                .alpha("GME", 8)
                .u32(12'345'678)
                .u32(0x8000'0001)  // above 2^31 units: unsigned
                .u32(12'000'000)
                .u32(3)
                .get();
  auto m = decode_exact<itch5::luld_auction_collar>(b);
  expect_header(m.header, 4242, 6, 1'000'000'000);
  EXPECT_EQ(m.stock.str(), "GME");
  EXPECT_EQ(m.reference_price.units(), 12'345'678u);
  EXPECT_EQ(m.upper_price.units(), 0x8000'0001u);
  EXPECT_EQ(m.lower_price.units(), 12'000'000u);
  EXPECT_EQ(m.extension, 3u);
  expect_encodes_to(m, b);
}

TEST(Decode, OperationalHalt) {
  bytes b = builder().header('h', 9, 7, high_ts).alpha("IBM", 8).ch('Q').ch('H').get();
  auto m = decode_exact<itch5::operational_halt>(b);
  expect_header(m.header, 9, 7, high_ts_ns);
  EXPECT_EQ(m.stock.str(), "IBM");
  EXPECT_EQ(m.market_code, 'Q');
  EXPECT_EQ(m.halt_action, 'H');
  expect_encodes_to(m, b);
}

TEST(Decode, AddOrder) {
  bytes b = builder()
                .header('A', 0xfffe, 0x8001, high_ts)
                .u64(0x0123'4567'89ab'cdef)
                .ch('S')
                .u32(0x0102'0304)
                .alpha("ABCDEFGH", 8)  // a full-width symbol: nothing to trim
                .u32(2'000'000'000)    // $200,000.0000, the largest Price(4)
                .get();
  auto m = decode_exact<itch5::add_order>(b);
  expect_header(m.header, 0xfffe, 0x8001, high_ts_ns);
  EXPECT_EQ(m.order_ref, 0x0123'4567'89ab'cdefu);
  EXPECT_EQ(m.side, 'S');
  EXPECT_EQ(m.shares, 0x0102'0304u);
  EXPECT_EQ(m.stock.str(), "ABCDEFGH");
  EXPECT_EQ(m.price.units(), 2'000'000'000u);
  EXPECT_EQ(m.price, itch5::max_price4);
  expect_encodes_to(m, b);
}

TEST(Decode, AddOrderMpid) {
  bytes b = builder()
                .header('F', 2, 8, high_ts)
                .u64(0xffff'ffff'ffff'fffe)
                .ch('B')
                .u32(100)
                .alpha("BRK A", 8)  // inner space kept, trailing spaces trimmed
                .u32(1)             // $0.0001
                .alpha("VIRT", 4)
                .get();
  auto m = decode_exact<itch5::add_order_mpid>(b);
  expect_header(m.header, 2, 8, high_ts_ns);
  EXPECT_EQ(m.order_ref, 0xffff'ffff'ffff'fffeu);
  EXPECT_EQ(m.side, 'B');
  EXPECT_EQ(m.shares, 100u);
  EXPECT_EQ(m.stock.str(), "BRK A");
  EXPECT_EQ(m.price.units(), 1u);
  EXPECT_EQ(m.attribution, a4("VIRT"));
  expect_encodes_to(m, b);
}

TEST(Decode, OrderExecuted) {
  bytes b =
      builder().header('E', 3, 9, 42).u64(987'654'321).u32(0xdead'beef).u64(0x8877'6655'4433'2211).get();
  auto m = decode_exact<itch5::order_executed>(b);
  expect_header(m.header, 3, 9, 42);
  EXPECT_EQ(m.order_ref, 987'654'321u);
  EXPECT_EQ(m.executed_shares, 0xdead'beefu);
  EXPECT_EQ(m.match_number, 0x8877'6655'4433'2211u);
  expect_encodes_to(m, b);
}

TEST(Decode, OrderExecutedWithPrice) {
  bytes b = builder().header('C', 4, 10, high_ts).u64(11).u32(22).u64(33).ch('N').u32(0x00ab'cdef).get();
  auto m = decode_exact<itch5::order_executed_with_price>(b);
  expect_header(m.header, 4, 10, high_ts_ns);
  EXPECT_EQ(m.order_ref, 11u);
  EXPECT_EQ(m.executed_shares, 22u);
  EXPECT_EQ(m.match_number, 33u);
  EXPECT_EQ(m.printable, 'N');
  EXPECT_EQ(m.execution_price.units(), 0x00ab'cdefu);
  expect_encodes_to(m, b);
}

TEST(Decode, OrderCancel) {
  bytes b = builder().header('X', 5, 11, high_ts).u64(0x1111'2222'3333'4444).u32(0x5555'6666).get();
  auto m = decode_exact<itch5::order_cancel>(b);
  expect_header(m.header, 5, 11, high_ts_ns);
  EXPECT_EQ(m.order_ref, 0x1111'2222'3333'4444u);
  EXPECT_EQ(m.cancelled_shares, 0x5555'6666u);
  expect_encodes_to(m, b);
}

TEST(Decode, OrderDelete) {
  bytes b = builder().header('D', 6, 12, high_ts).u64(0x0807'0605'0403'0201).get();
  auto m = decode_exact<itch5::order_delete>(b);
  expect_header(m.header, 6, 12, high_ts_ns);
  EXPECT_EQ(m.order_ref, 0x0807'0605'0403'0201u);
  expect_encodes_to(m, b);
}

TEST(Decode, OrderReplace) {
  bytes b = builder()
                .header('U', 7, 13, high_ts)
                .u64(0x0000'0000'0000'0100)
                .u64(0x0000'0000'0001'0000)
                .u32(0x0001'0001)
                .u32(9'999)  // $0.9999: sub-dollar
                .get();
  auto m = decode_exact<itch5::order_replace>(b);
  expect_header(m.header, 7, 13, high_ts_ns);
  EXPECT_EQ(m.original_order_ref, 0x100u);
  EXPECT_EQ(m.new_order_ref, 0x10000u);
  EXPECT_EQ(m.shares, 0x0001'0001u);
  EXPECT_EQ(m.price.units(), 9'999u);
  expect_encodes_to(m, b);
}

TEST(Decode, Trade) {
  bytes b = builder()
                .header('P', 8, 14, high_ts)
                .u64(0)
                .ch('S')
                .u32(500)
                .alpha("SPY", 8)
                .u32(4'501'234)
                .u64(0x0a0a'0b0b'0c0c'0d0d)
                .get();
  auto m = decode_exact<itch5::trade>(b);
  expect_header(m.header, 8, 14, high_ts_ns);
  EXPECT_EQ(m.order_ref, 0u);
  EXPECT_EQ(m.side, 'S');
  EXPECT_EQ(m.shares, 500u);
  EXPECT_EQ(m.stock.str(), "SPY");
  EXPECT_EQ(m.price.units(), 4'501'234u);
  EXPECT_EQ(m.match_number, 0x0a0a'0b0b'0c0c'0d0du);
  expect_encodes_to(m, b);
}

TEST(Decode, CrossTradeEightByteShares) {
  bytes b = builder()
                .header('Q', 9, 15, high_ts)
                .u64(0x0000'0001'0000'0002)  // 4,294,967,298 shares: needs all 8 bytes
                .alpha("TSLA", 8)
                .u32(2'501'100)
                .u64(0x7766'5544'3322'1100)
                .ch('O')
                .get();
  auto m = decode_exact<itch5::cross_trade>(b);
  expect_header(m.header, 9, 15, high_ts_ns);
  EXPECT_EQ(m.shares, 4'294'967'298u);
  EXPECT_EQ(m.stock.str(), "TSLA");
  EXPECT_EQ(m.cross_price.units(), 2'501'100u);
  EXPECT_EQ(m.match_number, 0x7766'5544'3322'1100u);
  EXPECT_EQ(m.cross_type, 'O');
  expect_encodes_to(m, b);
}

TEST(Decode, BrokenTrade) {
  bytes b = builder().header('B', 10, 16, high_ts).u64(0xfedc'ba98'7654'3210).get();
  auto m = decode_exact<itch5::broken_trade>(b);
  expect_header(m.header, 10, 16, high_ts_ns);
  EXPECT_EQ(m.match_number, 0xfedc'ba98'7654'3210u);
  expect_encodes_to(m, b);
}

TEST(Decode, Noii) {
  bytes b = builder()
                .header('I', 11, 17, high_ts)
                .u64(0x0000'00ff'0000'0001)
                .u64(0x0000'0002'0000'00ee)
                .ch('B')
                .alpha("NVDA", 8)
                .u32(1'000'100)
                .u32(1'000'200)
                .u32(1'000'300)
                .ch('C')
                .ch('L')
                .get();
  auto m = decode_exact<itch5::noii>(b);
  expect_header(m.header, 11, 17, high_ts_ns);
  EXPECT_EQ(m.paired_shares, 0x0000'00ff'0000'0001u);
  EXPECT_EQ(m.imbalance_shares, 0x0000'0002'0000'00eeu);
  EXPECT_EQ(m.imbalance_direction, 'B');
  EXPECT_EQ(m.stock.str(), "NVDA");
  EXPECT_EQ(m.far_price.units(), 1'000'100u);
  EXPECT_EQ(m.near_price.units(), 1'000'200u);
  EXPECT_EQ(m.current_reference_price.units(), 1'000'300u);
  EXPECT_EQ(m.cross_type, 'C');
  EXPECT_EQ(m.price_variation_indicator, 'L');
  expect_encodes_to(m, b);
}

TEST(Decode, Rpii) {
  bytes b = builder().header('N', 12, 18, high_ts).alpha("A", 8).ch('B').get();
  auto m = decode_exact<itch5::rpii>(b);
  expect_header(m.header, 12, 18, high_ts_ns);
  EXPECT_EQ(m.stock.str(), "A");
  EXPECT_EQ(m.stock.raw(), a8("A       "));
  EXPECT_EQ(m.interest_flag, 'B');
  expect_encodes_to(m, b);
}

TEST(Decode, DlcrPriceDiscovery) {
  bytes b = builder()
                .header('O', 13, 19, high_ts)
                .alpha("DLCR", 8)
                .ch('Y')
                .u32(100'000)
                .u32(200'000)
                .u32(150'000)
                .u64(0x0001'0203'0405'0607)
                .u32(140'000)
                .u32(160'000)
                .get();
  auto m = decode_exact<itch5::dlcr_price_discovery>(b);
  expect_header(m.header, 13, 19, high_ts_ns);
  EXPECT_EQ(m.stock.str(), "DLCR");
  EXPECT_EQ(m.open_eligibility, 'Y');
  EXPECT_EQ(m.min_allowable_price.units(), 100'000u);
  EXPECT_EQ(m.max_allowable_price.units(), 200'000u);
  EXPECT_EQ(m.near_execution_price.units(), 150'000u);
  EXPECT_EQ(m.near_execution_time, 0x0001'0203'0405'0607u);
  EXPECT_EQ(m.lower_price_range_collar.units(), 140'000u);
  EXPECT_EQ(m.upper_price_range_collar.units(), 160'000u);
  expect_encodes_to(m, b);
}

TEST(Decode, OversizedBufferIgnoresExtraBytes) {
  // decode<M>() reads M::size bytes; whatever follows (an oversized frame's extra bytes) is not its business.
  bytes b = builder().header('D', 6, 12, 99).u64(5).u32(0xffff'ffff).get();
  auto m = decode_exact<itch5::order_delete>(bytes(b.begin(), b.begin() + 19));
  auto m2 = itch5::decode<itch5::order_delete>(b.data());
  EXPECT_EQ(m, m2);
  EXPECT_EQ(m2.order_ref, 5u);
}

TEST(StockSymbol, TrimsTrailingSpacesOnly) {
  EXPECT_EQ(itch5::stock_symbol::from("AAPL").str(), "AAPL");
  EXPECT_EQ(itch5::stock_symbol::from("AAPL").raw(), a8("AAPL    "));
  EXPECT_EQ(itch5::stock_symbol::from(" X").str(), " X");
  EXPECT_EQ(itch5::stock_symbol::from("").str(), "");
  EXPECT_EQ(itch5::stock_symbol::from("TOOLONGSYMBOL").str(), "TOOLONGS");
  EXPECT_EQ(itch5::stock_symbol{}.raw(), a8("        "));
}

}  // namespace
