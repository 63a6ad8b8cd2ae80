// The values of itch5::cli::options, parsed exactly (see values.hpp).
#include "values.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include <itch5/cli/options.hpp>

namespace itch5::cli {
namespace {

// A well-formed number that the target type, or the option's range, cannot hold. Caught by
// parse_in_range(), which restates it with the allowed range.
class out_of_range : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

[[noreturn]] void throw_out_of_range(const std::string& text, const std::string& lo, const std::string& hi) {
  throw std::invalid_argument("'" + text + "' is out of range: must be between " + lo + " and " + hi);
}

template <class T>
T parse_integer(const std::string& s) {
  T v{};
  if constexpr (std::is_unsigned_v<T>) {
    // from_chars rejects a minus sign for unsigned types as "not a number"; it is a range problem.
    if (s.size() > 1 && s[0] == '-' && std::isdigit(static_cast<unsigned char>(s[1]))) {
      throw out_of_range("'" + s + "' is negative");
    }
  }
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range && p == s.data() + s.size()) {
    throw out_of_range("'" + s + "' is out of range");
  }
  if (ec != std::errc{} || p != s.data() + s.size() || s.empty()) {
    throw std::invalid_argument("expected an integer, got '" + s + "'");
  }
  return v;
}

// A decimal number at the start of a text, and what follows it: "16.384ms" -> "16", "384", "ms".
struct decimal_text {
  std::string_view whole;  // digits before the point
  std::string_view frac;   // digits after it (empty without a point)
  std::string_view unit;   // the rest
  [[nodiscard]] bool has_digits() const noexcept { return !whole.empty() || !frac.empty(); }
  [[nodiscard]] bool is_zero() const noexcept {
    return whole.find_first_not_of('0') == std::string_view::npos &&
           frac.find_first_not_of('0') == std::string_view::npos;
  }
};

// Splits `s` into digits, an optional point with more digits, and the unit. Throws on a second point.
decimal_text split_decimal(std::string_view s) {
  decimal_text d;
  std::size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  d.whole = s.substr(0, i);
  if (i < s.size() && s[i] == '.') {
    std::size_t start = ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    d.frac = s.substr(start, i - start);
    if (i < s.size() && s[i] == '.') {
      throw std::invalid_argument("malformed number in '" + std::string(s) + "'");
    }
  }
  d.unit = s.substr(i);
  return d;
}

enum class scaled { ok, not_whole, too_large };

// d.whole.d.frac * scale, exactly, when it is a whole number no larger than `max`. No floating point:
// the fraction is folded in from its last digit, acc = (digit * scale + acc) / 10, so acc is scale times
// the fraction's tail 0.d_i...d_k. That tail times scale equals 10^(i-1) * total - scale * d_1...d_(i-1),
// an integer whenever the total is one, so a division that leaves a remainder proves the total is not
// whole, and none does if it is. acc stays below scale, so nothing overflows for any number of digits.
scaled scale_exact(const decimal_text& d, std::uint64_t scale, std::uint64_t max, std::uint64_t& out) {
  std::uint64_t acc = 0;
  for (auto it = d.frac.rbegin(); it != d.frac.rend(); ++it) {
    const std::uint64_t t = static_cast<std::uint64_t>(*it - '0') * scale + acc;
    if (t % 10 != 0) return scaled::not_whole;
    acc = t / 10;
  }
  std::uint64_t whole = 0;
  for (char c : d.whole) {
    if (__builtin_mul_overflow(whole, std::uint64_t{10}, &whole) ||
        __builtin_add_overflow(whole, static_cast<std::uint64_t>(c - '0'), &whole)) {
      return scaled::too_large;
    }
  }
  std::uint64_t total = 0;
  if (__builtin_mul_overflow(whole, scale, &total) || __builtin_add_overflow(total, acc, &total) ||
      total > max) {
    return scaled::too_large;
  }
  out = total;
  return scaled::ok;
}

// The multiplier of a count's suffix (k, M, G: powers of 1000) or, `binary`, of a size's (KiB, MiB, GiB, also
// K, M, G: powers of 1024); `s` is the whole text, for the message.
std::uint64_t suffix_scale(const std::string& unit, bool binary, const std::string& s) {
  if (unit.empty() || (binary && unit == "B")) return 1;
  if (binary) {
    if (unit == "K" || unit == "KiB" || unit == "k") return std::uint64_t{1} << 10;
    if (unit == "M" || unit == "MiB") return std::uint64_t{1} << 20;
    if (unit == "G" || unit == "GiB") return std::uint64_t{1} << 30;
    throw std::invalid_argument("unknown size unit '" + unit + "' in '" + s + "' (use KiB, MiB, GiB)");
  }
  if (unit == "k" || unit == "K") return 1'000;
  if (unit == "M") return 1'000'000;
  if (unit == "G") return 1'000'000'000;
  throw std::invalid_argument("unknown suffix '" + unit + "' in '" + s + "' (use k, M, G)");
}

// "20k" -> 20000, "1.5M" -> 1500000, exactly; `binary` uses KiB/MiB/GiB (also K/M/G) as powers of 1024.
std::uint64_t parse_scaled(const std::string& s, bool binary) {
  const char* what = binary ? "a size such as 65536, 64KiB or 1.5MiB" : "a count such as 20000, 20k or 1.5M";
  if (s.size() > 1 && s[0] == '-' && std::isdigit(static_cast<unsigned char>(s[1]))) {
    throw out_of_range("'" + s + "' is negative");
  }
  const decimal_text d = split_decimal(s);
  if (!d.has_digits()) throw std::invalid_argument(std::string("expected ") + what + ", got '" + s + "'");
  const std::string unit(d.unit);
  if (!unit.empty() && std::isspace(static_cast<unsigned char>(unit[0]))) {
    throw std::invalid_argument("no space allowed between the number and its suffix in '" + s + "'");
  }
  std::uint64_t v = 0;
  switch (scale_exact(d, suffix_scale(unit, binary, s), std::numeric_limits<std::uint64_t>::max(), v)) {
    case scaled::ok: return v;
    case scaled::not_whole:
      throw std::invalid_argument("'" + s + "' is not a whole number" + (binary ? " of bytes" : ""));
    case scaled::too_large: break;
  }
  throw out_of_range("'" + s + "' is out of range");
}

// Parses with `parse` and checks [min, max]; a value the type cannot hold is reported like one outside
// the range.
template <class T, class Parse>
T parse_in_range(const std::string& v, T min, T max, Parse parse) {
  T x{};
  try {
    x = parse(v);
  } catch (const out_of_range&) {
    throw_out_of_range(v, std::to_string(min), std::to_string(max));
  }
  if (x < min || x > max) throw_out_of_range(v, std::to_string(min), std::to_string(max));
  return x;
}

}  // namespace

namespace values {

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) s += sep;
    s += v[i];
  }
  return s;
}

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// An empty item (",", "a,,b", "a,") is a mistake, not something to drop silently.
std::vector<std::string> parse_list(const std::string& s) {
  std::vector<std::string> out;
  if (s.find_first_not_of(' ') == std::string::npos) return out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = s.find(',', start);
    std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto first = item.find_first_not_of(' ');
    if (first == std::string::npos) throw std::invalid_argument("empty item in the list '" + s + "'");
    item = item.substr(first, item.find_last_not_of(' ') - first + 1);
    out.push_back(item);
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::int64_t parse_int(const std::string& v, std::int64_t min, std::int64_t max) {
  return parse_in_range<std::int64_t>(v, min, max, parse_integer<std::int64_t>);
}

std::uint64_t parse_uint(const std::string& v, std::uint64_t min, std::uint64_t max) {
  return parse_in_range<std::uint64_t>(v, min, max, parse_integer<std::uint64_t>);
}

std::uint64_t parse_count(const std::string& v, std::uint64_t min, std::uint64_t max) {
  return parse_in_range(v, min, max, [](const std::string& t) { return parse_scaled(t, false); });
}

std::uint64_t parse_size(const std::string& v, std::uint64_t min, std::uint64_t max) {
  return parse_in_range(v, min, max, [](const std::string& t) { return parse_scaled(t, true); });
}

double parse_real(const std::string& v, double min, double max) {
  double x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  std::ostringstream lo, hi;
  lo << min;
  hi << max;
  // from_chars reports a magnitude beyond double (1e999), or a nonzero one too close to zero (1e-999),
  // as out of range.
  if (ec == std::errc::result_out_of_range && p == v.data() + v.size()) {
    throw_out_of_range(v, lo.str(), hi.str());
  }
  if (ec != std::errc{} || p != v.data() + v.size() || v.empty() || !std::isfinite(x)) {
    throw std::invalid_argument("expected a number, got '" + v + "'");
  }
  if (!(x >= min && x <= max)) throw_out_of_range(v, lo.str(), hi.str());
  return x;
}

}  // namespace values

std::chrono::nanoseconds parse_duration(std::string_view text) {
  const std::string s(text);
  const std::string units = "(ns, us, ms, s, min, h)";
  if (s.empty()) throw std::invalid_argument("expected a duration such as 250ns, 10us or 16.384ms, got ''");
  if (s.size() > 1 && s[0] == '-' && (std::isdigit(static_cast<unsigned char>(s[1])) || s[1] == '.')) {
    throw std::invalid_argument("'" + s + "': negative durations are not allowed");
  }
  const decimal_text d = split_decimal(s);
  if (!d.has_digits()) {
    throw std::invalid_argument("expected a duration such as 250ns, 10us or 16.384ms, got '" + s + "'");
  }
  const std::string unit(d.unit);
  if (unit.empty()) {
    if (d.is_zero()) return std::chrono::nanoseconds(0);  // "0" needs no unit
    throw std::invalid_argument("'" + s + "' has no unit " + units + "; only 0 may be written without one");
  }
  if (std::isspace(static_cast<unsigned char>(unit[0]))) {
    throw std::invalid_argument("no space allowed between the number and its unit in '" + s + "'");
  }
  std::uint64_t scale = 0;
  if (unit == "ns")
    scale = 1;
  else if (unit == "us")
    scale = 1'000;
  else if (unit == "ms")
    scale = 1'000'000;
  else if (unit == "s")
    scale = 1'000'000'000;
  else if (unit == "min")
    scale = 60'000'000'000;
  else if (unit == "h")
    scale = 3'600'000'000'000;
  else
    throw std::invalid_argument("unknown duration unit '" + unit + "' in '" + s + "' " + units);
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::chrono::nanoseconds::rep>::max());
  std::uint64_t ns = 0;
  switch (scale_exact(d, scale, max, ns)) {
    case scaled::ok: return std::chrono::nanoseconds(static_cast<std::chrono::nanoseconds::rep>(ns));
    case scaled::not_whole: throw std::invalid_argument("'" + s + "' is finer than a nanosecond");
    case scaled::too_large: break;
  }
  throw std::invalid_argument("'" + s + "' is out of range: the largest duration is " + std::to_string(max) +
                              "ns (about 292 years)");
}

std::string format_duration(std::chrono::nanoseconds d) {
  std::int64_t ns = d.count();
  if (ns != 0 && ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns != 0 && ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  if (ns != 0 && ns % 1'000 == 0) return std::to_string(ns / 1'000) + "us";
  return std::to_string(ns) + "ns";
}

}  // namespace itch5::cli
