// symbol_directory: the locates of chosen symbols, learnt from stock directory messages as they pass.
#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/messages.hpp>
#include <itch5/symbol_directory.hpp>

namespace {

// The bytes of a message of type M at `locate`; a stock directory message names `symbol`.
template <class M>
std::vector<std::byte> message(std::uint16_t locate, std::string_view symbol = "") {
  M m{};
  m.header.stock_locate = locate;
  if constexpr (requires { m.stock; }) m.stock = itch5::stock_symbol::from(symbol);
  std::vector<std::byte> bytes(M::size);
  itch5::encode(m, bytes.data());
  return bytes;
}

TEST(symbol_directory, without_chosen_symbols_every_locate_is_selected_and_names_are_learnt) {
  itch5::symbol_directory d;
  EXPECT_TRUE(d.observe(message<itch5::add_order>(7)));
  EXPECT_TRUE(d.observe(message<itch5::stock_directory>(9, "MSFT")));
  EXPECT_EQ(d.symbol(9), "MSFT");
  EXPECT_EQ(d.symbol(7), "");
  EXPECT_TRUE(d.not_found().empty());
}

TEST(symbol_directory, selects_the_locates_the_directory_messages_of_chosen_symbols_assign) {
  itch5::symbol_directory d({"aapl", "MSFT", "AAPL", "NOPE"});
  EXPECT_FALSE(d.observe(message<itch5::add_order>(13)));  // not yet known
  EXPECT_TRUE(d.observe(message<itch5::stock_directory>(13, "AAPL")));
  EXPECT_TRUE(d.observe(message<itch5::add_order>(13)));
  EXPECT_FALSE(d.observe(message<itch5::stock_directory>(14, "AAPLX")));
  EXPECT_FALSE(d.observe(message<itch5::order_delete>(14)));
  EXPECT_FALSE(d.observe(message<itch5::system_event>(0)));
  d.select(0);
  EXPECT_TRUE(d.observe(message<itch5::system_event>(0)));
  // A learnt symbol is compared as it is: the chosen ones are upper-cased, not the learnt ones.
  EXPECT_FALSE(d.learn(15, "msft"));
  EXPECT_EQ(d.not_found(), (std::vector<std::string>{"MSFT", "NOPE"}));
  EXPECT_TRUE(d.learn(16, "MSFT"));
  EXPECT_TRUE(d.selected(16));
  EXPECT_FALSE(d.selected(15));
  EXPECT_EQ(d.not_found(), (std::vector<std::string>{"NOPE"}));
  // A locate once selected stays selected; its name follows the last directory message.
  EXPECT_TRUE(d.learn(13, "OTHER"));
  EXPECT_EQ(d.symbol(13), "OTHER");
}

TEST(symbol_directory, an_eight_character_symbol_is_matched_whole) {
  itch5::symbol_directory d({"ABCDEFGH"});
  EXPECT_FALSE(d.observe(message<itch5::stock_directory>(1, "ABCDEFG")));
  EXPECT_TRUE(d.observe(message<itch5::stock_directory>(2, "ABCDEFGH")));
  EXPECT_EQ(d.symbol(2), "ABCDEFGH");
  EXPECT_TRUE(d.not_found().empty());
}

}  // namespace
