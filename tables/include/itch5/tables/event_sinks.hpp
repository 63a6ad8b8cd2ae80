// The market-state event tables (events/*_table.hpp: one per ITCH message type that tells the state of a
// symbol or of the market rather than of an order: R, S, H, Y, J, V, W, K, I, N, h, O, L) and where each
// one's rows go: a table_sink per kind, null for a kind that is off (inside::table_options::events).
//
//   itch5::tables::event_sinks sinks;
//   sinks.noii = &my_noii_sink;                           // the other kinds stay off
//   itch5::tables::for_each_event_table([&]<class T>(std::type_identity<T>, auto member) {
//     std::cout << T::name << (sinks.*member ? " on\n" : " off\n");   // each kind, in the order below
//   });
//
// Plain data; the sinks must outlive the run that writes to them.
#pragma once

#include <string_view>
#include <type_traits>

#include <itch5/tables/events/dlcr_table.hpp>
#include <itch5/tables/events/ipo_quoting_table.hpp>
#include <itch5/tables/events/luld_collars_table.hpp>
#include <itch5/tables/events/mwcb_levels_table.hpp>
#include <itch5/tables/events/mwcb_status_table.hpp>
#include <itch5/tables/events/noii_table.hpp>
#include <itch5/tables/events/operational_halts_table.hpp>
#include <itch5/tables/events/participant_positions_table.hpp>
#include <itch5/tables/events/reg_sho_table.hpp>
#include <itch5/tables/events/rpii_table.hpp>
#include <itch5/tables/events/stock_directory_table.hpp>
#include <itch5/tables/events/system_events_table.hpp>
#include <itch5/tables/events/trading_actions_table.hpp>
#include <itch5/tables/table_sink.hpp>

namespace itch5::tables {

/// One sink per event table; null: that kind is off.
struct event_sinks {
  table_sink<events::stock_directory_table>* stock_directory = nullptr;              ///< R
  table_sink<events::system_events_table>* system_events = nullptr;                  ///< S
  table_sink<events::trading_actions_table>* trading_actions = nullptr;              ///< H
  table_sink<events::reg_sho_table>* reg_sho = nullptr;                              ///< Y
  table_sink<events::luld_collars_table>* luld_collars = nullptr;                    ///< J
  table_sink<events::mwcb_levels_table>* mwcb_levels = nullptr;                      ///< V
  table_sink<events::mwcb_status_table>* mwcb_status = nullptr;                      ///< W
  table_sink<events::ipo_quoting_table>* ipo_quoting = nullptr;                      ///< K
  table_sink<events::noii_table>* noii = nullptr;                                    ///< I
  table_sink<events::rpii_table>* rpii = nullptr;                                    ///< N
  table_sink<events::operational_halts_table>* operational_halts = nullptr;          ///< h
  table_sink<events::dlcr_table>* dlcr = nullptr;                                    ///< O
  table_sink<events::participant_positions_table>* participant_positions = nullptr;  ///< L
};

/// Calls f(std::type_identity<Table>{}, member) for each event table, in the order of event_sinks, with the
/// member pointer of its sink (`sinks.*member`).
template <class F>
constexpr void for_each_event_table(F&& f) {
  f(std::type_identity<events::stock_directory_table>{}, &event_sinks::stock_directory);
  f(std::type_identity<events::system_events_table>{}, &event_sinks::system_events);
  f(std::type_identity<events::trading_actions_table>{}, &event_sinks::trading_actions);
  f(std::type_identity<events::reg_sho_table>{}, &event_sinks::reg_sho);
  f(std::type_identity<events::luld_collars_table>{}, &event_sinks::luld_collars);
  f(std::type_identity<events::mwcb_levels_table>{}, &event_sinks::mwcb_levels);
  f(std::type_identity<events::mwcb_status_table>{}, &event_sinks::mwcb_status);
  f(std::type_identity<events::ipo_quoting_table>{}, &event_sinks::ipo_quoting);
  f(std::type_identity<events::noii_table>{}, &event_sinks::noii);
  f(std::type_identity<events::rpii_table>{}, &event_sinks::rpii);
  f(std::type_identity<events::operational_halts_table>{}, &event_sinks::operational_halts);
  f(std::type_identity<events::dlcr_table>{}, &event_sinks::dlcr);
  f(std::type_identity<events::participant_positions_table>{}, &event_sinks::participant_positions);
}

/// Whether any kind is on.
[[nodiscard]] inline bool any(const event_sinks& s) {
  bool on = false;
  for_each_event_table([&](auto, auto member) { on = on || s.*member != nullptr; });
  return on;
}

}  // namespace itch5::tables
