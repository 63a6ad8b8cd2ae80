#include <itch5/tde/inside_reader.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <unordered_set>

namespace itch5::tde {

namespace {

constexpr std::size_t field_count = 7;

// Reasons by field, static so parse_inside_line() can return views of them.
constexpr std::array<std::string_view, field_count> bad_field = {
    "timestamp: expected a non-negative integer (nanoseconds since midnight)",
    "stock locate: expected an integer from 0 to 65535",
    "symbol: expected 1 to 8 characters",
    "bid px: expected a non-negative integer (Price(4) units)",
    "bid qty: expected a non-negative integer",
    "offer px: expected a non-negative integer (Price(4) units)",
    "offer qty: expected a non-negative integer",
};

bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

bool parse_count(std::string_view s, std::int64_t& out) noexcept {
  if (s.empty() || s[0] < '0' || s[0] > '9') return false;  // no sign
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// Control bytes other than tab and carriage return do not occur in text: the input is binary (an ITCH
// file given by mistake, a compressed format other than gzip).
bool looks_binary(std::string_view line) noexcept {
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\r') || u == 0x7f) return true;
  }
  return false;
}

constexpr std::string_view binary_reason =
    "binary data, not an inside-change line (an ITCH file? itch5inside turns one into inside changes)";

std::string_view long_line_reason(std::string_view line) noexcept {
  return looks_binary(line.substr(0, inside_reader::max_line + 1)) ? binary_reason
                                                                   : "line longer than 4096 bytes";
}

std::string_view parse_fields(std::string_view line, inside_change& out) noexcept {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  std::array<std::string_view, field_count> f;
  std::size_t n = 0, i = 0;
  while (true) {
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i == line.size()) break;
    std::size_t start = i;
    while (i < line.size() && !is_blank(line[i])) ++i;
    if (n == field_count) {
      return "more than 7 fields (expected: timestamp locate symbol bid-px bid-qty offer-px offer-qty)";
    }
    f[n++] = line.substr(start, i - start);
  }
  if (n < field_count) {
    return "fewer than 7 fields (expected: timestamp locate symbol bid-px bid-qty offer-px offer-qty)";
  }

  std::int64_t v[field_count] = {};
  for (std::size_t k = 0; k < field_count; ++k) {
    if (k == 2) continue;
    if (!parse_count(f[k], v[k])) return bad_field[k];
  }
  if (v[1] > 65535) return bad_field[1];
  if (f[2].size() > 8) return bad_field[2];
  out.timestamp = v[0];
  out.locate = static_cast<std::uint16_t>(v[1]);
  out.symbol = f[2];
  out.bid_price = v[3];
  out.bid_qty = v[4];
  out.offer_price = v[5];
  out.offer_qty = v[6];
  return {};
}

// The common case in one pass: seven fields, numbers of at most 18 digits, a symbol of 1 to 8 characters.
// False for anything else, which parse_fields() then parses again to say what is wrong (or to accept a
// number of 19 digits); `out` is written only on success.
bool parse_plain(std::string_view line, inside_change& out) noexcept {
  const char* p = line.data();
  const char* e = p + line.size();
  if (p != e && e[-1] == '\r') --e;
  auto skip = [&] {
    while (p != e && is_blank(*p)) ++p;
  };
  auto number = [&](std::int64_t& v) {
    skip();
    const char* start = p;
    std::uint64_t x = 0;
    while (p != e && static_cast<unsigned>(*p - '0') <= 9) x = x * 10 + static_cast<unsigned>(*p++ - '0');
    v = static_cast<std::int64_t>(x);
    return p != start && p - start <= 18 && (p == e || is_blank(*p));
  };
  std::int64_t t = 0, locate = 0, bid = 0, bid_qty = 0, offer = 0, offer_qty = 0;
  if (!number(t) || !number(locate) || locate > 65535) return false;
  skip();
  const char* symbol = p;
  while (p != e && !is_blank(*p)) ++p;
  const auto symbol_size = static_cast<std::size_t>(p - symbol);
  if (symbol_size == 0 || symbol_size > 8) return false;
  if (!number(bid) || !number(bid_qty) || !number(offer) || !number(offer_qty)) return false;
  skip();
  if (p != e) return false;
  out.timestamp = t;
  out.locate = static_cast<std::uint16_t>(locate);
  out.symbol = std::string_view(symbol, symbol_size);
  out.bid_price = bid;
  out.bid_qty = bid_qty;
  out.offer_price = offer;
  out.offer_qty = offer_qty;
  return true;
}

}  // namespace

std::string_view parse_inside_line(std::string_view line, inside_change& out) noexcept {
  if (parse_plain(line, out)) return {};
  std::string_view reason = parse_fields(line, out);
  if (!reason.empty() && looks_binary(line)) return binary_reason;  // looked for only on failure: no cost
  return reason;
}

inside_format_error::inside_format_error(const std::string& file, std::uint64_t line, std::string_view reason)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + std::string(reason)),
      file_(file),
      line_(line) {}

inside_reader::inside_reader(const std::string& path) : inside_reader(itch5::io::open_input(path), path) {}

inside_reader::inside_reader(std::unique_ptr<itch5::io::byte_stream> stream, std::string name)
    : stream_(std::move(stream)), name_(std::move(name)), buf_(std::size_t{1} << 20) {}

bool inside_reader::next_line(std::string_view& line) {
  while (true) {
    if (begin_ < end_) {
      const void* nl = std::memchr(buf_.data() + begin_, '\n', end_ - begin_);
      if (nl != nullptr) {
        auto stop = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
        line = std::string_view(buf_.data() + begin_, stop - begin_);
        begin_ = stop + 1;
        ++line_;
        if (line.size() > max_line) throw inside_format_error(name_, line_, long_line_reason(line));
        return true;
      }
    }
    if (eof_) {
      if (begin_ == end_) return false;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);  // last line without a newline
      begin_ = end_;
      ++line_;
      return true;
    }
    // Keep the partial line, then fill the rest of the buffer.
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ > max_line) {
      ++line_;  // the line being read, as line_number() reports it
      throw inside_format_error(name_, line_, long_line_reason({buf_.data(), end_}));
    }
    std::size_t got = stream_->read(reinterpret_cast<std::byte*>(buf_.data() + end_), buf_.size() - end_);
    if (got == 0) eof_ = true;
    end_ += got;
  }
}

bool inside_reader::next(inside_change& out) {
  if (looked_ahead_) {
    looked_ahead_ = false;
    out = ahead_;
    return ahead_valid_;
  }
  return read_change(out);
}

bool inside_reader::at_end() {
  if (!looked_ahead_) {
    ahead_valid_ = read_change(ahead_);
    looked_ahead_ = true;
  }
  return !ahead_valid_;
}

bool inside_reader::read_change(inside_change& out) {
  std::string_view line;
  while (next_line(line)) {
    std::size_t i = 0;
    while (i < line.size() && (is_blank(line[i]) || line[i] == '\r')) ++i;
    if (i == line.size() || line[i] == '#') continue;
    std::string_view reason = parse_inside_line(line, out);
    if (!reason.empty()) throw inside_format_error(name_, line_, reason);
    if (out.timestamp < last_timestamp_) {
      throw inside_format_error(
          name_, line_,
          "timestamp " + std::to_string(out.timestamp) + " is earlier than the previous line's " +
              std::to_string(last_timestamp_) + " (inside-change files are sorted by time)");
    }
    last_timestamp_ = out.timestamp;
    ++changes_;
    return true;
  }
  return false;
}

std::vector<std::string> absent_symbols(inside_reader& reader, const std::vector<std::string>& symbols) {
  std::unordered_set<std::string_view> pending(symbols.begin(), symbols.end());
  inside_change c;
  while (!pending.empty() && reader.next(c)) pending.erase(c.symbol);
  std::vector<std::string> absent;
  for (const auto& s : symbols) {
    if (pending.contains(s) && std::find(absent.begin(), absent.end(), s) == absent.end()) absent.push_back(s);
  }
  return absent;
}

std::string absent_symbols_text(const std::vector<std::string>& symbols, const std::string& file) {
  if (symbols.empty()) return {};
  std::string text;
  for (const auto& s : symbols) text += (text.empty() ? "" : ", ") + s;
  return text + (symbols.size() == 1 ? " does not appear in " : " do not appear in ") + file;
}

}  // namespace itch5::tde
