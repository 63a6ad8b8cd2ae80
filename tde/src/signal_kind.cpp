#include <itch5/tde/windows/signal_kind.hpp>

#include <stdexcept>
#include <string>

namespace itch5::tde {

std::string_view to_string(signal_kind s) noexcept {
  switch (s) {
    case signal_kind::events: return "events";
    case signal_kind::mid: return "mid";
    case signal_kind::bid: return "bid";
    case signal_kind::offer: return "offer";
    case signal_kind::bid_size: return "bid-size";
    case signal_kind::offer_size: return "offer-size";
  }
  return "?";
}

signal_kind parse_signal_kind(std::string_view text) {
  for (auto s : all_signal_kinds) {
    if (text == to_string(s)) return s;
  }
  throw std::invalid_argument("unknown signal '" + std::string(text) +
                              "' (expected events, mid, bid, offer, bid-size or offer-size)");
}

}  // namespace itch5::tde
