// bm_decoder: time of the ITCH 5.0 decoder walking an in-memory BinaryFILE buffer.
//
// Setup (not timed) builds, with itch5::frame_writer, a buffer of --size framed messages drawn from a mix
// of types with a seeded generator. One iteration walks the buffer frame by frame and decodes every
// message with itch5::dispatch_unchecked into a handler that adds up every field, so no decoding can be
// optimised away. Test cases: `mixed` (a TotalView-like mix: adds 44%, deletes 43%, replaces 9%,
// executions 2%, the remaining 2% cancels, MPID adds, trades, executions with price, NOII) and one per
// hot type (add_order, order_delete, order_replace, order_executed).
#include <array>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/frame_writer.hpp>
#include <itch5/messages.hpp>
#include <itch5/peek.hpp>
#include <itch5/synth/rng.hpp>
#include <microbench/suite.hpp>

#include <itch5/cli/options.hpp>

namespace {

/// A message type and its share of the stream, in units of 1/10000.
struct type_weight {
  char type;
  std::uint32_t weight;
};

constexpr std::array<type_weight, 9> mixed_stream{{
    {'A', 4400},  // add_order
    {'D', 4300},  // order_delete
    {'U', 900},   // order_replace
    {'E', 200},   // order_executed
    {'X', 60},    // order_cancel
    {'F', 50},    // add_order_mpid
    {'P', 40},    // trade
    {'I', 40},    // noii
    {'C', 10},    // order_executed_with_price
}};
constexpr std::array<type_weight, 1> only_add{{{'A', 10000}}};
constexpr std::array<type_weight, 1> only_delete{{{'D', 10000}}};
constexpr std::array<type_weight, 1> only_replace{{{'U', 10000}}};
constexpr std::array<type_weight, 1> only_executed{{{'E', 10000}}};

// Plausible field values: increasing timestamps and order references, a few thousand stocks, round lots,
// prices on the tick grid between $1 and $500. Deletes, replaces, executions and cancels refer to a live
// order (its reference and stock locate); when there is none (the single-type test cases), to a made-up one.
class message_source {
 public:
  explicit message_source(std::uint64_t seed) : rng_(seed) {}

  /// Appends one message of `type` (one of the types below) to `out`.
  void write(char type, itch5::frame_writer& out) {
    switch (type) {
      case itch5::add_order::type: out.write(make_add_order()); break;
      case itch5::add_order_mpid::type: out.write(make_add_order_mpid()); break;
      case itch5::order_delete::type: out.write(make_order_delete()); break;
      case itch5::order_replace::type: out.write(make_order_replace()); break;
      case itch5::order_executed::type: out.write(make_order_executed()); break;
      case itch5::order_executed_with_price::type: out.write(make_order_executed_with_price()); break;
      case itch5::order_cancel::type: out.write(make_order_cancel()); break;
      case itch5::trade::type: out.write(make_trade()); break;
      case itch5::noii::type: out.write(make_noii()); break;
      default: throw std::logic_error("bm_decoder: no generator for message type " + std::string(1, type));
    }
  }

 private:
  struct live_order {
    std::uint64_t ref;
    std::uint16_t locate;
  };

  // One message of each type, its fields drawn in the order they are listed.
  itch5::add_order make_add_order() {
    itch5::add_order m;
    m.header = header(new_locate());
    m.order_ref = add_live(m.header.stock_locate);
    m.side = side();
    m.shares = shares();
    m.stock = stock(m.header.stock_locate);
    m.price = price();
    return m;
  }
  itch5::add_order_mpid make_add_order_mpid() {
    itch5::add_order_mpid m;
    m.header = header(new_locate());
    m.order_ref = add_live(m.header.stock_locate);
    m.side = side();
    m.shares = shares();
    m.stock = stock(m.header.stock_locate);
    m.price = price();
    m.attribution = {'N', 'S', 'D', 'Q'};
    return m;
  }
  itch5::order_delete make_order_delete() {
    itch5::order_delete m;
    const live_order o = take_live();
    m.header = header(o.locate);
    m.order_ref = o.ref;
    return m;
  }
  itch5::order_replace make_order_replace() {
    itch5::order_replace m;
    const live_order o = take_live();
    m.header = header(o.locate);
    m.original_order_ref = o.ref;
    m.new_order_ref = add_live(o.locate);
    m.shares = shares();
    m.price = price();
    return m;
  }
  itch5::order_executed make_order_executed() {
    itch5::order_executed m;
    const live_order o = peek_live();
    m.header = header(o.locate);
    m.order_ref = o.ref;
    m.executed_shares = shares();
    m.match_number = next_match_++;
    return m;
  }
  itch5::order_executed_with_price make_order_executed_with_price() {
    itch5::order_executed_with_price m;
    const live_order o = peek_live();
    m.header = header(o.locate);
    m.order_ref = o.ref;
    m.executed_shares = shares();
    m.match_number = next_match_++;
    m.printable = 'Y';
    m.execution_price = price();
    return m;
  }
  itch5::order_cancel make_order_cancel() {
    itch5::order_cancel m;
    const live_order o = peek_live();
    m.header = header(o.locate);
    m.order_ref = o.ref;
    m.cancelled_shares = shares();
    return m;
  }
  itch5::trade make_trade() {
    itch5::trade m;
    m.header = header(new_locate());
    m.order_ref = 0;
    m.side = side();
    m.shares = shares();
    m.stock = stock(m.header.stock_locate);
    m.price = price();
    m.match_number = next_match_++;
    return m;
  }
  itch5::noii make_noii() {
    itch5::noii m;
    m.header = header(new_locate());
    m.paired_shares = shares();
    m.imbalance_shares = shares();
    m.imbalance_direction = side();
    m.stock = stock(m.header.stock_locate);
    m.far_price = price();
    m.near_price = price();
    m.current_reference_price = price();
    m.cross_type = 'O';
    m.price_variation_indicator = 'L';
    return m;
  }

  std::uint16_t new_locate() { return static_cast<std::uint16_t>(1 + rng_.below(8000)); }
  itch5::message_header header(std::uint16_t locate) {
    now_ += static_cast<std::int64_t>(1 + rng_.below(2000));
    return {locate, static_cast<std::uint16_t>(rng_.below(8)), itch5::timestamp(now_)};
  }
  std::uint64_t add_live(std::uint16_t locate) {
    live_.push_back({next_ref_, locate});
    return next_ref_++;
  }
  live_order peek_live() {
    if (live_.empty()) return {1 + rng_.below(1'000'000), new_locate()};
    return live_[rng_.below(live_.size())];
  }
  live_order take_live() {
    if (live_.empty()) return {1 + rng_.below(1'000'000), new_locate()};
    const std::size_t i = rng_.below(live_.size());
    const live_order o = live_[i];
    live_[i] = live_.back();
    live_.pop_back();
    return o;
  }
  char side() { return rng_.below(2) == 0 ? 'B' : 'S'; }
  std::uint32_t shares() {
    return static_cast<std::uint32_t>(100 * (1 + rng_.below(20)) + rng_.below(3) * 7);
  }
  itch5::price4 price() { return itch5::price4(static_cast<std::uint32_t>(10000 + 100 * rng_.below(49900))); }
  // A 1- to 5-letter symbol derived from the locate, so a stock keeps its symbol.
  static itch5::stock_symbol stock(std::uint16_t locate) {
    std::array<char, 5> name{};
    std::uint64_t x = locate;
    for (auto& c : name) {
      c = static_cast<char>('A' + x % 26);
      x /= 26;
    }
    return itch5::stock_symbol::from({name.data(), 1 + locate % name.size()});
  }

  itch5::synth::rng rng_;
  std::vector<live_order> live_;
  std::uint64_t next_ref_ = 1;
  std::uint64_t next_match_ = 1;
  std::int64_t now_ = 34'200'000'000'000;  // 09:30
};

// Adds up every field of every message it is given (header included): the decoder's work cannot be
// skipped, and the cost of the handler itself is one addition per field.
struct consume_all {
  std::uint64_t sum = 0;

  template <std::unsigned_integral U>
  void take(U v) noexcept {
    sum += v;
  }
  void take(char c) noexcept { sum += static_cast<unsigned char>(c); }
  template <int D, class R>
  void take(itch5::price<D, R> p) noexcept {
    sum += p.units();
  }
  void take(const itch5::stock_symbol& s) noexcept {
    std::uint64_t v;
    std::memcpy(&v, s.raw().data(), sizeof v);
    sum += v;
  }
  template <std::size_t N>
  void take(const std::array<char, N>& a) noexcept {
    for (char c : a) take(c);
  }

  template <itch5::message M>
  void operator()(const M& m) noexcept {
    take(m.header.stock_locate);
    take(m.header.tracking_number);
    take(static_cast<std::uint64_t>(m.header.timestamp.count()));
    std::apply([&](auto... f) { (take(m.*f.member), ...); }, M::layout());
  }
};

class decoder_fixture {
 public:
  decoder_fixture(const microbench::config& cfg, std::span<const type_weight> mix) {
    itch5::synth::rng pick(cfg.seed ^ 0x5eed);
    message_source source(cfg.seed);
    itch5::frame_writer out;
    for (std::uint64_t i = 0; i < cfg.size; ++i) {
      std::uint64_t r = pick.below(10000);
      char type = mix.back().type;
      for (const auto& w : mix) {
        if (r < w.weight) {
          type = w.type;
          break;
        }
        r -= w.weight;
      }
      source.write(type, out);
    }
    bytes_.assign(out.bytes().begin(), out.bytes().end());
    messages_ = cfg.size;
  }

  /// One pass over the buffer; returns the field sum so that the work stays observable.
  [[nodiscard]] std::uint64_t run() noexcept {
    consume_all handler;
    const std::byte* p = bytes_.data();
    const std::byte* const end = p + bytes_.size();
    while (p < end) {
      const std::size_t length = itch5::peek_frame_length(p);
      itch5::dispatch_unchecked(p + itch5::frame_length_size, handler);
      p += itch5::frame_length_size + length;
    }
    return handler.sum;
  }

  [[nodiscard]] std::uint64_t items_per_iteration() const noexcept { return messages_; }

 private:
  std::vector<std::byte> bytes_;
  std::uint64_t messages_ = 0;
};

static_assert(microbench::fixture<decoder_fixture, std::span<const type_weight>>);

}  // namespace

int main(int argc, char** argv) {
  microbench::suite s(
      "bm_decoder",
      "Times itch5::dispatch_unchecked decoding an in-memory buffer of framed ITCH 5.0 messages "
      "into a handler that reads every field. One iteration is one pass over the buffer.");
  s.defaults().size = 10000;
  s.defaults().iterations = 1000;
  s.defaults().warmup = 100;
  s.options().epilog(
      "--size is the number of messages in the buffer (10000 messages of the mixed stream take about 300 "
      "KB). "
      "The summary adds ns/message and messages/s.\n\n"
      "Test cases: mixed (adds 44%, deletes 43%, replaces 9%, executions 2%, other 2%), add_order, "
      "order_delete, order_replace, order_executed (only that type).\n");
  s.add<decoder_fixture>("mixed", std::span<const type_weight>(mixed_stream));
  s.add<decoder_fixture>("add_order", std::span<const type_weight>(only_add));
  s.add<decoder_fixture>("order_delete", std::span<const type_weight>(only_delete));
  s.add<decoder_fixture>("order_replace", std::span<const type_weight>(only_replace));
  s.add<decoder_fixture>("order_executed", std::span<const type_weight>(only_executed));
  return s.main(argc, argv);
}
