// format_decimal against std::to_chars (an independent implementation) on every power-of-ten boundary,
// every value below 100,000 and random values of every magnitude.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include <itch5/detail/decimal.hpp>

namespace {

std::string mine(std::uint64_t v) {
  char buf[24];
  return {buf, itch5::detail::format_decimal(buf, v)};
}

std::string reference(std::uint64_t v) {
  char buf[24];
  return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

TEST(FormatDecimal, SmallValuesExhaustively) {
  for (std::uint64_t v = 0; v < 100000; ++v) ASSERT_EQ(mine(v), reference(v));
}

TEST(FormatDecimal, AroundEveryPowerOfTen) {
  std::uint64_t p = 1;
  for (int k = 0; k <= 19; ++k, p *= 10) {
    for (std::uint64_t d : {p - 1, p, p + 1, 2 * p - 1, 9 * p + (p - 1)}) {
      if (k == 19 && d != p - 1 && d != p && d != p + 1) continue;  // 2 * 10^19 overflows
      ASSERT_EQ(mine(d), reference(d)) << d;
    }
  }
  EXPECT_EQ(mine(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
  EXPECT_EQ(mine(86'399'999'999'999), "86399999999999");
  EXPECT_EQ(mine(2'000'000'000), "2000000000");
}

TEST(FormatDecimal, RandomValuesOfEveryWidth) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const unsigned bits = 1 + static_cast<unsigned>(rng() % 64);
    const std::uint64_t v = rng() >> (64 - bits);
    ASSERT_EQ(mine(v), reference(v));
  }
}

}  // namespace

namespace {

// ITCH5_EXHAUSTIVE=1 checks every value below 10^8 (about a second); by default every 97th.
TEST(FormatDecimal, EightDigitChunks) {
  const bool all = std::getenv("ITCH5_EXHAUSTIVE") != nullptr;
  char buf[24];
  char ref[24];
  for (std::uint32_t v = 0; v < 100'000'000; v += all ? 1 : 97) {
    char* end = itch5::detail::format_below_1e8(buf, v);
    char* rend = std::to_chars(ref, ref + sizeof ref, v).ptr;
    ASSERT_EQ(std::string(buf, end), std::string(ref, rend)) << v;
    itch5::detail::format_8_digits(buf, v);
    std::string padded(ref, rend);
    padded.insert(0, 8 - padded.size(), '0');
    ASSERT_EQ(std::string(buf, 8), padded) << v;
  }
}

}  // namespace

namespace {

// decimal_digits() against the length of std::to_chars' text at every bit width's ends and around every
// power of ten that fits 32 bits.
TEST(DecimalDigits, EveryBitWidthAndPowerOfTen) {
  for (unsigned w = 0; w <= 32; ++w) {
    const std::uint64_t lo = w == 0 ? 0 : std::uint64_t{1} << (w - 1),
                        hi = w == 0 ? 0 : (std::uint64_t{1} << w) - 1;
    for (std::uint64_t v : {lo, hi})
      ASSERT_EQ(itch5::detail::decimal_digits(static_cast<std::uint32_t>(v)), reference(v).size()) << v;
  }
  for (std::uint64_t p = 1; p <= 1'000'000'000; p *= 10) {
    for (std::uint64_t v : {p - 1, p, p + 1})
      ASSERT_EQ(itch5::detail::decimal_digits(static_cast<std::uint32_t>(v)), reference(v).size()) << v;
  }
  EXPECT_EQ(itch5::detail::decimal_digits(0xffffffffu), 10u);
}

}  // namespace
