// The table outputs of a run (inside_options::tables), as one output of observer.hpp: each part is made
// only if its table is on, and each hook goes to the parts made (a pointer test per part and event, on the
// books' thread). Used only when some table is on (outputs.hpp), so the runs without tables pay nothing.
//
// A part is a type with a constructor from (const inside_options&), a `static bool wanted(const
// inside_options&)` and the hooks of observer.hpp it needs (on_book_event, outside_range, on_message for the
// message types it takes, finish). Its rows go to its table's sink (tables/table_sink.hpp) in batches. A part
// whose on_book_event reads only some event types, or that has none, names them in `static constexpr
// std::string_view book_event_types` (trades_output: "EC"; events_output: ""); when every part that is on
// does, the other events (most of a day's: adds, deletes, replaces) stop at one bit test instead of a
// pointer test and a call per part.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <tuple>

#include <itch5/book/book_event.hpp>
#include <itch5/book/order_book.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "observer.hpp"
#include "symbol_filter.hpp"

namespace itch5::inside {

template <class... Parts>
class table_outputs {
 public:
  table_outputs(const inside_options& opt)  // NOLINT(google-explicit-constructor): built from {opt}
      : parts_(make<Parts>(opt)...) {
    std::apply([&](const auto&... p) { (add_book_event_types(p), ...); }, parts_);
  }

  void on_symbol(std::uint16_t locate, std::string_view name) {
    each([&](auto& p) {
      if constexpr (requires { p.on_symbol(locate, name); }) p.on_symbol(locate, name);
    });
  }

  template <class Book>
  void on_book_event(const book::book_event& e, const book::order_book<Book>& b) {
    const auto type = static_cast<unsigned char>(e.type);
    if (((book_event_types_[type >> 6] >> (type & 63)) & 1) == 0) return;
    each([&](auto& p) {
      if constexpr (requires { p.on_book_event(e, b); }) p.on_book_event(e, b);
    });
  }

  template <class Book>
  void outside_range(const book::book_event& e, const book::order_book<Book>& b) {
    each([&](auto& p) {
      if constexpr (requires { p.outside_range(e, b); }) p.outside_range(e, b);
    });
  }

  template <class M, class Book>
  requires(output_wants_message<Parts, M, Book> || ...) void on_message(const M& m,
                                                                        const book::order_book<Book>* b) {
    each([&](auto& p) {
      if constexpr (requires { p.on_message(m, b); }) p.on_message(m, b);
    });
  }

  void finish(const inside_options& opt, const name_function& name_of, inside_result& r) {
    each([&](auto& p) {
      if constexpr (requires { p.finish(opt, name_of, r); }) p.finish(opt, name_of, r);
    });
  }

 private:
  template <class Part>
  static std::unique_ptr<Part> make(const inside_options& opt) {
    return Part::wanted(opt) ? std::make_unique<Part>(opt) : nullptr;
  }

  // Adds the book event types that part `p` (if on) reads to book_event_types_.
  template <class Part>
  void add_book_event_types(const std::unique_ptr<Part>& p) {
    if (!p) return;
    if constexpr (requires { Part::book_event_types; }) {
      for (const char c : Part::book_event_types) {
        const auto type = static_cast<unsigned char>(c);
        book_event_types_[type >> 6] |= std::uint64_t{1} << (type & 63);
      }
    } else {
      book_event_types_.fill(~std::uint64_t{0});
    }
  }

  // f(part) for each part that is on.
  template <class F>
  void each(F&& f) {
    std::apply([&](auto&... p) { ((p ? f(*p) : void()), ...); }, parts_);
  }

  std::tuple<std::unique_ptr<Parts>...> parts_;
  std::array<std::uint64_t, 4> book_event_types_{};  // a bit per event type some part that is on reads
};

}  // namespace itch5::inside
