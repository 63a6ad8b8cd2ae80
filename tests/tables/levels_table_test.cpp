// The N-level book table's columns (levels_table.hpp) are those docs/formats.md lists, and its shape
// follows the row's N.
#include <gtest/gtest.h>

#include <charconv>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/schema.hpp>

namespace {

std::string formats_md() {
  std::ifstream in(std::string(ITCH5_DATA_DIR) + "/../docs/formats.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(LevelsTable, DocsListTheColumnsOfLevelZero) {
  itch5::tables::levels_row one;
  one.levels = 1;
  const std::string md =
      itch5::tables::markdown_columns(itch5::tables::schema_of<itch5::tables::levels_table>(one));
  EXPECT_NE(formats_md().find(md), std::string::npos) << "docs/formats.md should list:\n" << md;
}

TEST(LevelsTable, ColumnCountIsThreePlusSixPerLevel) {
  for (unsigned n = 1; n <= itch5::tables::max_levels; ++n) {
    itch5::tables::levels_row r;
    r.levels = n;
    EXPECT_EQ(itch5::tables::schema_of<itch5::tables::levels_table>(r).size(), 3 + 6 * n);
  }
}

}  // namespace

namespace {

// The CSV writer's digits (csv_row.hpp's detail::decimal) against std::to_chars around every power of ten
// and at random values of every length.
TEST(LevelsTable, CsvDigitsAreThoseOfToChars) {
  std::vector<std::uint64_t> values = {0, 1, 9, std::numeric_limits<std::uint64_t>::max()};
  std::uint64_t p = 1;
  for (int i = 0; i < 20; ++i) {
    for (std::uint64_t d : {p - 1, p, p + 1, 2 * p - 1, 5 * p}) values.push_back(d);
    if (i < 19) p *= 10;
  }
  std::uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 100000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    values.push_back(x >> (x % 64));
  }
  for (const std::uint64_t v : values) {
    char a[24], b[24];
    const char* ea = itch5::tables::detail::decimal(a, v);
    const char* eb = std::to_chars(b, b + 24, v).ptr;
    ASSERT_EQ(std::string(static_cast<const char*>(a), ea), std::string(static_cast<const char*>(b), eb))
        << v;
  }
}

}  // namespace
