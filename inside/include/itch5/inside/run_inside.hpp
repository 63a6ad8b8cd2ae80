// The itch5inside job as a library call: read a stream, keep every book, write one line per inside change,
// and optionally collect feed statistics and depth histograms.
//
//   itch5::inside::inside_options opt;                 // book type, window, symbol filter, statistics wanted
//   itch5::inside::inside_result r = itch5::inside::run_inside(reader, opt, sink, on_progress);
//
// Lines go to `sink` in chunks of complete lines (inside_line.hpp format), so a consumer never sees half a
// line, also when the input turns out to be corrupt halfway: the run stops at the first read error, hands
// over everything produced before it, and reports the error in the result. The book type is chosen at run
// time by name among itch5::book::all_book_types; the message loop is instantiated per book type and per
// statistics configuration, so the default run pays for no clock reads or depth queries. Which loop runs
// (one book thread with or without a decode thread and a line thread, or several book threads) is
// choose_strategy's decision (strategy.hpp).
//
// Processing time (with statistics on) is the steady-clock time from before decoding a message to after
// its book update, inside-change detection and output formatting.
#pragma once

#include <functional>

#include <itch5/message_reader.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>
#include <itch5/inside/line_sink.hpp>

namespace itch5::inside {

/// Called about every 64 Ki messages with the reader, for progress reports, on the thread that reads the
/// stream (with inside_options::decode_thread, not the calling thread).
using progress_callback = std::function<void(const itch5::message_reader&)>;

/// Runs the job. Throws std::invalid_argument for an unknown book type, threads == 0, or slowest with
/// threads > 1; never throws for bad input.
[[nodiscard]] inside_result run_inside(itch5::message_reader& reader, const inside_options& options,
                                       line_sink& out, const progress_callback& progress = {});

}  // namespace itch5::inside
