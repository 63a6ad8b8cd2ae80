// The inside table's columns: docs/formats.md lists them as markdown_columns says, and a row formats as the
// inside file's line does (same numbers, commas for spaces), checked against a hand-written line.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/inside_table.hpp>
#include <itch5/tables/schema.hpp>

namespace {

using itch5::tables::inside_table;

TEST(InsideTable, DocsListTheColumns) {
  std::ifstream f(std::string(ITCH5_DATA_DIR) + "/../docs/formats.md");
  std::stringstream docs;
  docs << f.rdbuf();
  const std::string md = itch5::tables::markdown_columns(itch5::tables::schema_of<inside_table>());
  EXPECT_NE(docs.str().find(md), std::string::npos) << md;
}

TEST(InsideTable, RowIsTheInsideLine) {
  itch5::tables::inside_row r;
  r.timestamp = itch5::timestamp(34207325873789);
  r.locate = 2;
  r.symbol = itch5::stock_symbol::from("AAPL");
  r.bid_price = itch5::price4(390700);
  r.bid_size = 300;
  r.ask_price = itch5::max_price4;
  r.ask_size = 0;
  std::vector<char> buf(itch5::tables::csv_row_bound<inside_table>());
  const char* end = itch5::tables::format_csv_row<inside_table>(buf.data(), r);
  EXPECT_EQ(std::string(static_cast<const char*>(buf.data()), end),
            "34207325873789,2,AAPL,390700,300,2000000000,0\n");
  EXPECT_EQ(itch5::tables::csv_header(itch5::tables::schema_of<inside_table>()),
            "timestamp,locate,symbol,bid_price,bid_size,ask_price,ask_size\n");
}

}  // namespace
