// itch5::cli::parse_time_of_day, format_time_of_day and resolve_time_range: the --from/--to/--session values
// of itch5inside and itch5tde.
#include <itch5/cli/time_of_day.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace {

using namespace std::chrono_literals;

std::string error_of(std::string_view text) {
  try {
    (void)itch5::cli::parse_time_of_day(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(TimeOfDay, ParsesClockTimes) {
  EXPECT_EQ(itch5::cli::parse_time_of_day("09:30"), 9h + 30min);
  EXPECT_EQ(itch5::cli::parse_time_of_day("9:30"), 9h + 30min);
  EXPECT_EQ(itch5::cli::parse_time_of_day("00:00"), 0ns);
  EXPECT_EQ(itch5::cli::parse_time_of_day("16:00:01"), 16h + 1s);
  EXPECT_EQ(itch5::cli::parse_time_of_day("09:30:00.5"), 9h + 30min + 500ms);
  EXPECT_EQ(itch5::cli::parse_time_of_day("09:30:00.000000001"), 9h + 30min + 1ns);
  EXPECT_EQ(itch5::cli::parse_time_of_day("23:59:59.999999999"), 24h - 1ns);
  EXPECT_EQ(itch5::cli::parse_time_of_day("24:00"), 24h);
}

TEST(TimeOfDay, PlainDigitsAreNanosecondsSinceMidnight) {
  EXPECT_EQ(itch5::cli::parse_time_of_day("34200000000000"), 9h + 30min);
  EXPECT_EQ(itch5::cli::parse_time_of_day("0"), 0ns);
  EXPECT_EQ(itch5::cli::parse_time_of_day("86400000000000"), 24h);
}

TEST(TimeOfDay, RejectsWhatIsNotATimeOfDay) {
  const std::string expected = "; expected HH:MM[:SS[.fraction]] or nanoseconds since midnight)";
  EXPECT_EQ(error_of(""), "'' is not a time of day (empty" + expected);
  EXPECT_EQ(error_of("9"), "");  // 9 ns after midnight
  EXPECT_EQ(error_of("09:60"), "'09:60' is not a time of day (minutes above 59" + expected);
  EXPECT_EQ(error_of("09:30:61"), "'09:30:61' is not a time of day (seconds above 59" + expected);
  EXPECT_EQ(error_of("25:00"), "'25:00' is not a time of day (beyond 24:00" + expected);
  EXPECT_EQ(error_of("24:00:01"), "'24:00:01' is not a time of day (beyond 24:00" + expected);
  EXPECT_EQ(error_of("86400000000001"), "'86400000000001' is not a time of day (beyond 24 hours" + expected);
  EXPECT_EQ(error_of("99999999999999999999"),
            "'99999999999999999999' is not a time of day (beyond 24 hours" + expected);
  EXPECT_EQ(error_of("9:3"), "'9:3' is not a time of day (two digits expected" + expected);
  EXPECT_EQ(error_of("123:00"),
            "'123:00' is not a time of day (one or two digits of hours expected" + expected);
  EXPECT_EQ(error_of(":30"), "':30' is not a time of day (one or two digits of hours expected" + expected);
  EXPECT_EQ(error_of("09:30:00."),
            "'09:30:00.' is not a time of day (1 to 9 digits of fraction expected" + expected);
  EXPECT_EQ(error_of("09:30:00.1234567890"),
            "'09:30:00.1234567890' is not a time of day (1 to 9 digits of fraction expected" + expected);
  EXPECT_EQ(error_of("09:30:00.5x"),
            "'09:30:00.5x' is not a time of day (1 to 9 digits of fraction expected" + expected);
  EXPECT_EQ(error_of("09:30x"), "'09:30x' is not a time of day (':' expected after the minutes" + expected);
  EXPECT_EQ(error_of("09:30:00,5"),
            "'09:30:00,5' is not a time of day ('.' expected after the seconds" + expected);
  EXPECT_EQ(error_of("-5"), "'-5' is not a time of day (unexpected character" + expected);
  EXPECT_EQ(error_of("9:30 am"), "'9:30 am' is not a time of day (':' expected after the minutes" + expected);
}

TEST(TimeOfDay, FormatsWhatItParses) {
  EXPECT_EQ(itch5::cli::format_time_of_day(9h + 30min), "09:30:00");
  EXPECT_EQ(itch5::cli::format_time_of_day(9h + 30min + 1ns), "09:30:00.000000001");
  EXPECT_EQ(itch5::cli::format_time_of_day(0ns), "00:00:00");
  EXPECT_EQ(itch5::cli::format_time_of_day(25h), "25:00:00");
  for (const char* text : {"09:30:00", "16:00:00.250000000", "00:00:01.000000001", "23:59:59.999999999"}) {
    EXPECT_EQ(itch5::cli::format_time_of_day(itch5::cli::parse_time_of_day(text)), text);
  }
}

TEST(TimeOfDay, ResolvesRanges) {
  const itch5::cli::time_range all = itch5::cli::resolve_time_range("", "", "");
  EXPECT_TRUE(all.whole_day());
  EXPECT_EQ(all.describe(), "the whole input");
  const itch5::cli::time_range regular = itch5::cli::resolve_time_range("", "", "regular");
  EXPECT_EQ(regular.from, 9h + 30min);
  EXPECT_EQ(regular.to, 16h);
  EXPECT_EQ(regular.describe(), "09:30:00 to 16:00:00");
  EXPECT_EQ(itch5::cli::resolve_time_range("09:30", "", "").describe(), "09:30:00 to the end");
  EXPECT_EQ(itch5::cli::resolve_time_range("", "10:00", "").describe(), "the start to 10:00:00");
  const itch5::cli::time_range five = itch5::cli::resolve_time_range("09:30", "09:35", "");
  EXPECT_EQ(five.to - five.from, 5min);
}

TEST(TimeOfDay, RangeErrorsNameTheFlag) {
  auto error = [](std::string_view from, std::string_view to, std::string_view session) -> std::string {
    try {
      (void)itch5::cli::resolve_time_range(from, to, session);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("10:00", "09:30", ""), "--from 10:00 is not before --to 09:30: the range would be empty");
  EXPECT_EQ(error("09:30", "09:30", ""), "--from 09:30 is not before --to 09:30: the range would be empty");
  EXPECT_EQ(error("", "00:00", ""),
            "--from 00:00 (the default) is not before --to 00:00: the range would be empty");
  EXPECT_EQ(error("9:61", "", ""),
            "--from: '9:61' is not a time of day (minutes above 59; expected "
            "HH:MM[:SS[.fraction]] or nanoseconds since midnight)");
  EXPECT_EQ(error("", "x", "").rfind("--to: 'x' is not a time of day", 0), 0u);
  EXPECT_EQ(error("", "", "extended"), "--session: expected 'regular' (09:30 to 16:00), got 'extended'");
  EXPECT_EQ(error("09:00", "", "regular"),
            "--session regular sets the range; it cannot be combined with --from or --to");
}

}  // namespace
