// A deliberately simple reference for the book engine: an unordered_map of orders, a std::map per book
// side, the inside recomputed from the maps after every applied message, and lines formatted with
// std::to_string. It applies the engine's documented rules for inconsistent input (book/anomaly_counts.hpp)
// so that streams with anomalies can be compared too. Shares no code with book/ beyond the decoder.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include <itch5/dispatch.hpp>
#include <itch5/message_reader.hpp>

namespace naive {

class reference {
 public:
  void operator()(const itch5::stock_directory& m) { books_[m.header.stock_locate].symbol = std::string(m.stock.str()); }
  void operator()(const itch5::add_order& m) { add(m.header, m.order_ref, m.side, m.shares, m.price.units(), m.stock); }
  void operator()(const itch5::add_order_mpid& m) { add(m.header, m.order_ref, m.side, m.shares, m.price.units(), m.stock); }
  void operator()(const itch5::order_executed& m) { reduce(m.header, m.order_ref, m.executed_shares); }
  void operator()(const itch5::order_executed_with_price& m) { reduce(m.header, m.order_ref, m.executed_shares); }
  void operator()(const itch5::order_cancel& m) { reduce(m.header, m.order_ref, m.cancelled_shares); }
  void operator()(const itch5::order_delete& m) {
    auto it = orders_.find(m.order_ref);
    if (it == orders_.end()) return;
    order o = it->second;
    orders_.erase(it);
    take(o, o.shares);
    emit(m.header, o.locate);
  }
  void operator()(const itch5::order_replace& m) {
    auto it = orders_.find(m.original_order_ref);
    if (it == orders_.end()) return;
    order o = it->second;
    orders_.erase(it);
    take(o, o.shares);
    if (m.shares != 0 && valid(m.price.units()) && orders_.count(m.new_order_ref) == 0) {
      order n{o.locate, o.buy, m.shares, m.price.units()};
      orders_[m.new_order_ref] = n;
      put(n);
    }
    emit(m.header, o.locate);
  }

  [[nodiscard]] const std::string& output() const { return out_; }

 private:
  struct order {
    std::uint16_t locate;
    bool buy;
    std::uint32_t shares;
    std::uint32_t price;
  };
  struct book {
    std::map<std::uint32_t, std::uint64_t, std::greater<>> bids;
    std::map<std::uint32_t, std::uint64_t> offers;
    std::string symbol;
    std::tuple<std::uint32_t, std::uint64_t, std::uint32_t, std::uint64_t> last{0, 0, 2000000000, 0};
  };

  static bool valid(std::uint32_t price) { return price != 0 && price <= 2000000000u; }

  void add(const itch5::message_header& h, std::uint64_t ref, char side, std::uint32_t shares, std::uint32_t price,
           const itch5::stock_symbol& stock) {
    if ((side != 'B' && side != 'S') || shares == 0 || !valid(price)) return;
    book& b = books_[h.stock_locate];
    if (b.symbol.empty()) b.symbol = std::string(stock.str());
    if (orders_.count(ref)) return;
    order o{h.stock_locate, side == 'B', shares, price};
    orders_[ref] = o;
    put(o);
    emit(h, o.locate);
  }

  void reduce(const itch5::message_header& h, std::uint64_t ref, std::uint32_t shares) {
    auto it = orders_.find(ref);
    if (it == orders_.end() || shares == 0) return;
    order& o = it->second;
    std::uint32_t n = std::min(shares, o.shares);
    take(o, n);
    o.shares -= n;
    std::uint16_t locate = o.locate;
    if (o.shares == 0) orders_.erase(it);
    emit(h, locate);
  }

  void put(const order& o) {
    book& b = books_[o.locate];
    if (o.buy) b.bids[o.price] += o.shares;
    else b.offers[o.price] += o.shares;
  }

  void take(const order& o, std::uint32_t n) {
    book& b = books_[o.locate];
    if (o.buy) {
      if ((b.bids[o.price] -= n) == 0) b.bids.erase(o.price);
    } else {
      if ((b.offers[o.price] -= n) == 0) b.offers.erase(o.price);
    }
  }

  void emit(const itch5::message_header& h, std::uint16_t locate) {
    book& b = books_[locate];
    auto now = std::make_tuple(b.bids.empty() ? 0u : b.bids.begin()->first, b.bids.empty() ? 0u : b.bids.begin()->second,
                               b.offers.empty() ? 2000000000u : b.offers.begin()->first,
                               b.offers.empty() ? 0u : b.offers.begin()->second);
    if (now == b.last) return;
    b.last = now;
    out_ += std::to_string(h.timestamp.count()) + " " + std::to_string(locate) + " " + b.symbol + " " +
            std::to_string(std::get<0>(now)) + " " + std::to_string(std::get<1>(now)) + " " +
            std::to_string(std::get<2>(now)) + " " + std::to_string(std::get<3>(now)) + "\n";
  }

  std::unordered_map<std::uint64_t, order> orders_;
  std::unordered_map<std::uint16_t, book> books_;
  std::string out_;
};

/// Runs the reference over a whole BinaryFILE stream held in memory.
inline std::string run(std::span<const std::byte> bytes) {
  itch5::message_reader reader(itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, false, 3}));
  reference ref;
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) itch5::dispatch_unchecked(msg.data(), ref);
  return ref.output();
}

}  // namespace naive
