// The inside-change line, its one home (itch5/inside_line.hpp): what the formatter writes the parser reads
// back field for field, over the extremes of every field; the empty sides; the parser's limits and reasons.
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/inside_line.hpp>

namespace {

std::string formatted(const itch5::inside_line& line) {
  char buf[itch5::max_inside_line];
  return std::string(buf, itch5::format_inside_line(buf, line));
}

TEST(inside_line, formats_the_documented_example) {
  itch5::inside_line l{34200000012345, 13, "AAPL", 1902500, 300, 1902600, 100};
  EXPECT_EQ(formatted(l), "34200000012345 13 AAPL 1902500 300 1902600 100\n");
}

TEST(inside_line, an_empty_side_prints_its_constant_whatever_its_price) {
  EXPECT_EQ(formatted({1, 2, "X", 0, 0, itch5::empty_offer_price, 0}), "1 2 X 0 0 2000000000 0\n");
  EXPECT_EQ(formatted({1, 2, "X", 1234, 0, 5678, 0}), "1 2 X 0 0 2000000000 0\n");
  char buf[48];
  EXPECT_EQ(std::string_view(buf, itch5::format_inside_bid(buf, 99, 0)), "0 0");
  EXPECT_EQ(std::string_view(buf, itch5::format_inside_offer(buf, 99, 0)), "2000000000 0");
  EXPECT_EQ(std::string_view(buf, itch5::format_inside_offer(buf, 99, 7)), "99 7");
}

// Format, then parse: every field comes back, over the extremes (empty sides, the largest timestamp, price
// and quantity, the largest locate, symbols of 1 to 8 characters).
TEST(inside_line, format_then_parse_gives_back_every_field) {
  constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t max_price = itch5::empty_offer_price - 1;  // the largest price of a real offer
  std::vector<itch5::inside_line> lines = {
      {0, 0, "A", itch5::empty_bid_price, 0, itch5::empty_offer_price, 0},
      {max, 65535, "ABCDEFGH", max_price, max, max_price, max},
      {max, 1, "ABCD", max, max, max, max},
      {86'399'999'999'999, 65535, "ZZZZ", 1, 1, itch5::empty_offer_price, 0},
      {34'200'000'000'000, 7, "Q", itch5::empty_bid_price, 0, 1, 1},
      {999'999'999'999'999'999, 300, "AB.C", 100'000'000'000'000'000, 4'294'967'295, 123, 4'294'967'296},
  };
  const std::string symbols = "ABCDEFGH";
  for (std::size_t n = 1; n <= 8; ++n) {
    const auto i = static_cast<std::int64_t>(n);
    lines.push_back({i, static_cast<std::uint16_t>(n), std::string_view(symbols).substr(0, n), i * 10, 100,
                     i * 10 + 1, 200});
  }
  for (const auto& in : lines) {
    const std::string text = formatted(in);
    ASSERT_LE(text.size(), itch5::max_inside_line);
    ASSERT_EQ(text.back(), '\n');
    itch5::inside_line out;
    ASSERT_EQ(itch5::parse_inside_line(std::string_view(text).substr(0, text.size() - 1), out), "") << text;
    EXPECT_EQ(out.timestamp, in.timestamp) << text;
    EXPECT_EQ(out.locate, in.locate) << text;
    EXPECT_EQ(out.symbol, in.symbol) << text;
    EXPECT_EQ(out.bid_price, in.bid_price) << text;
    EXPECT_EQ(out.bid_qty, in.bid_qty) << text;
    EXPECT_EQ(out.offer_price, in.offer_price) << text;
    EXPECT_EQ(out.offer_qty, in.offer_qty) << text;
    EXPECT_EQ(formatted(out), text);
  }
}

TEST(inside_line, the_empty_sides_parse_as_empty) {
  itch5::inside_line l;
  ASSERT_EQ(itch5::parse_inside_line("1 2 X 0 0 2000000000 0", l), "");
  EXPECT_FALSE(l.has_bid());
  EXPECT_FALSE(l.has_offer());
  ASSERT_EQ(itch5::parse_inside_line("1 2 X 1 5 1999999999 5", l), "");
  EXPECT_TRUE(l.has_bid());
  EXPECT_TRUE(l.has_offer());
}

TEST(inside_line, binary_data_is_called_that) {
  itch5::inside_line l;
  EXPECT_EQ(itch5::parse_inside_line(std::string_view("\x00\x2e"
                                                      "S\x01\x02 7 x",
                                                      9),
                                     l),
            itch5::inside_line_binary_reason);
  EXPECT_TRUE(itch5::looks_binary(std::string_view("a\x01", 2)));
  EXPECT_FALSE(itch5::looks_binary("1 2\tX 3 4 5 6\r"));
}

TEST(inside_line_parse, accepts_the_documented_example) {
  itch5::inside_line c;
  EXPECT_TRUE(itch5::parse_inside_line("34200000012345 13 AAPL 1902500 300 1902600 100", c).empty());
  EXPECT_EQ(c.timestamp, 34200000012345);
  EXPECT_EQ(c.locate, 13);
  EXPECT_EQ(c.symbol, "AAPL");
  EXPECT_EQ(c.offer_price, 1902600);
  EXPECT_FALSE(itch5::parse_inside_line("", c).empty());
}

// Well-formed lines take a one-pass path; everything else is parsed again field by field, so the limits and
// the reasons are those of the field parser whichever path a line takes.
TEST(inside_line_parse, the_one_pass_path_keeps_the_limits_and_reasons) {
  itch5::inside_line c;
  EXPECT_EQ(itch5::parse_inside_line("\t1\t2  SYM 3 4\t5 6 \r", c), "");
  EXPECT_EQ(c.timestamp, 1);
  EXPECT_EQ(c.locate, 2);
  EXPECT_EQ(c.symbol, "SYM");
  EXPECT_EQ(c.bid_price, 3);
  EXPECT_EQ(c.bid_qty, 4);
  EXPECT_EQ(c.offer_price, 5);
  EXPECT_EQ(c.offer_qty, 6);
  EXPECT_EQ(itch5::parse_inside_line("999999999999999999 65535 ABCDEFGH 0 0 2000000000 0", c), "");
  EXPECT_EQ(c.timestamp, 999'999'999'999'999'999);
  EXPECT_EQ(c.locate, 65535);
  EXPECT_EQ(c.symbol, "ABCDEFGH");
  // 19 digits: beyond the one-pass path, still accepted up to the largest int64.
  EXPECT_EQ(itch5::parse_inside_line("9223372036854775807 1 A 1 1 1 1", c), "");
  EXPECT_EQ(c.timestamp, 9'223'372'036'854'775'807);
  auto reason = [&](std::string_view line) { return std::string(itch5::parse_inside_line(line, c)); };
  EXPECT_EQ(reason("9223372036854775808 1 A 1 1 1 1"),
            "timestamp: expected a non-negative integer (nanoseconds since midnight)");
  EXPECT_EQ(reason("1 65536 A 1 1 1 1"), "stock locate: expected an integer from 0 to 65535");
  EXPECT_EQ(reason("1 1 ABCDEFGHI 1 1 1 1"), "symbol: expected 1 to 8 characters");
  EXPECT_EQ(reason("1 1 A 1x 1 1 1"), "bid px: expected a non-negative integer (Price(4) units)");
  EXPECT_EQ(reason("1 1 A 1 -1 1 1"), "bid qty: expected a non-negative integer");
  EXPECT_EQ(reason("1 1 A 1 1 1 1 1"),
            "more than 7 fields (expected: timestamp locate symbol bid-px bid-qty offer-px offer-qty)");
  EXPECT_EQ(reason("1 1 A 1 1 1"),
            "fewer than 7 fields (expected: timestamp locate symbol bid-px bid-qty offer-px offer-qty)");
}

}  // namespace
