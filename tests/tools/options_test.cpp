// cli::options (tools/common/options.hpp), the command-line and YAML parser of every tool and benchmark:
// issue 10, "no mistake passes silently". Expected values are computed here from the digits of the text,
// never by the parser's own arithmetic; errors are checked for their exact wording and exit status 2.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "options.hpp"

namespace {

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
  std::optional<int> code;  // what parse() returned
  std::string out, err;     // what it wrote
};

// parse() on `args` (program name first), capturing stdout and stderr.
outcome parse(cli::options& opts, std::initializer_list<std::string> args) {
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
  cli::options opts{"prog", "[options]", "A test program."};
  program() {
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
  cli::options opts("prog", "[options]", "test");
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

}  // namespace
