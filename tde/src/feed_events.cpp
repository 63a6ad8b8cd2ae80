#include <itch5/tde/windows/feed_events.hpp>

#include <cstring>

namespace itch5::tde {

namespace {

// Symbols are 1 to 8 bytes: packed into an integer, they hash and compare without allocating.
std::uint64_t pack(std::string_view symbol) noexcept {
  std::uint64_t key = 0;
  std::memcpy(&key, symbol.data(), symbol.size() < 8 ? symbol.size() : 8);
  return key;
}

// The change of a quantity present before and after, 0 otherwise.
double change_if(bool before, bool after, std::int64_t from, std::int64_t to) noexcept {
  return before && after ? static_cast<double>(to - from) : 0.0;
}

}  // namespace

feed_events::feed_events(inside_reader& reader, const std::vector<std::string>& symbols)
    : reader_(reader), keep_all_(symbols.empty()) {
  for (const auto& s : symbols) {
    if (s.empty() || s.size() > 8) continue;  // cannot occur in a valid file
    if (index_.emplace(pack(s), states_.size()).second) states_.emplace_back(s);
  }
}

bool feed_events::peek() {
  if (has_pending_) return true;
  if (at_end_) return false;
  itch5::inside_line c;
  while (reader_.next(c)) {
    std::uint64_t key = pack(c.symbol);
    auto it = index_.find(key);
    if (it == index_.end()) {
      if (!keep_all_) continue;
      it = index_.emplace(key, states_.size()).first;
      states_.emplace_back(std::string(c.symbol));
    }
    symbol_state& st = states_[it->second];
    change_event& e = pending_;
    e.timestamp = c.timestamp;
    e.value.fill(0.0);
    e.value[static_cast<std::size_t>(signal_kind::events)] = 1.0;
    if (st.known) {
      const itch5::inside_line& p = st.last;
      auto set = [&e](signal_kind s, double v) { e.value[static_cast<std::size_t>(s)] = v; };
      bool both_before = p.has_bid() && p.has_offer(), both_after = c.has_bid() && c.has_offer();
      set(signal_kind::mid,
          both_before && both_after
              ? 0.5 * static_cast<double>((c.bid_price + c.offer_price) - (p.bid_price + p.offer_price))
              : 0.0);
      set(signal_kind::bid, change_if(p.has_bid(), c.has_bid(), p.bid_price, c.bid_price));
      set(signal_kind::offer, change_if(p.has_offer(), c.has_offer(), p.offer_price, c.offer_price));
      set(signal_kind::bid_size,
          static_cast<double>((c.has_bid() ? c.bid_qty : 0) - (p.has_bid() ? p.bid_qty : 0)));
      set(signal_kind::offer_size,
          static_cast<double>((c.has_offer() ? c.offer_qty : 0) - (p.has_offer() ? p.offer_qty : 0)));
    }
    st.last = c;
    st.last.symbol = {};
    st.known = true;
    pending_symbol_ = it->second;
    has_pending_ = true;
    return true;
  }
  at_end_ = true;
  return false;
}

std::optional<std::int64_t> feed_events::next_timestamp() {
  if (!peek()) return std::nullopt;
  return pending_.timestamp;
}

void feed_events::load_until(std::int64_t end) {
  while (peek() && pending_.timestamp < end) {
    symbol_state& st = states_[pending_symbol_];
    st.queue.push_back(pending_);
    if (!st.active) {
      st.active = true;
      active_.push_back(pending_symbol_);
    }
    has_pending_ = false;
  }
}

void feed_events::drop_before(std::int64_t start) {
  for (std::size_t i = 0; i < active_.size();) {
    symbol_state& st = states_[active_[i]];
    while (st.head < st.queue.size() && st.queue[st.head].timestamp < start) ++st.head;
    if (st.head == st.queue.size()) {
      st.queue.clear();  // keeps the capacity
      st.head = 0;
      st.active = false;
      active_[i] = active_.back();
      active_.pop_back();
      continue;
    }
    if (st.head >= 1024 && 2 * st.head >= st.queue.size()) {
      st.queue.erase(st.queue.begin(), st.queue.begin() + static_cast<std::ptrdiff_t>(st.head));
      st.head = 0;
    }
    ++i;
  }
}

const feed_events::symbol_state* feed_events::state(std::string_view symbol) const {
  if (symbol.empty() || symbol.size() > 8) return nullptr;
  auto it = index_.find(pack(symbol));
  return it == index_.end() ? nullptr : &states_[it->second];
}

std::span<const change_event> feed_events::events(std::string_view symbol) const {
  const symbol_state* st = state(symbol);
  if (st == nullptr) return {};
  return std::span<const change_event>(st->queue).subspan(st->head);
}

bool feed_events::seen(std::string_view symbol) const {
  const symbol_state* st = state(symbol);
  return st != nullptr && st->known;
}

std::vector<std::string_view> feed_events::active_symbols() const {
  std::vector<std::string_view> out;
  active_symbols(out);
  return out;
}

void feed_events::active_symbols(std::vector<std::string_view>& out, bool append) const {
  if (!append) out.clear();
  out.reserve(out.size() + active_.size());
  for (std::size_t i : active_) out.emplace_back(states_[i].name);
}

}  // namespace itch5::tde
