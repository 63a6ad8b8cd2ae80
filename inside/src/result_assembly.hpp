// The end of every run: the reader's counts and how it ended, the books' counts, the requested symbols
// that no book named (the outputs put in theirs: observer::finish). Once per run, after the last message;
// cold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>

#include <itch5/message_reader.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "symbol_filter.hpp"

namespace itch5::inside {

/// How the reader ended and what it counted.
void reader_counts(itch5::message_reader& reader, inside_result& r);

/// The requested symbols that no book named (`seen`: the upper-case symbols of every book), sorted.
void find_symbols_not_seen(const inside_options& opt, const std::unordered_set<std::string>& seen,
                           inside_result& r);

/// Adds the upper-case symbol of every book of `engine` to `seen`.
template <class Engine>
void add_seen_symbols(const Engine& engine, std::unordered_set<std::string>& seen) {
  for (std::size_t locate = 0; locate < engine.book_slots(); ++locate) {
    const auto* b = engine.find_book(static_cast<std::uint16_t>(locate));
    if (b != nullptr) seen.insert(upper_case(b->symbol.str()));
  }
}

/// The end of a run with one book thread (run_loop, run_decoded), after its observer's finish(): the
/// reader's and the engine's counts, and the symbols not seen.
template <class Engine>
void finish_single(itch5::message_reader& reader, const Engine& engine, const inside_options& opt,
                   inside_result& r) {
  reader_counts(reader, r);
  r.book_events = engine.book_events();
  r.inside_changes = engine.inside_changes();
  r.anomalies = engine.anomalies();
  r.peak_live_orders = engine.orders().peak_size();
  r.order_table_bytes = engine.orders().memory_bytes();
  std::unordered_set<std::string> seen;
  add_seen_symbols(engine, seen);
  find_symbols_not_seen(opt, seen, r);
}

}  // namespace itch5::inside
