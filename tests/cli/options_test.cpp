// itch5::cli::options (cli/include/itch5/cli/options.hpp), the command-line and YAML parser of every tool
// and benchmark, where no mistake may pass silently: a bad value, one out of range or a repeated or
// unknown key is an error naming what is wrong, never a wrapped, rounded or ignored value. Expected values
// are computed here from the digits of the text, never by the parser's own arithmetic; errors are checked
// for their exact wording and exit status 2.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <initializer_list>
#include <limits>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <itch5_test/support.hpp>

#include <itch5/cli/build_info.hpp>
#include <itch5/cli/options.hpp>

namespace {

using namespace std::chrono_literals;

// A mutable argv for parse().
class argv {
 public:
  argv(std::initializer_list<std::string> args) : strings_(args) {
    for (auto& s : strings_) pointers_.push_back(s.data());
    pointers_.push_back(nullptr);
  }
  [[nodiscard]] int argc() const { return static_cast<int>(strings_.size()); }
  [[nodiscard]] char** get() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
};

struct outcome {
  std::optional<int> code;  // what parse() returned (the exit status for a child process)
  std::string out, err;     // what it wrote
};

// Runs the built tool `name` (ITCH5_TOOLS_DIR) with `args`, already quoted for /bin/sh.
outcome run_tool(const std::string& name, const std::string& args) {
  itch5_test::temp_dir dir;
  const std::string out = dir.file("stdout"), err = dir.file("stderr");
  outcome r;
  const std::string program = std::string(ITCH5_TOOLS_DIR) + "/" + name;
  using itch5_test::sh_quote;
  r.code =
      itch5_test::run_shell(sh_quote(program) + " " + args + " >" + sh_quote(out) + " 2>" + sh_quote(err));
  r.out = itch5_test::read_text(out);
  r.err = itch5_test::read_text(err);
  return r;
}

// parse() on `args` (program name first), capturing stdout and stderr.
outcome parse(itch5::cli::options& opts, std::initializer_list<std::string> args) {
  argv a(args);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  outcome r;
  r.code = opts.parse(a.argc(), a.get());
  r.out = testing::internal::GetCapturedStdout();
  r.err = testing::internal::GetCapturedStderr();
  return r;
}

// A program with one option of each kind, as the tools declare them.
struct program {
  std::uint64_t messages = 200'000;
  std::uint64_t block = 65536;
  std::uint64_t seed = 1;
  std::int64_t offset = 0;
  double fraction = 0.5;
  std::chrono::nanoseconds hop = 7us;
  itch5::cli::options opts{"prog", "[options]", "A test program."};
  program() {
    opts.add("hop", hop, "Hop (0: the window).");
    opts.add_count("messages", messages, "Messages.", 0, std::numeric_limits<std::uint64_t>::max());
    opts.add_size("block-size", block, "Bytes.", 0, std::numeric_limits<std::uint64_t>::max());
    opts.add("seed", seed, "Seed.", 0, std::numeric_limits<std::uint64_t>::max());
    opts.add("offset", offset, "Offset.", std::numeric_limits<std::int64_t>::min(),
             std::numeric_limits<std::int64_t>::max());
    opts.add("fraction", fraction, "Fraction.", 0, 1);
  }
  // parse() with one flag and its value; the error line ("" on success).
  std::string set(const std::string& flag, const std::string& value) {
    outcome r = parse(opts, {"prog", flag, value});
    if (r.code.has_value()) {
      EXPECT_EQ(*r.code, 2) << flag << " " << value;
      EXPECT_NE(r.err, "") << flag << " " << value;
    } else {
      EXPECT_EQ(r.err, "") << flag << " " << value;
    }
    return r.err;
  }
};

std::string error(const std::string& text) { return "prog: error: " + text + "\n"; }

// ---------------------------------------------------------------------------------------------------------
// 1. Counts and sizes with a decimal suffix are exact; nothing overflows silently.

TEST(Options, EveryThreeDecimalMillionIsExact) {
  // d.ddd M is the integer dddd followed by three zeros: 1.001M = 1001 * 1000.
  for (std::uint64_t i = 1000; i <= 9999; ++i) {
    const std::string digits = std::to_string(i);
    const std::string text = digits.substr(0, 1) + "." + digits.substr(1) + "M";
    program p;
    ASSERT_EQ(p.set("--messages", text), "") << text;
    ASSERT_EQ(p.messages, i * 1000) << text;
  }
}

TEST(Options, DecimalSuffixesAreExact) {
  const std::pair<const char*, std::uint64_t> cases[] = {
      {"2.5k", 2500},
      {"1.001M", 1'001'000},
      {"0.001k", 1},
      {".5k", 500},
      {"1.000000001G", 1'000'000'001},
      {"1.0000000000000000000000000000000000000000M", 1'000'000},
      {"20000", 20000},
      {"2.0", 2},
      {"18446744073709551615", 18446744073709551615u},
      {"18446744073709551.615k", 18446744073709551615u},
  };
  for (const auto& [text, expected] : cases) {
    program p;
    EXPECT_EQ(p.set("--messages", text), "") << text;
    EXPECT_EQ(p.messages, expected) << text;
  }
}

TEST(Options, CountsThatAreNotWholeAreRefused) {
  for (const char* text : {"1.0000001M", "2.5", "0.0001k", "1.0000000001G", "1.000000000000000000001M"}) {
    program p;
    EXPECT_EQ(p.set("--messages", text),
              error("--messages: '" + std::string(text) + "' is not a whole number"));
    EXPECT_EQ(p.messages, 200'000u) << text;  // unchanged
  }
}

TEST(Options, EveryFractionOfAKibibyteIsExact) {
  // n/1024 = n * 5^10 / 10^10: ten decimals, so 1.<n * 9765625, ten digits>KiB is 1024 + n bytes.
  for (std::uint64_t n = 0; n < 1024; ++n) {
    std::string frac = std::to_string(n * 9765625);
    frac.insert(0, 10 - frac.size(), '0');
    const std::string text = "1." + frac + "KiB";
    program p;
    ASSERT_EQ(p.set("--block-size", text), "") << text;
    ASSERT_EQ(p.block, 1024 + n) << text;
  }
  const std::pair<const char*, std::uint64_t> cases[] = {
      {"1.5KiB", 1536},
      {"64KiB", 65536},
      {"0.25MiB", 262144},
      {"3GiB", 3ull << 30},
      {"1.5k", 1536},
      {"100B", 100},
      // 2^64 - 1 bytes = 2^34 GiB - 2^-30 GiB, and 2^-30 = 0.000000000931322574615478515625.
      {"17179869183.999999999068677425384521484375GiB", 18446744073709551615u},
  };
  for (const auto& [text, expected] : cases) {
    program p;
    EXPECT_EQ(p.set("--block-size", text), "") << text;
    EXPECT_EQ(p.block, expected) << text;
  }
  for (const char* text : {"1.3KiB", "0.1KiB", "1.0000000001GiB"}) {
    program p;
    EXPECT_EQ(p.set("--block-size", text),
              error("--block-size: '" + std::string(text) + "' is not a whole number of bytes"));
  }
}

TEST(Options, OverflowIsAnErrorForIntegersCountsAndSizes) {
  const std::string u64max = "18446744073709551615";
  const std::string i64min = "-9223372036854775808", i64max = "9223372036854775807";
  const struct {
    const char* flag;
    const char* text;
    std::string range;
  } cases[] = {
      {"--seed", "18446744073709551616", "0 and " + u64max},
      {"--seed", "99999999999999999999999", "0 and " + u64max},
      {"--seed", "-1", "0 and " + u64max},
      {"--offset", "9223372036854775808", i64min + " and " + i64max},
      {"--offset", "-9223372036854775809", i64min + " and " + i64max},
      {"--messages", "18446744073709551616", "0 and " + u64max},
      {"--messages", "18446744073709552k", "0 and " + u64max},
      {"--messages", "20000000000G", "0 and " + u64max},
      {"--messages", "-5k", "0 and " + u64max},
      {"--block-size", "17179869184GiB", "0 and " + u64max},
      {"--fraction", "1e999", "0 and 1"},
      {"--fraction", "1.5", "0 and 1"},
  };
  for (const auto& c : cases) {
    program p;
    EXPECT_EQ(p.set(c.flag, c.text),
              error(std::string(c.flag) + ": '" + c.text + "' is out of range: must be between " + c.range));
  }
  program p;
  EXPECT_EQ(p.set("--seed", u64max), "");
  EXPECT_EQ(p.seed, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(p.set("--offset", i64min), "");
  EXPECT_EQ(p.offset, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(p.set("--block-size", "16777216TiB"),
            error("--block-size: unknown size unit 'TiB' in '16777216TiB' (use KiB, MiB, GiB)"));
}

TEST(Options, OptionRangesAreStatedWithTheValue) {
  std::uint64_t n = 5;
  std::uint64_t count = 10;
  itch5::cli::options opts("prog", "[options]", "test");
  opts.add("level", n, "Level.", 1, 9);
  opts.add_count("count", count, "Count.", 1, 1000);
  EXPECT_EQ(parse(opts, {"prog", "--level", "10"}).err,
            error("--level: '10' is out of range: must be between 1 and 9"));
  EXPECT_EQ(parse(opts, {"prog", "--count", "1.001k"}).err,
            error("--count: '1.001k' is out of range: must be between 1 and 1000"));
  EXPECT_EQ(parse(opts, {"prog", "--count=0"}).err,
            error("--count: '0' is out of range: must be between 1 and 1000"));
}

TEST(Options, MalformedNumbersNameWhatWasExpected) {
  program p;
  const std::string count = "--messages: expected a count such as 20000, 20k or 1.5M, got ";
  EXPECT_EQ(p.set("--messages", ""), error(count + "''"));
  EXPECT_EQ(p.set("--messages", "M"), error(count + "'M'"));
  EXPECT_EQ(p.set("--messages", "1e6"), error("--messages: unknown suffix 'e6' in '1e6' (use k, M, G)"));
  EXPECT_EQ(p.set("--messages", "1.2.3k"), error("--messages: malformed number in '1.2.3k'"));
  EXPECT_EQ(p.set("--messages", "20 k"),
            error("--messages: no space allowed between the number and its suffix in '20 k'"));
  EXPECT_EQ(p.set("--block-size", "KiB"),
            error("--block-size: expected a size such as 65536, 64KiB or 1.5MiB, got 'KiB'"));
  EXPECT_EQ(p.set("--seed", "12x"), error("--seed: expected an integer, got '12x'"));
  EXPECT_EQ(p.set("--fraction", "half"), error("--fraction: expected a number, got 'half'"));
}

// ---------------------------------------------------------------------------------------------------------
// 2. Durations: a bare 0, no negative values, exact to the nanosecond, no overflow, clear errors.

TEST(Options, BareZeroIsAZeroDuration) {
  for (const char* text : {"0", "00", "0.0", "0ns", "0h"}) {
    program p;
    EXPECT_EQ(p.set("--hop", text), "") << text;
    EXPECT_EQ(p.hop, 0ns) << text;
  }
  program p;
  EXPECT_EQ(p.set("--hop", "5"),
            error("--hop: '5' has no unit (ns, us, ms, s, min, h); only 0 may be written without one"));
  EXPECT_EQ(p.hop, 7us);
  // The options whose --help explains what 0 means take a bare 0.
  const outcome tde = run_tool("itch5tde", "a b --hop 0 --smooth 0 --print-config");
  EXPECT_EQ(tde.code, 0) << tde.err;
  EXPECT_NE(tde.out.find("hop: 0ns\n"), std::string::npos) << tde.out;
  // --smooth takes a duration or 'auto', so it is kept as written (and read by parse_duration later).
  EXPECT_NE(tde.out.find("smooth: 0\n"), std::string::npos) << tde.out;
  const outcome synth = run_tool("itch5synth", "--mean-gap 0 --print-config");
  EXPECT_EQ(synth.code, 0) << synth.err;
  EXPECT_NE(synth.out.find("mean-gap: 0ns\n"), std::string::npos) << synth.out;
}

TEST(Options, NegativeDurationsAreRefusedAsNegative) {
  for (const char* text : {"-5us", "-0", "-1.5ms", "-.5s"}) {
    program p;
    EXPECT_EQ(p.set("--hop", text),
              error("--hop: '" + std::string(text) + "': negative durations are not allowed"));
    EXPECT_EQ(p.hop, 7us);
  }
  EXPECT_THROW((void)itch5::cli::parse_duration("-5us"), std::invalid_argument);
}

TEST(Options, DurationsAreExactToTheNanosecond) {
  const std::pair<const char*, std::chrono::nanoseconds> cases[] = {
      {"250ns", 250ns},
      {"10us", 10us},
      {"16.384ms", 16384us},
      {"2s", 2s},
      {"1.5min", 90s},
      {"1h", 1h},
      {".5s", 500ms},
      {"0.000000005h", 18us},     // 5e-9 h = 18 us
      {"0.000000000005h", 18ns},  // 5e-12 h = 18 ns
      {"0.0000000001min", 6ns},   // 1e-10 min = 6 ns
      {"1.000000001s", 1'000'000'001ns},
      {"9223372036854775807ns", std::chrono::nanoseconds::max()},
      {"2562047.788015215h", 9'223'372'036'854'774'000ns},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(itch5::cli::parse_duration(text), expected) << text;
  }
  // Every d.ddd ms, from the digits.
  for (std::int64_t i = 0; i <= 9999; ++i) {
    const std::string digits = std::to_string(10000 + i).substr(1);  // four digits
    const std::string text = digits.substr(0, 1) + "." + digits.substr(1) + "ms";
    ASSERT_EQ(itch5::cli::parse_duration(text).count(), i * 1000) << text;
  }
  // What format_duration writes reads back to the same value.
  const std::int64_t values[] = {0,
                                 1,
                                 999,
                                 1000,
                                 16'384'000,
                                 60'000'000'000,
                                 3'600'000'000'001,
                                 std::numeric_limits<std::int64_t>::max()};
  for (std::int64_t ns : values) {
    const std::chrono::nanoseconds d(ns);
    EXPECT_EQ(itch5::cli::parse_duration(itch5::cli::format_duration(d)), d) << ns;
  }
}

TEST(Options, DurationsFinerThanANanosecondAreRefused) {
  // 1e-12 h = 3.6 ns: not whole, although each digit taken alone looks fine.
  for (const char* text :
       {"1.5ns", "0.0000000001s", "0.000000000001h", "0.00000000001min", "1.0000000001ms"}) {
    program p;
    EXPECT_EQ(p.set("--hop", text), error("--hop: '" + std::string(text) + "' is finer than a nanosecond"));
  }
}

TEST(Options, DurationOverflowIsAnError) {
  const std::string limit =
      "' is out of range: the largest duration is 9223372036854775807ns (about 292 years)";
  for (const char* text : {"685732567003161h", "9223372036854775808ns", "2562048h",
                           "99999999999999999999999s", "9223372036.854775808s"}) {
    program p;
    EXPECT_EQ(p.set("--hop", text), error("--hop: '" + std::string(text) + limit));
    EXPECT_EQ(p.hop, 7us);
  }
  // Nanoseconds beyond int64: this value used to wrap around to 499712ns.
  const outcome r = run_tool("itch5tde", "a b --max-lag 685732567003161h");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "itch5tde: error: --max-lag: '685732567003161h" + limit + "\n");
}

TEST(Options, MalformedDurationsNameWhatWasExpected) {
  const std::string expected = "expected a duration such as 250ns, 10us or 16.384ms, got ";
  const std::pair<const char*, std::string> cases[] = {
      {"", expected + "''"},
      {"us", expected + "'us'"},
      {".us", expected + "'.us'"},
      {"+5us", expected + "'+5us'"},
      {"-", expected + "'-'"},
      {"5 us", "no space allowed between the number and its unit in '5 us'"},
      {"1e3us", "unknown duration unit 'e3us' in '1e3us' (ns, us, ms, s, min, h)"},
      {"5sec", "unknown duration unit 'sec' in '5sec' (ns, us, ms, s, min, h)"},
      {"1.2.3us", "malformed number in '1.2.3us'"},
  };
  for (const auto& [text, message] : cases) {
    program p;
    EXPECT_EQ(p.set("--hop", text), error("--hop: " + message)) << text;
    EXPECT_EQ(p.hop, 7us);
  }
}

// ---------------------------------------------------------------------------------------------------------
// 3. The YAML file: a repeated key, a directory or an unreadable file is an error naming it.

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

// The message apply_yaml() throws for `text`, or "" when it accepts it.
std::string yaml_error(const std::string& text) {
  program p;
  try {
    p.opts.apply_yaml(text, "test.yaml");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Options, RepeatedYamlKeyIsAnError) {
  EXPECT_EQ(yaml_error("hop: 1us\nseed: 3\nhop: 2us\n"), "test.yaml: key 'hop' is repeated (lines 1 and 3)");
  EXPECT_EQ(yaml_error("seed: 3\nseed: 3\n"), "test.yaml: key 'seed' is repeated (lines 1 and 2)");
  EXPECT_EQ(yaml_error("{seed: 3, hop: 1us, seed: 4}"), "test.yaml: key 'seed' is repeated (lines 1 and 1)");
  EXPECT_EQ(yaml_error("seed: 3\nhop: 1us\n"), "");
  // Through --config: exit status 2, nothing applied.
  itch5_test::temp_dir dir;
  const std::string file = dir.file("dup.yaml");
  write_text(file, "messages: 1k\nmessages: 2k\n");
  program p;
  const outcome r = parse(p.opts, {"prog", "--config", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, error("config file " + file + ": key 'messages' is repeated (lines 1 and 2)"));
  EXPECT_EQ(p.messages, 200'000u);
}

TEST(Options, YamlThatIsNotOneMappingOfNamesIsAnError) {
  EXPECT_EQ(yaml_error("seed: 3\n---\nhop: 1us\n"),
            "test.yaml: holds 2 YAML documents (separated by ---); expected one");
  EXPECT_EQ(yaml_error("seed: 3\n[a, b]: 1\n"),
            "test.yaml: line 2: expected an option name as the key, got a list");
  EXPECT_EQ(yaml_error("- seed\n"), "test.yaml: expected a mapping of option names to values");
  EXPECT_EQ(yaml_error("seed: [1, 2]\n"), "test.yaml: key 'seed': expected a single value, got a list");
  EXPECT_EQ(yaml_error("frobnicate: 1\n"), "test.yaml: key 'frobnicate': unknown option (see --help)");
  EXPECT_EQ(yaml_error("hop: 0\nmessages: 1.001M\n"), "");
  EXPECT_EQ(yaml_error(""), "");
  EXPECT_EQ(yaml_error("# nothing\n"), "");
  // A key that is a mapping used to escape parse() as a yaml-cpp exception and abort the program.
  itch5_test::temp_dir dir;
  const std::string file = dir.file("key.yaml");
  write_text(file, "? {seed: 1}\n: 2\n");
  program p;
  const outcome r = parse(p.opts, {"prog", "--config", file});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            error("config file " + file + ": line 1: expected an option name as the key, got a mapping"));
}

// yaml-cpp 0.7's LoadAll never returns on a ',' where a node should start (found by fuzz_options, which
// hung on ",\b"): these are errors, not hangs.
TEST(Options, CommaOutsideAListIsAnErrorNotAHang) {
  for (const std::string text :
       {",", ",\b", ",A", "  ,", "[a]\n,", "\"a\"\n,", "{a: 1}\n,b", "seed: 3\n---\n,A"}) {
    SCOPED_TRACE(text);
    EXPECT_NE(yaml_error(text).find("test.yaml: not valid YAML: error at line "), std::string::npos)
        << yaml_error(text);
  }
  EXPECT_EQ(yaml_error("symbols: [A\n  , B]\n"), "test.yaml: key 'symbols': unknown option (see --help)");
}

TEST(Options, ConfigDirectoryOrUnreadableFileIsAnError) {
  itch5_test::temp_dir dir;  // made by mkdtemp
  const std::string path = dir.path().string();
  {
    program p;
    const outcome r = parse(p.opts, {"prog", "--config", path});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, error("--config: '" + path + "' is a directory, not a YAML file"));
    EXPECT_EQ(r.out, "");
  }
  {
    program p;
    const outcome r = parse(p.opts, {"prog", "--config=" + path + "/missing.yaml"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, error("--config: cannot read '" + path + "/missing.yaml': No such file or directory"));
  }
  if (::geteuid() != 0) {  // root reads anything
    const std::string file = dir.file("secret.yaml");
    write_text(file, "seed: 3\n");
    std::filesystem::permissions(file, std::filesystem::perms::none);
    program p;
    const outcome r = parse(p.opts, {"prog", "--config", file});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, error("--config: cannot read '" + file + "': Permission denied"));
  }
  // A tool, end to end: it used to exit 0 and run with the defaults.
  const outcome tool = run_tool("itch5synth", "--config " + itch5_test::sh_quote(path) + " --print-config");
  EXPECT_EQ(tool.code, 2);
  EXPECT_EQ(tool.err, "itch5synth: error: --config: '" + path + "' is a directory, not a YAML file\n");
  EXPECT_EQ(tool.out, "");
}

TEST(Options, FlagsOverrideTheFile) {
  itch5_test::temp_dir dir;
  const std::string file = dir.file("cfg.yaml");
  write_text(file, "seed: 3\nhop: 5us\nmessages: 2.5k\n");
  program p;
  const outcome r = parse(p.opts, {"prog", "--seed", "4", "--config", file, "--messages=1.5k"});
  EXPECT_FALSE(r.code.has_value()) << r.err;
  EXPECT_EQ(p.seed, 4u);         // flag before --config
  EXPECT_EQ(p.messages, 1500u);  // flag after it
  EXPECT_EQ(p.hop, 5us);         // from the file
  EXPECT_EQ(p.block, 65536u);    // default
}

// A positional argument is the YAML key of its name in lower case; the last takes a list when the program
// takes more (FILE...). --print-config shows them, and the command line's replace all of the file's.
TEST(Options, PositionalArgumentsAreYamlKeysAndPrinted) {
  struct files {
    std::string input, second;
    std::vector<std::string> more;
    std::uint64_t seed = 1;
    itch5::cli::options opts{"prog", "INPUT SECOND...", "Test program."};
    files() {
      opts.add("seed", seed, "Seed.", 0, 100);
      opts.positional("INPUT", input, "Input.");
      opts.positional("SECOND", second, "Second.", false);
      opts.more_positionals(more);
    }
  };
  itch5_test::temp_dir dir;
  write_text(dir.file("cfg.yaml"), "input: day.itch\nsecond: [b.itch, c.itch, d.itch]\nseed: 3\n");
  {
    files f;
    const outcome r = parse(f.opts, {"prog", "--config", dir.file("cfg.yaml")});
    EXPECT_FALSE(r.code.has_value()) << r.err;
    EXPECT_EQ(f.input, "day.itch");
    EXPECT_EQ(f.second, "b.itch");
    EXPECT_EQ(f.more, (std::vector<std::string>{"c.itch", "d.itch"}));
  }
  {
    files f;
    const outcome r = parse(f.opts, {"prog", "--config", dir.file("cfg.yaml"), "--print-config"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "seed: 3\ninput: day.itch\nsecond: [b.itch, c.itch, d.itch]\n");
  }
  {
    files f;  // the command line's positional arguments replace the file's, all of them
    const outcome r = parse(f.opts, {"prog", "x.itch", "--config", dir.file("cfg.yaml"), "--print-config"});
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out, "seed: 3\ninput: x.itch\n");
  }
  {
    files f;
    const outcome r = parse(f.opts, {"prog", "a", "b", "c", "--print-config"});
    EXPECT_EQ(r.out, "seed: 1\ninput: a\nsecond: [b, c]\n");
  }
  write_text(dir.file("seed-only.yaml"), "seed: 3\n");
  files f;
  const outcome r = parse(f.opts, {"prog", "--config", dir.file("seed-only.yaml")});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "prog: error: missing INPUT (see --help)\n");
}

TEST(Options, PrintConfigRoundTrips) {
  program p;
  const outcome r = parse(p.opts, {"prog", "--messages", "1.001M", "--hop", "16.384ms", "--block-size",
                                   "1.5KiB", "--offset", "-12", "--fraction", "0.25", "--print-config"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out,
            "hop: 16384us\nmessages: 1001000\nblock-size: 1536\nseed: 1\noffset: -12\nfraction: 0.25\n");
  // What it printed is a config file with the same effect.
  itch5_test::temp_dir dir;
  write_text(dir.file("printed.yaml"), r.out);
  program q;
  const outcome again = parse(q.opts, {"prog", "--config", dir.file("printed.yaml"), "--print-config"});
  EXPECT_EQ(again.code, 0);
  EXPECT_EQ(again.out, r.out);
  EXPECT_EQ(q.messages, 1'001'000u);
  EXPECT_EQ(q.hop, 16384us);
}

// ---------------------------------------------------------------------------------------------------------
// 4. --version: program, project version, commit, compiler, build type and build options.

// Checks a --version text of `name` against this test build's configuration.
void expect_version_text(const std::string& name, const std::string& text) {
  auto on_off = [](bool on) { return std::string(on ? "ON" : "OFF"); };
  const std::string isal =
      ITCH5_TEST_WITH_ISAL ? R"(ON \(ISA-L inflate available\))" : R"(OFF \(ISA-L inflate not available\))";
  const std::string commit = R"( \(commit (([0-9a-f]{7,40})(-dirty)?|unknown)\)\n)";
  const std::regex form(name + " " ITCH5_TEST_PROJECT_VERSION + commit +
                        "compiler: [A-Za-z]+ [0-9][0-9.]*; build type: " ITCH5_TEST_BUILD_TYPE "\n" +
                        "build options: ITCH5_WITH_ISAL=" + isal + ", ITCH5_SANITIZE=" +
                        on_off(ITCH5_TEST_SANITIZE) + ", ITCH5_NATIVE=" + on_off(ITCH5_TEST_NATIVE) + "\n");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(text, m, form)) << text;
  // The commit names a commit of this repository, or git knows none.
  const std::string git = "git -C " + itch5_test::sh_quote(ITCH5_TEST_SOURCE_DIR);
  if (m[1] == "unknown") {
    EXPECT_NE(itch5_test::run_shell(git + " rev-parse HEAD >/dev/null 2>&1"), 0) << text;
  } else {
    EXPECT_EQ(itch5_test::run_shell(git + " cat-file -e " + m[2].str() + "^{commit} 2>/dev/null"), 0) << text;
  }
}

TEST(Options, VersionPrintsTheBuild) {
  program p;
  const outcome r = parse(p.opts, {"prog", "--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  expect_version_text("prog", r.out);
  EXPECT_EQ(r.out, itch5::cli::build_info::current().version_text("prog"));
  EXPECT_EQ(itch5::cli::build_info::current().version, ITCH5_TEST_PROJECT_VERSION);
  EXPECT_EQ(itch5::cli::build_info::current().with_isal, ITCH5_TEST_WITH_ISAL != 0);
  // Before anything else is checked, like --help: a missing positional does not matter.
  itch5::cli::options needs_input("prog", "INPUT", "test");
  std::string input;
  needs_input.positional("INPUT", input, "Input.");
  EXPECT_EQ(parse(needs_input, {"prog", "--version"}).code, 0);
  // Listed in --help.
  EXPECT_NE(p.opts.help_text().find("  --version\n"), std::string::npos);
}

TEST(Options, EveryToolPrintsItsVersion) {
  for (const char* tool : {"itch5cat", "itch5inside", "itch5stats", "itch5synth", "itch5tde"}) {
    const outcome r = run_tool(tool, "--version");
    EXPECT_EQ(r.code, 0) << tool;
    EXPECT_EQ(r.err, "") << tool;
    expect_version_text(tool, r.out);
    const outcome help = run_tool(tool, "--help");
    EXPECT_NE(help.out.find("  --version\n"), std::string::npos) << tool;
  }
}

}  // namespace

namespace {

// Lists and forgotten values: a mistake, never something to drop or take as a file name.
TEST(Options, ListItemsAreTrimmedAndEmptyItemsRefused) {
  std::vector<std::string> symbols{"DEFAULT"};
  std::string output = "-";
  itch5::cli::options opts{"prog", "[options]", "A test program."};
  opts.add("symbols", symbols, "Symbols.");
  opts.add("output", output, "Output.").alias('o');
  EXPECT_FALSE(parse(opts, {"prog", "--symbols", " AAPL , MSFT"}).code.has_value());
  EXPECT_EQ(symbols, (std::vector<std::string>{"AAPL", "MSFT"}));
  EXPECT_FALSE(parse(opts, {"prog", "--symbols", ""}).code.has_value());
  EXPECT_TRUE(symbols.empty()) << "the empty string is the empty list";
  EXPECT_FALSE(parse(opts, {"prog", "--symbols", "A B"}).code.has_value());
  EXPECT_EQ(symbols, (std::vector<std::string>{"A B"})) << "inner spaces are kept for the tool to judge";
  for (const std::string bad : {",", "AAPL,,MSFT", "AAPL,", ",AAPL", "AAPL, ,MSFT"}) {
    const outcome r = parse(opts, {"prog", "--symbols", bad});
    EXPECT_EQ(r.code, 2) << bad;
    EXPECT_EQ(r.err, error("--symbols: empty item in the list '" + bad + "'"));
  }
}

TEST(Options, AFlagInPlaceOfAValueIsAMissingValue) {
  std::string output = "-";
  bool quiet = false;
  itch5::cli::options opts{"prog", "[options]", "A test program."};
  opts.add("output", output, "Output.").alias('o');
  opts.add("quiet", quiet, "Quiet.").alias('q');
  for (const std::string next : {"--quiet", "--no-quiet", "--help", "--print-config", "--output=x"}) {
    const outcome r = parse(opts, {"prog", "-o", next});
    EXPECT_EQ(r.code, 2) << next;
    EXPECT_EQ(r.err, error("-o: missing value (the next argument, '" + next +
                           "', is an option; write --output=" + next + " for a value that looks like one)"));
  }
  EXPECT_FALSE(parse(opts, {"prog", "--output=--quiet"}).code.has_value());
  EXPECT_EQ(output, "--quiet");
  EXPECT_FALSE(parse(opts, {"prog", "-o", "--not-an-option"}).code.has_value()) << "unknown: a name like any";
  EXPECT_EQ(output, "--not-an-option");
  EXPECT_FALSE(parse(opts, {"prog", "-o", "-"}).code.has_value());
  EXPECT_EQ(output, "-");
}

}  // namespace

namespace {

// What CLI11 adds to the command line, and what stays refused.
TEST(Options, ShortOptionsGroupAndTheNoFormOfAFlagTakesNoValue) {
  std::string output = "-";
  bool quiet = false;
  itch5::cli::options opts{"prog", "[options]", "A test program."};
  opts.add("output", output, "Output.").alias('o');
  opts.add("quiet", quiet, "Quiet.").alias('q');
  EXPECT_FALSE(parse(opts, {"prog", "-qo", "x"}).code.has_value());
  EXPECT_TRUE(quiet);
  EXPECT_EQ(output, "x");
  EXPECT_FALSE(parse(opts, {"prog", "-oy", "--no-quiet"}).code.has_value());
  EXPECT_FALSE(quiet);
  EXPECT_EQ(output, "y");
  EXPECT_FALSE(parse(opts, {"prog", "--no-quiet", "-q"}).code.has_value());
  EXPECT_TRUE(quiet) << "the last one written wins";
  const outcome r = parse(opts, {"prog", "--no-quiet=3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, error("--no-quiet: takes no value, got '3'"));
  EXPECT_TRUE(quiet);
  for (const std::string bad : {"-o=x", "-q=false"}) {  // not a value "=x" for -o
    EXPECT_EQ(parse(opts, {"prog", bad}).err, error("unknown option '" + bad + "' (see --help)"));
  }
  EXPECT_EQ(output, "y");
}

}  // namespace

namespace {

// FILE...: positional arguments after the declared ones go to more_positionals() in order, wherever the
// options are; without it they are an error, and an unknown option is one either way.
TEST(Options, MorePositionalsCollectTheRestInOrder) {
  auto make = [](std::string& first, std::vector<std::string>& more, std::string& out) {
    auto o = std::make_unique<itch5::cli::options>("prog", "FILE...", "test");
    o->positional("FILE", first, "Files.");
    o->more_positionals(more);
    o->add("out", out, "Output.");
    return o;
  };
  std::string first, out;
  std::vector<std::string> more;
  auto o = make(first, more, out);
  const outcome r = parse(*o, {"prog", "a", "--out", "x", "b", "c", "--", "-d"});
  EXPECT_EQ(r.code, std::nullopt) << r.err;
  EXPECT_EQ(first, "a");
  EXPECT_EQ(more, (std::vector<std::string>{"b", "c", "-d"}));
  EXPECT_EQ(out, "x");

  std::string first2, out2;
  std::vector<std::string> more2;
  auto o2 = make(first2, more2, out2);
  EXPECT_EQ(parse(*o2, {"prog", "a", "b", "--bogus"}).code, 2);

  itch5::cli::options single("prog", "FILE", "test");
  std::string only;
  single.positional("FILE", only, "File.");
  const outcome s = parse(single, {"prog", "a", "b"});
  EXPECT_EQ(s.code, 2);
  EXPECT_NE(s.err.find("unexpected argument 'b'"), std::string::npos) << s.err;
}

}  // namespace

namespace {

// What cli::options keeps from CLI11 (cli/src/options.cpp says why, point by point): each of these would
// change if the work were handed to CLI11 as it is.

TEST(Options, TheNoFormTakesNoValueAndTheFlagTakesTrueOrFalse) {
  bool quiet = true;
  itch5::cli::options opts{"prog", "[options]", "A test program."};
  opts.add("quiet", quiet, "Quiet.").alias('q');
  // CLI11's "!--no-quiet" negation would read --no-quiet=false as true.
  outcome r = parse(opts, {"prog", "--no-quiet=false"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, error("--no-quiet: takes no value, got 'false'"));
  EXPECT_TRUE(quiet);
  EXPECT_FALSE(parse(opts, {"prog", "--quiet=false"}).code.has_value());
  EXPECT_FALSE(quiet);
  EXPECT_FALSE(parse(opts, {"prog", "--quiet=yes"}).code.has_value());
  EXPECT_TRUE(quiet);
  r = parse(opts, {"prog", "--quiet=3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, error("--quiet: expected true or false, got '3'"));
  // --help lists the --no- form beside the flag, once.
  const std::string help = opts.help_text();
  EXPECT_NE(help.find("  -q, --quiet, --no-quiet\n"), std::string::npos) << help;
  EXPECT_EQ(help.find("{false}"), std::string::npos) << help;
}

// Occurrences of `what` in `text`.
std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// A help text that says its default in words is not followed by a second, generated "Default: (none).".
TEST(Options, HelpThatSaysItsDefaultGetsNoSecondOne) {
  std::string from, to, output = "-";
  itch5::cli::options opts{"prog", "[options]", "A test program."};
  opts.add("from", from, "Only events at or after this time. Default: the start.");
  opts.add("to", to, "Only events before this time.");
  opts.add("output", output, "Output.");
  const std::string help = opts.help_text();
  EXPECT_EQ(count_of(help, "Default:"), 3u) << help;
  EXPECT_NE(help.find("Default: the start."), std::string::npos) << help;
  EXPECT_EQ(help.find("the start. Default: (none)"), std::string::npos) << help;
  EXPECT_NE(help.find("Only events before this time. Default: (none)."), std::string::npos) << help;
  EXPECT_NE(help.find("Output. Default: -."), std::string::npos) << help;
  // The tools' --from and --to: one default each.
  for (const char* tool : {"itch5inside", "itch5tde"}) {
    const outcome r = run_tool(tool, "--help");
    EXPECT_EQ(r.code, 0) << tool;
    const std::string flat = std::regex_replace(r.out, std::regex("\\s+"), " ");  // lines unwrapped
    EXPECT_NE(flat.find("Default: the start. --to"), std::string::npos) << tool << " --help:\n" << r.out;
    EXPECT_NE(flat.find("Default: the end. --session"), std::string::npos) << tool << " --help:\n" << r.out;
  }
}

TEST(Options, AnEmptyValueAfterTheEqualsSignIsEmptyNotTheNextArgument) {
  std::string output = "-", input;
  std::vector<std::string> symbols{"DEFAULT"};
  itch5::cli::options opts{"prog", "[options] INPUT", "A test program."};
  opts.add("output", output, "Output.");
  opts.add("symbols", symbols, "Symbols.");
  opts.positional("INPUT", input, "Input.");
  const outcome r = parse(opts, {"prog", "--output=", "--symbols=", "in.itch"});
  EXPECT_EQ(r.code, std::nullopt) << r.err;
  EXPECT_EQ(output, "");
  EXPECT_TRUE(symbols.empty());
  EXPECT_EQ(input, "in.itch");
}

TEST(Options, EveryValueIsCheckedInTheOrderWrittenAndTheLastOneWins) {
  {
    program p;  // a bad value is refused even when a good one follows
    const outcome r = parse(p.opts, {"prog", "--seed", "x", "--seed", "3"});
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, error("--seed: expected an integer, got 'x'"));
  }
  {
    program p;
    EXPECT_EQ(parse(p.opts, {"prog", "--seed", "3", "--seed", "4"}).code, std::nullopt);
    EXPECT_EQ(p.seed, 4u);
  }
  // The first bad value written is the one reported, whatever order the options were declared in
  // (--messages before --seed).
  program p;
  EXPECT_EQ(parse(p.opts, {"prog", "--seed", "x", "--messages", "y"}).err,
            error("--seed: expected an integer, got 'x'"));
  EXPECT_EQ(parse(p.opts, {"prog", "--messages", "y", "--seed", "x"}).err,
            error("--messages: expected a count such as 20000, 20k or 1.5M, got 'y'"));
}

TEST(Options, ALaterConfigFileOverridesAnEarlierOne) {
  itch5_test::temp_dir dir;
  write_text(dir.file("a.yaml"), "seed: 3\nhop: 5us\n");
  write_text(dir.file("b.yaml"), "seed: 4\n");
  program p;
  const outcome r = parse(p.opts, {"prog", "--config", dir.file("a.yaml"), "--config", dir.file("b.yaml")});
  EXPECT_EQ(r.code, std::nullopt) << r.err;
  EXPECT_EQ(p.seed, 4u);
  EXPECT_EQ(p.hop, 5us);
  EXPECT_EQ(p.opts.config_files(), (std::vector<std::string>{dir.file("a.yaml"), dir.file("b.yaml")}));
}

TEST(Options, AnUnknownOptionOrAnArgumentTooManyIsNamedAlone) {
  program p;  // no positional arguments
  EXPECT_EQ(parse(p.opts, {"prog", "--bogus", "--other"}).err,
            error("unknown option '--bogus' (see --help)"));
  EXPECT_EQ(parse(p.opts, {"prog", "a", "b"}).err, error("unexpected argument 'a'"));
  EXPECT_EQ(parse(p.opts, {"prog", "--", "--bogus"}).err, error("unexpected argument '--bogus'"));
}

}  // namespace
