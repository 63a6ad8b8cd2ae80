// The event tables' definitions against what docs/formats.md says of them: each table's column list as
// markdown_columns gives it, under its file's heading, with an example row of as many fields as columns. And
// the code helpers: a space is no letter, unknown codes have no meaning, padded words are trimmed.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <type_traits>

#include <itch5/tables/event_sinks.hpp>
#include <itch5/tables/schema.hpp>

namespace {

std::string formats_md() {
  std::ifstream in(std::string(ITCH5_DATA_DIR) + "/../docs/formats.md");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The CSV fields of one line (a quoted field may hold commas).
std::size_t csv_fields(const std::string& line) {
  std::size_t n = 1;
  bool quoted = false;
  for (const char c : line) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) ++n;
  }
  return n;
}

TEST(EventTableDefinitions, FormatsMdListsEveryTablesColumnsAndAnExampleRow) {
  const std::string md = formats_md();
  ASSERT_FALSE(md.empty());
  itch5::tables::for_each_event_table([&]<class T>(std::type_identity<T>, auto) {
    const std::string heading = "### `" + std::string(T::name) + ".csv` ('" + T::message::type + "')";
    const std::size_t at = md.find(heading);
    ASSERT_NE(at, std::string::npos) << heading;
    const std::size_t next = md.find("\n#", at + 1);
    const std::string section = md.substr(at, next - at);
    const auto columns = itch5::tables::schema_of<T>();
    EXPECT_NE(section.find(itch5::tables::markdown_columns(columns)), std::string::npos)
        << T::name << ": docs/formats.md's column list differs from the table's; it should be:\n"
        << itch5::tables::markdown_columns(columns);
    const std::size_t ex = section.find("```\n");
    ASSERT_NE(ex, std::string::npos) << T::name << ": no example row";
    const std::string row = section.substr(ex + 4, section.find('\n', ex + 4) - (ex + 4));
    EXPECT_EQ(csv_fields(row), columns.size()) << T::name << ": " << row;
  });
}

using namespace itch5::tables::events;

TEST(EventTableDefinitions, CodesMeaningsAndLetters) {
  EXPECT_EQ(meaning_of(system_event_codes, 'Q').value, "start of market hours");
  EXPECT_EQ(meaning_of(system_event_codes, 'Z').value, "");  // undefined: no meaning
  EXPECT_EQ(meaning_of(market_categories, ' ').value, "not available");
  EXPECT_EQ(code_letter(' '), itch5::tables::letter{});
  EXPECT_EQ(code_letter('Q'), itch5::tables::letter{'Q'});
  EXPECT_EQ(meaning_of(halt_reasons, "LUDP").value, "volatility trading pause");
  EXPECT_EQ(meaning_of(halt_reasons, "T1  ").value, "halt: news pending");
  EXPECT_EQ(meaning_of(halt_reasons, "    ").value, "reason not available");
  EXPECT_EQ(meaning_of(issue_subtypes, "Z ").value, "not applicable");
  EXPECT_EQ(code_word(std::array<char, 4>{'G', 'S', ' ', ' '}).str(), "GS");
}

// The kinds: each table's name, in the order of event_sinks, and every message type of one kind once.
TEST(EventTableDefinitions, KindsAreTheThirteenMessageTypes) {
  std::string types;
  itch5::tables::for_each_event_table(
      [&]<class T>(std::type_identity<T>, auto) { types += T::message::type; });
  EXPECT_EQ(types, "RSHYJVWKINhOL");
}

}  // namespace
