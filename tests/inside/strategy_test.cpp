// choose_strategy: each rule that shapes a run of run_inside (book threads, decode thread, line thread,
// statistics instantiation), from the options, compressed input or not, and the hardware threads.
#include <itch5/inside/strategy.hpp>

#include <itch5/io/capture.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/sink_thread.hpp>
#include <itch5/tables/trades_table.hpp>

#include <gtest/gtest.h>

#include <ostream>

namespace itch5::inside {
void PrintTo(const strategy& s, std::ostream* os) {
  *os << "{sharded " << s.sharded << ", decode_thread " << s.decode_thread << ", line_thread "
      << s.line_thread << ", timed " << s.timed << ", depth " << s.depth << "}";
}
}  // namespace itch5::inside

namespace {

using itch5::inside::choose_strategy;
using itch5::inside::inside_options;
using itch5::inside::strategy;

constexpr bool raw = false;
constexpr bool gzip = true;

strategy make(bool sharded, bool decode, bool lines, bool timed = false, bool depth = false) {
  strategy s;
  s.sharded = sharded;
  s.decode_thread = decode;
  s.line_thread = lines;
  s.timed = timed;
  s.depth = depth;
  return s;
}

TEST(Strategy, DefaultOneBookThreadTakesADecodeThreadAndALineThread) {
  const inside_options opt;
  EXPECT_EQ(choose_strategy(opt, raw, 2), make(false, true, true));
  EXPECT_EQ(choose_strategy(opt, raw, 16), make(false, true, true));
  EXPECT_EQ(choose_strategy(opt, raw, 0), make(false, true, true));  // uncompressed: cores do not matter
}

TEST(Strategy, GzipOnTwoCoresTakesALineThreadButNoDecodeThread) {
  const inside_options opt;
  EXPECT_EQ(choose_strategy(opt, gzip, 2), make(false, false, true));
  EXPECT_EQ(choose_strategy(opt, gzip, 1), make(false, false, true));
  EXPECT_EQ(choose_strategy(opt, gzip, 0), make(false, false, true));  // unknown: none to spare
  EXPECT_EQ(choose_strategy(opt, gzip, 3), make(false, true, true));
  EXPECT_EQ(choose_strategy(opt, gzip, 8), make(false, true, true));
}

TEST(Strategy, TheOptionsTurnEachHelperThreadOff) {
  inside_options no_lines;
  no_lines.line_thread = false;
  EXPECT_EQ(choose_strategy(no_lines, raw, 4), make(false, true, false));
  EXPECT_EQ(choose_strategy(no_lines, gzip, 2), make(false, false, false));
  inside_options no_decode;
  no_decode.decode_thread = false;
  EXPECT_EQ(choose_strategy(no_decode, raw, 4), make(false, false, true));
  inside_options neither = no_lines;
  neither.decode_thread = false;
  EXPECT_EQ(choose_strategy(neither, raw, 4), make(false, false, false));
}

TEST(Strategy, StatisticsKeepTheHelperThreads) {
  inside_options stats;
  stats.stats = true;
  EXPECT_EQ(choose_strategy(stats, raw, 8), make(false, true, true, true, false));
  EXPECT_EQ(choose_strategy(stats, raw, 2), make(false, true, true, true, false));
  EXPECT_EQ(choose_strategy(stats, gzip, 2), make(false, false, true, true, false)) << "the inflater's core";
  EXPECT_EQ(choose_strategy(stats, gzip, 4), make(false, true, true, true, false));
  inside_options histograms;
  histograms.histograms = true;  // implies statistics and depth
  EXPECT_EQ(choose_strategy(histograms, raw, 8), make(false, true, true, true, true));
  inside_options both = stats;
  both.depth = true;
  EXPECT_EQ(choose_strategy(both, raw, 8), make(false, true, true, true, true));
  inside_options no_lines = both;
  no_lines.line_thread = false;
  EXPECT_EQ(choose_strategy(no_lines, raw, 8), make(false, true, false, true, true));
}

TEST(Strategy, SlowestAndCaptureLatenciesTakeNeitherHelperThread) {
  inside_options slowest;
  slowest.slowest = 20;
  EXPECT_EQ(choose_strategy(slowest, raw, 8), make(false, false, false));
  slowest.stats = true;
  EXPECT_EQ(choose_strategy(slowest, raw, 8), make(false, false, false, true, false));
  // A capture's feed latencies come one per framed message, taken by the thread that frames them.
  itch5::io::latency_queue latencies;
  inside_options captured;
  captured.stats = true;
  captured.latencies = &latencies;
  EXPECT_EQ(choose_strategy(captured, raw, 8), make(false, false, false, true, false));
  captured.stats = false;
  captured.latencies = nullptr;
  captured.depth = true;
  EXPECT_EQ(choose_strategy(captured, raw, 8), make(false, true, true, false, true)) << "nothing timed";
}

// A run with tables keeps one book thread whatever --threads says, and takes the helper threads by the
// rules of a run without tables (the decode thread then hands over whole the messages the tables read).
TEST(Strategy, TablesKeepOneBookThreadAndTheHelperThreads) {
  struct unused_sink final : itch5::tables::table_sink<itch5::tables::trades_table> {
    void write(std::span<const itch5::tables::trade_row>) override {}
  } sink;
  inside_options tables;
  tables.tables.trades = &sink;
  strategy with_tables = make(false, true, true);
  with_tables.tables = true;
  EXPECT_EQ(choose_strategy(tables, raw, 2), with_tables);
  tables.threads = 4;
  EXPECT_EQ(choose_strategy(tables, raw, 2), with_tables) << "tables: one book thread";
  with_tables.decode_thread = false;
  EXPECT_EQ(choose_strategy(tables, gzip, 2), with_tables) << "the inflater's core";
  tables.decode_thread = false;
  EXPECT_EQ(choose_strategy(tables, raw, 8), with_tables);
  tables.decode_thread = true;
  // The N-level book's rows formatted on a sink thread take the second core of two.
  struct unused_levels final : itch5::tables::table_sink<itch5::tables::levels_table> {
    void write(std::span<const itch5::tables::levels_row>) override {}
  } levels;
  tables.tables.book_levels = &levels;
  with_tables.decode_thread = true;
  EXPECT_EQ(choose_strategy(tables, raw, 2), with_tables) << "levels, written on the books' thread";
  itch5::tables::sink_thread writer;
  tables.tables.writer = &writer;
  with_tables.decode_thread = false;
  EXPECT_EQ(choose_strategy(tables, raw, 2), with_tables) << "levels, written on a sink thread";
  with_tables.decode_thread = true;
  EXPECT_EQ(choose_strategy(tables, raw, 4), with_tables) << "levels, sink thread, cores to spare";
  tables.slowest = 5;
  with_tables.decode_thread = false;
  with_tables.line_thread = false;
  EXPECT_EQ(choose_strategy(tables, raw, 8), with_tables) << "slowest: every step on the books' thread";
}

TEST(Strategy, DepthAloneIsNotTimedAndKeepsTheHelperThreads) {
  inside_options depth;
  depth.depth = true;
  EXPECT_EQ(choose_strategy(depth, raw, 2), make(false, true, true, false, true));
  EXPECT_EQ(choose_strategy(depth, gzip, 2), make(false, false, true, false, true));
}

TEST(Strategy, SeveralBookThreadsTakeNoHelperThread) {
  inside_options opt;
  opt.threads = 2;
  EXPECT_EQ(choose_strategy(opt, raw, 8), make(true, false, false));
  EXPECT_EQ(choose_strategy(opt, gzip, 2), make(true, false, false));
  opt.threads = 5;
  opt.stats = true;
  opt.depth = true;
  EXPECT_EQ(choose_strategy(opt, raw, 8), make(true, false, false, true, true));
}

}  // namespace
