// An independent checker for generated ITCH streams, used by the generator tests.
//
// It decodes a stream with itch5::message_reader and replays it on the shared reference book of the tests
// (itch5_test/reference_book.hpp: std::unordered_map of orders, std::map of price levels per side and
// symbol), recording every violation of
// the stream contract: unknown or duplicate order references, references that do not increase, over-
// executions and cancels of the whole order, crossed books, timestamps that go backwards or pass 24 h,
// prices off the tick grid, messages for a locate no R message announced. Along the way it measures what
// the statistics tests need: counts per type and per locate, the distance of every book event from the
// inside (the definition of generator_stats.hpp, computed here from the reference book), gaps, and the
// live-order count over time. It shares no code with the generator.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/dispatch.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/tick.hpp>
#include <itch5_test/reference_book.hpp>

namespace synth_test {

// A byte_stream over bytes in memory.
class memory_stream final : public itch5::io::byte_stream {
 public:
  explicit memory_stream(std::span<const std::byte> data) : data_(data) {}
  std::size_t read(std::byte* dst, std::size_t n) override {
    n = std::min(n, data_.size() - pos_);
    std::memcpy(dst, data_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return pos_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return data_.size(); }

 private:
  std::span<const std::byte> data_;
  std::size_t pos_ = 0;
};

struct check_result {
  std::uint64_t messages = 0;
  std::uint64_t violations = 0;
  std::vector<std::string> first_violations;  // up to 20, with message numbers
  std::map<std::string, std::uint64_t> violations_by_kind;
  bool decode_error = false;
  std::string decode_error_text;

  std::array<std::uint64_t, 256> counts{};
  std::vector<std::uint64_t> per_locate;  // order-related messages (A F E C X D U P) per locate
  std::vector<std::uint32_t> depths;      // one per A/F/E/C/X/D/U, in stream order
  std::uint64_t gaps = 0;
  std::uint64_t gaps_under_300ns = 0;
  std::uint64_t gaps_over_1ms = 0;
  std::vector<std::uint64_t>
      live_after_trading_message;  // live orders sampled every `live_every` trading msgs
  std::uint64_t live_end = 0;
  std::uint64_t live_peak = 0;
  std::vector<char> system_events;  // event codes in order
  std::uint32_t directory_entries = 0;
  std::uint32_t sub_dollar_symbols = 0;  // symbols whose first add is priced below $1.00
  std::uint32_t symbols_with_adds = 0;
  std::uint32_t max_price_units = 0;
  std::size_t max_levels = 0;  // most price levels on one side of one book, at any time
};

class reference_checker {
 public:
  explicit reference_checker(std::uint64_t live_every = 10'000) : live_every_(live_every) {}

  check_result run(std::span<const std::byte> bytes) {
    itch5::message_reader reader(itch5::io::make_block_source(std::make_unique<memory_stream>(bytes),
                                                              itch5::io::block_options{1 << 20, false, 3}));
    std::span<const std::byte> msg;
    while (reader.next(msg) == itch5::read_status::message) {
      ++r_.messages;
      auto type = static_cast<unsigned char>(msg[0]);
      ++r_.counts[type];
      itch5::dispatch_unchecked(msg.data(), *this);
    }
    if (reader.status() == itch5::read_status::error) {
      r_.decode_error = true;
      r_.decode_error_text = reader.error().describe("generated stream");
    }
    r_.live_end = book_.live_orders();
    return std::move(r_);
  }

  // ---- message handlers ----------------------------------------------------------------------------------
  void operator()(const itch5::system_event& m) {
    on_header(m.header, false);
    r_.system_events.push_back(m.event_code);
  }
  void operator()(const itch5::stock_directory& m) {
    if (m.header.stock_locate != announced_.size()) {
      fail("locates out of order: R announces " + std::to_string(m.header.stock_locate) + ", expected " +
           std::to_string(announced_.size()));
    }
    if (announced_.size() <= m.header.stock_locate) announced_.resize(m.header.stock_locate + 1u, false);
    announced_[m.header.stock_locate] = true;
    locates_ = announced_.size();
    r_.per_locate.resize(announced_.size());
    first_add_seen_.resize(announced_.size(), false);
    ++r_.directory_entries;
    if (m.round_lot_size != 100) fail("round lot size is not 100");
    if (m.stock.str().empty() || m.stock.str().size() > 5) fail("symbol is not 1-5 characters");
    on_header(m.header, false);
  }
  void operator()(const itch5::stock_trading_action& m) { on_header(m.header, true); }
  void operator()(const itch5::reg_sho_restriction& m) { on_header(m.header, true); }
  void operator()(const itch5::market_participant_position& m) { on_header(m.header, true); }
  void operator()(const itch5::noii& m) { on_header(m.header, true); }
  void operator()(const itch5::trade& m) {
    on_header(m.header, true);
    count_locate(m.header);
    check_grid(m.price);
  }
  template <class M>
  void operator()(const M& m) {  // types the generator never writes
    on_header(m.header, m.header.stock_locate != 0);
    fail(std::string("unexpected message type ") + M::type);
  }

  void operator()(const itch5::add_order& m) { add(m.header, m.order_ref, m.side, m.shares, m.price); }
  void operator()(const itch5::add_order_mpid& m) { add(m.header, m.order_ref, m.side, m.shares, m.price); }

  void operator()(const itch5::order_executed& m) { reduce(m.header, m.order_ref, m.executed_shares, true); }
  void operator()(const itch5::order_executed_with_price& m) {
    reduce(m.header, m.order_ref, m.executed_shares, true);
    check_grid(m.execution_price);
  }
  void operator()(const itch5::order_cancel& m) { reduce(m.header, m.order_ref, m.cancelled_shares, false); }

  void operator()(const itch5::order_delete& m) {
    trading_message(m.header);
    const order* o = find(m.header, m.order_ref, "D");
    if (o == nullptr) return;
    r_.depths.push_back(depth_of(o->locate, o->side, o->price));
    book_.remove(m.order_ref);
  }

  void operator()(const itch5::order_replace& m) {
    trading_message(m.header);
    const order* found = find(m.header, m.original_order_ref, "U");
    if (found == nullptr) return;
    const order o = *found;
    if (!itch5::on_tick_grid(m.price)) fail("U price off the tick grid");
    if (m.shares == 0) fail("U with zero shares");
    r_.depths.push_back(depth_of(o.locate, o.side, m.price.units()));
    book_.remove(m.original_order_ref);
    new_order(m.header, m.new_order_ref, o.side, m.shares, m.price);
  }

 private:
  using order = itch5_test::reference_book::order;

  // `what` starts with the kind of violation, up to the first ':' if any.
  void fail(const std::string& what) {
    ++r_.violations;
    ++r_.violations_by_kind[what.substr(0, what.find(':'))];
    if (r_.first_violations.size() < 20) {
      r_.first_violations.push_back("message " + std::to_string(r_.messages) + ": " + what);
    }
  }

  void on_header(const itch5::message_header& h, bool needs_locate) {
    if (h.timestamp < last_ts_) fail("timestamp goes backwards");
    if (h.timestamp >= itch5::one_day) fail("timestamp at or past 24 h");
    if (r_.messages > 1) {
      ++r_.gaps;
      auto gap = h.timestamp - last_ts_;
      if (gap < std::chrono::nanoseconds(300)) ++r_.gaps_under_300ns;
      if (gap > std::chrono::milliseconds(1)) ++r_.gaps_over_1ms;
    }
    last_ts_ = h.timestamp;
    if (needs_locate && (h.stock_locate >= announced_.size() || !announced_[h.stock_locate])) {
      fail("locate before its R: " + std::to_string(h.stock_locate));
    }
  }

  void count_locate(const itch5::message_header& h) {
    if (h.stock_locate < r_.per_locate.size()) ++r_.per_locate[h.stock_locate];
  }

  void check_grid(itch5::price4 p) {
    if (!itch5::on_tick_grid(p) || p.units() == 0) fail("price off the tick grid or zero");
  }

  void trading_message(const itch5::message_header& h) {
    on_header(h, true);
    count_locate(h);
    if (++trading_seen_ % live_every_ == 0) r_.live_after_trading_message.push_back(book_.live_orders());
  }

  const order* find(const itch5::message_header& h, std::uint64_t ref, const char* what) {
    const order* o = book_.find(ref);
    if (o == nullptr) {
      fail("unknown order: " + std::string(what) + " refers to " + std::to_string(ref));
    } else if (o->locate != h.stock_locate) {
      fail("locate differs from its order's: " + std::string(what));
    }
    return o;
  }

  // Levels between `price` and the best price on `side` before the event; 0 when the side is empty or the
  // price is at or better than the best.
  std::uint32_t depth_of(std::uint16_t locate, char side, std::uint32_t price) const {
    const auto& b = book_.book(locate);
    if (side == 'B') {
      if (b.bids.empty()) return 0;
      std::uint32_t best = b.bids.begin()->first;
      return price >= best ? 0 : itch5::levels_between(itch5::price4(price), itch5::price4(best));
    }
    if (b.offers.empty()) return 0;
    std::uint32_t best = b.offers.begin()->first;
    return price <= best ? 0 : itch5::levels_between(itch5::price4(price), itch5::price4(best));
  }

  void add(const itch5::message_header& h, std::uint64_t ref, char side, std::uint32_t shares,
           itch5::price4 p) {
    trading_message(h);
    if (side != 'B' && side != 'S') {
      fail("side is neither B nor S");
      return;
    }
    if (shares == 0) fail("add with zero shares");
    if (!itch5::on_tick_grid(p) || p.units() == 0) fail("add price off the tick grid or zero");
    if (h.stock_locate < locates_) {
      if (!first_add_seen_[h.stock_locate]) {
        first_add_seen_[h.stock_locate] = true;
        ++r_.symbols_with_adds;
        if (p.units() < itch5::one_dollar) ++r_.sub_dollar_symbols;
      }
      r_.depths.push_back(depth_of(h.stock_locate, side, p.units()));
    }
    new_order(h, ref, side, shares, p);
  }

  void new_order(const itch5::message_header& h, std::uint64_t ref, char side, std::uint32_t shares,
                 itch5::price4 p) {
    if (ref <= last_ref_) fail("reference does not increase: " + std::to_string(ref));
    last_ref_ = std::max(last_ref_, ref);
    if (h.stock_locate >= locates_) return;
    if (!book_.add(ref, order{h.stock_locate, side, p.units(), shares})) {
      fail("duplicate reference: " + std::to_string(ref));
      return;
    }
    const auto& b = book_.book(h.stock_locate);
    r_.max_price_units = std::max(r_.max_price_units, p.units());
    r_.max_levels = std::max({r_.max_levels, b.bids.size(), b.offers.size()});
    r_.live_peak = std::max<std::uint64_t>(r_.live_peak, book_.live_orders());
    if (!b.bids.empty() && !b.offers.empty() && b.bids.begin()->first >= b.offers.begin()->first) {
      fail("crossed or locked book: locate " + std::to_string(h.stock_locate));
    }
  }

  void reduce(const itch5::message_header& h, std::uint64_t ref, std::uint32_t shares, bool execution) {
    trading_message(h);
    const order* found = find(h, ref, execution ? "E/C" : "X");
    if (found == nullptr) return;
    const order& o = *found;
    r_.depths.push_back(depth_of(o.locate, o.side, o.price));
    if (shares == 0) fail("execution or cancel of zero shares");
    if (execution ? shares > o.shares : shares >= o.shares) {
      fail(std::string(execution ? "over-execution" : "cancel of the whole order or more") + ": order " +
           std::to_string(ref));
    }
    book_.reduce(ref, shares);  // removes the order when nothing is left
  }

  check_result r_;
  std::uint64_t live_every_;
  std::uint64_t trading_seen_ = 0;
  std::vector<bool> announced_ = std::vector<bool>(1, false);  // locate 0 is never announced
  std::vector<bool> first_add_seen_;
  std::size_t locates_ = 0;  // orders are tracked for locates below this (announced_.size() after an R)
  itch5_test::reference_book book_;
  std::uint64_t last_ref_ = 0;
  itch5::timestamp last_ts_{0};
};

/// The q-quantile of `values` (the smallest v with at least q of the values <= v).
inline std::uint32_t quantile(std::vector<std::uint32_t> values, double q) {
  if (values.empty()) return 0;
  auto k = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
  k = std::clamp<std::size_t>(k, 1, values.size()) - 1;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

}  // namespace synth_test
