// The N-level book table's columns (levels_table.hpp) are those docs/formats.md lists, and its shape
// follows the row's N.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

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
