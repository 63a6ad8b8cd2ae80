// The observer of a book engine (book::book_engine's Observer) in a run: it keeps the symbol filter and the
// time range, and fans each book event out, at compile time, to a list of outputs (lines_output.hpp,
// depth_output.hpp, feed_output.hpp; outputs.hpp lists them per run). Per event: inline calls only, no
// virtual call, std::function or allocation; the list, and so the code, is fixed per book type and
// statistics configuration, and an output that is off is no_output, which compiles to nothing.
//
// An output is a small type with these hooks, each optional but on_book_event (see docs/design.md,
// "Adding an output"):
//   static constexpr bool wants_book_depth;  // true: the engine computes event and book depths
//   void on_symbol(std::uint16_t locate, std::string_view name);  // a wanted locate's first event
//   template <class Book> void on_book_event(const book::book_event&, const book::order_book<Book>&);
//                                            // an event of a wanted locate in the time range
//   template <class Book> void outside_range(const book::book_event&, const book::order_book<Book>&);
//                                            // an event of a wanted locate outside the time range
//   template <class M, class Book> void on_message(const M&, const book::order_book<Book>*);
//                                            // a message that is no order message (trades P, Q, B; the
//                                            // directory R; system, trading-state and auction messages),
//                                            // of a wanted locate (or of the whole market: locate 0) in the
//                                            // time range, after the engine handled it; with its locate's
//                                            // book if it has one. Overloads for the types an output wants.
//   void set_latency(std::int64_t latency);  // timed runs with latencies: before each message
//   void end_message(std::chrono::nanoseconds took);  // timed runs: after each message
//   void finish(const inside_options&, const name_function&, inside_result&);  // once, at the end
// ChecksTimestamps: whether the engine checks timestamps (not in a book thread of the sharded run, where
// the reading thread checks them over the whole stream).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <itch5/timestamp.hpp>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

/// The output that is off (its statistics not asked for): takes whatever the one it stands for would be
/// built from, and has no hooks but an empty on_book_event.
struct no_output {
  template <class... Args>
  no_output(Args&&...) noexcept {}  // NOLINT(google-explicit-constructor): built from {...} in a list
  template <class Book>
  void on_book_event(const book::book_event&, const book::order_book<Book>&) noexcept {}
};

/// Whether an output asks the engine for event and book depths.
template <class Output>
inline constexpr bool output_wants_book_depth = requires {
  requires Output::wants_book_depth;
};

/// Whether an output takes messages of type M (on_message).
template <class Output, class M, class Book>
inline constexpr bool output_wants_message = requires(Output& o, const M& m,
                                                      const book::order_book<Book>* b) {
  o.on_message(m, b);
};

template <class Book, bool ChecksTimestamps, class... Outputs>
class observer {
 public:
  static constexpr bool wants_book_depth = (output_wants_book_depth<Outputs> || ...);
  static constexpr bool checks_timestamps = ChecksTimestamps;

  observer(const inside_options& opt, Outputs... outputs)
      : from_(opt.from), to_(opt.to), filter_(opt.symbols), outputs_(std::move(outputs)...) {}
  observer(const observer&) = delete;  // the engine keeps a reference
  observer& operator=(const observer&) = delete;

  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    if (!filter_.wanted(e.locate, b.symbol, [this](std::uint16_t locate, std::string_view name) {
          each([&](auto& o) {
            if constexpr (requires { o.on_symbol(locate, name); }) o.on_symbol(locate, name);
          });
        })) {
      return;
    }
    if (e.timestamp < from_ || e.timestamp >= to_) [[unlikely]] {
      each([&](auto& o) {
        if constexpr (requires { o.outside_range(e, b); }) o.outside_range(e, b);
      });
      return;
    }
    each([&](auto& o) { o.on_book_event(e, b); });
  }

  /// A message that is no order message (book_engine's message hook), for the outputs that take its type:
  /// only if its locate is wanted (its own symbol decides where it names one; locate 0, the whole market,
  /// always is) and its timestamp is in the time range. Exists only for the types some output takes, so
  /// that the engine calls nothing for the others.
  template <class M>
  requires(output_wants_message<Outputs, M, Book> || ...) void on_message(const M& m,
                                                                          const book::order_book<Book>* b) {
    const std::uint16_t locate = m.header.stock_locate;
    if (locate != 0 && !message_wanted(m, b)) return;
    if (m.header.timestamp < from_ || m.header.timestamp >= to_) return;
    each([&](auto& o) {
      if constexpr (requires { o.on_message(m, b); }) o.on_message(m, b);
    });
  }

  /// The feed latency of the message being handled (latency_queue::none when unknown).
  void set_latency(std::int64_t latency) noexcept {
    each([&](auto& o) {
      if constexpr (requires { o.set_latency(latency); }) o.set_latency(latency);
    });
  }

  /// After a timed message: how long it took, from before decoding it to after its last event's outputs.
  void end_message(std::chrono::nanoseconds took) {
    each([&](auto& o) {
      if constexpr (requires { o.end_message(took); }) o.end_message(took);
    });
  }

  /// At the end of the run: each output puts what it made into `r`.
  void finish(const inside_options& opt, inside_result& r) {
    const name_function name_of = [this](std::uint16_t locate) { return filter_.name_of(locate); };
    each([&](auto& o) {
      if constexpr (requires { o.finish(opt, name_of, r); }) o.finish(opt, name_of, r);
    });
  }

  /// The printable name of a locate learned, "?" for one never learned.
  [[nodiscard]] std::string name_of(std::uint16_t locate) const { return filter_.name_of(locate); }

 private:
  // Whether the locate of message `m` (not 0) is wanted: by the message's own symbol where it has one,
  // else by its locate's book's, else (no book yet) only when every symbol is.
  template <class M>
  bool message_wanted(const M& m, const book::order_book<Book>* b) {
    const auto learned = [this](std::uint16_t locate, std::string_view name) {
      each([&](auto& o) {
        if constexpr (requires { o.on_symbol(locate, name); }) o.on_symbol(locate, name);
      });
    };
    if constexpr (requires { m.stock; }) {
      return filter_.wanted(m.header.stock_locate, m.stock, learned);
    } else {
      if (b != nullptr) return filter_.wanted(m.header.stock_locate, b->symbol, learned);
      return filter_.takes_all();
    }
  }

  template <class F>
  void each(F&& f) {
    std::apply([&](auto&... o) { (f(o), ...); }, outputs_);
  }

  itch5::timestamp from_;
  itch5::timestamp to_;
  symbol_filter filter_;
  std::tuple<Outputs...> outputs_;
};

}  // namespace itch5::inside
