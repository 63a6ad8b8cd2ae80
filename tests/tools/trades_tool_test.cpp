// itch5inside --trades and --trade-stats, run as a program on the shipped sample: the header, one row per
// E/C/P/Q/B message of the selected symbols and time range (counted here from the bytes, with a framer and
// field offsets of the test's own), --symbols/--from/--to, and an output that is the input.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <itch5_test/support.hpp>

namespace {

using itch5_test::bytes;

const std::string tool = std::string(ITCH5_TOOLS_DIR) + "/itch5inside";
const std::string sample = itch5_test::data_path("synthetic-200k.itch.gz");

std::uint64_t be(const bytes& m, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i)
    v = (v << 8) | std::to_integer<std::uint64_t>(m[at + static_cast<std::size_t>(i)]);
  return v;
}

// The E, C, P, Q and B messages of the sample whose locate is one of `symbols` (all when empty) and whose
// timestamp is in [from, to).
std::uint64_t expected_rows(const std::set<std::string>& symbols, std::uint64_t from, std::uint64_t to) {
  const auto frames = itch5_test::reference_frames(itch5_test::inflate_prefix(itch5_test::read_file(sample)));
  std::map<std::uint64_t, std::string> names;  // locate -> symbol, from the stock directory (R)
  std::uint64_t n = 0;
  for (const bytes& m : frames) {
    const char type = static_cast<char>(m[0]);
    const std::uint64_t locate = be(m, 1, 2);
    const std::uint64_t ts = be(m, 5, 6);
    if (type == 'R') {
      std::string s;
      for (std::size_t i = 11; i < 19 && static_cast<char>(m[i]) != ' '; ++i) s += static_cast<char>(m[i]);
      names[locate] = s;
    }
    if (std::string("ECPQB").find(type) == std::string::npos) continue;
    if (!symbols.empty() && symbols.count(names[locate]) == 0) continue;
    if (ts >= from && ts < to) ++n;
  }
  return n;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(TradesTool, OneRowPerPrintOfTheSample) {
  itch5_test::temp_dir dir;
  const std::string trades = dir.path().string() + "/trades.csv", stats = dir.path().string() + "/stats.csv";
  ASSERT_EQ(
      itch5_test::run_shell(tool + " -q " + itch5_test::sh_quote(sample) + " -o /dev/null --trades " +
                            itch5_test::sh_quote(trades) + " --trade-stats " + itch5_test::sh_quote(stats)),
      0);
  const auto rows = lines_of(itch5_test::read_text(trades));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0],
            "timestamp,locate,symbol,kind,price,shares,side,match_number,order_ref,printable,cross_type");
  const std::uint64_t expected = expected_rows({}, 0, ~std::uint64_t{0});
  EXPECT_GT(expected, 5000u);
  EXPECT_EQ(rows.size() - 1, expected);
  // Every row has the 11 columns; the statistics have a row per locate with rows.
  std::set<std::string> locates;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(std::count(rows[i].begin(), rows[i].end(), ','), 10) << rows[i];
    const auto first = rows[i].find(',');
    locates.insert(rows[i].substr(first + 1, rows[i].find(',', first + 1) - first - 1));
  }
  const auto stat_rows = lines_of(itch5_test::read_text(stats));
  ASSERT_FALSE(stat_rows.empty());
  EXPECT_EQ(stat_rows[0].rfind("timestamp,locate,symbol,trades,volume,notional,vwap,", 0), 0u);
  EXPECT_EQ(stat_rows.size() - 1, locates.size());
}

TEST(TradesTool, SymbolsAndTimeRangeSelectTheRows) {
  itch5_test::temp_dir dir;
  const std::string trades = dir.path().string() + "/trades.csv";
  ASSERT_EQ(itch5_test::run_shell(tool + " -q " + itch5_test::sh_quote(sample) +
                                  " -o /dev/null --symbols spy,AAPL --from 09:30 --to 12:00 --trades " +
                                  itch5_test::sh_quote(trades)),
            0);
  const auto rows = lines_of(itch5_test::read_text(trades));
  const std::uint64_t expected = expected_rows({"SPY", "AAPL"}, 34'200'000'000'000, 43'200'000'000'000);
  EXPECT_GT(expected, 100u);
  EXPECT_EQ(rows.size() - 1, expected);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_TRUE(rows[i].find(",SPY,") != std::string::npos || rows[i].find(",AAPL,") != std::string::npos)
        << rows[i];
  }
}

TEST(TradesTool, AnOutputThatIsTheInputIsRefused) {
  itch5_test::temp_dir dir;
  const std::string input = dir.path().string() + "/day.itch.gz";
  itch5_test::write_file(input, itch5_test::read_file(sample));
  const std::string err = dir.path().string() + "/err.txt";
  for (const std::string flag : {"--trades", "--trade-stats"}) {
    EXPECT_EQ(itch5_test::run_shell(tool + " -q " + itch5_test::sh_quote(input) + " -o /dev/null " + flag +
                                    " " + itch5_test::sh_quote(dir.path().string() + "/./day.itch.gz") +
                                    " 2> " + itch5_test::sh_quote(err)),
              2)
        << flag;
    const std::string text = itch5_test::read_text(err);
    EXPECT_NE(text.find(flag), std::string::npos) << text;
    EXPECT_NE(text.find("error"), std::string::npos) << text;
  }
  EXPECT_EQ(itch5_test::read_file(input), itch5_test::read_file(sample));  // untouched
  // Two outputs in one file.
  EXPECT_EQ(itch5_test::run_shell(tool + " -q " + itch5_test::sh_quote(input) + " -o /dev/null --trades " +
                                  itch5_test::sh_quote(dir.path().string() + "/t.csv") + " --trade-stats " +
                                  itch5_test::sh_quote(dir.path().string() + "/t.csv") + " 2> /dev/null"),
            2);
}

}  // namespace
