// itch5inside --histograms and itch5stats merge, run as programs: merging one run's histograms gives that
// run's CSVs byte for byte; merging the two parts of a day (a time cut of the shipped sample, and a file cut
// at a message boundary whose second part numbers its symbols differently) gives the whole day but for the
// samples that span the cut; bad files and usage errors.
#include <itch5/frame_writer.hpp>
#include <itch5/messages.hpp>

#include <itch5/io/byte_stream.hpp>

#include <itch5/stats/histogram_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#include <itch5_test/support.hpp>

#include "../book/message_builders.hpp"

namespace {

using namespace testing_messages;
using itch5_test::read_text;
using itch5_test::sh_quote;

const std::string tools = ITCH5_TOOLS_DIR;
const std::string inside = sh_quote(tools + "/itch5inside");
const std::string stats_tool = sh_quote(tools + "/itch5stats");
const std::string sample = sh_quote(itch5_test::data_path("synthetic-200k.itch.gz"));

struct result {
  int code;
  std::string out;
  std::string err;
};

class Itch5Stats : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return dir_.file(name); }
  std::string q(const std::string& name) const { return sh_quote(file(name)); }

  result run(const std::string& command) {
    const int code = itch5_test::run_shell("cd " + sh_quote(dir_.path().string()) + " && " + command + " > " +
                                           q("out.txt") + " 2> " + q("err.txt"));
    return {code, read_text(file("out.txt")), read_text(file("err.txt"))};
  }

  // Reads a histogram file (inflated when gzip).
  itch5::stats::statistics_histograms load(const std::string& name) const {
    auto in = itch5::io::open_input(file(name));
    std::string bytes;
    std::vector<std::byte> buf(1 << 16);
    while (std::size_t n = in->read(buf.data(), buf.size()))
      bytes.append(reinterpret_cast<const char*>(buf.data()), n);
    return itch5::stats::decode_histograms(bytes, name);
  }

  itch5_test::temp_dir dir_;
};

template <class Series>
std::vector<Series> by_name(std::vector<Series> v) {
  std::sort(v.begin(), v.end(), [](const Series& a, const Series& b) { return a.name < b.name; });
  return v;
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  std::sort(v.begin(), v.end());
  return v;
}

// merge(part 1, part 2) against the whole, the cut at feed time `cut` (ns): the sampled events are the lines
// of `whole_lines` (timestamp, locate, symbol, ...; --stats-events inside samples inside changes). What is
// exactly true (docs/formats.md, "Merging the parts of a day"):
// - depth: every histogram identical; NSamples identical;
// - Arrival: the whole's histogram is the merge's plus the one gap from a symbol's last sample before the
//   cut to its first after it (for a symbol sampled on both sides, and for __aggregate__);
// - rates: per window of period P, the merge has 1 - (first period after the cut - last period before it)
//   samples more than the whole, and its maximum is not above the whole's; a symbol sampled on one side
//   only has identical rate histograms;
// - Processing is wall time of different runs: only its count (NSamples) is comparable.
void expect_parts_merge_to_whole(const itch5::stats::statistics_histograms& merged,
                                 const itch5::stats::statistics_histograms& whole,
                                 const std::string& whole_lines, std::int64_t cut) {
  EXPECT_EQ(by_name(merged.depth.symbols), by_name(whole.depth.symbols));
  EXPECT_EQ(merged.depth.aggregate, whole.depth.aggregate);

  std::map<std::string, std::int64_t> last_before, first_after;
  std::istringstream in(whole_lines);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::int64_t ts = 0;
    std::string locate, symbol;
    fields >> ts >> locate >> symbol;
    for (const std::string& n : {symbol, std::string(itch5::stats::aggregate_name)}) {
      if (ts < cut) {
        last_before[n] = ts;
      } else if (first_after.count(n) == 0) {
        first_after[n] = ts;
      }
    }
  }
  auto check = [&](const itch5::stats::feed_series& m, const itch5::stats::feed_series& w) {
    SCOPED_TRACE(w.name);
    ASSERT_EQ(m.name, w.name);
    EXPECT_EQ(m.samples, w.samples);
    EXPECT_EQ(m.processing.count(), w.samples);
    if (last_before.count(w.name) == 0 || first_after.count(w.name) == 0) {
      EXPECT_EQ(m.per_sec, w.per_sec);
      EXPECT_EQ(m.per_msec, w.per_msec);
      EXPECT_EQ(m.per_usec, w.per_usec);
      EXPECT_EQ(m.arrival, w.arrival);
      return;
    }
    const std::int64_t t1 = last_before[w.name], t2 = first_after[w.name];
    auto arrival = m.arrival;
    arrival.record(static_cast<std::uint64_t>(t2 - t1));
    EXPECT_EQ(arrival, w.arrival);
    const std::int64_t periods[] = {1'000'000, 1'000, 1};
    const itch5::stats::log_linear_histogram* mine[] = {&m.per_sec, &m.per_msec, &m.per_usec};
    const itch5::stats::log_linear_histogram* theirs[] = {&w.per_sec, &w.per_msec, &w.per_usec};
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(static_cast<std::int64_t>(mine[k]->count()),
                static_cast<std::int64_t>(theirs[k]->count()) + 1 - (t2 / periods[k] - t1 / periods[k]));
      EXPECT_LE(mine[k]->max(), theirs[k]->max());
    }
  };
  const auto m = by_name(merged.feed.symbols), w = by_name(whole.feed.symbols);
  ASSERT_EQ(m.size(), w.size());
  for (std::size_t i = 0; i < w.size(); ++i) check(m[i], w[i]);
  check(merged.feed.aggregate, whole.feed.aggregate);
  EXPECT_GT(first_after.size(), 1u);
  EXPECT_GT(last_before.size(), 1u);
}

TEST_F(Itch5Stats, MergingOneRunGivesThatRunsCsvsByteForByte) {
  const result r =
      run(inside + " -q " + sample + " -o /dev/null --stats s.csv --depth d.csv --histograms h.hist.gz");
  ASSERT_EQ(r.code, 0) << r.err;
  const result m = run(stats_tool + " merge h.hist.gz --stats m.csv --depth md.csv");
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(m.out, "");
  EXPECT_EQ(read_text(file("m.csv")), read_text(file("s.csv")));
  EXPECT_EQ(read_text(file("md.csv")), read_text(file("d.csv")));
  EXPECT_EQ(run(stats_tool + " merge h.hist.gz --stats -").out, read_text(file("s.csv")));
  // Written again by merge --histograms: the same histograms; its CSVs are the same again.
  ASSERT_EQ(run(stats_tool + " merge h.hist.gz --histograms again.hist").code, 0);
  EXPECT_EQ(load("again.hist"), load("h.hist.gz"));
  EXPECT_EQ(run(stats_tool + " merge again.hist --depth -").out, read_text(file("d.csv")));
}

// The shipped sample cut in two at 09:30:15 (the books are built from every message; --to and --from pick
// the events on each side: a cut at the message boundary before the first event at or after that time).
TEST_F(Itch5Stats, TheTwoPartsOfADayMergeToTheWholeDayButTheSpanningSamples) {
  const std::int64_t cut = 34'215'000'000'000;
  const std::string c = std::to_string(cut);
  ASSERT_EQ(
      run(inside + " -q " + sample + " -o whole.txt --stats s.csv --depth d.csv --histograms whole.hist")
          .code,
      0);
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --to " + c + " --histograms p1.hist").code, 0);
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --from " + c + " --histograms p2.hist").code, 0);
  const result m =
      run(stats_tool + " merge p1.hist p2.hist --stats m.csv --depth md.csv --histograms m.hist");
  ASSERT_EQ(m.code, 0) << m.err;
  expect_parts_merge_to_whole(load("m.hist"), load("whole.hist"), read_text(file("whole.txt")), cut);
  // The depth CSV holds the same rows (in order of first appearance rather than locate order).
  EXPECT_EQ(sorted_lines(read_text(file("md.csv"))), sorted_lines(read_text(file("d.csv"))));
  EXPECT_EQ(load("m.hist").meta_value("stats_events"), "inside");
}

// A day cut into two files at a message boundary where every book is empty; the second file announces the
// same symbols under other locates (and in another order). Rows are matched by name.
TEST_F(Itch5Stats, AFileCutInTwoWithOtherLocatesMergesByName) {
  itch5::frame_writer whole, part1, part2;
  const std::int64_t t0 = 34'200'000'000'000;
  whole.write(directory(1, "AAA"));
  whole.write(directory(2, "BBB"));
  whole.write(directory(3, "CCC"));
  part2.write(directory(9, "CCC"));
  part2.write(directory(5, "BBB"));
  part2.write(directory(4, "AAA"));
  const std::map<std::uint16_t, std::uint16_t> relocate{{1, 4}, {2, 5}, {3, 9}};
  std::uint64_t ref = 1;
  // Per symbol a few orders on both sides, at spread times, then all deleted: the books end empty.
  auto session = [&](std::int64_t start, itch5::frame_writer& part, bool second) {
    std::vector<std::pair<std::uint16_t, std::uint64_t>> live;
    for (int i = 0; i < 60; ++i) {
      const auto locate = static_cast<std::uint16_t>(1 + (i * 7) % 3);
      const std::uint16_t l = second ? relocate.at(locate) : locate;
      const std::int64_t ts = start + i * 1'700'003 + (i % 5) * 400;
      const char side = i % 2 == 0 ? 'B' : 'S';
      const std::uint32_t px = side == 'B' ? 100'000 - static_cast<std::uint32_t>(i) * 100
                                           : 110'000 + static_cast<std::uint32_t>(i) * 100;
      const char* names[] = {"", "AAA", "BBB", "CCC"};
      whole.write(add(ts, locate, ref, side, 100 + static_cast<std::uint32_t>(i), px, names[locate]));
      part.write(add(ts, l, ref, side, 100 + static_cast<std::uint32_t>(i), px, names[locate]));
      live.emplace_back(locate, ref++);
      if (i % 4 == 3) {
        whole.write(exec(ts + 10, live.back().first, live.back().second, 50));
        part.write(exec(ts + 10, second ? relocate.at(live.back().first) : live.back().first,
                        live.back().second, 50));
      }
    }
    std::int64_t ts = start + 200'000'000;
    for (const auto& [locate, r] : live) {
      whole.write(del(ts, locate, r));
      part.write(del(ts, second ? relocate.at(locate) : locate, r));
      ts += 999;
    }
  };
  // Part 1 holds the directory of the whole file.
  part1.write(directory(1, "AAA"));
  part1.write(directory(2, "BBB"));
  part1.write(directory(3, "CCC"));
  session(t0, part1, false);
  const std::int64_t cut = t0 + 1'000'000'000;
  session(cut, part2, true);
  auto save = [&](const std::string& name, const itch5::frame_writer& w) {
    std::ofstream out(file(name), std::ios::binary);
    out.write(reinterpret_cast<const char*>(w.bytes().data()), static_cast<std::streamsize>(w.size()));
  };
  save("whole.itch", whole);
  save("p1.itch", part1);
  save("p2.itch", part2);
  ASSERT_EQ(
      run(inside + " -q whole.itch -o whole.txt --depth d.csv --stats s.csv --histograms whole.hist").code,
      0);
  ASSERT_EQ(run(inside + " -q p1.itch -o /dev/null --histograms p1.hist").code, 0);
  ASSERT_EQ(run(inside + " -q p2.itch -o p2.txt --histograms p2.hist").code, 0);
  ASSERT_NE(read_text(file("p2.txt")).find(" 9 CCC "), std::string::npos);  // the other locates are in use
  const result m =
      run(stats_tool + " merge p1.hist p2.hist --stats m.csv --depth md.csv --histograms m.hist");
  ASSERT_EQ(m.code, 0) << m.err;
  expect_parts_merge_to_whole(load("m.hist"), load("whole.hist"), read_text(file("whole.txt")), cut);
  // Part 1 names AAA BBB CCC in that order, as the whole file does: the depth CSVs are identical, and the
  // statistics rows agree on Name and NSamples.
  EXPECT_EQ(read_text(file("md.csv")), read_text(file("d.csv")));
  auto names_and_counts = [](const std::string& csv) {
    std::vector<std::string> v;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
      v.push_back(line.substr(0, line.find(',', line.find(',') + 1)));
    return v;
  };
  EXPECT_EQ(names_and_counts(read_text(file("m.csv"))), names_and_counts(read_text(file("s.csv"))));
  EXPECT_EQ(names_and_counts(read_text(file("m.csv"))).size(), 5u);
}

TEST_F(Itch5Stats, BadFilesAreReportedWithTheirNameAndExitOne) {
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --stats s.csv --histograms h.hist").code, 0);
  const std::string bytes = read_text(file("h.hist"));
  { std::ofstream(file("short.hist"), std::ios::binary) << bytes.substr(0, bytes.size() / 2); }
  result r = run(stats_tool + " merge h.hist short.hist --stats m.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("itch5stats merge: error: short.hist: byte "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(file("m.csv")).good());  // nothing written

  r = run(stats_tool + " merge s.csv --stats m.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("s.csv: byte 0: not a histogram file"), std::string::npos) << r.err;

  std::string v9 = bytes;
  v9[8] = 9;
  { std::ofstream(file("v9.hist"), std::ios::binary) << v9; }
  r = run(stats_tool + " merge v9.hist --stats m.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("v9.hist: byte 8: histogram file version 9 is not supported"), std::string::npos)
      << r.err;

  r = run(stats_tool + " merge missing.hist --stats m.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing.hist"), std::string::npos) << r.err;

  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --stats-events all --histograms all.hist").code, 0);
  r = run(stats_tool + " merge h.hist all.hist --stats m.csv");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("all.hist: its statistics sample 'all' events"), std::string::npos) << r.err;
}

// The same file twice would count every sample twice (NSamples doubled): refused under any name, before
// anything is read or written.
TEST_F(Itch5Stats, TheSameFileTwiceIsRefused) {
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --histograms mon.hist").code, 0);
  ASSERT_EQ(run("ln mon.hist hard.hist && ln -s mon.hist soft.hist").code, 0);
  for (const std::string second : {"mon.hist", "./mon.hist", "hard.hist", "soft.hist"}) {
    const result r = run(stats_tool + " merge mon.hist " + second + " --stats m.csv");
    EXPECT_EQ(r.code, 2) << second;
    EXPECT_EQ(r.err, "itch5stats merge: error: FILE '" + second +
                         "' is the same file as FILE 'mon.hist': "
                         "each is read once, not twice\n");
    EXPECT_FALSE(std::ifstream(file("m.csv")).good());
  }
  EXPECT_EQ(run(stats_tool + " merge - mon.hist --stats m.csv < mon.hist").code, 2);  // stdin is mon.hist
}

// A whole day and its regular session (or any two ranges that overlap without being equal) are refused
// with one line naming both files; the two disjoint halves of a day merge.
TEST_F(Itch5Stats, OverlappingTimeRangesAreRefused) {
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --histograms whole.hist").code, 0);
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --session regular --histograms regular.hist").code,
            0);
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --to 09:31 --histograms early.hist").code, 0);
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --from 09:31 --histograms late.hist").code, 0);
  EXPECT_EQ(load("regular.hist").meta_value("time_ranges"), "34200000000000-57600000000000");
  EXPECT_EQ(load("whole.hist").meta_value("time_ranges"), "0-end");
  for (const auto& [a, b] : {std::pair{"whole.hist", "regular.hist"}, std::pair{"regular.hist", "whole.hist"},
                             std::pair{"early.hist", "regular.hist"}}) {
    const result r = run(stats_tool + " merge " + a + " " + b + " --stats m.csv");
    EXPECT_EQ(r.code, 1) << a << " " << b;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("itch5stats merge: error: " + std::string(b) + ": its time range ", 0), 0u)
        << r.err;
    EXPECT_NE(r.err.find(std::string(a) + "'s "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("overlap"), std::string::npos) << r.err;
    EXPECT_FALSE(std::ifstream(file("m.csv")).good());
  }
  const result r = run(stats_tool + " merge early.hist late.hist --histograms day.hist");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(load("day.hist").meta_value("time_ranges"), "0-end");
  // The joined halves are a whole day again: they merge with another whole day.
  EXPECT_EQ(run(stats_tool + " merge whole.hist day.hist --stats m.csv").code, 0);
}

// --histograms - on a terminal: refused, as itch5synth refuses to write ITCH bytes there; nothing written.
TEST_F(Itch5Stats, BinaryHistogramsAreNotWrittenToATerminal) {
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --histograms h.hist").code, 0);
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(master, 0);
  ASSERT_EQ(::grantpt(master), 0);
  ASSERT_EQ(::unlockpt(master), 0);
  const std::string terminal = ::ptsname(master);
  const int code =
      itch5_test::run_shell("cd " + sh_quote(dir_.path().string()) + " && timeout 60 " + stats_tool +
                            " merge h.hist --histograms - > " + sh_quote(terminal) + " 2> " + q("err.txt"));
  EXPECT_EQ(code, 2) << "124: the tool wrote to the terminal (which nobody reads here) until it was full";
  EXPECT_EQ(
      read_text(file("err.txt")),
      "itch5stats merge: error: --histograms -: standard output is a terminal and the histogram file is "
      "binary; redirect it or give --histograms FILE\n");
  ::fcntl(master, F_SETFL, O_NONBLOCK);
  char byte;
  EXPECT_LE(::read(master, &byte, 1), 0) << "nothing reached the terminal";
  ::close(master);
  // Through a pipe, the file is written.
  EXPECT_EQ(run(stats_tool + " merge h.hist --histograms - | cat > piped.hist").code, 0);
}

// Outputs of itch5inside and itch5stats replaced by a run: a 0600 file stays 0600, a symbolic link stays a
// link and the file it points to gets the new content, a new file gets 0666 less the umask (issue 31).
TEST_F(Itch5Stats, ReplacedOutputsKeepTheirModeAndSymbolicLinksStayLinks) {
  auto mode = [&](const std::string& name) {
    struct stat st {};
    EXPECT_EQ(::stat(file(name).c_str(), &st), 0) << name;
    return st.st_mode & 07777;
  };
  for (const char* name : {"lines.txt", "s.csv", "h.hist", "m.csv"}) {
    itch5_test::write_file(file(name), itch5_test::to_bytes("earlier\n"));
    ASSERT_EQ(::chmod(file(name).c_str(), 0600), 0);
  }
  std::filesystem::create_directory(file("store"));
  itch5_test::write_file(file("store/d.csv"), itch5_test::to_bytes("stale\n"));
  std::filesystem::create_symlink("store/d.csv", file("d.csv"));
  ASSERT_EQ(run("umask 022 && " + inside + " -q " + sample +
                " -o lines.txt --stats s.csv --depth d.csv --histograms h.hist")
                .code,
            0);
  ASSERT_EQ(run("umask 027 && " + stats_tool + " merge h.hist --stats m.csv --depth new.csv").code, 0);
  for (const char* name : {"lines.txt", "s.csv", "h.hist", "m.csv"}) EXPECT_EQ(mode(name), 0600u) << name;
  EXPECT_TRUE(std::filesystem::is_symlink(file("d.csv")));
  EXPECT_GT(read_text(file("store/d.csv")).size(), 100u) << "the link's file has the depth CSV";
  EXPECT_EQ(mode("new.csv"), 0640u);
  EXPECT_EQ(read_text(file("s.csv")), read_text(file("m.csv")));
}

TEST_F(Itch5Stats, UsageErrorsExitTwoAndHelpExplainsEveryFlag) {
  ASSERT_EQ(run(inside + " -q " + sample + " -o /dev/null --histograms h.hist").code, 0);
  EXPECT_EQ(run(stats_tool).code, 2);
  EXPECT_EQ(run(stats_tool + " frobnicate h.hist").code, 2);
  result r = run(stats_tool + " merge h.hist");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nothing to write"), std::string::npos) << r.err;
  EXPECT_EQ(run(stats_tool + " merge --stats m.csv").code, 2);          // no FILE
  EXPECT_EQ(run(stats_tool + " merge h.hist --stats h.hist").code, 2);  // an output that is an input
  EXPECT_EQ(run(stats_tool + " merge h.hist --stats x.csv --depth x.csv").code, 2);
  EXPECT_EQ(run(stats_tool + " merge h.hist --bogus 1 --stats m.csv").code, 2);
  r = run(stats_tool + " merge --help");
  EXPECT_EQ(r.code, 0);
  for (const char* flag : {"FILE", "--stats", "--depth", "--histograms", "--gzip-level", "Exit status"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
  r = run(stats_tool + " --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("merge FILE..."), std::string::npos);
  // Several FILEs, options before or after them (a copy: the same file twice is refused, see below).
  ASSERT_EQ(run("cp h.hist h2.hist").code, 0);
  EXPECT_EQ(run(stats_tool + " merge --stats a.csv h.hist h2.hist").code, 0);
  EXPECT_EQ(run(stats_tool + " merge h.hist --stats b.csv h2.hist").code, 0);
  EXPECT_EQ(read_text(file("a.csv")), read_text(file("b.csv")));
}

}  // namespace
