// The shape of a run of run_inside, decided from its options and the machine before the first message:
// one book thread or several, and for one book thread whether a decode thread reads for it and a line
// thread writes for it; also which statistics the message loop is instantiated with. A pure function, so
// that each rule can be tested without threads or input.
//
//   const itch5::inside::strategy s = itch5::inside::choose_strategy(opt, reader.compressed(),
//                                                                    std::thread::hardware_concurrency());
#pragma once

#include <itch5/inside/inside_options.hpp>

namespace itch5::inside {

struct strategy {
  bool sharded = false;        ///< several book threads (inside_options::threads > 1)
  bool decode_thread = false;  ///< one book thread, fed by a decode thread
  bool line_thread = false;    ///< one book thread, whose lines a line thread formats and writes
  bool timed = false;          ///< feed statistics: every message's processing time is measured
  bool depth = false;          ///< depth histograms: every event's depth is measured
  bool tables = false;         ///< tables besides the lines: one book thread (with a decode thread or not)

  friend bool operator==(const strategy&, const strategy&) = default;
};

/// The strategy for `options` on input that is compressed (`compressed_input`: the reader inflates it) or
/// not, on a machine with `hardware_threads` hardware threads (0: unknown, taken as too few to spare).
/// Rules: tables (inside_options::tables) take one book thread, the line thread as without tables and the
/// decode thread by the rules below. Several book threads (without tables) take no helper thread. One book
/// thread takes none either with slowest (its times cover decoding and formatting) or with feed statistics
/// over a capture's latencies (they come with the framed messages); otherwise, statistics or not, it takes
/// the line thread if options.line_thread and the decode thread if options.decode_thread, except for
/// compressed input on at most two hardware threads, where the inflater keeps the second core busy and a
/// decode thread beside it costs more than it saves (docs/performance.md), and likewise for the N-level book
/// written through a sink thread (table_options::writer) on at most two.
[[nodiscard]] strategy choose_strategy(const inside_options& options, bool compressed_input,
                                       unsigned hardware_threads) noexcept;

}  // namespace itch5::inside
