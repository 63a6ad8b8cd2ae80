#include <itch5/inside_line.hpp>

#include <array>
#include <charconv>

namespace itch5 {

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

std::string_view parse_fields(std::string_view line, inside_line& out) noexcept {
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
bool parse_plain(std::string_view line, inside_line& out) noexcept {
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

bool looks_binary(std::string_view text) noexcept {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t' && c != '\r') || u == 0x7f) return true;
  }
  return false;
}

std::string_view parse_inside_line(std::string_view text, inside_line& out) noexcept {
  if (parse_plain(text, out)) return {};
  std::string_view reason = parse_fields(text, out);
  if (!reason.empty() && looks_binary(text)) return inside_line_binary_reason;  // looked for only on failure
  return reason;
}

}  // namespace itch5
