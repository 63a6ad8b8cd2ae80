// The market-state event tables of a run (inside_options::tables.events; tables/event_sinks.hpp): a part of
// table_outputs that takes the messages of the 13 kinds (R S H Y J V W K I N h O L) through the observer's
// on_message hook and hands each one, as its table's row (the table's from()), to that table's sink in
// batches of 1,024 rows. Only the kinds whose sink is set get a batch; the others cost a pointer test.
//
// What reaches it is what the observer lets through (observer.hpp): a message naming a stock (every kind
// but S, V and W) only when that symbol is wanted (--symbols), a message of the whole market (locate 0: S,
// V, W) whatever --symbols says, and either only within the time range (--from/--to). No allocation per
// message; runs on the books' thread.
#pragma once

#include <memory>
#include <string_view>
#include <tuple>
#include <type_traits>

#include <itch5/book/order_book.hpp>

#include <itch5/tables/event_sinks.hpp>
#include <itch5/tables/table_sink.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

namespace detail {
/// Whether M is the message of one of the event tables.
template <class M>
inline constexpr bool is_event_message = [] {
  bool found = false;
  tables::for_each_event_table(
      [&]<class T>(std::type_identity<T>, auto) { found = found || std::is_same_v<M, typename T::message>; });
  return found;
}();
}  // namespace detail

class events_output {
 public:
  /// Rows gathered per sink call.
  static constexpr std::size_t batch_rows = 1024;
  /// The book events this part reads: none (its rows come from messages; table_outputs.hpp).
  static constexpr std::string_view book_event_types = "";

  static bool wanted(const inside_options& opt) {
    return opt.tables.events != nullptr && tables::any(*opt.tables.events);
  }

  explicit events_output(const inside_options& opt) {
    const tables::event_sinks& sinks = *opt.tables.events;
    tables::for_each_event_table([&]<class T>(std::type_identity<T>, auto member) {
      if (sinks.*member != nullptr)
        std::get<batch_of<T>>(batches_) =
            std::make_unique<tables::row_batch<T>>(*(sinks.*member), batch_rows);
    });
  }

  /// A message of one of the kinds: its row, if its kind is on.
  template <class M, class Book>
  requires detail::is_event_message<M>
  void on_message(const M& m, const book::order_book<Book>*) {
    tables::for_each_event_table([&]<class T>(std::type_identity<T>, auto) {
      if constexpr (std::is_same_v<M, typename T::message>) {
        if (const auto& b = std::get<batch_of<T>>(batches_)) b->next() = T::from(m);
      }
    });
  }

  /// Hands over the rows still gathered and finishes the sinks.
  void finish(const inside_options&, const name_function&, inside_result&) {
    std::apply([](auto&... b) { ((b ? b->finish() : void()), ...); }, batches_);
  }

 private:
  template <class T>
  using batch_of = std::unique_ptr<tables::row_batch<T>>;

  std::tuple<batch_of<tables::events::stock_directory_table>, batch_of<tables::events::system_events_table>,
             batch_of<tables::events::trading_actions_table>, batch_of<tables::events::reg_sho_table>,
             batch_of<tables::events::luld_collars_table>, batch_of<tables::events::mwcb_levels_table>,
             batch_of<tables::events::mwcb_status_table>, batch_of<tables::events::ipo_quoting_table>,
             batch_of<tables::events::noii_table>, batch_of<tables::events::rpii_table>,
             batch_of<tables::events::operational_halts_table>, batch_of<tables::events::dlcr_table>,
             batch_of<tables::events::participant_positions_table>>
      batches_;
};

}  // namespace itch5::inside
