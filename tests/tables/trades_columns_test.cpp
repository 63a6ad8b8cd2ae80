// The trades and trade statistics tables' columns (tables/trades_table.hpp, trade_stats_table.hpp) as
// docs/formats.md lists them: the list there must be markdown_columns of the schema, word for word.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <itch5/tables/schema.hpp>
#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>

namespace {

std::string formats_md() {
  std::ifstream in(std::string(ITCH5_DATA_DIR) + "/../docs/formats.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(TradesColumns, DocsListTheTradesColumns) {
  const std::string md =
      itch5::tables::markdown_columns(itch5::tables::schema_of<itch5::tables::trades_table>());
  EXPECT_NE(formats_md().find(md), std::string::npos) << "docs/formats.md should hold:\n" << md;
}

TEST(TradesColumns, DocsListTheTradeStatsColumns) {
  const std::string md =
      itch5::tables::markdown_columns(itch5::tables::schema_of<itch5::tables::trade_stats_table>());
  EXPECT_NE(formats_md().find(md), std::string::npos) << "docs/formats.md should hold:\n" << md;
}

}  // namespace
