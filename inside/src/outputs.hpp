// The outputs of a run, listed once: what each book event of a wanted symbol is fanned out to, in this
// order (observer.hpp), per runner and statistics configuration. An output that is off is no_output.
//   one book thread (run_loop, run_decoded): the lines to `Out`, the samples to a sample_thread, which
//   records them in the stats:: tables on a thread of its own;
//   a book thread of the sharded run (shard): the lines to its batch's buffer, the samples to its
//   shard_samples, merged into the stats:: tables in message order by shard_merger.
// The tables (trades, N-level book, events) are one output, run_tables, in the single-thread observer only
// (a run with tables keeps one book thread, with or without a decode thread: strategy.hpp).
// To add an output: a type with the hooks of observer.hpp, one entry in each list below, its constructor
// argument where the runners build the observer (run_loop.hpp, run_decoded.hpp, shard.hpp), and its test
// (docs/design.md, "Adding an output").
#pragma once

#include <type_traits>

#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include "depth_output.hpp"
#include "events_output.hpp"
#include "feed_output.hpp"
#include "inside_table_output.hpp"
#include "line_formatter.hpp"
#include "levels_output.hpp"
#include "lines_output.hpp"
#include "lobster_output.hpp"
#include "observer.hpp"
#include "sample_thread.hpp"
#include "shard_samples.hpp"
#include "table_outputs.hpp"
#include "trades_output.hpp"

namespace itch5::inside {

/// The table outputs (table_outputs.hpp): one part per table, each made only when its table is on. A new
/// table adds its part here.
using run_tables =
    table_outputs<inside_table_output, events_output, trades_output, levels_output, lobster_output>;

/// The observer of one book thread that writes its lines to `Out` (line_formatter or line_thread), with
/// the tables when `Tables`. Built as observer_type(opt, {out}, {sample_thread*}, {opt, sample_thread*},
/// {opt}).
template <class Book, bool Timed, bool Depth, class Out, bool Tables = false>
using single_observer =
    observer<Book, true, lines_output<Out>, std::conditional_t<Depth, depth_output<sample_thread>, no_output>,
             std::conditional_t<Timed, feed_output<sample_thread>, no_output>,
             std::conditional_t<Tables, run_tables, no_output>>;

/// The observer of a book thread of the sharded run. Built as observer_type(opt, {lines}, {&samples},
/// {opt, &samples}).
template <class Book, bool Timed, bool Depth>
using shard_observer = observer<Book, false, lines_output<line_formatter>,
                                std::conditional_t<Depth, depth_output<shard_samples>, no_output>,
                                std::conditional_t<Timed, feed_output<shard_samples>, no_output>>;

}  // namespace itch5::inside
