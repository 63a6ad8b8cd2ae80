// Internal: a message as the book engine needs it, decoded once into 40 bytes of native fields, so that a
// reading thread can frame and decode while the books' thread only applies (inside_runner's decode thread).
//
//   itch5::book::detail::book_record r;
//   itch5::book::detail::record_encoder enc{&r};
//   itch5::dispatch_unchecked(frame.data(), enc);   // on the reading thread: decode into r
//   itch5::book::detail::replay(r, engine);                // on the books' thread: the engine sees the
//   message
//
// Every field a book_engine reads survives the round trip: header (locate, timestamp) and the order fields
// of A F E C X D U, and the symbol of A F and R. What no book reads is dropped: the tracking number, match
// numbers, an execution's price and printable flag, F's attribution, R's other fields; of every other type
// (system events, trades, ...) only the header is kept and replay() hands the handler a message of that
// type holding the header alone (the engine checks its timestamp and reads nothing else). Records of
// book messages also carry what the engine's prefetch stages look at (type, reference, locate, side,
// price), so a reader of records needs no frame at all.
#pragma once

#include <cstdint>
#include <cstring>

#include <itch5/messages.hpp>
#include <itch5/stock_symbol.hpp>

namespace itch5::book::detail {

struct book_record {
  std::uint64_t ref = 0;       ///< A F E C X D: the order reference; U: the original order's
  std::uint64_t other = 0;     ///< U: the new reference; A F R: the symbol's 8 characters
  std::int64_t timestamp = 0;  ///< nanoseconds since midnight
  std::uint32_t shares = 0;    ///< A F U: shares; E C: executed; X: cancelled
  std::uint32_t price = 0;     ///< A F U: price (units of 1/10,000 dollar)
  std::uint16_t locate = 0;
  char type = 0;  ///< the message's type byte
  char side = 0;  ///< A F: 'B' or 'S' as sent
};
static_assert(sizeof(book_record) == 40);

/// A dispatch handler (itch5::dispatch_unchecked) that writes the message it is given into `*out`.
struct record_encoder {
  book_record* out;

  void operator()(const itch5::add_order& m) const noexcept { add(m); }
  void operator()(const itch5::add_order_mpid& m) const noexcept { add(m); }
  void operator()(const itch5::order_executed& m) const noexcept { order(m, m.order_ref, m.executed_shares); }
  void operator()(const itch5::order_executed_with_price& m) const noexcept {
    order(m, m.order_ref, m.executed_shares);
  }
  void operator()(const itch5::order_cancel& m) const noexcept { order(m, m.order_ref, m.cancelled_shares); }
  void operator()(const itch5::order_delete& m) const noexcept { order(m, m.order_ref, 0); }
  void operator()(const itch5::order_replace& m) const noexcept {
    order(m, m.original_order_ref, m.shares);
    out->other = m.new_order_ref;
    out->price = m.price.units();
  }
  void operator()(const itch5::stock_directory& m) const noexcept {
    header(m);
    out->other = symbol_bits(m.stock);
  }
  template <itch5::message M>
  void operator()(const M& m) const noexcept {
    header(m);
  }

 private:
  static std::uint64_t symbol_bits(const itch5::stock_symbol& s) noexcept {
    std::uint64_t bits;
    static_assert(sizeof s.raw() == sizeof bits);
    std::memcpy(&bits, s.raw().data(), sizeof bits);
    return bits;
  }
  template <class M>
  void header(const M& m) const noexcept {
    *out = book_record{};
    out->type = M::type;
    out->locate = m.header.stock_locate;
    out->timestamp = m.header.timestamp.count();
  }
  template <class M>
  void order(const M& m, std::uint64_t ref, std::uint32_t shares) const noexcept {
    header(m);
    out->ref = ref;
    out->shares = shares;
  }
  template <class M>
  void add(const M& m) const noexcept {
    order(m, m.order_ref, m.shares);
    out->other = symbol_bits(m.stock);
    out->price = m.price.units();
    out->side = m.side;
  }
};

namespace record_detail {
inline itch5::stock_symbol symbol_of(std::uint64_t bits) noexcept {
  itch5::stock_symbol s;
  std::memcpy(s.raw().data(), &bits, sizeof bits);
  return s;
}

template <class M>
M with_header(const book_record& r) noexcept {
  M m{};
  m.header.stock_locate = r.locate;
  m.header.timestamp = itch5::timestamp(r.timestamp);
  return m;
}

template <class M>  // A, F
M add_from(const book_record& r) noexcept {
  auto m = with_header<M>(r);
  m.order_ref = r.ref;
  m.side = r.side;
  m.shares = r.shares;
  m.stock = symbol_of(r.other);
  m.price = itch5::price4(r.price);
  return m;
}

template <class M>  // E, C
M executed_from(const book_record& r) noexcept {
  auto m = with_header<M>(r);
  m.order_ref = r.ref;
  m.executed_shares = r.shares;
  return m;
}

template <class H, class... M>
void replay_other(const book_record& r, H& h, itch5::type_list<M...>) {
  (void)((r.type == M::type ? (h(with_header<M>(r)), true) : false) || ...);
}
}  // namespace record_detail

/// Hands `h` the message `r` was encoded from (as far as the record keeps it; see the top of this file).
/// `r` must come from record_encoder.
template <class H>
void replay(const book_record& r, H& h) {
  using namespace record_detail;
  switch (r.type) {
    case itch5::add_order::type: h(add_from<itch5::add_order>(r)); return;
    case itch5::add_order_mpid::type: h(add_from<itch5::add_order_mpid>(r)); return;
    case itch5::order_executed::type: h(executed_from<itch5::order_executed>(r)); return;
    case itch5::order_executed_with_price::type:
      h(executed_from<itch5::order_executed_with_price>(r));
      return;
    case itch5::order_cancel::type: {
      auto m = with_header<itch5::order_cancel>(r);
      m.order_ref = r.ref;
      m.cancelled_shares = r.shares;
      h(m);
      return;
    }
    case itch5::order_delete::type: {
      auto m = with_header<itch5::order_delete>(r);
      m.order_ref = r.ref;
      h(m);
      return;
    }
    case itch5::order_replace::type: {
      auto m = with_header<itch5::order_replace>(r);
      m.original_order_ref = r.ref;
      m.new_order_ref = r.other;
      m.shares = r.shares;
      m.price = itch5::price4(r.price);
      h(m);
      return;
    }
    case itch5::stock_directory::type: {
      auto m = with_header<itch5::stock_directory>(r);
      m.stock = symbol_of(r.other);
      h(m);
      return;
    }
    default: replay_other(r, h, itch5::all_message_types{});
  }
}

}  // namespace itch5::book::detail
