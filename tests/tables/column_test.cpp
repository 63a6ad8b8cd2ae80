// The column machinery of tables/ on a table made for the test: every value type's column type and CSV
// form, nullable columns, indexed names, the header, the markdown list and the row bound.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <itch5/tables/column.hpp>
#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/schema.hpp>

namespace {

using itch5::tables::column;
using itch5::tables::column_type;
using itch5::tables::letter;

struct sample_row {
  itch5::timestamp ts{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter side{};
  itch5::price4 price{};
  itch5::price8 fine{};
  std::int64_t signed_value = 0;
  std::uint64_t big = 0;
  bool flag = false;
  std::optional<std::uint64_t> maybe;
  int levels = 2;
  std::uint32_t sizes[3] = {};
};

struct sample_table {
  [[maybe_unused]] static constexpr std::string_view name = "sample";
  using row = sample_row;
  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight"}, r.ts);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the stock"}, r.symbol);
    v({"side", "B or S"}, r.side);
    v({"price", "a price"}, r.price);
    v({"fine", "a Price(8)"}, r.fine);
    v({"signed", "may be negative"}, r.signed_value);
    v({"big", "a large count"}, r.big);
    v({"flag", "yes or no"}, r.flag);
    v({"maybe", "sometimes known"}, r.maybe);
    for (int i = 0; i < r.levels; ++i) v({"sz_", "size of level i", i}, r.sizes[i]);
  }
};

std::string csv_of(const sample_row& r) {
  std::vector<char> buf(itch5::tables::csv_row_bound<sample_table>(r));
  const char* end = itch5::tables::format_csv_row<sample_table>(buf.data(), r);
  return std::string(static_cast<const char*>(buf.data()), end);
}

TEST(Columns, SchemaComesFromTheVisitInOrderWithTypesFromTheValues) {
  const std::vector<column> cols = itch5::tables::schema_of<sample_table>();
  const std::vector<column> expected = {
      {"timestamp", column_type::timestamp, "ns since midnight", false},
      {"locate", column_type::uint64, "stock locate", false},
      {"symbol", column_type::symbol, "the stock", false},
      {"side", column_type::letter, "B or S", false},
      {"price", column_type::price4, "a price", false},
      {"fine", column_type::price8, "a Price(8)", false},
      {"signed", column_type::int64, "may be negative", false},
      {"big", column_type::uint64, "a large count", false},
      {"flag", column_type::boolean, "yes or no", false},
      {"maybe", column_type::uint64, "sometimes known", true},
      {"sz_00", column_type::uint64, "size of level i", false},
      {"sz_01", column_type::uint64, "size of level i", false},
  };
  EXPECT_EQ(cols, expected);
}

TEST(Columns, IndexedNamesTakeTwoDigitsOrMore) {
  EXPECT_EQ((itch5::tables::field{"bid_px_", "", 0}.full_name()), "bid_px_00");
  EXPECT_EQ((itch5::tables::field{"bid_px_", "", 9}.full_name()), "bid_px_09");
  EXPECT_EQ((itch5::tables::field{"bid_px_", "", 49}.full_name()), "bid_px_49");
  EXPECT_EQ((itch5::tables::field{"bid_px_", "", 100}.full_name()), "bid_px_100");
  EXPECT_EQ((itch5::tables::field{"price", ""}.full_name()), "price");
}

TEST(Columns, HeaderAndPrototypeShapedColumns) {
  sample_row three;
  three.levels = 3;
  EXPECT_EQ(itch5::tables::csv_header(itch5::tables::schema_of<sample_table>(three)),
            "timestamp,locate,symbol,side,price,fine,signed,big,flag,maybe,sz_00,sz_01,sz_02\n");
}

TEST(Columns, CsvRowWritesEachValueTypeItsWay) {
  sample_row r;
  r.ts = itch5::timestamp(34'200'000'000'123);
  r.locate = 65535;
  r.symbol = itch5::stock_symbol::from("BRK A");  // a space inside: '?'
  r.side = letter{'S'};
  r.price = itch5::price4(2'000'000'000u);
  r.fine = itch5::price8(18'446'744'073'709'551'615ull);
  r.signed_value = -9'223'372'036'854'775'807 - 1;
  r.big = 18'446'744'073'709'551'615ull;
  r.flag = true;
  r.sizes[0] = 100;
  r.sizes[1] = 4'294'967'295u;
  EXPECT_EQ(csv_of(r),
            "34200000000123,65535,BRK?A,S,2000000000,18446744073709551615,-9223372036854775808,"
            "18446744073709551615,1,,100,4294967295\n");
  r.maybe = 0;
  r.side = letter{};
  r.flag = false;
  r.symbol = itch5::stock_symbol::from("A,\"B");
  EXPECT_EQ(csv_of(r),
            "34200000000123,65535,A??B,,2000000000,18446744073709551615,-9223372036854775808,"
            "18446744073709551615,0,0,100,4294967295\n");
}

TEST(Columns, RowBoundCoversTheLongestRow) {
  sample_row r;
  r.ts = itch5::timestamp(std::numeric_limits<std::int64_t>::max());
  r.symbol = itch5::stock_symbol::from("ABCDEFGH");
  r.side = letter{'B'};
  r.price = itch5::price4(std::numeric_limits<std::uint32_t>::max());
  r.fine = itch5::price8(std::numeric_limits<std::uint64_t>::max());
  r.signed_value = std::numeric_limits<std::int64_t>::min();
  r.big = std::numeric_limits<std::uint64_t>::max();
  r.maybe = std::numeric_limits<std::uint64_t>::max();
  r.locate = 65535;
  r.sizes[0] = r.sizes[1] = std::numeric_limits<std::uint32_t>::max();
  EXPECT_LE(csv_of(r).size(), itch5::tables::csv_row_bound<sample_table>(r));
}

TEST(Columns, MarkdownListsNameTypeAndMeaning) {
  sample_row one;
  one.levels = 1;
  const std::string md = itch5::tables::markdown_columns(itch5::tables::schema_of<sample_table>(one));
  EXPECT_EQ(md.substr(0, md.find('\n', md.find('\n') + 1) + 1),
            "| column | type | meaning |\n|---|---|---|\n");
  EXPECT_NE(md.find("| `timestamp` | ns | ns since midnight |\n"), std::string::npos);
  EXPECT_NE(md.find("| `maybe` | uint64 or empty | sometimes known |\n"), std::string::npos);
  EXPECT_NE(md.find("| `sz_00` | uint64 | size of level i |\n"), std::string::npos);
}

// Text columns (a code's meaning in words): quoted only when they must be, RFC 4180 style, and the bound
// follows each row's own text.
struct text_row {
  std::uint16_t locate = 0;
  itch5::tables::text meaning{};
  std::optional<itch5::tables::text> note;
};

struct text_table {
  [[maybe_unused]] static constexpr std::string_view name = "texts";
  using row = text_row;
  template <class V>
  static void visit(V& v, const row& r) {
    v({"locate", "stock locate"}, r.locate);
    v({"meaning", "in words"}, r.meaning);
    v({"note", "sometimes"}, r.note);
  }
};

std::string text_csv_of(const text_row& r) {
  std::vector<char> buf(itch5::tables::csv_row_bound<text_table>(r));
  const char* end = itch5::tables::format_csv_row<text_table>(buf.data(), r);
  EXPECT_LE(static_cast<std::size_t>(end - buf.data()), buf.size());
  return std::string(static_cast<const char*>(buf.data()), end);
}

TEST(Columns, TextIsItsOwnColumnTypeNamedText) {
  const std::vector<column> cols = itch5::tables::schema_of<text_table>();
  const std::vector<column> expected = {
      {"locate", column_type::uint64, "stock locate", false},
      {"meaning", column_type::text, "in words", false},
      {"note", column_type::text, "sometimes", true},
  };
  EXPECT_EQ(cols, expected);
  EXPECT_NE(itch5::tables::markdown_columns(cols).find("| `meaning` | text | in words |\n"),
            std::string::npos);
  EXPECT_NE(itch5::tables::markdown_columns(cols).find("| `note` | text or empty | sometimes |\n"),
            std::string::npos);
}

TEST(Columns, TextIsQuotedOnlyWhenItHoldsACommaAQuoteOrALineBreak) {
  text_row r;
  r.locate = 7;
  r.meaning = {"start of messages"};
  EXPECT_EQ(text_csv_of(r), "7,start of messages,\n");
  r.meaning = {"deficient, delinquent and bankrupt"};
  r.note = itch5::tables::text{""};
  EXPECT_EQ(text_csv_of(r), "7,\"deficient, delinquent and bankrupt\",\n");
  r.meaning = {"Investors' Exchange"};  // an apostrophe needs nothing
  r.note = itch5::tables::text{"say \"hi\""};
  EXPECT_EQ(text_csv_of(r), "7,Investors' Exchange,\"say \"\"hi\"\"\"\n");
  r.meaning = {"two\nlines"};
  r.note.reset();
  EXPECT_EQ(text_csv_of(r), "7,\"two\nlines\",\n");
  r.meaning = {};
  EXPECT_EQ(text_csv_of(r), "7,,\n");
}

TEST(Columns, TextRowsBoundEachRowByItsOwnText) {
  text_row r;
  const std::string quotes(300, '"');  // the worst case: every character doubled, plus the two quotes
  r.meaning = {quotes};
  r.note = itch5::tables::text{quotes};
  const std::string line = text_csv_of(r);
  EXPECT_EQ(line.size(), 2u + 602 + 1 + 602 + 1);
  EXPECT_TRUE(itch5::tables::csv_has_text<text_table>());
  EXPECT_FALSE(itch5::tables::csv_has_text<sample_table>());
}

}  // namespace
