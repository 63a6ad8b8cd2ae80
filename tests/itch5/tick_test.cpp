// tick.hpp: the Nasdaq tick grid ($0.0001 below $1.00, $0.01 from $1.00) as level indices.
#include <gtest/gtest.h>

#include <itch5/tick.hpp>

namespace {

using itch5::price4;

TEST(Tick, IndexBelowOneDollarIsTheUnitCount) {
  EXPECT_EQ(itch5::tick_index(price4(0)), 0u);
  EXPECT_EQ(itch5::tick_index(price4(1)), 1u);          // $0.0001
  EXPECT_EQ(itch5::tick_index(price4(5'000)), 5'000u);  // $0.50
  EXPECT_EQ(itch5::tick_index(price4(9'999)), 9'999u);  // $0.9999
}

TEST(Tick, IndexFromOneDollarCountsCents) {
  EXPECT_EQ(itch5::tick_index(price4(10'000)), 10'000u);         // $1.00
  EXPECT_EQ(itch5::tick_index(price4(10'100)), 10'001u);         // $1.01
  EXPECT_EQ(itch5::tick_index(price4(1'902'500)), 28'925u);      // $190.25: 10000 + 18925 cents
  EXPECT_EQ(itch5::tick_index(itch5::max_price4), 20'009'900u);  // $200,000: 10000 + 19,999,900 cents
  // Off-grid prices from $1.00 take the index of the grid point below.
  EXPECT_EQ(itch5::tick_index(price4(10'150)), 10'001u);  // $1.015
  EXPECT_EQ(itch5::tick_index(price4(10'199)), 10'001u);
  EXPECT_EQ(itch5::tick_index(price4(10'200)), 10'002u);
}

TEST(Tick, PriceOfIndexInvertsTheGrid) {
  EXPECT_EQ(itch5::tick_price(0).units(), 0u);
  EXPECT_EQ(itch5::tick_price(9'999).units(), 9'999u);
  EXPECT_EQ(itch5::tick_price(10'000).units(), 10'000u);
  EXPECT_EQ(itch5::tick_price(10'001).units(), 10'100u);
  EXPECT_EQ(itch5::tick_price(28'925).units(), 1'902'500u);
  EXPECT_EQ(itch5::tick_price(20'009'900), itch5::max_price4);
  for (std::uint32_t i : {0u, 1u, 9'998u, 9'999u, 10'000u, 10'001u, 10'002u, 123'456u}) {
    EXPECT_EQ(itch5::tick_index(itch5::tick_price(i)), i) << i;
  }
}

TEST(Tick, LevelsBetweenSpanOneDollarSeamlessly) {
  EXPECT_EQ(itch5::levels_between(price4(9'999), price4(10'000)), 1u);  // $0.9999 -> $1.00
  EXPECT_EQ(itch5::levels_between(price4(9'999), price4(10'100)), 2u);  // $0.9999 -> $1.01
  EXPECT_EQ(itch5::levels_between(price4(10'100), price4(9'999)), 2u);  // symmetric
  EXPECT_EQ(itch5::levels_between(price4(9'900), price4(10'000)),
            100u);  // $0.99 -> $1.00: 100 sub-cent ticks
  EXPECT_EQ(itch5::levels_between(price4(10'000), price4(20'000)), 100u);   // $1.00 -> $2.00: 100 cents
  EXPECT_EQ(itch5::levels_between(price4(5'000), price4(15'000)), 5'050u);  // $0.50 -> $1.50: 5000 + 50
  EXPECT_EQ(itch5::levels_between(price4(1'902'500), price4(1'902'500)), 0u);
}

TEST(Tick, OnTickGrid) {
  EXPECT_TRUE(itch5::on_tick_grid(price4(0)));
  EXPECT_TRUE(itch5::on_tick_grid(price4(1)));
  EXPECT_TRUE(itch5::on_tick_grid(price4(9'999)));
  EXPECT_TRUE(itch5::on_tick_grid(price4(10'000)));
  EXPECT_TRUE(itch5::on_tick_grid(price4(10'100)));
  EXPECT_TRUE(itch5::on_tick_grid(itch5::max_price4));
  EXPECT_FALSE(itch5::on_tick_grid(price4(10'001)));  // $1.0001
  EXPECT_FALSE(itch5::on_tick_grid(price4(10'150)));  // $1.015
  EXPECT_FALSE(itch5::on_tick_grid(price4(1'902'501)));
}

TEST(Tick, TickSize) {
  EXPECT_EQ(itch5::tick_size(price4(9'999)), 1u);
  EXPECT_EQ(itch5::tick_size(price4(10'000)), 100u);
  EXPECT_EQ(itch5::tick_size(itch5::max_price4), 100u);
}

}  // namespace
