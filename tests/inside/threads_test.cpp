// run_inside with book threads (inside_options::threads 2, 3 and 5) against one thread, on generated days:
// the same lines byte for byte, statistics CSV (but for its measured Processing columns), depth CSV,
// histograms, anomaly counts and every count of the result, for every option that changes what is
// written (statistics of inside changes or of all events, depth, the symbol filter, the time range), on
// input with anomalies, on input cut in the middle of a message (the same lines before the error and the
// same error) and when cancelled. The lines of the threads against the naive reference are checked by
// differential_test and synth_differential_test; this covers everything else the merge must reproduce.
// Also the line thread of one book thread (inside_options::line_thread) against lines formatted by the
// books' thread itself, and the decode thread (inside_options::decode_thread) against the books' thread
// reading for itself: the same output, the same sink error, the same cancelled run, and with the tables
// (trades, trade statistics, the N-level book, the market-state events, the inside table) the same rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <itch5/detail/endian.hpp>
#include <itch5/synth/generator.hpp>

#include <itch5/inside/run_inside.hpp>
#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/event_sinks.hpp>
#include <itch5/tables/inside_table.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>

namespace {

class string_sink final : public itch5::inside::line_sink {
 public:
  void write(std::string_view lines) override {
    EXPECT_TRUE(!lines.empty() && lines.back() == '\n') << "a chunk that does not end a line";
    text.append(lines);
  }
  std::string text;
};

struct outcome {
  itch5::inside::inside_result result;
  std::string lines;
};

outcome run(std::span<const std::byte> bytes, itch5::inside::inside_options opt, unsigned threads) {
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, true, 4}));
  opt.threads = threads;
  outcome o;
  string_sink sink;
  o.result = itch5::inside::run_inside(reader, opt, sink);
  o.lines = std::move(sink.text);
  return o;
}

// The CSV without the columns whose name contains "Processing" (measured times, never the same twice).
std::string without_processing(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, out;
  std::vector<bool> keep;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::size_t at = 0;
    for (;;) {
      const std::size_t comma = line.find(',', at);
      cells.push_back(line.substr(at, comma - at));
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
    if (keep.empty()) {
      for (const auto& c : cells) keep.push_back(c.find("Processing") == std::string::npos);
    }
    EXPECT_EQ(cells.size(), keep.size()) << line;
    for (std::size_t i = 0; i < cells.size() && i < keep.size(); ++i) {
      if (keep[i]) out += cells[i] + ",";
    }
    out += "\n";
  }
  return out;
}

// Where two big strings first differ (no EXPECT_EQ on them: its message would hold both).
std::string first_difference(const std::string& got, const std::string& expected) {
  if (got == expected) return "";
  std::size_t i = 0;
  while (i < got.size() && i < expected.size() && got[i] == expected[i]) ++i;
  const std::size_t from = i == 0 ? 0 : expected.rfind('\n', i - 1) + 1;
  return "first difference at byte " + std::to_string(i) + " (sizes " + std::to_string(got.size()) + " and " +
         std::to_string(expected.size()) + "):\n  got      " + got.substr(from, 120) + "\n  expected " +
         expected.substr(from, 120);
}

void clear_processing(itch5::stats::feed_table& t) {
  for (auto& s : t.symbols) s.processing = {};
  t.aggregate.processing = {};
}

void expect_same(const outcome& got, const outcome& one) {
  const itch5::inside::inside_result& g = got.result;
  const itch5::inside::inside_result& e = one.result;
  EXPECT_EQ(first_difference(got.lines, one.lines), "");
  EXPECT_EQ(g.messages_by_type, e.messages_by_type);
  EXPECT_EQ(g.messages, e.messages);
  EXPECT_EQ(g.unknown_types, e.unknown_types);
  EXPECT_EQ(g.oversized, e.oversized);
  EXPECT_EQ(g.book_events, e.book_events);
  EXPECT_EQ(g.inside_changes, e.inside_changes);
  EXPECT_EQ(g.lines, e.lines);
  for (std::size_t k = 0; k < itch5::book::anomaly_kinds; ++k) {
    const auto a = static_cast<itch5::book::anomaly>(k);
    EXPECT_EQ(g.anomalies[a], e.anomalies[a]) << itch5::book::to_string(a);
  }
  EXPECT_EQ(g.peak_live_orders, e.peak_live_orders);
  EXPECT_EQ(g.status, e.status);
  EXPECT_EQ(g.error.code, e.error.code);
  EXPECT_EQ(g.error.offset, e.error.offset);
  EXPECT_EQ(g.error.message_number, e.error.message_number);
  EXPECT_EQ(g.error.detail, e.error.detail);
  EXPECT_EQ(g.data_after_end_of_session, e.data_after_end_of_session);
  EXPECT_EQ(g.cancelled, e.cancelled);
  EXPECT_EQ(g.start_of_messages, e.start_of_messages);
  EXPECT_EQ(g.end_of_messages, e.end_of_messages);
  EXPECT_EQ(g.symbols_not_seen, e.symbols_not_seen);
  EXPECT_EQ(first_difference(without_processing(g.stats_csv), without_processing(e.stats_csv)), "");
  EXPECT_EQ(first_difference(g.depth_csv, e.depth_csv), "");
  itch5::stats::feed_table gf = g.histograms.feed, ef = e.histograms.feed;
  clear_processing(gf);
  clear_processing(ef);
  EXPECT_TRUE(gf == ef) << "feed histograms differ";
  EXPECT_TRUE(g.histograms.depth == e.histograms.depth) << "depth histograms differ";
}

std::vector<std::byte> generated_day(std::uint64_t seed, itch5::synth::reference_pattern references) {
  itch5::synth::generator_config cfg;
  cfg.messages = 400'000;
  cfg.seed = seed;
  cfg.references = references;
  std::vector<std::byte> bytes;
  const itch5::synth::generator::sink to = [&](std::span<const std::byte> b) {
    bytes.insert(bytes.end(), b.begin(), b.end());
  };
  (void)itch5::synth::generator(cfg).run(to);
  return bytes;
}

// The day with anomalies that keep every order message on its order's locate: now and then a timestamp
// set to 0 (backwards), a delete of an unknown reference (the order stays live), an add of 0 shares (its
// later messages refer to an unknown order), an execution larger than asked for, and a frame of an
// unknown type and an oversized frame inserted.
std::vector<std::byte> with_anomalies(const std::vector<std::byte>& day) {
  std::vector<std::byte> out;
  std::size_t at = 0, n = 0;
  while (at + 2 <= day.size()) {
    const std::size_t len = itch5::detail::load_be16(day.data() + at);
    if (len == 0) break;
    std::vector<std::byte> frame(day.begin() + static_cast<std::ptrdiff_t>(at),
                                 day.begin() + static_cast<std::ptrdiff_t>(at + 2 + len));
    std::byte* m = frame.data() + 2;
    const char type = static_cast<char>(m[0]);
    ++n;
    if (n % 997 == 0) std::fill(m + 5, m + 11, std::byte{0});                  // timestamp 0
    if (type == 'D' && n % 101 == 0) m[11] = std::byte{0x7f};                  // unknown reference
    if (type == 'A' && n % 103 == 0) std::fill(m + 20, m + 24, std::byte{0});  // 0 shares
    if (type == 'E' && n % 7 == 0) m[20] = std::byte{0x40};                    // more than the order has
    out.insert(out.end(), frame.begin(), frame.end());
    if (n % 5003 == 0) {  // an unknown type, 5 bytes
      for (int b : {0, 5, int{'z'}, 1, 2, 3, 4}) out.push_back(static_cast<std::byte>(b));
    }
    if (n % 7001 == 0 && type == 'D') {  // the same delete again, oversized by 4 bytes: an unknown order now
      out.push_back(std::byte{0});
      out.push_back(static_cast<std::byte>(len + 4));
      out.insert(out.end(), frame.begin() + 2, frame.end());
      for (int i = 0; i < 4; ++i) out.push_back(std::byte{0});
    }
    at += 2 + len;
  }
  return out;
}

struct option_case {
  std::string name;
  itch5::inside::inside_options options;
};

// Every option that changes what run_inside writes, with values read from the day's own lines.
std::vector<option_case> option_cases(const std::string& lines) {
  std::vector<option_case> cases;
  cases.push_back({"plain", {}});
  itch5::inside::inside_options all;
  all.histograms = true;  // statistics and depth, their CSVs and histograms
  all.stats = true;
  all.depth = true;
  cases.push_back({"stats, depth and histograms", all});
  itch5::inside::inside_options every;
  every.stats = true;
  every.stats_all_events = true;
  cases.push_back({"stats of all events", every});
  itch5::inside::inside_options depth;
  depth.depth = true;
  cases.push_back({"depth", depth});
  // Symbols: those of the first, the 100th and the 1000th line, and one that the day does not have.
  std::vector<std::string> rows;
  std::istringstream in(lines);
  for (std::string l; std::getline(in, l);) rows.push_back(l);
  auto field = [](const std::string& row, int k) {
    std::istringstream f(row);
    std::string s;
    for (int i = 0; i <= k; ++i) f >> s;
    return s;
  };
  itch5::inside::inside_options symbols;
  symbols.stats = true;
  symbols.depth = true;
  for (std::size_t i : {std::size_t{0}, rows.size() / 3, rows.size() / 2})
    symbols.symbols.push_back(field(rows[i], 2));
  symbols.symbols.push_back("NOSUCH");
  cases.push_back({"symbols", symbols});
  // The middle third of the day's lines.
  itch5::inside::inside_options range;
  range.stats = true;
  range.depth = true;
  range.from = itch5::timestamp(std::stoll(field(rows[rows.size() / 3], 0)));
  range.to = itch5::timestamp(std::stoll(field(rows[2 * rows.size() / 3], 0)));
  cases.push_back({"time range", range});
  return cases;
}

void expect_threads_match_one(std::span<const std::byte> bytes, const std::string& what) {
  const outcome plain = run(bytes, {}, 1);
  ASSERT_GT(plain.result.lines, 10'000u) << what;
  for (const option_case& c : option_cases(plain.lines)) {
    const outcome one = run(bytes, c.options, 1);
    for (unsigned threads : {2u, 3u, 5u}) {
      SCOPED_TRACE(what + ", " + c.name + ", " + std::to_string(threads) + " threads");
      expect_same(run(bytes, c.options, threads), one);
    }
  }
}

TEST(BookThreads, GeneratedDaysMatchOneThread) {
  const auto day = generated_day(21, itch5::synth::reference_pattern::sequential);
  expect_threads_match_one(day, "seed 21");
  const auto scattered = generated_day(22, itch5::synth::reference_pattern::random);
  expect_threads_match_one(scattered, "seed 22, random references");
}

TEST(BookThreads, AnomaliesAreCountedAsByOneThread) {
  const auto day = with_anomalies(generated_day(23, itch5::synth::reference_pattern::sequential));
  const outcome one = run(day, {}, 1);
  // Every injected kind shows, so the comparison below covers them.
  for (auto a : {itch5::book::anomaly::timestamp_backwards, itch5::book::anomaly::unknown_order,
                 itch5::book::anomaly::zero_shares, itch5::book::anomaly::reduce_exceeds_order}) {
    EXPECT_GT(one.result.anomalies[a], 0u) << itch5::book::to_string(a);
  }
  EXPECT_GT(one.result.unknown_types, 0u);
  EXPECT_GT(one.result.oversized, 0u);
  expect_threads_match_one(day, "seed 23 with anomalies");
}

TEST(BookThreads, InputCutInAMessageGivesTheSameLinesAndError) {
  const auto day = generated_day(24, itch5::synth::reference_pattern::sequential);
  // Cut at 60% of the bytes, in the middle of whatever message is there.
  const std::span<const std::byte> cut(day.data(), day.size() * 3 / 5);
  itch5::inside::inside_options opt;
  opt.stats = true;
  opt.depth = true;
  const outcome one = run(cut, opt, 1);
  ASSERT_EQ(one.result.status, itch5::read_status::error);
  ASSERT_GT(one.result.lines, 10'000u);
  for (unsigned threads : {2u, 3u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    expect_same(run(cut, opt, threads), one);
  }
}

// A copy that stopped: the day's size, but zeros from a message boundary at about 60% on. Every strategy
// (the books' thread reading itself, the decode thread, book threads) stops at the first zero length with
// the same lines and the same error, naming its offset and the bytes after it.
TEST(BookThreads, ZeroFilledTailIsTheSameErrorForEveryStrategy) {
  const auto day = generated_day(28, itch5::synth::reference_pattern::sequential);
  std::size_t boundary = 0;
  while (boundary < day.size() * 3 / 5) boundary += 2 + itch5::detail::load_be16(day.data() + boundary);
  std::vector<std::byte> damaged(day.begin(), day.begin() + static_cast<std::ptrdiff_t>(boundary));
  damaged.resize(day.size());
  itch5::inside::inside_options opt;
  opt.depth = true;
  opt.decode_thread = false;
  const outcome one = run(damaged, opt, 1);
  ASSERT_EQ(one.result.status, itch5::read_status::error);
  EXPECT_EQ(one.result.error.code, itch5::read_errc::zero_length_before_end);
  EXPECT_EQ(one.result.error.offset, boundary);
  EXPECT_EQ(one.result.error.detail,
            std::to_string(day.size() - boundary - 2) + " bytes after it not read (a zero-filled tail?)");
  ASSERT_GT(one.result.lines, 10'000u);
  opt.decode_thread = true;
  {
    SCOPED_TRACE("decode thread");
    expect_same(run(damaged, opt, 1), one);
  }
  for (unsigned threads : {2u, 3u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    expect_same(run(damaged, opt, threads), one);
  }
}

// A generated day holds the Start (S 'O') and End of Messages (S 'C') system events; the same day cut at a
// message boundary half way reads cleanly but lacks the end, and the day without its first message lacks
// the start. Every strategy notes them alike.
TEST(BookThreads, StartAndEndOfMessagesAreNotedByEveryStrategy) {
  const auto day = generated_day(29, itch5::synth::reference_pattern::sequential);
  const std::size_t first = 2 + itch5::detail::load_be16(day.data());
  ASSERT_EQ(static_cast<char>(day[2]), 'S');
  ASSERT_EQ(static_cast<char>(day[2 + 11]), 'O');
  std::size_t half = 0;
  while (half < day.size() / 2) half += 2 + itch5::detail::load_be16(day.data() + half);
  struct expected {
    std::string name;
    std::span<const std::byte> bytes;
    bool start;
    bool end;
  };
  for (const expected& e :
       {expected{"day", day, true, true},
        expected{"cut at a message boundary", {day.data(), half}, true, false},
        expected{"without its first message", {day.data() + first, day.size() - first}, false, true}}) {
    SCOPED_TRACE(e.name);
    itch5::inside::inside_options opt;
    opt.decode_thread = false;
    const outcome one = run(e.bytes, opt, 1);
    EXPECT_NE(one.result.status, itch5::read_status::error);
    EXPECT_EQ(one.result.start_of_messages, e.start);
    EXPECT_EQ(one.result.end_of_messages, e.end);
    opt.decode_thread = true;
    expect_same(run(e.bytes, opt, 1), one);
    expect_same(run(e.bytes, opt, 2), one);
  }
}

TEST(BookThreads, CancelledRunStopsAtTheSameMessage) {
  const auto day = generated_day(25, itch5::synth::reference_pattern::sequential);
  std::atomic<bool> cancel{true};  // stops at the first check, after 64 Ki messages
  itch5::inside::inside_options opt;
  opt.cancel = &cancel;
  const outcome one = run(day, opt, 1);
  ASSERT_TRUE(one.result.cancelled);
  ASSERT_EQ(one.result.messages, 65536u);
  expect_same(run(day, opt, 2), one);
}

TEST(BookThreads, ZeroThreadsIsRejected) {
  const auto day = generated_day(26, itch5::synth::reference_pattern::sequential);
  EXPECT_THROW((void)run(day, {}, 0), std::invalid_argument);
  EXPECT_THROW((void)run(day, {}, itch5::inside::max_threads + 1), std::invalid_argument);
}

// Book threads handle messages in batches, so there is no per-message time to rank.
TEST(BookThreads, SlowestMessagesNeedOneThread) {
  const auto day = generated_day(27, itch5::synth::reference_pattern::sequential);
  itch5::inside::inside_options opt;
  opt.slowest = 5;
  EXPECT_THROW((void)run(day, opt, 2), std::invalid_argument);
  const outcome one = run(day, opt, 1);
  EXPECT_EQ(one.result.slowest.size(), 5u);
  EXPECT_EQ(one.lines, run(day, {}, 1).lines);  // timing changes no output
}

// Everything that changes the lines of a run without timed messages (no statistics: those keep the lines on
// the books' thread), on a day, the same day with anomalies and the day cut in a message. A small output
// buffer makes the line thread flush often; the day's ~160 k changes fill more chunks than the ring holds,
// so the books' thread waits for the line thread too.
TEST(LineThread, WritesWhatTheBooksThreadWould) {
  const auto day = generated_day(31, itch5::synth::reference_pattern::sequential);
  const auto anomalous = with_anomalies(generated_day(32, itch5::synth::reference_pattern::sequential));
  const std::span<const std::byte> cut(day.data(), day.size() * 3 / 5);
  for (const auto& [what, bytes] : {std::pair<std::string, std::span<const std::byte>>{"day", day},
                                    {"with anomalies", anomalous},
                                    {"cut in a message", cut}}) {
    const outcome plain = run(bytes, {}, 1);
    ASSERT_GT(plain.result.lines, 10'000u) << what;
    for (option_case c : option_cases(plain.lines)) {
      c.options.stats = c.options.stats_all_events = c.options.histograms = false;  // nothing timed
      for (std::uint32_t buffer : {std::uint32_t{4096}, itch5::book::book_config{}.output_buffer_bytes}) {
        SCOPED_TRACE(what + ", " + c.name + ", buffer " + std::to_string(buffer));
        c.options.books.output_buffer_bytes = buffer;
        c.options.line_thread = false;
        const outcome books_thread = run(bytes, c.options, 1);
        c.options.line_thread = true;
        expect_same(run(bytes, c.options, 1), books_thread);
      }
    }
  }
}

// A sink that takes `good` writes and throws at the next one.
class failing_sink final : public itch5::inside::line_sink {
 public:
  explicit failing_sink(int good) : good_(good) {}
  void write(std::string_view lines) override {
    if (writes_++ == good_) throw std::runtime_error("no space left on device");
    text.append(lines);
  }
  std::string text;

 private:
  int good_;
  int writes_ = 0;
};

// The lines a run with `opt` hands a sink that takes five writes and throws at the sixth, after checking
// that the error reached run_inside's caller.
std::string lines_before_sink_error(std::span<const std::byte> day, itch5::inside::inside_options opt) {
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(day), {1 << 16, true, 4}));
  opt.books.output_buffer_bytes = 4096;
  failing_sink sink(5);
  try {
    (void)itch5::inside::run_inside(reader, opt, sink);
    ADD_FAILURE() << "no error from run_inside";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no space left on device");
  }
  return sink.text;
}

TEST(LineThread, SinkErrorReachesTheCaller) {
  const auto day = generated_day(33, itch5::synth::reference_pattern::sequential);
  std::string taken[2];
  for (bool line_thread : {false, true}) {
    SCOPED_TRACE(line_thread ? "line thread" : "books' thread");
    itch5::inside::inside_options opt;
    opt.line_thread = line_thread;
    taken[line_thread] = lines_before_sink_error(day, opt);
  }
  EXPECT_GT(taken[0].size(), 4u * 3000u);  // the five buffers before the failing write
  EXPECT_EQ(first_difference(taken[1], taken[0]), "");
}

TEST(LineThread, CancelledRunWritesWhatTheBooksThreadWould) {
  const auto day = generated_day(34, itch5::synth::reference_pattern::sequential);
  std::atomic<bool> cancel{true};  // stops at the first check, after 64 Ki messages
  itch5::inside::inside_options opt;
  opt.cancel = &cancel;
  opt.line_thread = false;
  const outcome books_thread = run(day, opt, 1);
  ASSERT_TRUE(books_thread.result.cancelled);
  ASSERT_GT(books_thread.result.lines, 1000u);
  opt.line_thread = true;
  expect_same(run(day, opt, 1), books_thread);
}

// The decode thread against the books' thread reading the stream itself, with and without the line thread,
// on the inputs and options of LineThread above (its messages come in 4,096-record chunks, the day's 400 k
// in ~100 of them, more than the ring of 8 holds, so the decode thread waits for the books' thread too).
TEST(DecodeThread, GivesWhatTheBooksThreadReadingItselfGives) {
  const auto day = generated_day(35, itch5::synth::reference_pattern::sequential);
  const auto anomalous = with_anomalies(generated_day(36, itch5::synth::reference_pattern::random));
  const std::span<const std::byte> cut(day.data(), day.size() * 2 / 3);
  for (const auto& [what, bytes] : {std::pair<std::string, std::span<const std::byte>>{"day", day},
                                    {"with anomalies", anomalous},
                                    {"cut in a message", cut}}) {
    itch5::inside::inside_options reading;
    reading.decode_thread = false;
    const outcome plain = run(bytes, reading, 1);
    ASSERT_GT(plain.result.lines, 10'000u) << what;
    if (what == "with anomalies") {
      ASSERT_GT(plain.result.anomalies.total(), 100u);
    }
    if (what == "cut in a message") {
      ASSERT_EQ(plain.result.status, itch5::read_status::error);
    }
    for (option_case c : option_cases(plain.lines)) {
      c.options.stats = c.options.stats_all_events = c.options.histograms = false;  // nothing timed
      for (bool line_thread : {false, true}) {
        SCOPED_TRACE(what + ", " + c.name + (line_thread ? ", line thread" : ", lines on the books' thread"));
        c.options.line_thread = line_thread;
        c.options.decode_thread = false;
        const outcome books_thread = run(bytes, c.options, 1);
        c.options.decode_thread = true;
        expect_same(run(bytes, c.options, 1), books_thread);
      }
    }
  }
}

TEST(DecodeThread, SinkErrorReachesTheCaller) {
  const auto day = generated_day(37, itch5::synth::reference_pattern::sequential);
  std::string taken[2];
  for (bool decode_thread : {false, true}) {
    SCOPED_TRACE(decode_thread ? "decode thread" : "books' thread");
    itch5::inside::inside_options opt;
    opt.decode_thread = decode_thread;
    opt.line_thread = false;  // the sink throws on the books' thread, in the middle of a chunk of records
    taken[decode_thread] = lines_before_sink_error(day, opt);
  }
  EXPECT_GT(taken[0].size(), 4u * 3000u);
  EXPECT_EQ(first_difference(taken[1], taken[0]), "");
}

TEST(DecodeThread, CancelledRunAndProgressAreThoseOfTheBooksThread) {
  const auto day = generated_day(38, itch5::synth::reference_pattern::sequential);
  std::atomic<bool> cancel{false};
  itch5::inside::inside_options opt;
  opt.cancel = &cancel;
  outcome got[2];
  std::vector<std::uint64_t> progress[2];
  for (bool decode_thread : {false, true}) {
    opt.decode_thread = decode_thread;
    cancel = false;
    itch5::message_reader reader(
        itch5::io::make_block_source(itch5::io::memory_input(day), {1 << 16, true, 4}));
    string_sink sink;
    // Cancelled at the third report (after 3 x 64 Ki messages): the rest of the day is not read.
    got[decode_thread].result =
        itch5::inside::run_inside(reader, opt, sink, [&](const itch5::message_reader& r) {
          progress[decode_thread].push_back(r.messages());
          if (progress[decode_thread].size() == 3) cancel = true;
        });
    got[decode_thread].lines = std::move(sink.text);
  }
  ASSERT_TRUE(got[0].result.cancelled);
  EXPECT_EQ(got[0].result.messages, 3u * 65536u);
  EXPECT_EQ(progress[0], (std::vector<std::uint64_t>{65536, 2 * 65536, 3 * 65536}));
  EXPECT_EQ(progress[1], progress[0]);
  expect_same(got[1], got[0]);
}

// A table's rows as CSV text (the library's row formatter), and whether finish() came.
struct table_text {
  virtual ~table_text() = default;
  std::string text;
  bool finished = false;
};
template <class T>
struct csv_text_sink final : itch5::tables::table_sink<T>, table_text {
  void write(std::span<const typename T::row> rows) override {
    for (const auto& r : rows) {
      std::vector<char> buf(itch5::tables::csv_row_bound<T>(r));
      text.append(buf.data(), itch5::tables::format_csv_row<T>(buf.data(), r));
    }
  }
  void finish() override { finished = true; }
};

// Every table of one run, as CSV text by table name, and the run's lines and result.
struct tables_outcome {
  outcome run;
  std::vector<std::pair<std::string, std::unique_ptr<table_text>>> tables;
};

tables_outcome run_with_tables(std::span<const std::byte> bytes, itch5::inside::inside_options opt) {
  tables_outcome o;
  const auto add = [&o]<class T>(std::type_identity<T>) {
    auto sink = std::make_unique<csv_text_sink<T>>();
    auto* const raw = sink.get();
    o.tables.emplace_back(std::string(T::name), std::move(sink));
    return raw;
  };
  opt.tables.trades = add(std::type_identity<itch5::tables::trades_table>{});
  opt.tables.trade_stats = add(std::type_identity<itch5::tables::trade_stats_table>{});
  opt.tables.book_levels = add(std::type_identity<itch5::tables::levels_table>{});
  opt.tables.levels = 5;
  opt.tables.inside = add(std::type_identity<itch5::tables::inside_table>{});
  itch5::tables::event_sinks events;
  itch5::tables::for_each_event_table(
      [&]<class T>(std::type_identity<T> t, auto member) { events.*member = add(t); });
  opt.tables.events = &events;
  o.run = run(bytes, opt, 1);
  return o;
}

// The decode thread's run gives every table, the lines and the result of the books' thread reading the
// input itself, with the lines on the books' thread or on a line thread. One test per input, so that
// ctest can run them side by side (CI's ThreadSanitizer step leaves out the whole day's).
void expect_tables_as_by_the_books_thread(std::span<const std::byte> bytes) {
  for (bool line_thread : {false, true}) {
    SCOPED_TRACE(line_thread ? "line thread" : "lines on the books' thread");
    itch5::inside::inside_options opt;
    opt.line_thread = line_thread;
    opt.decode_thread = false;
    const tables_outcome books_thread = run_with_tables(bytes, opt);
    opt.decode_thread = true;
    const tables_outcome decoded = run_with_tables(bytes, opt);
    expect_same(decoded.run, books_thread.run);
    ASSERT_EQ(decoded.tables.size(), books_thread.tables.size());
    std::size_t rows = 0;
    for (std::size_t i = 0; i < decoded.tables.size(); ++i) {
      const auto& [name, got] = decoded.tables[i];
      const table_text& want = *books_thread.tables[i].second;
      EXPECT_EQ(first_difference(got->text, want.text), "") << name;
      EXPECT_TRUE(got->finished && want.finished) << name;
      rows += static_cast<std::size_t>(std::count(want.text.begin(), want.text.end(), '\n'));
    }
    // The day has prints, directory and trading-action messages and N-level changes: rows to compare.
    EXPECT_GT(rows, 100'000u);
    for (const char* name : {"trades", "stock_directory", "levels"}) {
      const auto it = std::find_if(books_thread.tables.begin(), books_thread.tables.end(),
                                   [&](const auto& t) { return t.first == name; });
      ASSERT_NE(it, books_thread.tables.end()) << name;
      EXPECT_GT(it->second->text.size(), 1000u) << name;
    }
  }
}

TEST(DecodeThread, TablesAreThoseOfTheBooksThreadReadingItself) {
  expect_tables_as_by_the_books_thread(generated_day(39, itch5::synth::reference_pattern::random));
}

TEST(DecodeThread, TablesWithAnomaliesAreThoseOfTheBooksThreadReadingItself) {
  expect_tables_as_by_the_books_thread(
      with_anomalies(generated_day(40, itch5::synth::reference_pattern::sequential)));
}

TEST(DecodeThread, TablesOfAnInputCutInAMessageAreThoseOfTheBooksThreadReadingItself) {
  const auto day = generated_day(39, itch5::synth::reference_pattern::random);
  expect_tables_as_by_the_books_thread(std::span<const std::byte>(day.data(), day.size() * 2 / 3));
}

}  // namespace
