// itch5cat, run as a program: counts and text output on the real sample and hand-built files, filters,
// stdin and gzip input, errors (truncated, not ITCH, missing, directory) with their exit status, the
// error line naming file, offset and message number, and everything before an error still printed.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <itch5_test/support.hpp>

namespace {

using itch5_test::builder;
using itch5_test::bytes;
using itch5_test::sh_quote;

struct run_result {
  int status = -1;
  std::string out;
  std::string err;
};

class Itch5cat : public testing::Test {
 protected:
  // Runs `itch5cat ARGS` through /bin/sh (ARGS already quoted), optionally with `shell_stdin` as a
  // redirection or pipeline prefix, capturing stdout and stderr in files.
  run_result run(const std::string& args, const std::string& pipe_from = "") {
    const std::string out = dir_.file("stdout"), err = dir_.file("stderr");
    std::string cmd = sh_quote(std::string(ITCH5_TOOLS_DIR) + "/itch5cat") + " " + args + " >" +
                      sh_quote(out) + " 2>" + sh_quote(err);
    if (!pipe_from.empty()) cmd = pipe_from + " | " + cmd;
    run_result r;
    r.status = itch5_test::run_shell(cmd);
    r.out = itch5_test::read_text(out);
    r.err = itch5_test::read_text(err);
    return r;
  }

  std::string write(const std::string& name, const bytes& b) {
    std::string path = dir_.file(name);
    itch5_test::write_file(path, b);
    return path;
  }

  itch5_test::temp_dir dir_;
};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

const std::string real_sample = itch5_test::data_path("real-2019-first1000.itch");
const std::string artificial = itch5_test::data_path("artificial-3stocks.itch");

const std::string real_counts =
    "H stock_trading_action 3\n"
    "R stock_directory 993\n"
    "S system_event 1\n"
    "Y reg_sho_restriction 3\n"
    "total 1000\n";

const std::string artificial_counts =
    "A add_order 4997\n"
    "D order_delete 1745\n"
    "E order_executed 198\n"
    "F add_order_mpid 3\n"
    "H stock_trading_action 3\n"
    "P trade 5000\n"
    "R stock_directory 3\n"
    "S system_event 6\n"
    "U order_replace 12\n"
    "X order_cancel 45\n"
    "total 12012\n";

TEST_F(Itch5cat, CountsOnTheRealSample) {
  auto r = run("--counts " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, real_counts);
  EXPECT_EQ(r.err, "");
}

TEST_F(Itch5cat, CountsOnGzipAndStdin) {
  auto r = run("--counts " + sh_quote(artificial + ".gz"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, artificial_counts);

  r = run("--counts - <" + sh_quote(artificial));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, artificial_counts);

  // gzip on a pipe: no size, no seeking, detection by magic.
  r = run("--counts -", "gzip -c " + sh_quote(artificial));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, artificial_counts);
}

TEST_F(Itch5cat, TextOutputOnTheRealSample) {
  auto r = run(sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1000u);
  EXPECT_NE(lines[0].find(" S system_event locate=0 tracking=0 event_code=O"), std::string::npos) << lines[0];
  // Message 14 is the 13th stock directory entry: AAPL at locate 13.
  EXPECT_NE(lines[13].find(" R stock_directory locate=13 tracking=0 stock=AAPL "), std::string::npos)
      << lines[13];

  r = run("--locate 13 " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("stock=AAPL "), std::string::npos) << lines[0];
}

TEST_F(Itch5cat, TextOfHandBuiltMessagesAndFilters) {
  const auto path =
      write("three.itch", builder()
                              .frame(itch5_test::system_event_bytes('O', 3'600'000'000'000))
                              .frame(itch5_test::add_order_bytes(42, 'B', 100, "AAPL", 1'902'500, 13))
                              .frame(itch5_test::order_delete_bytes(42, 13))
                              .get());
  const std::string s = "01:00:00.000000000 S system_event locate=0 tracking=0 event_code=O\n";
  const std::string a =
      "09:30:00.000000000 A add_order locate=13 tracking=1 order_ref=42 side=B shares=100 stock=AAPL "
      "price=190.2500\n";
  const std::string d = "09:30:00.000000001 D order_delete locate=13 tracking=2 order_ref=42\n";

  auto r = run(sh_quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, s + a + d);
  EXPECT_EQ(r.err, "");

  EXPECT_EQ(run("--types D " + sh_quote(path)).out, d);
  EXPECT_EQ(run("--types=SD " + sh_quote(path)).out, s + d);
  EXPECT_EQ(run("--locate 13 " + sh_quote(path)).out, a + d);
  EXPECT_EQ(run("--limit 2 " + sh_quote(path)).out, s + a);
  EXPECT_EQ(run("--counts " + sh_quote(path)).out,
            "A add_order 1\nD order_delete 1\nS system_event 1\ntotal 3\n");
}

// The offset of frame number `n` (1-based) of a well-formed file.
std::uint64_t frame_offset(const bytes& file, std::size_t n) {
  std::uint64_t at = 0;
  for (const auto& f : itch5_test::reference_frames(file)) {
    if (--n == 0) break;
    at += 2 + f.size();
  }
  return at;
}

TEST_F(Itch5cat, TruncatedFileReportsFileOffsetAndMessageAfterPrintingEverythingBefore) {
  bytes file = itch5_test::read_file(real_sample);
  const std::uint64_t last = frame_offset(file, 1000);
  ASSERT_GT(last, 0u);
  file.resize(file.size() - 5);
  const auto path = write("cut.itch", file);

  auto full = lines_of(run(sh_quote(real_sample)).out);
  ASSERT_EQ(full.size(), 1000u);

  auto r = run(sh_quote(path));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("byte offset " + std::to_string(last) + " "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("message #1000"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated message"), std::string::npos) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.back(), '\n') << "only complete lines";
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 999u);
  EXPECT_TRUE(std::equal(lines.begin(), lines.end(), full.begin()));

  // Standard input is called that, not "-".
  r = run("- <" + sh_quote(path));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("standard input: byte offset " + std::to_string(last) + " (message #1000)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(lines_of(r.out).size(), 999u);

  // The file ends with the directory entry of locate 993: that one is lost.
  r = run("--counts " + sh_quote(path));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out,
            "H stock_trading_action 3\nR stock_directory 992\nS system_event 1\nY reg_sho_restriction 3\n"
            "total 999\n");
}

TEST_F(Itch5cat, LargeOutputBeforeAnErrorIsKeptWhole) {
  // More text than the tool's output buffer before the cut: every flushed chunk must end on a line.
  bytes file = itch5_test::read_file(artificial);
  const auto frames = itch5_test::reference_frames(file);
  file.resize(300'001);
  std::size_t whole = itch5_test::reference_frames(file).size();
  ASSERT_GT(whole, 5'000u);
  ASSERT_LT(whole, frames.size());
  const auto path = write("cut.itch", file);

  auto full = lines_of(run(sh_quote(artificial)).out);
  ASSERT_EQ(full.size(), 12'012u);
  auto r = run(sh_quote(path));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("message #" + std::to_string(whole + 1)), std::string::npos) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.back(), '\n');
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), whole);
  EXPECT_TRUE(std::equal(lines.begin(), lines.end(), full.begin()));
}

TEST_F(Itch5cat, NotItchEmptyMissingAndDirectory) {
  const auto text = write("notes.txt", itch5_test::to_bytes("These are not market data.\n"));
  auto r = run(sh_quote(text));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not ITCH"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("byte offset 0 (message #1)"), std::string::npos) << r.err;

  const auto empty = write("empty.itch", bytes{});
  r = run(sh_quote(empty));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(empty + ": byte offset 0 (message #1): empty input"), std::string::npos) << r.err;

  const auto missing = dir_.file("missing.itch");
  r = run(sh_quote(missing));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;

  const auto directory = dir_.path().string();
  r = run(sh_quote(directory));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(directory), std::string::npos) << r.err;
}

TEST_F(Itch5cat, CorruptGzipNamesTheCompressedOffset) {
  bytes gz = itch5_test::gzip(itch5_test::read_file(real_sample));
  gz.resize(gz.size() / 2);
  const auto path = write("cut.itch.gz", gz);
  auto r = run(sh_quote(path));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("compressed byte offset " + std::to_string(gz.size())), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
  EXPECT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.back(), '\n');
}

TEST_F(Itch5cat, UnknownTypesAndEndOfSession) {
  const bytes s = itch5_test::system_event_bytes('O');
  const bytes z = builder().header('Z', 0, 0, 0).u32(0).get();
  // S (14) + Z (17) + S (14): the zero length is at byte 45, then one more S (14 bytes).
  const auto path = write("odd.itch", builder().frame(s).frame(z).frame(s).u16(0).frame(s).get());
  // A zero length before the end of the input is a zero-filled tail: an error naming it (the counts of the
  // messages before it are still printed), unless --allow-zero-tail makes it the end.
  auto r = run("--counts " + sh_quote(path));
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(r.out, "S system_event 2\nZ unknown 1\ntotal 3\n");
  EXPECT_NE(
      r.err.find("itch5cat: error: " + path +
                 ": byte offset 45 (message #4): zero length prefix before the end of the input: 14 bytes "
                 "after it not read (a zero-filled tail?)\n"),
      std::string::npos)
      << r.err;
  r = run("--allow-zero-tail --counts " + sh_quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "S system_event 2\nZ unknown 1\ntotal 3\n");
  EXPECT_NE(r.err.find("skipped 1 messages of unknown type"), std::string::npos) << r.err;
  EXPECT_NE(
      r.err.find("itch5cat: warning: " + path +
                 ": zero length prefix at byte offset 45 ended the input; 14 bytes after it not read\n"),
      std::string::npos)
      << r.err;

  r = run("-q --allow-zero-tail --counts " + sh_quote(path));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err.find("skipped"), std::string::npos) << "--quiet drops notes: " << r.err;
}

TEST_F(Itch5cat, WriteErrorExitsOne) {
  const std::string out = dir_.file("stderr");
  int status = itch5_test::run_shell(sh_quote(std::string(ITCH5_TOOLS_DIR) + "/itch5cat") + " " +
                                     sh_quote(artificial) + " >/dev/full 2>" + sh_quote(out));
  EXPECT_EQ(status, 1);
  EXPECT_NE(itch5_test::read_text(out).find("standard output: write error"), std::string::npos)
      << itch5_test::read_text(out);
}

TEST_F(Itch5cat, HelpDocumentsEveryFlag) {
  auto r = run("--help");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "");
  for (const char* flag : {"--counts", "--types", "--locate", "--limit", "--quiet", "-q,", "--config",
                           "--print-config", "--help", "INPUT", "Exit status"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag << " is not in --help:\n" << r.out;
  }
  EXPECT_EQ(run("-h").out, r.out);
}

TEST_F(Itch5cat, TypesMustBeItchMessageTypes) {
  // The 23 types of the ITCH 5.0 specification, in the order of its table.
  const std::string valid = "(valid: S R H Y L V W K J h A F E C X D U P Q B I N O)";
  auto r = run("--types Z " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "itch5cat: error: --types: 'Z' is not an ITCH 5.0 message type " + valid + "\n");

  r = run("--types a " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "itch5cat: error: --types: 'a' is not an ITCH 5.0 message type " + valid + "\n");

  r = run("--types AZaZ --counts " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "itch5cat: error: --types: 'Z', 'a' are not ITCH 5.0 message types " + valid + "\n");

  // h (operational halt) is the one lower-case type.
  r = run("--types h " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Itch5cat, CountsAreOfTheSelectedMessages) {
  // The real sample's directory entry of AAPL is its only message at locate 13.
  auto r = run("--locate 13 --counts " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "R stock_directory 1\ntotal 1\n");

  r = run("--types RH --counts " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "H stock_trading_action 3\nR stock_directory 993\ntotal 996\n");

  r = run("--types AF --counts " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "total 0\n");

  r = run("--types AF --counts " + sh_quote(artificial));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "A add_order 4997\nF add_order_mpid 3\ntotal 5000\n");

  // A filter selects known types only: the unknown Z is not counted (but still noted).
  const bytes s = itch5_test::system_event_bytes('O');
  const bytes z = builder().header('Z', 0, 0, 0).u32(0).get();
  const auto path = write("odd.itch", builder().frame(s).frame(z).frame(s).get());
  r = run("--types S --counts " + sh_quote(path));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "S system_event 2\ntotal 2\n");
  EXPECT_NE(r.err.find("skipped 1 messages of unknown type"), std::string::npos) << r.err;
}

TEST_F(Itch5cat, AFilterThatMatchesNothingSaysSo) {
  auto r = run("--types A " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "itch5cat: note: no message matches --types A (1000 messages read from " + real_sample + ")\n");

  r = run("--types R --locate 9999 - <" + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "itch5cat: note: no message matches --types R --locate 9999 (1000 messages read from standard "
            "input)\n");

  r = run("-q --locate 9999 " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.err, "") << "--quiet drops notes";
}

TEST_F(Itch5cat, FlagsThatContradictEachOtherAreUsageErrors) {
  struct contradiction {
    std::string args, message;
  };
  const std::string throughput = " (it decodes every message of the input, a throughput test)\n";
  for (const auto& [args, message] : std::vector<contradiction>{
           {"--counts --decode",
            "--decode and --counts cannot be combined (--decode prints the counts itself)\n"},
           {"--decode --types A", "--decode cannot be combined with --types" + throughput},
           {"--decode --locate 13", "--decode cannot be combined with --locate" + throughput},
           {"--decode --limit 5", "--decode cannot be combined with --limit" + throughput},
           {"--counts --limit 5",
            "--limit cannot be combined with --counts (--limit stops the printing of "
            "messages; --counts counts them all)\n"},
       }) {
    auto r = run(args + " " + sh_quote(real_sample));
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(r.err, "itch5cat: error: " + message) << args;
  }
  // The values that mean "no filter" are not a contradiction.
  auto r = run("--decode --locate 0 --limit 0 --types= " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind(real_counts, 0), 0u) << r.out;
}

// --symbol: the messages of the locates the chosen symbols' directory messages assign.
TEST_F(Itch5cat, SymbolFindsTheDirectoryMessageOfAaplInTheRealSample) {
  auto r = run("--symbol AAPL " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 1u) << r.out;
  EXPECT_NE(lines[0].find(" R stock_directory locate=13 tracking=0 stock=AAPL "), std::string::npos)
      << lines[0];
  EXPECT_EQ(r.err, "");
  // Any case; several symbols; --market-wide adds the system event (locate 0); the same as --locate for one.
  EXPECT_EQ(run("--symbol aapl " + sh_quote(real_sample)).out, r.out);
  EXPECT_EQ(run("--locate 13 " + sh_quote(real_sample)).out, r.out);
  EXPECT_EQ(run("--symbol AAPL,AA --counts " + sh_quote(real_sample)).out,
            "H stock_trading_action 1\nR stock_directory 2\nY reg_sho_restriction 1\ntotal 4\n");
  lines = lines_of(run("--symbol AAPL --market-wide " + sh_quote(real_sample)).out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find(" S system_event locate=0 "), std::string::npos) << lines[0];
}

TEST_F(Itch5cat, SymbolSelectsEveryMessageOfItsLocate) {
  // Every message of the artificial sample's stocks, by symbol, equals the same by locate.
  const auto directory = lines_of(run("--types R " + sh_quote(artificial)).out);
  ASSERT_GE(directory.size(), 3u);
  for (const auto& line : directory) {
    const auto stock_at = line.find("stock=") + 6, locate_at = line.find("locate=") + 7;
    const std::string stock = line.substr(stock_at, line.find(' ', stock_at) - stock_at);
    const std::string locate = line.substr(locate_at, line.find(' ', locate_at) - locate_at);
    SCOPED_TRACE(stock);
    const auto by_symbol = run("--symbol " + stock + " " + sh_quote(artificial));
    EXPECT_EQ(by_symbol.status, 0) << by_symbol.err;
    EXPECT_GT(lines_of(by_symbol.out).size(), 100u);
    EXPECT_EQ(by_symbol.out, run("--locate " + locate + " " + sh_quote(artificial)).out);
  }
}

TEST_F(Itch5cat, SymbolMistakesGetAWarningOrAUsageError) {
  auto r = run("--symbol AAPL,NOPE " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(lines_of(r.out).size(), 1u);
  EXPECT_EQ(r.err,
            "itch5cat: warning: --symbol NOPE: no stock directory message of " + real_sample + " names it\n");
  r = run("--symbol NOPE " + sh_quote(real_sample));
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "itch5cat: warning: --symbol NOPE: no stock directory message of " + real_sample +
                " names it\nitch5cat: note: no message matches --symbol NOPE (1000 messages read from " +
                real_sample + ")\n");
  struct mistake {
    std::string args, message;
  };
  for (const auto& [args, message] : std::vector<mistake>{
           {"--symbol TOOLONGNAME",
            "--symbol: 'TOOLONGNAME' cannot be an ITCH symbol (1 to 8 printable characters, "
            "no spaces)"},
           {"--symbol 'A B'",
            "--symbol: 'A B' cannot be an ITCH symbol (1 to 8 printable characters, no spaces)"},
           {"--symbol AAPL --locate 13",
            "--symbol and --locate cannot be combined (--symbol selects the locates its "
            "stock directory messages assign)"},
           {"--market-wide", "--market-wide only goes with --symbol"},
           {"--decode --symbol AAPL",
            "--decode cannot be combined with --symbol (it decodes every message of the input, a throughput "
            "test)"},
       }) {
    r = run(args + " " + sh_quote(real_sample));
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(r.err, "itch5cat: error: " + message + "\n") << args;
  }
}

TEST_F(Itch5cat, UsageErrorsExitTwo) {
  auto r = run("--no-such-flag " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--no-such-flag"), std::string::npos) << r.err;

  r = run("");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("INPUT"), std::string::npos) << r.err;

  r = run("--locate 70000 " + sh_quote(real_sample));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--locate"), std::string::npos) << r.err;
}

}  // namespace
