// itch5lobster, run as a program: the files of a hand-made day named as Nasdaq names its days (file names,
// rows worked out by hand, no header), --date over a name that says nothing, --from/--to in the names, and
// the errors: no date, --levels out of range, --out missing, a file or read-only, a symbol the day never
// names (its files not written, the others' complete), an output that is the input.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <itch5/frame_writer.hpp>
#include <itch5/messages.hpp>

#include <itch5_test/support.hpp>

#include "../book/message_builders.hpp"

namespace {

using namespace testing_messages;
using itch5_test::sh_quote;
namespace fs = std::filesystem;

constexpr std::int64_t open_ns = 34'200'000'000'000;

struct run_result {
  int status = -1;
  std::string err;
};

itch5_test::bytes day_bytes() {
  itch5::frame_writer w;
  w.write(system_event(1, 'O'));
  w.write(directory(1, "AAPL"));
  w.write(directory(2, "MSFT"));
  w.write(add(open_ns - 5, 1, 1, 'B', 100, 1'000'000, "AAPL"));
  w.write(add(open_ns + 1'500'000, 1, 2, 'S', 200, 1'010'000, "AAPL"));
  w.write(add(open_ns + 2'000'000, 2, 3, 'S', 50, 2'000'000, "MSFT"));
  w.write(replace(open_ns + 3'000'000, 1, 2, 4, 150, 1'020'000));
  w.write(system_event(57'700'000'000'000, 'C'));
  auto b = w.bytes();
  return {b.begin(), b.end()};
}

class Itch5lobster : public testing::Test {
 protected:
  run_result run(const std::string& args) {
    const std::string err = dir_.file("stderr");
    const std::string cmd = sh_quote(std::string(ITCH5_TOOLS_DIR) + "/itch5lobster") + " " + args +
                            " >/dev/null 2>" + sh_quote(err);
    run_result r;
    r.status = itch5_test::run_shell(cmd);
    r.err = itch5_test::read_text(err);
    return r;
  }
  std::string day(const std::string& name) {
    const std::string path = dir_.file(name);
    itch5_test::write_file(path, day_bytes());
    return path;
  }
  std::string out_dir(const std::string& name) {
    const std::string p = dir_.file(name);
    fs::create_directory(p);
    return p;
  }
  itch5_test::temp_dir dir_;
};

TEST_F(Itch5lobster, FilesOfADayNamedAsNasdaqNamesIt) {
  const std::string in = day("01302019.NASDAQ_ITCH50");
  const std::string out = out_dir("out");
  const run_result r = run(sh_quote(in) + " --symbols aapl,MSFT --levels 2 -q --out " + sh_quote(out));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::string base = out + "/AAPL_2019-01-30_34200000_57600000_";
  EXPECT_EQ(itch5_test::read_text(base + "message_2.csv"),
            "34200.001500000,1,2,200,1010000,-1\n"
            "34200.003000000,3,2,200,1010000,-1\n"
            "34200.003000000,1,4,150,1020000,-1\n");
  EXPECT_EQ(itch5_test::read_text(base + "orderbook_2.csv"),
            "1010000,200,1000000,100,9999999999,0,-9999999999,0\n"
            "9999999999,0,1000000,100,9999999999,0,-9999999999,0\n"
            "1020000,150,1000000,100,9999999999,0,-9999999999,0\n");
  EXPECT_EQ(itch5_test::read_text(out + "/MSFT_2019-01-30_34200000_57600000_message_2.csv"),
            "34200.002000000,1,3,50,2000000,-1\n");
  EXPECT_TRUE(fs::exists(out + "/MSFT_2019-01-30_34200000_57600000_orderbook_2.csv"));
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator{}), 4);
}

TEST_F(Itch5lobster, DateAndWindowFromTheFlags) {
  const std::string in = day("day.itch");
  const std::string out = out_dir("out");
  const run_result r = run(sh_quote(in) +
                           " --symbols AAPL --date 2012-06-21 --from 09:30:00.002 --to 10:00 "
                           "--levels 1 -q --out " +
                           sh_quote(out));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(itch5_test::read_text(out + "/AAPL_2012-06-21_34200002_36000000_message_1.csv"),
            "34200.003000000,3,2,200,1010000,-1\n"
            "34200.003000000,1,4,150,1020000,-1\n");
  // A Nasdaq name with --date: the flag wins.
  const std::string named = day("S013019-v50.txt");
  ASSERT_EQ(run(sh_quote(named) + " --symbols AAPL --date 2012-06-21 -q --out " + sh_quote(out)).status, 0);
  EXPECT_TRUE(fs::exists(out + "/AAPL_2012-06-21_34200000_57600000_message_10.csv"));
  ASSERT_EQ(run(sh_quote(named) + " --symbols AAPL -q --out " + sh_quote(out)).status, 0);
  EXPECT_TRUE(fs::exists(out + "/AAPL_2019-01-30_34200000_57600000_orderbook_10.csv"));
}

TEST_F(Itch5lobster, UsageErrorsAreOneLine) {
  const std::string in = day("day.itch");
  const std::string out = out_dir("out");
  const auto one_line = [](const run_result& r, const std::string& needle) {
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  };
  run_result r = run(sh_quote(in) + " --symbols AAPL --out " + sh_quote(out));
  EXPECT_EQ(r.status, 2);
  one_line(r, "itch5lobster: error: --date: needed");
  r = run(sh_quote(in) + " --symbols AAPL --date 2019-02-30 --out " + sh_quote(out));
  EXPECT_EQ(r.status, 2);
  one_line(r, "--date");
  for (const char* levels : {"0", "51"}) {
    r = run(sh_quote(in) + " --symbols AAPL --date 2019-01-30 --levels " + levels + " --out " +
            sh_quote(out));
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--levels"), std::string::npos) << r.err;
  }
  r = run(sh_quote(in) + " --symbols AAPL --date 2019-01-30 --out " + sh_quote(dir_.file("missing")));
  EXPECT_EQ(r.status, 1);
  one_line(r, "--out: " + dir_.file("missing") + ": no such directory");
  r = run(sh_quote(in) + " --symbols AAPL --date 2019-01-30 --out " + sh_quote(in));
  EXPECT_EQ(r.status, 1);
  one_line(r, "not a directory");
  if (::geteuid() != 0) {  // root writes anywhere
    const std::string ro = out_dir("ro");
    ::chmod(ro.c_str(), 0555);
    r = run(sh_quote(in) + " --symbols AAPL --date 2019-01-30 --out " + sh_quote(ro));
    EXPECT_EQ(r.status, 1);
    one_line(r, "not writable");
  }
  r = run(sh_quote(in) + " --symbols TOOLONGNAME --date 2019-01-30 --out " + sh_quote(out));
  EXPECT_EQ(r.status, 2);
  one_line(r, "--symbols");
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator{}), 0);
}

TEST_F(Itch5lobster, ASymbolTheDayNeverNamesIsAnErrorAfterTheRun) {
  const std::string in = day("01302019.NASDAQ_ITCH50");
  const std::string out = out_dir("out");
  const run_result r = run(sh_quote(in) + " --symbols AAPL,ZZZZ -q --out " + sh_quote(out));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("itch5lobster: error: --symbols ZZZZ: no message of"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(out + "/AAPL_2019-01-30_34200000_57600000_message_10.csv"));
  EXPECT_TRUE(fs::exists(out + "/AAPL_2019-01-30_34200000_57600000_orderbook_10.csv"));
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator{}), 2);
}

TEST_F(Itch5lobster, ACorruptDayKeepsTheRowsBeforeTheErrorAsPartial) {
  itch5_test::bytes cut = day_bytes();
  cut.resize(cut.size() - 5);  // the last message (S 'C') cut short
  const std::string in = dir_.file("01302019.NASDAQ_ITCH50");
  itch5_test::write_file(in, cut);
  const std::string out = out_dir("out");
  const run_result r = run(sh_quote(in) + " --symbols AAPL -q --out " + sh_quote(out));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("itch5lobster: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(in), std::string::npos) << r.err;
  const std::string base = out + "/AAPL_2019-01-30_34200000_57600000_";
  EXPECT_FALSE(fs::exists(base + "message_10.csv"));
  EXPECT_EQ(itch5_test::read_text(base + "message_10.csv.partial"),
            "34200.001500000,1,2,200,1010000,-1\n"
            "34200.003000000,3,2,200,1010000,-1\n"
            "34200.003000000,1,4,150,1020000,-1\n");
  EXPECT_TRUE(fs::exists(base + "orderbook_10.csv.partial"));
}

TEST_F(Itch5lobster, AnOutputThatIsTheInputIsRefused) {
  // The day named as one of the files the run would write, in --out.
  const std::string out = out_dir("out");
  const std::string in = out + "/AAPL_2019-01-30_34200000_57600000_message_10.csv";
  itch5_test::write_file(in, day_bytes());
  const run_result r = run(sh_quote(in) + " --symbols AAPL --date 2019-01-30 --out " + sh_quote(out));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("itch5lobster: error:"), std::string::npos) << r.err;
  EXPECT_EQ(itch5_test::read_file(in), day_bytes());
}

}  // namespace
