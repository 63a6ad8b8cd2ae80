#include <itch5/cli/time_of_day.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace itch5::cli {
namespace {

constexpr std::int64_t ns_per_second = 1'000'000'000;
constexpr std::int64_t ns_per_day = 24 * 3600 * ns_per_second;

[[noreturn]] void bad(std::string_view text, const char* why) {
  throw std::invalid_argument("'" + std::string(text) + "' is not a time of day (" + why +
                              "; expected HH:MM[:SS[.fraction]] or nanoseconds since midnight)");
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads exactly `n` digits at `pos`, or fails.
int two_digits(std::string_view text, std::size_t pos) {
  if (pos + 2 > text.size() || !is_digit(text[pos]) || !is_digit(text[pos + 1]))
    bad(text, "two digits expected");
  return (text[pos] - '0') * 10 + (text[pos + 1] - '0');
}

std::chrono::nanoseconds parse_nanoseconds(std::string_view text) {
  if (text.size() > 18) bad(text, "beyond 24 hours");
  std::int64_t ns = 0;
  for (char c : text) ns = ns * 10 + (c - '0');
  if (ns > ns_per_day) bad(text, "beyond 24 hours");
  return std::chrono::nanoseconds(ns);
}

}  // namespace

std::chrono::nanoseconds parse_time_of_day(std::string_view text) {
  if (text.empty()) bad(text, "empty");
  std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) {
    for (char c : text) {
      if (!is_digit(c)) bad(text, "unexpected character");
    }
    return parse_nanoseconds(text);
  }
  if (colon == 0 || colon > 2) bad(text, "one or two digits of hours expected");
  int hours = 0;
  for (std::size_t i = 0; i < colon; ++i) {
    if (!is_digit(text[i])) bad(text, "one or two digits of hours expected");
    hours = hours * 10 + (text[i] - '0');
  }
  const int minutes = two_digits(text, colon + 1);
  std::size_t pos = colon + 3;
  int seconds = 0;
  std::int64_t fraction = 0;
  if (pos < text.size()) {
    if (text[pos] != ':') bad(text, "':' expected after the minutes");
    seconds = two_digits(text, pos + 1);
    pos += 3;
    if (pos < text.size()) {
      if (text[pos] != '.') bad(text, "'.' expected after the seconds");
      ++pos;
      const std::size_t digits = text.size() - pos;
      if (digits == 0 || digits > 9) bad(text, "1 to 9 digits of fraction expected");
      for (std::size_t i = 0; i < 9; ++i) {
        const char c = i < digits ? text[pos + i] : '0';
        if (!is_digit(c)) bad(text, "1 to 9 digits of fraction expected");
        fraction = fraction * 10 + (c - '0');
      }
    }
  }
  if (minutes > 59) bad(text, "minutes above 59");
  if (seconds > 59) bad(text, "seconds above 59");
  if (hours > 24 || (hours == 24 && (minutes != 0 || seconds != 0 || fraction != 0)))
    bad(text, "beyond 24:00");
  return std::chrono::nanoseconds((std::int64_t{hours} * 3600 + minutes * 60 + seconds) * ns_per_second +
                                  fraction);
}

std::string format_time_of_day(std::chrono::nanoseconds since_midnight) {
  const std::int64_t ns = since_midnight.count();
  const std::int64_t s = ns / ns_per_second;
  const std::int64_t f = ns % ns_per_second;
  char text[64];
  int n = std::snprintf(text, sizeof text, "%02lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                        static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
  if (f != 0)
    n += std::snprintf(text + n, sizeof text - static_cast<std::size_t>(n), ".%09lld",
                       static_cast<long long>(f));
  return std::string(text, static_cast<std::size_t>(n));
}

std::string time_range::describe() const {
  if (whole_day()) return "the whole input";
  const bool open_end = to == std::chrono::nanoseconds::max();
  return (from.count() == 0 ? std::string("the start") : format_time_of_day(from)) + " to " +
         (open_end ? std::string("the end") : format_time_of_day(to));
}

std::string time_range::past_the_day() const {
  if (from.count() < ns_per_day) return {};
  return "--from " + format_time_of_day(from) +
         " is the end of the day: no event of the day is in the range, so no line, statistic or window comes "
         "from it";
}

time_range resolve_time_range(std::string_view from, std::string_view to, std::string_view session) {
  time_range r;
  if (!session.empty()) {
    if (session != "regular") {
      throw std::invalid_argument("--session: expected 'regular' (09:30 to 16:00), got '" +
                                  std::string(session) + "'");
    }
    if (!from.empty() || !to.empty()) {
      throw std::invalid_argument(
          "--session regular sets the range; it cannot be combined with --from or --to");
    }
    return {parse_time_of_day("09:30"), parse_time_of_day("16:00")};
  }
  try {
    if (!from.empty()) r.from = parse_time_of_day(from);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--from: ") + e.what());
  }
  try {
    if (!to.empty()) r.to = parse_time_of_day(to);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--to: ") + e.what());
  }
  if (r.from >= r.to) {
    throw std::invalid_argument("--from " +
                                (from.empty() ? std::string("00:00 (the default)") : std::string(from)) +
                                " is not before --to " + std::string(to) + ": the range would be empty");
  }
  return r;
}

}  // namespace itch5::cli
