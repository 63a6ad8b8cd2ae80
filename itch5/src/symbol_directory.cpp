#include <itch5/symbol_directory.hpp>

#include <algorithm>

#include <itch5/messages.hpp>
#include <itch5/peek.hpp>

namespace itch5 {

symbol_directory::symbol_directory(const std::vector<std::string>& chosen) : all_(chosen.empty()) {
  for (const auto& sym : chosen) {
    std::string upper;
    for (char c : sym) upper.push_back(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
    if (std::find(chosen_.begin(), chosen_.end(), upper) == chosen_.end()) chosen_.push_back(upper);
  }
  found_.assign(chosen_.size(), false);
}

bool symbol_directory::observe(std::span<const std::byte> msg) {
  const std::uint16_t locate = peek_stock_locate(msg);
  if (peek_type(msg) == stock_directory::type) {
    const auto directory = decode<stock_directory>(msg.data());
    learn(locate, directory.stock.str());
  }
  return selected(locate);
}

bool symbol_directory::learn(std::uint16_t locate, std::string_view symbol) {
  symbols_[locate] = stock_symbol::from(symbol);
  for (std::size_t i = 0; i < chosen_.size(); ++i) {
    if (chosen_[i] == symbol) {
      found_[i] = true;
      selected_.set(locate);
    }
  }
  return selected(locate);
}

std::string_view symbol_directory::symbol(std::uint16_t locate) const noexcept {
  const auto it = symbols_.find(locate);
  return it != symbols_.end() ? it->second.str() : std::string_view{};
}

std::vector<std::string> symbol_directory::not_found() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < chosen_.size(); ++i) {
    if (!found_[i]) out.push_back(chosen_[i]);
  }
  return out;
}

}  // namespace itch5
