// --from, --to and --session of itch5inside: the books are built from every message, and only
// the lines, statistics samples and depth samples of events in [from, to) are kept. Checked against the
// whole run's own output on the shipped synthetic sample (a trading day from 04:00 to 20:00):
// - the lines of a range are the whole run's lines with a timestamp in the range, byte for byte;
// - the statistics of a range are those of its events alone: the range's lines fed to a fresh
//   itch5::stats::feed_statistics give the same rows (every column but the wall-clock Processing ones);
// - cutting the day in two at any time splits every symbol's statistics and depth samples between the
//   halves, none lost or counted twice;
// - the summary names the range; a bad time, an empty range or --session with --from is a usage error.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <itch5_test/support.hpp>
#include <itch5/stats/feed_statistics.hpp>

namespace {

const std::string tool = std::string(ITCH5_TOOLS_DIR) + "/itch5inside";
const std::string sample = itch5_test::data_path("synthetic-200k.itch.gz");

// The file's text, or "" when it does not exist (a run that stopped before writing it).
std::string text_of(const std::string& path) {
  return std::filesystem::exists(path) ? itch5_test::read_text(path) : std::string();
}

struct run_output {
  int status = -1;
  std::string lines, stats, depth, err;
};

// itch5inside on the sample with `flags`, everything kept.
run_output run(const std::string& flags) {
  itch5_test::temp_dir dir;
  const std::string lines = dir.file("lines.txt"), stats = dir.file("stats.csv"),
                    depth = dir.file("depth.csv"), err = dir.file("err.txt");
  run_output r;
  r.status = itch5_test::run_shell(tool + " " + itch5_test::sh_quote(sample) + " -o " + lines + " --stats " +
                                   stats + " --depth " + depth + " " + flags + " 2>" + err);
  r.lines = text_of(lines);
  r.stats = text_of(stats);
  r.depth = text_of(depth);
  r.err = text_of(err);
  return r;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

std::int64_t timestamp_of(const std::string& line) { return std::stoll(line.substr(0, line.find(' '))); }

// The whole run's lines with from <= timestamp < to.
std::string lines_between(const std::string& lines, std::int64_t from, std::int64_t to) {
  std::string out;
  for (const auto& line : split(lines, '\n')) {
    const std::int64_t ts = timestamp_of(line);
    if (ts >= from && ts < to) out += line + "\n";
  }
  return out;
}

// a == b, or the first line where they differ (EXPECT_EQ would diff megabytes line by line).
::testing::AssertionResult same_text(const std::string& a, const std::string& b) {
  if (a == b) return ::testing::AssertionSuccess();
  const auto la = split(a, '\n'), lb = split(b, '\n');
  std::size_t i = 0;
  while (i < la.size() && i < lb.size() && la[i] == lb[i]) ++i;
  return ::testing::AssertionFailure()
         << "line " << i + 1 << " of " << la.size() << " vs " << lb.size() << ": '"
         << (i < la.size() ? la[i] : "(none)") << "' vs '" << (i < lb.size() ? lb[i] : "(none)") << "'";
}

// Rows of a statistics or depth CSV by Name, each a map of column to value.
using table = std::map<std::string, std::map<std::string, std::string>>;

table parse_csv(const std::string& csv) {
  const auto rows = split(csv, '\n');
  table t;
  if (rows.empty()) return t;
  const auto header = split(rows[0], ',');
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto cells = split(rows[i], ',');
    EXPECT_EQ(cells.size(), header.size()) << rows[i];
    for (std::size_t c = 0; c < cells.size() && c < header.size(); ++c) t[cells[0]][header[c]] = cells[c];
  }
  return t;
}

// `t` without the wall-clock columns.
table without_processing(table t) {
  for (auto& [name, row] : t) {
    for (auto it = row.begin(); it != row.end();) {
      it = it->first.find("Processing") != std::string::npos ? row.erase(it) : std::next(it);
    }
  }
  return t;
}

constexpr std::int64_t at(int h, int m, int s, std::int64_t ns = 0) {
  return ((std::int64_t{h} * 60 + m) * 60 + s) * 1'000'000'000 + ns;
}

class TimeRange : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { whole_ = new run_output(run("")); }
  static void TearDownTestSuite() { delete whole_; }
  static const run_output& whole() { return *whole_; }

 private:
  static inline run_output* whole_ = nullptr;
};

TEST_F(TimeRange, LinesAreTheWholeRunsLinesInTheRange) {
  ASSERT_EQ(whole().status, 0) << whole().err;
  ASSERT_GT(split(whole().lines, '\n').size(), 50'000u);
  struct range_case {
    std::string flags;
    std::int64_t from, to;
  };
  for (const auto& c : std::vector<range_case>{
           {"--from 09:30:10 --to 09:30:20.5", at(9, 30, 10), at(9, 30, 20, 500'000'000)},
           {"--from 9:30:05.000000001", at(9, 30, 5, 1), INT64_MAX},
           {"--to 09:30:03", 0, at(9, 30, 3)},
           {"--from 34212000000000 --to 34212000000001", at(9, 30, 12), at(9, 30, 12, 1)},
           {"--from 10:00", at(10, 0, 0), INT64_MAX},  // after the sample's last event: nothing
       }) {
    SCOPED_TRACE(c.flags);
    const run_output r = run(c.flags);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(same_text(r.lines, lines_between(whole().lines, c.from, c.to)));
  }
  // The sample starts at 04:00 (pre-market): the regular session leaves those hours out.
  const std::string regular = run("--session regular").lines;
  EXPECT_TRUE(same_text(regular, lines_between(whole().lines, at(9, 30, 0), at(16, 0, 0))));
  EXPECT_LT(regular.size(), whole().lines.size());
  EXPECT_TRUE(same_text(run("--from 00:00 --to 24:00").lines, whole().lines));
}

TEST_F(TimeRange, StatisticsOfARangeAreThoseOfItsEventsAlone) {
  const run_output r = run("--from 09:45 --to 10:45");
  ASSERT_EQ(r.status, 0) << r.err;
  // With --stats-events inside (the default) the sampled events are the inside changes, that is the lines.
  itch5::stats::feed_statistics expected;
  std::map<std::uint16_t, std::string> names;
  for (const auto& line : split(r.lines, '\n')) {
    const auto f = split(line, ' ');
    ASSERT_EQ(f.size(), 7u) << line;
    const auto locate = static_cast<std::uint16_t>(std::stoi(f[1]));
    names[locate] = f[2];
    expected.record(locate, std::chrono::nanoseconds(std::stoll(f[0])), std::chrono::nanoseconds(0));
  }
  ASSERT_GT(names.size(), 100u);
  const table got = without_processing(parse_csv(r.stats));
  const table want =
      without_processing(parse_csv(expected.finish_csv([&](std::uint16_t l) { return names[l]; })));
  EXPECT_EQ(got, want);
  // And they are not the whole day's.
  EXPECT_NE(got, without_processing(parse_csv(whole().stats)));
}

TEST_F(TimeRange, TwoHalvesSplitEverySymbolsSamples) {
  const table all_stats = parse_csv(whole().stats), all_depth = parse_csv(whole().depth);
  for (const std::string cut : {"09:30:07", "09:30:07.123456789"}) {
    SCOPED_TRACE(cut);
    const run_output first = run("--to " + cut), second = run("--from " + cut);
    ASSERT_EQ(first.status, 0) << first.err;
    ASSERT_EQ(second.status, 0) << second.err;
    EXPECT_TRUE(same_text(first.lines + second.lines, whole().lines));
    for (const auto& [all, a, b] : {std::tuple{all_stats, parse_csv(first.stats), parse_csv(second.stats)},
                                    std::tuple{all_depth, parse_csv(first.depth), parse_csv(second.depth)}}) {
      ASSERT_GT(all.size(), 100u);
      for (const auto& [name, row] : all) {
        const auto samples_in = [&name = name](const table& t) -> std::uint64_t {
          const auto it = t.find(name);
          return it == t.end() ? 0 : std::stoull(it->second.at("NSamples"));
        };
        EXPECT_EQ(samples_in(a) + samples_in(b), std::stoull(row.at("NSamples"))) << name;
      }
    }
  }
}

TEST_F(TimeRange, TheSummaryNamesTheRange) {
  const run_output r = run("--from 09:30:04 --to 09:30:09.5");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(
      r.err.find("  time range: 09:30:04 to 09:30:09.500000000 (lines, statistics and depth; the books read "
                 "every message)\n"),
      std::string::npos)
      << r.err;
  EXPECT_EQ(run("").err.find("time range"), std::string::npos);
}

// --from 24:00 is a valid time (the end of the day) but leaves no event of the day: said, not silent.
TEST_F(TimeRange, ARangePastTheDayIsAWarning) {
  const run_output r = run("--from 24:00");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.rfind("itch5inside: warning: --from 24:00:00 is the end of the day: no event of the day is "
                        "in the range, so no line, statistic or window comes from it\n",
                        0),
            0u)
      << r.err;
  EXPECT_EQ(r.lines, "");
  EXPECT_EQ(run("--from 23:59:59.999999999").err.find("warning"), std::string::npos);
}

TEST_F(TimeRange, MistakesAreUsageErrors) {
  struct mistake {
    std::string flags, message;
  };
  for (const auto& m : std::vector<mistake>{
           {"--from 09:60",
            "itch5inside: error: --from: '09:60' is not a time of day (minutes above 59; expected "
            "HH:MM[:SS[.fraction]] or nanoseconds since midnight)"},
           {"--to 4pm",
            "itch5inside: error: --to: '4pm' is not a time of day (unexpected character; expected "
            "HH:MM[:SS[.fraction]] or nanoseconds since midnight)"},
           {"--from 10:00 --to 09:30",
            "itch5inside: error: --from 10:00 is not before --to 09:30: the range would be empty"},
           {"--session regular --to 12:00",
            "itch5inside: error: --session regular sets the range; it cannot be combined with --from or "
            "--to"},
           {"--session extended",
            "itch5inside: error: --session: expected 'regular' (09:30 to 16:00), got 'extended'"},
       }) {
    SCOPED_TRACE(m.flags);
    const run_output r = run(m.flags);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, m.message + "\n");
    EXPECT_EQ(r.lines, "") << "nothing written";
  }
}

}  // namespace
