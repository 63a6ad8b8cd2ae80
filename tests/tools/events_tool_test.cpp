// itch5inside --events DIR and --event-kinds, run as a program: every kind's file on the shipped sample with
// a row per message of its type (counted here from the input's frames), the kinds chosen, a corrupt input's
// partial files, and the usage errors (unknown kind, DIR a file or not writable or not creatable, an event
// file that is the input, --event-kinds alone).
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include <itch5/tables/event_sinks.hpp>
#include <itch5/tables/schema.hpp>

#include <itch5_test/support.hpp>

namespace {

namespace fs = std::filesystem;
using itch5_test::sh_quote;

const std::string tool = std::string(ITCH5_TOOLS_DIR) + "/itch5inside";

struct result {
  int status;
  std::string err;
};

result run(const itch5_test::temp_dir& tmp, const std::string& args) {
  const std::string err = tmp.file("stderr.txt");
  const int st = itch5_test::run_shell(sh_quote(tool) + " -q " + args + " > /dev/null 2> " + sh_quote(err));
  return {st, itch5_test::read_text(err)};
}

std::size_t lines_of(const std::string& path) {
  const std::string t = itch5_test::read_text(path);
  return static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n'));
}

TEST(EventsTool, EveryKindsFileHasARowPerMessageOfItsType) {
  itch5_test::temp_dir tmp;
  const std::string sample = itch5_test::data_path("synthetic-200k.itch.gz");
  const std::string dir = tmp.file("events/day1");  // two levels, created
  const result r = run(tmp, sh_quote(sample) + " --events " + sh_quote(dir));
  ASSERT_EQ(r.status, 0) << r.err;
  std::array<std::size_t, 256> count{};
  for (const auto& f :
       itch5_test::reference_frames(itch5_test::inflate_prefix(itch5_test::read_file(sample))))
    ++count[std::to_integer<unsigned char>(f[0])];
  ASSERT_EQ(count['R'], 313u);
  itch5::tables::for_each_event_table([&]<class T>(std::type_identity<T>, auto) {
    const std::string path = dir + "/" + std::string(T::name) + ".csv";
    ASSERT_TRUE(fs::exists(path)) << path;
    const std::string text = itch5_test::read_text(path);
    EXPECT_EQ(text.substr(0, text.find('\n') + 1), itch5::tables::csv_header(itch5::tables::schema_of<T>()));
    EXPECT_EQ(lines_of(path), 1 + count[static_cast<unsigned char>(T::message::type)]) << T::name;
  });
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 13);
}

TEST(EventsTool, EventKindsWritesTheKindsChosenOnly) {
  itch5_test::temp_dir tmp;
  const std::string dir = tmp.file("ev");
  const result r = run(tmp, sh_quote(itch5_test::data_path("real-2019-first1000.itch")) + " --events " +
                                sh_quote(dir) + " --event-kinds stock_directory,H");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines_of(dir + "/stock_directory.csv"), 1 + 993u);
  EXPECT_EQ(lines_of(dir + "/trading_actions.csv"), 1 + 3u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 2);
}

TEST(EventsTool, ACorruptInputKeepsTheRowsBeforeItAsPartialFiles) {
  itch5_test::temp_dir tmp;
  itch5_test::bytes data = itch5_test::read_file(itch5_test::data_path("real-2019-first1000.itch"));
  ASSERT_GT(data.size(), 5u);
  data.erase(data.end() - 5, data.end());  // the last message cut short
  itch5_test::write_file(tmp.file("cut.itch"), data);
  const std::string dir = tmp.file("ev");
  const result r = run(tmp, sh_quote(tmp.file("cut.itch")) + " --events " + sh_quote(dir));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/stock_directory.csv"));
  ASSERT_TRUE(fs::exists(dir + "/stock_directory.csv.partial"));
  std::size_t whole_r = 0;  // the R messages before the cut
  for (const auto& f : itch5_test::reference_frames(data)) whole_r += static_cast<char>(f[0]) == 'R';
  EXPECT_EQ(lines_of(dir + "/stock_directory.csv.partial"), 1 + whole_r);
}

TEST(EventsTool, UsageErrors) {
  itch5_test::temp_dir tmp;
  const std::string input = sh_quote(itch5_test::data_path("real-2019-first1000.itch"));

  result r = run(tmp, input + " --events " + sh_quote(tmp.file("ev")) + " --event-kinds noii,nope");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--event-kinds: unknown kind 'nope'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(tmp.file("ev")));

  r = run(tmp, input + " --event-kinds noii");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--event-kinds needs --events"), std::string::npos) << r.err;

  itch5_test::write_file(tmp.file("plain"), itch5_test::to_bytes("x"));
  r = run(tmp, input + " --events " + sh_quote(tmp.file("plain")));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is not a directory"), std::string::npos) << r.err;

  r = run(tmp, input + " --events " + sh_quote(tmp.file("plain") + "/sub"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--events: cannot create directory"), std::string::npos) << r.err;

  // An event file that is the input: refused before anything is written; the directory made for the run
  // is removed again when still empty.
  fs::create_directory(tmp.file("in"));
  fs::copy_file(itch5_test::data_path("real-2019-first1000.itch"), tmp.file("in/noii.csv"));
  r = run(tmp, sh_quote(tmp.file("in/noii.csv")) + " --events " + sh_quote(tmp.file("in")));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("noii.csv"), std::string::npos) << r.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.file("in")), fs::directory_iterator()), 1);
  r = run(tmp, input + " --events " + sh_quote(tmp.file("new")) + " -o " + input);
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_FALSE(fs::exists(tmp.file("new")));
}

TEST(EventsTool, ADirectoryThatCannotBeWrittenIsRefused) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into any directory";
  itch5_test::temp_dir tmp;
  fs::create_directory(tmp.file("ro"));
  fs::permissions(tmp.file("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  const result r = run(tmp, sh_quote(itch5_test::data_path("real-2019-first1000.itch")) + " --events " +
                                sh_quote(tmp.file("ro")));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is not writable"), std::string::npos) << r.err;
  fs::permissions(tmp.file("ro"), fs::perms::owner_all);
}

}  // namespace
