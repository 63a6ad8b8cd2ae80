// itch5inside --book-levels, --levels, --every as a program on the shipped sample: the CSV's header and
// shape, N = 1 rows against the inside lines of the same run (same events, same values, empty levels where
// the lines say 0 0 and 2000000000 0), --symbols and --from/--to, the grid's times, and the usage errors
// (one line each, exit status 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <itch5_test/support.hpp>

namespace {

const std::string tool = std::string(ITCH5_TOOLS_DIR) + "/itch5inside";
const std::string sample = itch5_test::data_path("synthetic-200k.itch.gz");

std::string text_of(const std::string& path) {
  return std::filesystem::exists(path) ? itch5_test::read_text(path) : std::string();
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, sep)) out.push_back(item);
  return out;
}

struct run_output {
  int status = -1;
  std::string lines, levels, err;
};

// itch5inside on the sample with the lines to a file, the levels to another, and `flags`.
run_output run(const std::string& flags, bool with_levels = true) {
  itch5_test::temp_dir dir;
  const std::string lines = dir.file("lines.txt"), levels = dir.file("levels.csv"), err = dir.file("err.txt");
  run_output r;
  r.status = itch5_test::run_shell(tool + " -q " + itch5_test::sh_quote(sample) + " -o " + lines +
                                   (with_levels ? " --book-levels " + levels : std::string()) + " " + flags +
                                   " 2>" + err);
  r.lines = text_of(lines);
  r.levels = text_of(levels);
  r.err = text_of(err);
  return r;
}

std::string header(unsigned n) {
  std::string h = "timestamp,locate,symbol";
  for (unsigned i = 0; i < n; ++i) {
    const std::string ii = (i < 10 ? "0" : "") + std::to_string(i);
    for (const char* c : {"bid_px_", "bid_sz_", "bid_ct_", "ask_px_", "ask_sz_", "ask_ct_"})
      h += std::string(",") + c + ii;
  }
  return h;
}

TEST(BookLevels, OneLevelRowsAreTheInsideLines) {
  const run_output r = run("--levels 1");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = split(r.levels, '\n');
  const auto lines = split(r.lines, '\n');
  ASSERT_GT(lines.size(), 10'000u);
  ASSERT_EQ(rows.size(), lines.size() + 1);
  EXPECT_EQ(rows[0], header(1));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto f = split(rows[i + 1] + ",", ',');  // the trailing comma keeps a last empty field
    ASSERT_EQ(f.size(), 9u) << rows[i + 1];
    const bool bid = !f[3].empty(), ask = !f[6].empty();
    const std::string as_line = f[0] + " " + f[1] + " " + f[2] + " " + (bid ? f[3] + " " + f[4] : "0 0") +
                                " " + (ask ? f[6] + " " + f[7] : "2000000000 0");
    ASSERT_EQ(as_line, lines[i]) << "row " << i + 1;
    ASSERT_EQ(f[5].empty(), !bid) << rows[i + 1];
    ASSERT_EQ(f[8].empty(), !ask) << rows[i + 1];
    if (bid) {
      ASSERT_GE(std::stoull(f[5]), 1u);
    }
    if (ask) {
      ASSERT_GE(std::stoull(f[8]), 1u);
    }
  }
}

TEST(BookLevels, SymbolsAndTimeRangeApply) {
  const run_output all = run("--levels 2");
  const run_output some = run("--levels 2 --symbols AAPL,MSFT --from 09:30 --to 12:00");
  ASSERT_EQ(all.status, 0) << all.err;
  ASSERT_EQ(some.status, 0) << some.err;
  const std::int64_t from = 34'200'000'000'000, to = 43'200'000'000'000;
  std::string expected = header(2) + "\n";
  for (const auto& row : split(all.levels, '\n')) {
    const auto f = split(row, ',');
    if (f[0] == "timestamp" || (f[2] != "AAPL" && f[2] != "MSFT")) continue;
    const std::int64_t ts = std::stoll(f[0]);
    if (ts >= from && ts < to) expected += row + "\n";
  }
  EXPECT_GT(split(expected, '\n').size(), 100u);
  EXPECT_EQ(some.levels, expected);
}

TEST(BookLevels, GridRowsAtEveryMultipleInTheRange) {
  const run_output r = run("--levels 3 --every 1min --from 09:30 --to 10:00:30");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto rows = split(r.levels, '\n');
  ASSERT_GT(rows.size(), 100u);
  EXPECT_EQ(rows[0], header(3));
  std::int64_t last_ts = 0, last_locate = -1, grid_times = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto f = split(rows[i] + ",", ',');
    ASSERT_EQ(f.size(), 21u) << rows[i];
    const std::int64_t ts = std::stoll(f[0]), locate = std::stoll(f[1]);
    ASSERT_EQ(ts % 60'000'000'000, 0) << rows[i];
    ASSERT_GE(ts, 34'200'000'000'000) << rows[i];
    ASSERT_LE(ts, 36'000'000'000'000) << rows[i];
    if (ts == last_ts) {
      ASSERT_GT(locate, last_locate) << "locates ascending within a grid time: " << rows[i];
    } else {
      ASSERT_GT(ts, last_ts);
      ++grid_times;
    }
    last_ts = ts;
    last_locate = locate;
  }
  EXPECT_EQ(grid_times, 31);
}

TEST(BookLevels, UsageErrorsAreOneLineEach) {
  struct bad {
    std::string flags;
    std::string says;
    bool with_levels;
  };
  for (const bad& b : {bad{"--levels 0", "--levels", true}, bad{"--levels 51", "--levels", true},
                       bad{"--every 25h", "coarser than a day", true}, bad{"--every 0.5ns", "--every", true},
                       bad{"--levels 5", "--levels needs --book-levels", false},
                       bad{"--every 1s", "--every needs --book-levels", false},
                       bad{"--book-levels " + itch5_test::sh_quote(sample), "--book-levels", false}}) {
    const run_output r = run(b.flags, b.with_levels);
    EXPECT_EQ(r.status, 2) << b.flags << ": " << r.err;
    EXPECT_NE(r.err.find(b.says), std::string::npos) << b.flags << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << b.flags << ": " << r.err;
    EXPECT_TRUE(r.lines.empty() && r.levels.empty()) << b.flags;
  }
}

// The levels and trades rows are written on the table writer thread: a write that fails there still ends
// the run with the file's name and exit status 1.
TEST(BookLevels, AWriteErrorOnTheWriterThreadEndsTheRunNamingTheFile) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (const std::string flags :
       {"--book-levels /dev/full", "--trades /dev/full", "--book-levels /dev/full --trades /dev/null"}) {
    const run_output r = run(flags, false);
    EXPECT_EQ(r.status, 1) << flags << ": " << r.err;
    EXPECT_NE(r.err.find("/dev/full: write error"), std::string::npos) << flags << ": " << r.err;
  }
}

TEST(BookLevels, HelpExplainsTheFlags) {
  itch5_test::temp_dir dir;
  const std::string out = dir.file("help.txt");
  ASSERT_EQ(itch5_test::run_shell(tool + " --help >" + out), 0);
  const std::string help = itch5_test::read_text(out);
  for (const char* flag : {"--book-levels", "--levels", "--every"})
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
}

}  // namespace
