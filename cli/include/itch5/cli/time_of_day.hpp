// Times of day as the tools take them on the command line (--from, --to) and print them in summaries.
//
//   itch5::cli::parse_time_of_day("09:30")            -> 34'200'000'000'000 ns
//   itch5::cli::parse_time_of_day("9:30:00.000000001") -> 34'200'000'000'001 ns
//   itch5::cli::parse_time_of_day("34200000000000")   -> the same as "09:30" (plain digits: ns since
//   midnight) itch5::cli::format_time_of_day(34'200'000'000'001ns) -> "09:30:00.000000001"
//   itch5::cli::resolve_time_range("", "", "regular")  -> [09:30, 16:00)
//
// ITCH timestamps count nanoseconds since midnight of the trading day in the exchange's time (New York
// for Nasdaq), so a time of day given here compares with them directly: no time zone is applied.
// Accepted: H:MM or HH:MM, optionally :SS, optionally .fraction of 1 to 9 digits; hours 0-23, or 24:00
// exactly (the end of the day); or plain digits, nanoseconds since midnight. A range is half-open,
// [from, to): an event at `to` is outside it.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace itch5::cli {

/// The time of day `text` names, as nanoseconds since midnight. Throws std::invalid_argument with a
/// message that quotes `text` and says what is accepted.
[[nodiscard]] std::chrono::nanoseconds parse_time_of_day(std::string_view text);

/// HH:MM:SS, with a fraction of 9 digits only when the time is not a whole second; beyond 24 h, the hours
/// keep counting (25:00:00).
[[nodiscard]] std::string format_time_of_day(std::chrono::nanoseconds since_midnight);

/// A half-open range of times of day.
struct time_range {
  std::chrono::nanoseconds from{0};
  std::chrono::nanoseconds to = std::chrono::nanoseconds::max();

  [[nodiscard]] bool whole_day() const noexcept {
    return from.count() == 0 && to == std::chrono::nanoseconds::max();
  }
  /// "09:30:00 to 16:00:00", "09:30:00 to the end", "the start to 10:00:00", "the whole input".
  [[nodiscard]] std::string describe() const;
  /// For a range that lies past the day (--from 24:00, whose events would be stamped 24:00 or later: none
  /// in a day's feed): "--from 24:00:00 is the end of the day: no event of the day is in the range, so no
  /// line, statistic or window comes from it"; else "". A warning for the tools to print before the run.
  [[nodiscard]] std::string past_the_day() const;
};

/// The range of --from FROM, --to TO and --session SESSION (each "" when not given): SESSION "regular" is
/// 09:30 to 16:00 and excludes --from and --to; FROM must come before TO. Throws std::invalid_argument
/// naming the flag at fault.
[[nodiscard]] time_range resolve_time_range(std::string_view from, std::string_view to,
                                            std::string_view session);

}  // namespace itch5::cli
