#include <cli/options.hpp>

#include <yaml-cpp/anchor.h>
#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include <cli/build_info.hpp>

namespace cli {
namespace {

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

// A comma-separated list given by the user: items trimmed of surrounding spaces; an empty item (",", "a,,b",
// "a,") is a mistake, not something to drop silently. The empty string is the empty list.
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

// A well-formed number that the target type, or the option's range, cannot hold. Caught by the option
// setters, which restate it with the allowed range.
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
  std::uint64_t mult = 1;
  if (binary) {
    if (unit.empty() || unit == "B") mult = 1;
    else if (unit == "K" || unit == "KiB" || unit == "k") mult = std::uint64_t{1} << 10;
    else if (unit == "M" || unit == "MiB") mult = std::uint64_t{1} << 20;
    else if (unit == "G" || unit == "GiB") mult = std::uint64_t{1} << 30;
    else throw std::invalid_argument("unknown size unit '" + unit + "' in '" + s + "' (use KiB, MiB, GiB)");
  } else {
    if (unit.empty()) mult = 1;
    else if (unit == "k" || unit == "K") mult = 1'000;
    else if (unit == "M") mult = 1'000'000;
    else if (unit == "G") mult = 1'000'000'000;
    else throw std::invalid_argument("unknown suffix '" + unit + "' in '" + s + "' (use k, M, G)");
  }
  std::uint64_t v = 0;
  switch (scale_exact(d, mult, std::numeric_limits<std::uint64_t>::max(), v)) {
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

// The text of the --config file `path`; throws naming the path when it is a directory or unreadable
// (an ifstream opens a directory and reads nothing, which would look like an empty configuration).
std::string read_config_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw std::invalid_argument("--config: '" + path + "' is a directory, not a YAML file");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw std::invalid_argument("--config: cannot read '" + path + "'" +
                                (err != 0 ? ": " + std::string(std::strerror(err)) : std::string()));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::invalid_argument("--config: error while reading '" + path + "'");
  return text.str();
}

// Wraps `text` to `width` columns, indenting continuation lines by `indent`.
std::string wrap(const std::string& text, std::size_t indent, std::size_t width) {
  std::string out, line;
  std::istringstream words(text);
  std::string w;
  std::size_t col = indent;
  bool first = true;
  while (words >> w) {
    if (!first && col + 1 + w.size() > width) {
      out += '\n' + std::string(indent, ' ');
      col = indent;
      first = true;
    }
    if (!first) {
      out += ' ';
      ++col;
    }
    out += w;
    col += w.size();
    first = false;
  }
  return out;
}

}  // namespace

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
  if (unit == "ns") scale = 1;
  else if (unit == "us") scale = 1'000;
  else if (unit == "ms") scale = 1'000'000;
  else if (unit == "s") scale = 1'000'000'000;
  else if (unit == "min") scale = 60'000'000'000;
  else if (unit == "h") scale = 3'600'000'000'000;
  else throw std::invalid_argument("unknown duration unit '" + unit + "' in '" + s + "' " + units);
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

options::option& options::option::choices(std::vector<std::string> a) {
  allowed = std::move(a);
  return *this;
}
options::option& options::option::alias(char c) {
  short_name = c;
  return *this;
}
options::option& options::option::value_name(std::string name) {
  value_name_ = std::move(name);
  return *this;
}

options::options(std::string program, std::string usage, std::string description)
    : program_(std::move(program)), usage_(std::move(usage)), description_(std::move(description)) {}

options::option& options::add_option(std::string key, std::string help, std::string value_name) {
  auto o = std::make_unique<option>();
  o->key = std::move(key);
  o->help = std::move(help);
  o->value_name_ = std::move(value_name);
  options_.push_back(std::move(o));
  return *options_.back();
}

options::option& options::add(std::string key, std::string& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "STR");
  o.set = [&target](const std::string& v) { target = v; };
  o.get = [&target] { return target; };
  return o;
}

options::option& options::add(std::string key, bool& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "");
  o.is_flag = true;
  o.set = [&target](const std::string& v) {
    if (v == "true" || v == "yes" || v == "on" || v == "1") target = true;
    else if (v == "false" || v == "no" || v == "off" || v == "0") target = false;
    else throw std::invalid_argument("expected true or false, got '" + v + "'");
  };
  o.get = [&target] { return std::string(target ? "true" : "false"); };
  o.get_bool = [&target] { return target; };
  return o;
}

options::option& options::add(std::string key, std::int64_t& target, std::string help, std::int64_t min,
                              std::int64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "N");
  o.set = [&target, min, max](const std::string& v) {
    target = parse_in_range<std::int64_t>(v, min, max, parse_integer<std::int64_t>);
  };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

options::option& options::add(std::string key, std::uint64_t& target, std::string help, std::uint64_t min,
                              std::uint64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "N");
  o.set = [&target, min, max](const std::string& v) {
    target = parse_in_range<std::uint64_t>(v, min, max, parse_integer<std::uint64_t>);
  };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

options::option& options::add(std::string key, double& target, std::string help, double min, double max) {
  auto& o = add_option(std::move(key), std::move(help), "X");
  o.set = [&target, min, max](const std::string& v) {
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
    target = x;
  };
  o.get = [&target] {
    std::ostringstream s;
    s << target;
    return s.str();
  };
  return o;
}

options::option& options::add(std::string key, std::vector<std::string>& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "A,B,...");
  o.is_list = true;
  o.set = [&target](const std::string& v) { target = parse_list(v); };
  o.get = [&target] { return join(target, ","); };
  return o;
}

options::option& options::add(std::string key, std::chrono::nanoseconds& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "DURATION");
  o.set = [&target](const std::string& v) { target = parse_duration(v); };
  o.get = [&target] { return format_duration(target); };
  return o;
}

options::option& options::add_count(std::string key, std::uint64_t& target, std::string help,
                                    std::uint64_t min, std::uint64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "N");
  o.set = [&target, min, max](const std::string& v) {
    target = parse_in_range(v, min, max, [](const std::string& t) { return parse_scaled(t, false); });
  };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

options::option& options::add_size(std::string key, std::uint64_t& target, std::string help,
                                   std::uint64_t min, std::uint64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "BYTES");
  o.set = [&target, min, max](const std::string& v) {
    target = parse_in_range(v, min, max, [](const std::string& t) { return parse_scaled(t, true); });
  };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

void options::positional(std::string name, std::string& target, std::string help, bool required) {
  positionals_.push_back({std::move(name), std::move(help), &target, required});
}

void options::epilog(std::string text) { epilog_ = std::move(text); }

options::option* options::find(std::string_view key) {
  for (auto& o : options_) {
    if (o->key == key) return o.get();
  }
  return nullptr;
}

options::option* options::find_short(char c) {
  for (auto& o : options_) {
    if (o->short_name == c) return o.get();
  }
  return nullptr;
}

void options::set_from(option& o, const std::string& value, const std::string& origin) {
  if (!o.allowed.empty() && std::find(o.allowed.begin(), o.allowed.end(), value) == o.allowed.end()) {
    throw std::invalid_argument(origin + ": expected one of " + join(o.allowed, ", ") + ", got '" + value +
                                "'");
  }
  try {
    o.set(value);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(origin + ": " + e.what());
  }
}

namespace {

// Counts the documents of a YAML stream without building them; the events are not needed.
class document_counter final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

  YAML::Mark start;
};

// The number of documents in `yaml_text`. yaml-cpp 0.7's LoadAll never returns on some invalid streams (a
// ',' where a node should start, e.g. ",A" or "[a]\n,"; found by fuzz_options): its parser reports an
// empty document forever (jbeder/yaml-cpp#1040, fixed upstream in #1319, not in Debian's 0.7). Documents
// are counted here with a bound instead: each needs at least one byte of the text.
std::size_t count_documents(const std::string& yaml_text, const std::string& origin) {
  std::istringstream in(yaml_text);
  YAML::Parser parser(in);
  document_counter counter;
  std::size_t documents = 0;
  while (parser.HandleNextDocument(counter)) {
    if (++documents > yaml_text.size() + 1) {
      throw std::invalid_argument(origin + ": not valid YAML: error at line " +
                                  std::to_string(counter.start.line + 1) + ", column " +
                                  std::to_string(counter.start.column + 1) + ": a ',' outside a [ ] or { } list");
    }
  }
  return documents;
}

}  // namespace

void options::apply_yaml(const std::string& yaml_text, const std::string& origin) {
  YAML::Node root;
  try {
    // YAML::Load alone would read the first document and ignore the others.
    const std::size_t documents = count_documents(yaml_text, origin);
    if (documents > 1) {
      throw std::invalid_argument(origin + ": holds " + std::to_string(documents) +
                                  " YAML documents (separated by ---); expected one");
    }
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(origin + ": not valid YAML: " + e.what());
  }
  if (!root || root.IsNull()) return;
  if (!root.IsMap()) throw std::invalid_argument(origin + ": expected a mapping of option names to values");
  // Keys first: yaml-cpp keeps every entry of a repeated key, and one of them would silently win.
  std::vector<std::pair<std::string, int>> seen;  // key, line (from 1)
  for (const auto& kv : root) {
    const int line = kv.first.Mark().line + 1;
    if (!kv.first.IsScalar()) {
      throw std::invalid_argument(origin + ": line " + std::to_string(line) +
                                  ": expected an option name as the key, got a " +
                                  (kv.first.IsMap() ? "mapping" : kv.first.IsSequence() ? "list" : "null"));
    }
    std::string key = kv.first.as<std::string>();
    for (const auto& [k, first_line] : seen) {
      if (k == key) {
        throw std::invalid_argument(origin + ": key '" + key + "' is repeated (lines " +
                                    std::to_string(first_line) + " and " + std::to_string(line) + ")");
      }
    }
    seen.emplace_back(std::move(key), line);
  }
  for (const auto& kv : root) {
    std::string key = kv.first.as<std::string>();
    option* o = find(key);
    std::string where = origin + ": key '" + key + "'";
    if (o == nullptr) throw std::invalid_argument(where + ": unknown option (see --help)");
    const YAML::Node& v = kv.second;
    std::string text;
    if (v.IsSequence()) {
      if (!o->is_list) throw std::invalid_argument(where + ": expected a single value, got a list");
      std::vector<std::string> items;
      for (const auto& item : v) {
        if (!item.IsScalar()) throw std::invalid_argument(where + ": list items must be scalars");
        items.push_back(item.as<std::string>());
      }
      text = join(items, ",");
    } else if (v.IsScalar()) {
      text = v.as<std::string>();
    } else if (v.IsNull()) {
      throw std::invalid_argument(where + ": has no value");
    } else {
      throw std::invalid_argument(where + ": expected a scalar value");
    }
    set_from(*o, text, where);
  }
}

std::optional<int> options::parse(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool print_config = false;
  try {
    // --config first, so flags override the file wherever they appear.
    for (std::size_t i = 0; i < args.size(); ++i) {
      std::string file;
      if (args[i] == "--config") {
        if (i + 1 >= args.size()) throw std::invalid_argument("--config: missing FILE");
        file = args[i + 1];
      } else if (args[i].rfind("--config=", 0) == 0) {
        file = args[i].substr(9);
      } else if (args[i] == "--") {
        break;
      } else {
        continue;
      }
      config_files_.push_back(file);
      apply_yaml(read_config_file(file), "config file " + file);
    }
    std::size_t next_positional = 0;
    bool only_positionals = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      auto take_positional = [&](const std::string& v) {
        if (next_positional >= positionals_.size()) throw std::invalid_argument("unexpected argument '" + v + "'");
        *positionals_[next_positional++].target = v;
      };
      if (only_positionals || a == "-" || a.empty() || a[0] != '-') {
        take_positional(a);
        continue;
      }
      if (a == "--") {
        only_positionals = true;
        continue;
      }
      if (a == "--help" || a == "-h") {
        std::cout << help_text();
        return 0;
      }
      if (a == "--version") {
        std::cout << build_info::current().version_text(program_);
        return 0;
      }
      if (a == "--print-config") {
        print_config = true;
        continue;
      }
      if (a == "--config") {
        ++i;
        continue;
      }
      if (a.rfind("--config=", 0) == 0) continue;
      option* o = nullptr;
      std::string name, value;
      bool has_value = false;
      if (a.rfind("--", 0) == 0) {
        name = a.substr(2);
        if (auto eq = name.find('='); eq != std::string::npos) {
          value = name.substr(eq + 1);
          name = name.substr(0, eq);
          has_value = true;
        }
        o = find(name);
        if (o == nullptr && name.rfind("no-", 0) == 0) {
          option* neg = find(name.substr(3));
          if (neg != nullptr && neg->is_flag && !has_value) {
            neg->set("false");
            continue;
          }
        }
        name = "--" + name;
      } else if (a.size() == 2) {
        o = find_short(a[1]);
        name = a;
      }
      if (o == nullptr) throw std::invalid_argument("unknown option '" + a + "' (see --help)");
      if (o->is_flag) {
        set_from(*o, has_value ? value : "true", name);
        continue;
      }
      if (!has_value) {
        if (i + 1 >= args.size()) throw std::invalid_argument(name + ": missing value");
        value = args[++i];
        // `--output --quiet` is a forgotten value, not a file named --quiet.
        if (value.rfind("--", 0) == 0 && value.size() > 2) {
          const std::string key = value.substr(2, value.find('=') - 2);
          if (find(key) != nullptr || key == "help" || key == "config" || key == "print-config" ||
              key == "version" || (key.rfind("no-", 0) == 0 && find(key.substr(3)) != nullptr)) {
            throw std::invalid_argument(name + ": missing value (the next argument, '" + value +
                                        "', is an option; write --" + o->key + "=" + value + " for a value that looks like one)");
          }
        }
      }
      set_from(*o, value, name);
    }
    if (!print_config) {
      for (std::size_t k = next_positional; k < positionals_.size(); ++k) {
        if (positionals_[k].required) {
          throw std::invalid_argument("missing " + positionals_[k].name + " (see --help)");
        }
      }
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << program_ << ": error: " << e.what() << "\n";
    return 2;
  }
  if (print_config) {
    std::cout << to_yaml();
    return 0;
  }
  return std::nullopt;
}

std::string options::to_yaml() const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const auto& o : options_) {
    out << YAML::Key << o->key << YAML::Value;
    if (o->is_list) {
      out << YAML::Flow << YAML::BeginSeq;
      for (const auto& item : split_list(o->get())) out << item;
      out << YAML::EndSeq;
    } else if (o->is_flag) {
      out << o->get_bool();
    } else {
      out << o->get();
    }
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string options::help_text() const {
  std::ostringstream s;
  s << "Usage: " << program_ << " " << usage_ << "\n\n" << wrap(description_, 0, 100) << "\n";
  if (!positionals_.empty()) {
    s << "\nArguments:\n";
    for (const auto& p : positionals_) s << "  " << p.name << "\n      " << wrap(p.help, 6, 100) << "\n";
  }
  s << "\nOptions (each also a key of the YAML file given to --config; flags override the file):\n";
  for (const auto& o : options_) {
    s << "  ";
    if (o->short_name) s << "-" << o->short_name << ", ";
    s << "--" << o->key;
    if (o->is_flag) {
      s << ", --no-" << o->key;
    } else {
      s << " " << o->value_name_;
    }
    std::string help = o->help;
    if (!o->allowed.empty()) help += " One of: " + join(o->allowed, ", ") + ".";
    std::string def = o->get();
    help += " Default: " + (def.empty() ? std::string("(none)") : def) + ".";
    s << "\n      " << wrap(help, 6, 100) << "\n";
  }
  s << "  --config FILE\n      Read options from a YAML file (keys as above).\n"
    << "  --print-config\n      Print the effective configuration as YAML and exit.\n"
    << "  -h, --help\n      Print this help and exit.\n"
    << "  --version\n      Print the version, git commit, compiler and build options, and exit.\n";
  if (!epilog_.empty()) s << "\n" << epilog_;
  if (epilog_.empty() || epilog_.back() != '\n') s << "\n";
  return s.str();
}

}  // namespace cli
