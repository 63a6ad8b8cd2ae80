#include "symbol_filter.hpp"

namespace itch5::inside {

std::string printable_symbol(const itch5::stock_symbol& s) {
  std::string out(s.str());
  if (out.empty()) return "?";
  for (char& c : out) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) c = '?';
  }
  return out;
}

std::string upper_case(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::unordered_set<std::string> symbol_set(const std::vector<std::string>& symbols) {
  std::unordered_set<std::string> out;
  for (const auto& s : symbols) out.insert(upper_case(s));
  return out;
}

}  // namespace itch5::inside
