// Order tracking and per-symbol books for an ITCH 5.0 stream, with inside-change detection.
//
//   itch5::book::book_engine<itch5::book::array_book, my_observer> engine(config, observer);
//   ... itch5::dispatch_unchecked(msg.data(), engine);   // for every message
//
// The engine is an itch5 dispatch handler. It tracks live orders by reference number (A/F add; E, C, X
// reduce; D deletes; U removes the original and adds the new reference with the same side and stock) in an
// order_table, and keeps one order_book per stock locate in a vector indexed by the locate. After every
// applied book message it hands a book_event to the observer, which learns whether the symbol's inside
// (best bid and offer, price and size) changed. Inconsistent input is counted by kind (anomaly_counts)
// and skipped; processing always goes on. Every message's timestamp is checked (backwards, beyond 24 h).
//
// Observer requirements: `void on_book_event(const book_event&, const order_book<Book>&)`, and an optional
// `static constexpr bool wants_book_depth` (default false) to have book_event::event_depth and
// book_event::book_depth computed (both are 0 otherwise), and an optional `static constexpr bool
// checks_timestamps` (default true): false leaves the timestamp anomalies (backwards, beyond 24 h) to the
// caller, for an engine that sees only some of the stream's messages (a shard of run_inside's book
// threads), where "backwards" must be judged over the whole stream.
//
// Complexity per message: O(1) expected for the order table, plus the book side's cost (see the side
// types). Memory: the order table (proportional to peak live orders) plus one book per announced locate.
// Not thread-safe: one engine per stream, used from one thread.
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <itch5/messages.hpp>
#include <itch5/peek.hpp>
#include <itch5/tick.hpp>

#include <itch5/book/anomaly_counts.hpp>
#include <itch5/book/book_config.hpp>
#include <itch5/book/book_event.hpp>
#include <itch5/book/detail/locate_array.hpp>
#include <itch5/book/detail/prefetch.hpp>
#include <itch5/book/order_book.hpp>
#include <itch5/book/order_table.hpp>

namespace itch5::book {

template <class Book, class Observer>
class book_engine {
 public:
  using book_type = order_book<Book>;

  book_engine(const book_config& cfg, Observer& observer)
      : config_(cfg), observer_(observer), orders_(cfg.order_window_bits) {}

  // Messages that do not touch the book: only their timestamp is checked.
  template <itch5::message M>
  void operator()(const M& m) {
    check_timestamp(m.header.timestamp);
    if (!homeless_.empty()) [[unlikely]]
      move_windows();
    if constexpr (requires { observer_.on_message(m, find_book(0)); })
      observer_.on_message(m, find_book(m.header.stock_locate));
  }

  void operator()(const itch5::stock_directory& m) {
    check_timestamp(m.header.timestamp);
    if (!homeless_.empty()) [[unlikely]]
      move_windows();
    book_type& b = book_at(m.header.stock_locate);
    b.symbol = m.stock;
    b.announced = true;
    if constexpr (requires { observer_.on_message(m, find_book(0)); }) observer_.on_message(m, &b);
  }

  void operator()(const itch5::add_order& m) {
    add('A', m.header, m.order_ref, m.side, m.shares, m.stock, m.price);
  }
  void operator()(const itch5::add_order_mpid& m) {
    add('F', m.header, m.order_ref, m.side, m.shares, m.stock, m.price);
  }
  void operator()(const itch5::order_executed& m) {
    reduce('E', m.header, m.order_ref, m.executed_shares, m.match_number);
  }
  void operator()(const itch5::order_executed_with_price& m) {
    reduce('C', m.header, m.order_ref, m.executed_shares, m.match_number, m.execution_price, m.printable);
  }
  void operator()(const itch5::order_cancel& m) { reduce('X', m.header, m.order_ref, m.cancelled_shares); }
  void operator()(const itch5::order_delete& m) { remove(m.header, m.order_ref); }
  void operator()(const itch5::order_replace& m) {
    replace(m.header, m.original_order_ref, m.new_order_ref, m.shares, m.price);
  }

  /// Prefetch, far stage: for a message that will be handled a little later (`frame` starts at its type
  /// byte), starts loading the order slot it refers to and the book of its stock locate. Never reads
  /// outside `frame`, changes nothing.
  void prefetch_far(std::span<const std::byte> frame) const noexcept {
    if (frame.size() < itch5::order_reference_end) return;
    prefetch_far(itch5::peek_type(frame), itch5::peek_order_reference(frame),
                 itch5::peek_stock_locate(frame));
  }

  /// The far stage from the message's fields: its type, order reference and stock locate (the reference
  /// and locate are not read unless `type` is an order message).
  ///
  /// The book comes from the message's own locate, for an execution, cancel, delete or replace too: its
  /// order's book is the one the message names in well-formed input (the engine itself goes by the
  /// order's locate, so a message naming another book only makes this hint miss). Until 2026-11 those
  /// messages looked their order up a second time, 6 messages ahead (a "near" stage), to find the book:
  /// one lookup and several unpredictable branches a message more, for the same line (the 50 M day 1.14x
  /// faster without it, docs/performance.md).
  void prefetch_far(char type, std::uint64_t ref, std::uint16_t locate) const noexcept {
    if (!itch5::is_order_message(type)) return;
    orders_.prefetch(ref);
    if (locate < books_.size()) prefetch_book(books_[locate]);
  }

  /// Prefetch, level stage: for a message handled a few messages later (its order slot and book should be
  /// in cache after the far stage), starts loading the price level it will update, where the side type
  /// can tell where that is (array_book_side). Changes nothing.
  void prefetch_level(std::span<const std::byte> frame) noexcept {
    if constexpr (side_prefetches) {
      if (frame.size() < itch5::order_reference_end) return;
      const char type = itch5::peek_type(frame);
      if (type == itch5::add_order::type || type == itch5::add_order_mpid::type) {
        if (frame.size() < itch5::add_price_end) return;
        prefetch_level(type, 0, itch5::peek_stock_locate(frame), itch5::peek_add_side(frame),
                       itch5::peek_add_price(frame));
      } else {
        prefetch_level(type, itch5::peek_order_reference(frame), 0, 0, {});
      }
    }
  }

  /// The level stage from the message's fields: an add's locate, side code and price; for the other order
  /// messages, the order reference (the rest is ignored).
  void prefetch_level(char type, std::uint64_t ref, std::uint16_t locate, char side_code,
                      itch5::price4 price) noexcept {
    if constexpr (side_prefetches) {
      if (type == itch5::add_order::type || type == itch5::add_order_mpid::type) {
        if (locate >= books_.size()) return;
        prefetch_level(books_[locate], side_code == 'B' ? side_kind::buy : side_kind::sell, price);
      } else if (itch5::is_order_message(type)) {
        if (const order* o = orders_.find(ref)) prefetch_level(books_[o->locate], o->side, o->price);
      }
    }
  }

  [[nodiscard]] const anomaly_counts& anomalies() const noexcept { return anomalies_; }
  [[nodiscard]] std::uint64_t book_events() const noexcept { return book_events_; }
  [[nodiscard]] std::uint64_t inside_changes() const noexcept { return inside_changes_; }
  [[nodiscard]] const order_table& orders() const noexcept { return orders_; }
  /// The book of `locate`, or nullptr if the locate was never seen.
  [[nodiscard]] const book_type* find_book(std::uint16_t locate) const noexcept {
    return locate < books_.size() ? &books_[locate] : nullptr;
  }
  [[nodiscard]] std::size_t book_slots() const noexcept { return books_.size(); }
  /// Books whose level windows wait to move into the engine's arena (made while it had nothing ready).
  [[nodiscard]] std::size_t books_outside_arena() const noexcept { return homeless_.size(); }

 private:
  static constexpr bool wants_book_depth = [] {
    if constexpr (requires { Observer::wants_book_depth; }) {
      return static_cast<bool>(Observer::wants_book_depth);
    } else {
      return false;
    }
  }();
  static constexpr bool checks_timestamps = [] {
    if constexpr (requires { Observer::checks_timestamps; }) {
      return static_cast<bool>(Observer::checks_timestamps);
    } else {
      return true;
    }
  }();

  // The level stage's prefetch of the level at `price` on `side` of `b` (sides with side_prefetches).
  static void prefetch_level(const book_type& b, side_kind side, itch5::price4 price) noexcept {
    if (side == side_kind::buy) {
      b.bids.prefetch(price);
    } else {
      b.offers.prefetch(price);
    }
  }

  // Whether the sides can prefetch a price level (array_book_side).
  static constexpr bool side_prefetches = requires(const book_type& b, itch5::price4 p) {
    b.bids.prefetch(p);
    b.offers.prefetch(p);
  };

  // Whether the sides keep their windows in the engine's level arena (array_book_side).
  static constexpr bool uses_arena = requires(book_type & b, detail::level_arena& a) {
    { b.bids.move_to(a) } -> std::same_as<bool>;
    { b.offers.move_to(a) } -> std::same_as<bool>;
  };

  // Every cache line of a book (a book is 64-byte aligned; the array book's take two lines).
  static void prefetch_book(const book_type& b) noexcept {
    const char* p = reinterpret_cast<const char*>(&b);
    for (std::size_t at = 0; at < sizeof(book_type); at += 64) detail::prefetch(p + at);
  }

  book_type& book_at(std::uint16_t locate) {
    if (locate >= books_.size()) [[unlikely]]
      grow_books(locate);
    return books_[locate];
  }

  [[gnu::noinline, gnu::cold]] void grow_books(std::uint16_t locate) {
    while (books_.size() <= locate) {
      const book_type& b = books_.emplace_back(config_, &levels_);  // never moves the others
      if constexpr (uses_arena) {
        if (b.bids.wants_arena() || b.offers.wants_arena())
          homeless_.push_back(static_cast<std::uint16_t>(books_.size() - 1));
      }
    }
  }

  // Moves the windows of up to 16 books made while the arena had no memory ready into it, as far as it
  // now has (see detail::level_arena). Called from the messages that touch no book: the rest of the
  // stock directory, then trades, system events and the like (a few in a hundred messages).
  [[gnu::noinline, gnu::cold]] void move_windows() {
    if constexpr (uses_arena) {
      for (int n = 0; n < 16 && !homeless_.empty(); ++n) {
        book_type& b = books_[homeless_.back()];
        if (b.bids.wants_arena() && !b.bids.move_to(levels_)) return;
        if (b.offers.wants_arena() && !b.offers.move_to(levels_)) return;
        homeless_.pop_back();
      }
    }
  }

  void check_timestamp(itch5::timestamp ts) noexcept {
    if constexpr (checks_timestamps) {
      if (ts < last_timestamp_) [[unlikely]]
        anomalies_.count(anomaly::timestamp_backwards);
      if (ts >= itch5::one_day) [[unlikely]]
        anomalies_.count(anomaly::timestamp_beyond_day);
      last_timestamp_ = ts;
    }
  }

  static bool valid_price(itch5::price4 p) noexcept { return p.units() != 0 && p <= itch5::max_price4; }

  static std::uint32_t depth_from(side_kind side, itch5::price4 p, const inside& before) noexcept {
    if constexpr (!wants_book_depth) return 0;
    const price_level& best = side == side_kind::buy ? before.bid : before.offer;
    if (best.shares == 0) return 0;
    bool at_or_better = side == side_kind::buy ? p >= best.price : p <= best.price;
    return at_or_better ? 0 : itch5::levels_between(p, best.price);
  }

  template <class F>
  decltype(auto) on_side(book_type& b, side_kind side, F&& f) {
    if (side == side_kind::buy) return f(b.bids);
    return f(b.offers);
  }

  void add(char type, const itch5::message_header& h, std::uint64_t ref, char side_code, std::uint32_t shares,
           const itch5::stock_symbol& stock, itch5::price4 price) {
    check_timestamp(h.timestamp);
    side_kind side;
    if (side_code == 'B') {
      side = side_kind::buy;
    } else if (side_code == 'S') {
      side = side_kind::sell;
    } else [[unlikely]] {
      anomalies_.count(anomaly::invalid_side);
      return;
    }
    if (shares == 0) [[unlikely]] {
      anomalies_.count(anomaly::zero_shares);
      return;
    }
    if (!valid_price(price)) [[unlikely]] {
      anomalies_.count(anomaly::invalid_price);
      return;
    }
    book_type& b = book_at(h.stock_locate);
    if (!b.announced) [[unlikely]] {
      anomalies_.count(anomaly::unannounced_locate);
      if (b.symbol == itch5::stock_symbol{}) b.symbol = stock;
    }
    if (orders_.insert(ref, shares, price, h.stock_locate, side) == nullptr) [[unlikely]] {
      anomalies_.count(anomaly::duplicate_order);
      return;
    }
    const bool best_may_change = on_side(b, side, [&](auto& s) { return s.add(price, shares); });
    book_event e = make_event(type, h.timestamp, h.stock_locate, side, depth_from(side, price, b.last));
    e.order_ref = ref;
    e.price = price;
    e.shares = shares;
    e.remaining = shares;
    finish(e, b, best_may_change);
  }

  // E, C (with `match`, and for C its execution price and printable flag) and X.
  void reduce(char type, const itch5::message_header& h, std::uint64_t ref, std::uint32_t shares,
              std::uint64_t match = 0, std::optional<itch5::price4> execution_price = std::nullopt,
              char printable = 'Y') {
    check_timestamp(h.timestamp);
    order* o = orders_.find(ref);
    if (o == nullptr) [[unlikely]] {
      anomalies_.count(anomaly::unknown_order);
      return;
    }
    if (shares == 0) [[unlikely]] {
      anomalies_.count(anomaly::zero_shares);
      return;
    }
    if (shares > o->shares) [[unlikely]] {
      anomalies_.count(anomaly::reduce_exceeds_order);
      shares = o->shares;
    }
    const side_kind side = o->side;
    const itch5::price4 price = o->price;
    const std::uint16_t locate = o->locate;
    book_type& b = books_[locate];
    const bool best_may_change = on_side(b, side, [&](auto& s) { return s.reduce(price, shares); });
    o->shares -= shares;
    book_event e = make_event(type, h.timestamp, locate, side, depth_from(side, price, b.last));
    e.order_ref = ref;
    e.price = price;
    e.shares = shares;
    e.remaining = o->shares;
    e.match_number = match;
    e.execution_price = execution_price.value_or(price);
    e.printable = printable;
    if (o->shares == 0) orders_.erase(ref);
    finish(e, b, best_may_change);
  }

  void remove(const itch5::message_header& h, std::uint64_t ref) {
    check_timestamp(h.timestamp);
    order* o = orders_.find(ref);
    if (o == nullptr) [[unlikely]] {
      anomalies_.count(anomaly::unknown_order);
      return;
    }
    const side_kind side = o->side;
    const itch5::price4 price = o->price;
    const std::uint16_t locate = o->locate;
    book_type& b = books_[locate];
    const bool best_may_change = on_side(b, side, [&](auto& s) { return s.reduce(price, o->shares); });
    book_event e = make_event('D', h.timestamp, locate, side, depth_from(side, price, b.last));
    e.order_ref = ref;
    e.price = price;
    e.shares = o->shares;
    orders_.erase(ref);
    finish(e, b, best_may_change);
  }

  void replace(const itch5::message_header& h, std::uint64_t original, std::uint64_t ref,
               std::uint32_t shares, itch5::price4 price) {
    check_timestamp(h.timestamp);
    order* o = orders_.find(original);
    if (o == nullptr) [[unlikely]] {
      anomalies_.count(anomaly::unknown_order);
      return;
    }
    const side_kind side = o->side;
    const itch5::price4 old_price = o->price;
    const std::uint16_t locate = o->locate;
    book_type& b = books_[locate];
    bool best_may_change = on_side(b, side, [&](auto& s) { return s.reduce(old_price, o->shares); });
    const std::uint32_t old_shares = o->shares;
    orders_.erase(original);
    bool added = false;
    if (shares == 0) [[unlikely]] {
      anomalies_.count(anomaly::zero_shares);
    } else if (!valid_price(price)) [[unlikely]] {
      anomalies_.count(anomaly::invalid_price);
    } else if (orders_.insert(ref, shares, price, locate, side) == nullptr) [[unlikely]] {
      anomalies_.count(anomaly::duplicate_order);
    } else {
      best_may_change |= on_side(b, side, [&](auto& s) { return s.add(price, shares); });
      added = true;
    }
    book_event e = make_event('U', h.timestamp, locate, side, depth_from(side, price, b.last));
    e.order_ref = ref;
    e.price = price;
    e.shares = added ? shares : 0;
    e.remaining = e.shares;
    e.old_ref = original;
    e.old_price = old_price;
    e.old_shares = old_shares;
    finish(e, b, best_may_change);
  }

  // After an applied message on `side` of book `b`: only that side's best can have changed (every book
  // message acts on one side), and only if the side said it may have (`best_may_change`), so only then is
  // it recomputed and compared with the last inside.
  // Inlined into its four callers: as a call it cost ~20 instructions per event in argument and register
  // shuffling.
  static book_event make_event(char type, itch5::timestamp ts, std::uint16_t locate, side_kind side,
                               std::uint32_t event_depth) noexcept {
    book_event e;
    e.timestamp = ts;
    e.locate = locate;
    e.type = type;
    e.side = side;
    e.event_depth = event_depth;
    return e;
  }

  [[gnu::always_inline]] void finish(book_event& e, book_type& b, bool best_may_change) {
    const side_kind side = e.side;
    price_level& last = side == side_kind::buy ? b.last.bid : b.last.offer;
    if (best_may_change) {
      const price_level best = side == side_kind::buy ? b.bids.best() : b.offers.best();
      if (!(best == last)) {
        e.inside_changed = true;
        last = best;
        ++inside_changes_;
        const bool crossed =
            b.last.bid.shares != 0 && b.last.offer.shares != 0 && b.last.bid.price >= b.last.offer.price;
        if (crossed && !b.crossed) [[unlikely]]
          anomalies_.count(anomaly::crossed_book);
        b.crossed = crossed;
      }
    }
    if constexpr (wants_book_depth) {
      e.book_depth = on_side(b, side, [](const auto& s) -> std::uint32_t { return s.level_span(); });
    }
    ++book_events_;
    observer_.on_book_event(e, b);
  }

  book_config config_;
  Observer& observer_;
  order_table orders_;
  detail::level_arena levels_{
      uses_arena};  // the array books' windows (declared before the books, which point into it)
  detail::locate_array<book_type> books_;  // by locate, up to the highest seen (see detail/locate_array.hpp)
  std::vector<std::uint16_t>
      homeless_;  // locates of books with a window outside the arena that it could hold
  anomaly_counts anomalies_;
  itch5::timestamp last_timestamp_{0};
  std::uint64_t book_events_ = 0;
  std::uint64_t inside_changes_ = 0;
};

}  // namespace itch5::book
