// message_text.hpp: the one-line text of a message, against lines written by hand.
#include <gtest/gtest.h>

#include <string>

#include <itch5/message_text.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::builder;

template <class M>
std::string text_of(const itch5_test::bytes& b) {
  char buf[itch5::max_message_text];
  char* end = itch5::format_message(buf, itch5::decode<M>(b.data()));
  return std::string(buf, end);
}

TEST(MessageText, AddOrder) {
  auto b = builder()
               .header('A', 13, 0, 34'200'000'012'345)
               .u64(42)
               .ch('B')
               .u32(100)
               .alpha("AAPL", 8)
               .u32(1'902'500)
               .get();
  EXPECT_EQ(text_of<itch5::add_order>(b),
            "09:30:00.000012345 A add_order locate=13 tracking=0 order_ref=42 side=B shares=100 stock=AAPL "
            "price=190.2500");
}

TEST(MessageText, SubDollarAndMaximumPrices) {
  auto b = builder().header('U', 1, 2, 0).u64(1).u64(2).u32(3).u32(1).get();
  EXPECT_EQ(
      text_of<itch5::order_replace>(b),
      "00:00:00.000000000 U order_replace locate=1 tracking=2 original_order_ref=1 new_order_ref=2 shares=3 "
      "price=0.0001");
  b = builder().header('U', 1, 2, 0).u64(1).u64(2).u32(3).u32(2'000'000'000).get();
  EXPECT_EQ(
      text_of<itch5::order_replace>(b),
      "00:00:00.000000000 U order_replace locate=1 tracking=2 original_order_ref=1 new_order_ref=2 shares=3 "
      "price=200000.0000");
}

TEST(MessageText, Price8AndHoursPastMidnight) {
  // 280,223.976814164 s = 77 h 50 min 23.976814164 s: printed as it is, not wrapped.
  auto b = builder().header('V', 0, 3, 0xfedc'ba98'7654).u64(271'811'000'000).u64(1).u64(0).get();
  EXPECT_EQ(
      text_of<itch5::mwcb_decline_level>(b),
      "77:50:23.976814164 V mwcb_decline_level locate=0 tracking=3 level1=2718.11000000 level2=0.00000001 "
      "level3=0.00000000");
}

TEST(MessageText, SpacesEmptyAlphaAndUnprintableCharacters) {
  auto b = builder()
               .header('H', 65535, 65535, 86'399'999'999'999)
               .alpha("BRK A", 8)
               .ch('T')
               .u8(0x01)
               .alpha("", 4)
               .get();
  EXPECT_EQ(
      text_of<itch5::stock_trading_action>(b),
      "23:59:59.999999999 H stock_trading_action locate=65535 tracking=65535 stock=BRK A trading_state=T "
      "reserved=0x01 reason=''");
  b = builder().header('Y', 5, 0, 1).alpha("QQQ", 8).ch(' ').get();
  EXPECT_EQ(text_of<itch5::reg_sho_restriction>(b),
            "00:00:00.000000001 Y reg_sho_restriction locate=5 tracking=0 stock=QQQ reg_sho_action=' '");
}

TEST(MessageText, LongestMessageFitsTheBound) {
  // The NOII line with every number at its widest stays under max_message_text.
  auto b = builder()
               .header('I', 65535, 65535, 0xffff'ffff'ffff)
               .u64(~0ull)
               .u64(~0ull)
               .ch('B')
               .alpha("ABCDEFGH", 8)
               .u32(~0u)
               .u32(~0u)
               .u32(~0u)
               .ch('C')
               .ch('L')
               .get();
  std::string t = text_of<itch5::noii>(b);
  EXPECT_LT(t.size(), itch5::max_message_text);
  EXPECT_NE(t.find("paired_shares=18446744073709551615 "), std::string::npos) << t;
  EXPECT_NE(t.find("far_price=429496.7295 "), std::string::npos) << t;
}

}  // namespace
