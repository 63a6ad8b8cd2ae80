// Signals from inside-change files, windowing, flags, the summary and the CSV output.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/io/output_file.hpp>
#include <itch5/tde/report/csv_writer.hpp>
#include <itch5/tde/report/delay_summary.hpp>
#include <itch5/tde/windows/feed_events.hpp>
#include <itch5/tde/windows/window_analyzer.hpp>

namespace {

using namespace std::chrono_literals;
using itch5::tde::estimate_flag;
using itch5::tde::signal_kind;

class temp_file {
 public:
  temp_file(const std::string& name, const std::string& text)
      : path_((std::filesystem::temp_directory_path() / ("tde_wa_" + std::to_string(::getpid()) + "_" + name))
                  .string()) {
    std::ofstream(path_) << text;
  }
  ~temp_file() { std::filesystem::remove(path_); }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct quote {
  std::int64_t t;
  std::string symbol;
  std::int64_t bid, bid_qty, offer, offer_qty;
};

std::string lines(const std::vector<quote>& quotes) {
  std::string s;
  for (const auto& q : quotes) {
    s += std::to_string(q.t) + " 1 " + q.symbol + " " + std::to_string(q.bid) + " " +
         std::to_string(q.bid_qty) + " " + std::to_string(q.offer) + " " + std::to_string(q.offer_qty) + "\n";
  }
  return s;
}

TEST(feed_events, signal_values_are_changes_from_the_previous_quote) {
  temp_file f("values.txt",
              lines({
                  {100, "AAPL", 1000000, 100, 1000200, 300},  // first: only an event
                  {200, "AAPL", 1000100, 100, 1000200, 300},  // bid +100, mid +50
                  {300, "AAPL", 1000100, 400, 1000300, 200},  // bid size +300, offer +100 & size -100
                  {400, "AAPL", 0, 0, 1000300, 200},          // bid gone: size -400, no price change
                  {500, "AAPL", 1000000, 50, 2000000000, 0},  // bid back (no price change), offer gone
                  {600, "AAPL", 1000000, 50, 1000400, 10},    // offer back
                  {700, "AAPL", 1000200, 50, 1000600, 10},    // both +200: mid +200
              }));
  itch5::tde::inside_reader reader(f.path());
  itch5::tde::feed_events feed(reader);
  feed.load_until(1000);
  auto ev = feed.events("AAPL");
  ASSERT_EQ(ev.size(), 7u);
  auto row = [&](std::size_t i) {
    std::vector<double> v;
    for (auto s : itch5::tde::all_signal_kinds) v.push_back(ev[i][s]);
    return v;
  };
  //                 events mid  bid  offer  bid-size offer-size
  EXPECT_EQ(row(0), (std::vector<double>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(row(1), (std::vector<double>{1, 50, 100, 0, 0, 0}));
  EXPECT_EQ(row(2), (std::vector<double>{1, 50, 0, 100, 300, -100}));
  EXPECT_EQ(row(3), (std::vector<double>{1, 0, 0, 0, -400, 0}));
  EXPECT_EQ(row(4), (std::vector<double>{1, 0, 0, 0, 50, -200}));
  EXPECT_EQ(row(5), (std::vector<double>{1, 0, 0, 0, 0, 10}));
  EXPECT_EQ(row(6), (std::vector<double>{1, 200, 200, 200, 0, 0}));
}

TEST(feed_events, keeps_chosen_symbols_and_slides) {
  temp_file f("slide.txt", lines({{10, "A", 1, 1, 2, 1},
                                  {20, "B", 1, 1, 2, 1},
                                  {30, "C", 1, 1, 2, 1},
                                  {40, "A", 1, 2, 2, 1},
                                  {50, "B", 1, 2, 2, 1}}));
  itch5::tde::inside_reader reader(f.path());
  itch5::tde::feed_events feed(reader, {"A", "B"});
  EXPECT_EQ(feed.next_timestamp(), 10);
  feed.load_until(40);
  EXPECT_EQ(feed.events("A").size(), 1u);
  EXPECT_EQ(feed.events("B").size(), 1u);
  EXPECT_TRUE(feed.events("C").empty()) << "not chosen";
  EXPECT_EQ(feed.next_timestamp(), 40);
  feed.drop_before(15);
  EXPECT_TRUE(feed.events("A").empty());
  auto active = feed.active_symbols();
  EXPECT_EQ(active, std::vector<std::string_view>{"B"});
  feed.load_until(100);
  feed.drop_before(45);
  EXPECT_TRUE(feed.events("A").empty());
  ASSERT_EQ(feed.events("B").size(), 1u);
  EXPECT_EQ(feed.events("B")[0].timestamp, 50);
  EXPECT_FALSE(feed.next_timestamp().has_value());
}

TEST(feed_events, knows_which_chosen_symbols_it_has_seen) {
  temp_file f("seen.txt", lines({{10, "A", 1, 1, 2, 1}, {20, "C", 1, 1, 2, 1}, {30, "B", 1, 1, 2, 1}}));
  itch5::tde::inside_reader reader(f.path());
  itch5::tde::feed_events feed(reader, {"A", "B", "Z"});
  EXPECT_FALSE(feed.seen("A")) << "nothing read yet";
  EXPECT_EQ(feed.next_timestamp(), 10);
  EXPECT_TRUE(feed.seen("A")) << "read ahead, not yet queued";
  EXPECT_FALSE(feed.seen("B"));
  feed.load_until(25);
  EXPECT_EQ(feed.events("A").size(), 1u);
  EXPECT_TRUE(feed.seen("B")) << "read ahead past C to the next chosen change";
  EXPECT_TRUE(feed.events("B").empty());
  feed.load_until(100);
  EXPECT_FALSE(feed.next_timestamp().has_value());
  EXPECT_FALSE(feed.seen("Z"));
  EXPECT_FALSE(feed.seen("C")) << "not chosen";
}

struct collected {
  std::int64_t start;
  std::string symbol;
  signal_kind signal;
  std::uint64_t events_a, events_b;
  itch5::tde::delay_estimate est;
  double delay_us;
};

std::vector<collected> analyse(const std::string& a, const std::string& b,
                               const itch5::tde::analysis_options& o) {
  itch5::tde::inside_reader ra(a), rb(b);
  itch5::tde::window_analyzer<double> wa(o, ra, rb);
  std::vector<collected> out;
  wa.run([&](const itch5::tde::window_row& r) {
    out.push_back(
        {r.window_start, std::string(r.symbol), r.signal, r.events_a, r.events_b, r.estimate, r.delay_us});
  });
  return out;
}

// Random quote changes for `symbols` over [begin, end) ns, about one per `gap` ns per symbol.
std::vector<quote> random_quotes(const std::vector<std::string>& symbols, std::int64_t begin,
                                 std::int64_t end, std::int64_t gap, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> wait(1.0 / static_cast<double>(gap));
  std::uniform_int_distribution<int> step(-2, 2), size(1, 9);
  std::vector<quote> out;
  for (const auto& s : symbols) {
    std::int64_t bid = 1000000;
    for (double t = static_cast<double>(begin) + wait(rng); t < static_cast<double>(end); t += wait(rng)) {
      bid += 100 * step(rng);
      out.push_back({static_cast<std::int64_t>(t), s, bid, 100 * size(rng), bid + 100 * (1 + size(rng) % 2),
                     100 * size(rng)});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const quote& x, const quote& y) { return x.t < y.t; });
  return out;
}

std::vector<quote> shifted(std::vector<quote> q, std::int64_t by) {
  for (auto& x : q) x.t += by;
  return q;
}

itch5::tde::analysis_options small_options() {
  itch5::tde::analysis_options o;
  o.sampling_period = 1us;
  o.window = 4096us;
  o.max_lag = 200us;
  o.min_events = 10;
  return o;
}

TEST(window_analyzer, recovers_a_shift_between_files_window_by_window) {
  const std::int64_t begin = 34'200'000'000'000, end = begin + 40'000'000;  // 40 ms
  auto a = random_quotes({"AAA", "BBB"}, begin, end, 20'000, 1);
  temp_file fa("a.txt", lines(a)), fb("b.txt", lines(shifted(a, 37'000)));  // B lags A by 37 us
  auto o = small_options();
  o.signals = {signal_kind::events, signal_kind::mid};
  auto rows = analyse(fa.path(), fb.path(), o);
  ASSERT_FALSE(rows.empty());
  std::map<std::int64_t, std::map<std::string, std::uint64_t>> count_a;
  for (const auto& q : a) count_a[q.t / 4'096'000 * 4'096'000][q.symbol]++;
  int passed = 0;
  std::int64_t last_start = -1;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    EXPECT_EQ(r.start % 4'096'000, 0) << "windows are aligned to midnight";
    EXPECT_GE(r.start, last_start);
    last_start = r.start;
    EXPECT_EQ(r.events_a, count_a[r.start][r.symbol]) << r.start << " " << r.symbol;
    if (i > 0 && rows[i - 1].start == r.start && rows[i - 1].symbol == r.symbol) {
      EXPECT_EQ(rows[i - 1].signal, signal_kind::events);
      EXPECT_EQ(r.signal, signal_kind::mid);
    }
    if (r.est.passed()) {
      ++passed;
      EXPECT_EQ(r.est.lag, 37);
      EXPECT_NEAR(r.delay_us, 37, 0.5);
    }
  }
  EXPECT_GE(passed, static_cast<int>(rows.size()) * 3 / 4);
}

TEST(window_analyzer, sparse_or_one_sided_symbols_are_skipped_and_counted) {
  const std::int64_t t0 = 4'096'000 * 8'000'000LL;  // a window start, so all these changes share one window
  std::vector<quote> a = {{t0 + 100, "FEW", 1, 1, 3, 1},
                          {t0 + 900, "FEW", 2, 1, 3, 1},
                          {t0 + 1500, "FEW", 2, 2, 3, 1},
                          {t0 + 2000, "ONLYA", 1, 1, 3, 1}};
  std::vector<quote> b = {
      {t0 + 150, "FEW", 1, 1, 3, 1}, {t0 + 950, "FEW", 2, 1, 3, 1}, {t0 + 1550, "FEW", 2, 2, 3, 1}};
  temp_file fa("fa.txt", lines(a)), fb("fb.txt", lines(b));
  auto o = small_options();
  o.signals = {signal_kind::events, signal_kind::mid};
  {
    // min_events 10: neither symbol has 10 changes on both sides, so no transform and no row.
    itch5::tde::inside_reader ra(fa.path()), rb(fb.path());
    itch5::tde::window_analyzer<double> wa(o, ra, rb);
    wa.run([](const itch5::tde::window_row& r) { ADD_FAILURE() << "a row for " << r.symbol; });
    EXPECT_EQ(wa.skipped(), 2u) << "FEW and ONLYA, once each whatever the number of signals";
    EXPECT_EQ(wa.windows(), 0u);
  }
  {
    // min_events 3: FEW (3 and 3) is estimated, ONLYA (1 and 0) skipped.
    o.min_events = 3;
    itch5::tde::inside_reader ra(fa.path()), rb(fb.path());
    itch5::tde::window_analyzer<double> wa(o, ra, rb);
    std::vector<std::string> symbols;
    wa.run([&](const itch5::tde::window_row& r) {
      symbols.emplace_back(r.symbol);
      EXPECT_EQ(r.events_a, 3u);
      EXPECT_EQ(r.events_b, 3u);
    });
    EXPECT_EQ(symbols, (std::vector<std::string>{"FEW", "FEW"}));
    EXPECT_EQ(wa.skipped(), 1u);
    EXPECT_EQ(wa.windows(), 1u);
  }
  // min_events 0: every symbol that changed gets rows; one side without changes is flagged flat.
  o.min_events = 0;
  auto rows = analyse(fa.path(), fb.path(), o);
  std::map<std::string, collected> by_symbol;
  for (const auto& r : rows) by_symbol[r.symbol] = r;
  ASSERT_EQ(rows.size(), 4u);
  ASSERT_EQ(by_symbol.size(), 2u);
  EXPECT_EQ(by_symbol["FEW"].events_a, 3u);
  const auto& only = by_symbol["ONLYA"];
  EXPECT_EQ(only.events_a, 1u);
  EXPECT_EQ(only.events_b, 0u);
  EXPECT_TRUE(only.est.flags.test(estimate_flag::flat));
  EXPECT_FALSE(only.est.flags.test(estimate_flag::few_events));
  EXPECT_TRUE(std::isnan(only.delay_us));
}

// Many batches (more than 32 jobs per worker): the same rows in the same order for any number of threads,
// and a sink that throws in the middle leaves through the analyzer's destructor without harm.
TEST(window_analyzer, the_rows_do_not_depend_on_the_number_of_threads) {
  const std::int64_t begin = 34'200'000'000'000, end = begin + 400'000'000;  // 400 ms: ~98 windows
  auto a = random_quotes({"AAA", "BBB", "CCC", "DDD"}, begin, end, 50'000, 11);
  temp_file fa("ta.txt", lines(a)), fb("tb.txt", lines(shifted(a, 21'000)));
  auto o = small_options();
  o.signals = {signal_kind::events, signal_kind::mid};
  o.min_events = 5;
  o.threads = 1;
  const auto one = analyse(fa.path(), fb.path(), o);
  ASSERT_GT(one.size(), 300u);
  for (std::size_t threads : {2, 3, 5}) {
    o.threads = threads;
    const auto many = analyse(fa.path(), fb.path(), o);
    ASSERT_EQ(many.size(), one.size()) << threads;
    for (std::size_t i = 0; i < one.size(); ++i) {
      EXPECT_EQ(many[i].start, one[i].start);
      EXPECT_EQ(many[i].symbol, one[i].symbol);
      EXPECT_EQ(many[i].signal, one[i].signal);
      EXPECT_EQ(many[i].est.lag, one[i].est.lag);
      EXPECT_EQ(std::isnan(many[i].delay_us) ? -1.0 : many[i].delay_us,
                std::isnan(one[i].delay_us) ? -1.0 : one[i].delay_us)
          << threads << " threads, row " << i;
    }
    itch5::tde::inside_reader ra(fa.path()), rb(fb.path());
    itch5::tde::window_analyzer<double> wa(o, ra, rb);
    std::size_t rows = 0;
    EXPECT_THROW(wa.run([&](const itch5::tde::window_row&) {
      if (++rows == 100) throw std::runtime_error("stop");
    }),
                 std::runtime_error);
  }
}

TEST(window_analyzer, skips_quiet_stretches_and_honours_the_hop) {
  // Two bursts an hour apart: only the windows holding them produce rows.
  const std::int64_t t1 = 34'200'000'000'000, t2 = t1 + 3'600'000'000'000;
  auto a = random_quotes({"XYZ"}, t1, t1 + 3'000'000, 10'000, 3);
  auto a2 = random_quotes({"XYZ"}, t2, t2 + 3'000'000, 10'000, 4);
  a.insert(a.end(), a2.begin(), a2.end());
  temp_file fa("qa.txt", lines(a)), fb("qb.txt", lines(shifted(a, 5'000)));
  auto o = small_options();
  auto rows = analyse(fa.path(), fb.path(), o);
  std::set<std::int64_t> starts;
  for (const auto& r : rows) starts.insert(r.start);
  EXPECT_LE(starts.size(), 6u);
  EXPECT_GE(starts.size(), 2u);
  for (auto s : starts) {
    EXPECT_TRUE((s <= t1 + 3'005'000 && s + 4'096'000 > t1) || (s <= t2 + 3'005'000 && s + 4'096'000 > t2))
        << s;
  }

  o.hop = 1024us;  // overlapping windows, 4 per window length
  auto overlapped = analyse(fa.path(), fb.path(), o);
  std::set<std::int64_t> hop_starts;
  for (const auto& r : overlapped) {
    EXPECT_EQ(r.start % 1'024'000, 0);
    hop_starts.insert(r.start);
    if (r.est.passed()) {
      EXPECT_EQ(r.est.lag, 5);
    }
  }
  EXPECT_GT(hop_starts.size(), starts.size());
}

TEST(window_analyzer, compares_different_symbols_when_paired) {
  const std::int64_t begin = 34'200'000'000'000, end = begin + 12'000'000;
  auto a = random_quotes({"LEAD"}, begin, end, 15'000, 5);
  auto b = shifted(a, -12'000);  // FOLLOW's changes come 12 us *before* LEAD's in this setup: delay -12
  for (auto& q : b) q.symbol = "FOLLOW";
  temp_file fa("pa.txt", lines(a)), fb("pb.txt", lines(b));
  auto o = small_options();
  o.symbols = {itch5::tde::parse_symbol_pair("LEAD:FOLLOW")};
  auto rows = analyse(fa.path(), fb.path(), o);
  ASSERT_FALSE(rows.empty());
  int passed = 0;
  for (const auto& r : rows) {
    EXPECT_EQ(r.symbol, "LEAD:FOLLOW");
    if (r.est.passed()) {
      ++passed;
      EXPECT_EQ(r.est.lag, -12);
    }
  }
  EXPECT_GE(passed, 1);
}

TEST(window_analyzer, a_chosen_symbol_absent_from_its_file_is_an_error_after_the_rows) {
  const std::int64_t begin = 34'200'000'000'000, end = begin + 12'000'000;
  auto a = random_quotes({"LEAD", "OTHER"}, begin, end, 15'000, 5);
  temp_file fa("absent_a.txt", lines(a)), fb("absent_b.txt", lines(shifted(a, 3'000)));
  auto o = small_options();
  // LEAD is in both files, NOPE in neither, OTHER in A only as the first of a pair.
  o.symbols = {itch5::tde::parse_symbol_pair("LEAD"), itch5::tde::parse_symbol_pair("OTHER:NOPE"),
               itch5::tde::parse_symbol_pair("NOPE:LEAD")};
  itch5::tde::inside_reader ra(fa.path()), rb(fb.path());
  itch5::tde::window_analyzer<double> wa(o, ra, rb);
  std::size_t rows = 0;
  try {
    wa.run([&](const itch5::tde::window_row&) { ++rows; });
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "NOPE does not appear in " + fa.path() + "; NOPE does not appear in " + fb.path());
  }
  EXPECT_GT(rows, 0u) << "the rows came first";
  EXPECT_EQ(ra.changes(), a.size()) << "read to the end";

  // Nothing chosen appears anywhere: still an error, though no window has rows.
  o.symbols = {itch5::tde::parse_symbol_pair("X"), itch5::tde::parse_symbol_pair("Y:Z")};
  itch5::tde::inside_reader ra2(fa.path()), rb2(fb.path());
  itch5::tde::window_analyzer<double> wa2(o, ra2, rb2);
  try {
    wa2.run([&](const itch5::tde::window_row&) { ADD_FAILURE() << "a row"; });
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "X, Y do not appear in " + fa.path() + "; X, Z do not appear in " + fb.path());
  }
}

TEST(window_analyzer, every_symbol_when_none_chosen_in_name_order) {
  std::vector<quote> a = {{1000, "ZED", 1, 1, 3, 1}, {1001, "ALPHA", 1, 1, 3, 1}, {1002, "MID", 1, 1, 3, 1}};
  std::vector<quote> b = {{1000, "BETA", 1, 1, 3, 1}};
  temp_file fa("na.txt", lines(a)), fb("nb.txt", lines(b));
  auto o = small_options();
  o.min_events = 0;  // one change each: rows only when no window is skipped
  auto rows = analyse(fa.path(), fb.path(), o);
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r.symbol);
  EXPECT_EQ(names, (std::vector<std::string>{"ALPHA", "BETA", "MID", "ZED"}));
}

TEST(analysis_options, inconsistent_settings_are_rejected) {
  auto expect_bad = [](auto change) {
    auto o = small_options();
    change(o);
    EXPECT_THROW(o.validate(), std::invalid_argument);
  };
  expect_bad([](auto& o) { o.window = 4097500ns; });
  expect_bad([](auto& o) { o.window = 2us; });
  expect_bad([](auto& o) { o.max_lag = 4096us; });
  expect_bad([](auto& o) { o.max_lag = 2048us; });  // not below half the window
  expect_bad([](auto& o) { o.max_lag = 500ns; });
  expect_bad([](auto& o) { o.max_lag = 1500ns; });
  expect_bad([](auto& o) { o.hop = 1ns; });
  expect_bad([](auto& o) { o.hop = 1500ns; });
  expect_bad([](auto& o) { o.threads = 0; });
  expect_bad([](auto& o) { o.sampling_period = 0ns; });
  expect_bad([](auto& o) { o.signals = {}; });
  expect_bad([](auto& o) { o.signals = {signal_kind::mid, signal_kind::mid}; });
  expect_bad([](auto& o) {
    o.symbols = {itch5::tde::parse_symbol_pair("A"), itch5::tde::parse_symbol_pair("A")};
  });
  expect_bad([](auto& o) { o.upsample = 1; });
  expect_bad([](auto& o) { o.upsample = 1025; });
  EXPECT_NO_THROW(small_options().validate());
  {
    auto edge = small_options();
    edge.max_lag = 2047us;  // (4096 - 1) / 2 samples: the longest accepted
    edge.hop = 1us;         // one period: the shortest accepted
    EXPECT_NO_THROW(edge.validate());
  }
  auto o = small_options();
  o.smooth = 2500ns;
  EXPECT_DOUBLE_EQ(o.estimator().smooth_sigma, 2.5);
  EXPECT_EQ(o.estimator().max_lag, 200u);
  EXPECT_EQ(o.estimator().length, 4096u);
  EXPECT_THROW((void)itch5::tde::parse_symbol_pair("TOOLONGSYM"), std::invalid_argument);
  EXPECT_THROW((void)itch5::tde::parse_symbol_pair("A:"), std::invalid_argument);
  EXPECT_EQ(itch5::tde::parse_symbol_pair("A:B").label(), "A:B");
  EXPECT_EQ(itch5::tde::parse_symbol_pair("AAPL").label(), "AAPL");
}

// The problem names the setting, the value and what would do; a program names the settings its own way
// (here as itch5tde's flags), and validate() throws the text with the members' names.
TEST(analysis_options, validation_errors_name_the_setting_the_value_and_what_would_do) {
  auto flag = [](std::string_view member) {
    std::string f = "--" + std::string(member);
    std::replace(f.begin(), f.end(), '_', '-');
    return f;
  };
  auto message = [&](auto change) -> std::string {
    auto o = small_options();
    change(o);
    const auto problem = o.problem();
    if (!problem) return "accepted";
    EXPECT_THROW(o.validate(), std::invalid_argument);
    return problem->text(flag);
  };
  EXPECT_EQ(message([](auto& o) { o.hop = 1500ns; }),
            "--hop 1.5us is not a whole number of sampling periods (1us): use 1us or 2us");
  EXPECT_EQ(message([](auto& o) { o.hop = 999ns; }),
            "--hop 999ns is not a whole number of sampling periods (1us): use 1us");
  EXPECT_EQ(message([](auto& o) { o.window = 4096500ns; }),
            "--window 4.0965ms is not a whole number of sampling periods (1us): use 4.096ms or 4.097ms");
  EXPECT_EQ(
      message([](auto& o) { o.max_lag = 2048us; }),
      "--max-lag 2.048ms is not below half the window (4.096ms): use at most 2.047ms, or a longer --window");
  EXPECT_EQ(message([](auto& o) { o.max_lag = 200500ns; }),
            "--max-lag 200.5us is not a whole number of sampling periods (1us): use 200us or 201us");
  EXPECT_EQ(message([](auto& o) { o.max_lag = 0ns; }),
            "--max-lag 0ns is shorter than one sampling period (1us): use at least 1us");
  EXPECT_EQ(message([](auto& o) {
              o.sampling_period = 10us;
              o.window = 2560us;
              o.max_lag = 1ms;
            }),
            "accepted");
  auto o = small_options();
  o.max_lag = 2048us;
  const auto problem = o.problem();
  ASSERT_TRUE(problem);
  EXPECT_EQ(problem->field, "max_lag");
  EXPECT_EQ(problem->why,
            "{max_lag} 2.048ms is not below half the window (4.096ms): use at most 2.047ms, or a "
            "longer {window}");
  try {
    o.validate();
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "max_lag 2.048ms is not below half the window (4.096ms): use at most 2.047ms, or a longer window");
  }
  o = small_options();
  o.to = o.from;
  ASSERT_TRUE(o.problem());
  EXPECT_EQ(o.problem()->field, "") << "no one setting";
  EXPECT_EQ(o.problem()->text(flag), "the time range must not be empty");
  EXPECT_FALSE(small_options().problem());
}

TEST(analysis_options, defaults_follow_the_sampling_period) {
  // The power of two of samples nearest 16.384 ms on a log scale.
  EXPECT_EQ(itch5::tde::default_window(1us), 16384us);
  EXPECT_EQ(itch5::tde::default_window(2us), 16384us);
  EXPECT_EQ(itch5::tde::default_window(3us), 3us * 4096);     // 5461 samples: 4096 (log2 12.4)
  EXPECT_EQ(itch5::tde::default_window(10us), 10us * 2048);   // 1638 samples: 2048 (log2 10.7)
  EXPECT_EQ(itch5::tde::default_window(100us), 100us * 128);  // 164 samples: 128 (log2 7.4)
  EXPECT_EQ(itch5::tde::default_window(100ns), 100ns * 131072);
  EXPECT_EQ(itch5::tde::default_window(1s), 4s) << "at least 4 samples";
  EXPECT_EQ(itch5::tde::default_window(1ns), 1ns * (1 << 24));
  EXPECT_EQ(itch5::tde::default_max_lag(1us, 16384us), 1ms);
  EXPECT_EQ(itch5::tde::default_max_lag(3us, 3us * 4096), 999us);  // rounded down to whole periods
  EXPECT_EQ(itch5::tde::default_max_lag(1ms, 16ms), 1ms);
  EXPECT_EQ(itch5::tde::default_max_lag(100us, 800us), 300us) << "below half the window: (8 - 1) / 2 periods";
  EXPECT_EQ(itch5::tde::default_max_lag(1s, 4s), 1s) << "at least one period";
  // Every default combination validates.
  for (std::chrono::nanoseconds p : std::initializer_list<std::chrono::nanoseconds>{
           1ns, 7ns, 1us, 3us, 10us, 33us, 100us, 1ms, 10ms, 1s}) {
    itch5::tde::analysis_options o;
    o.sampling_period = p;
    o.window = itch5::tde::default_window(p);
    o.max_lag = itch5::tde::default_max_lag(p, o.window);
    EXPECT_NO_THROW(o.validate()) << p.count();
  }
}

TEST(parse_symbol_pair, says_what_is_wrong) {
  auto error = [](std::string_view text) -> std::string {
    try {
      (void)itch5::tde::parse_symbol_pair(text);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(accepted)";
  };
  const std::string expected = " (expected SYM or SYMA:SYMB, 1 to 8 characters each)";
  EXPECT_EQ(error("A:B:C"), "bad symbol 'A:B:C': more than one ':'" + expected);
  EXPECT_EQ(error("A::B"), "bad symbol 'A::B': more than one ':'" + expected);
  EXPECT_EQ(error(":B"), "bad symbol ':B': empty symbol before ':'" + expected);
  EXPECT_EQ(error("A:"), "bad symbol 'A:': empty symbol after ':'" + expected);
  EXPECT_EQ(error(":"), "bad symbol ':': empty symbol before ':'" + expected);
  EXPECT_EQ(error(""), "bad symbol '': empty symbol" + expected);
  EXPECT_EQ(error("ABCDEFGHI"), "bad symbol 'ABCDEFGHI': 'ABCDEFGHI' is longer than 8 characters" + expected);
  EXPECT_EQ(error("A:ABCDEFGHI"),
            "bad symbol 'A:ABCDEFGHI': 'ABCDEFGHI' is longer than 8 characters" + expected);
  EXPECT_EQ(error("A B"), "bad symbol 'A B': 'A B' contains a blank" + expected);
  EXPECT_EQ(error("ABCDEFGH:ZYXWVUTS"), "(accepted)");
  EXPECT_EQ(itch5::tde::parse_symbol_pair("ABCDEFGH:Z").b, "Z");
}

TEST(weighted_quantile, equal_weights_follow_the_hazen_definition) {
  std::vector<std::pair<double, double>> v;
  for (int i = 1; i <= 100; ++i) v.emplace_back(i, 1.0);
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(v, 0.5), 50.5);
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(v, 0.1), 10.5);
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(v, 0.9), 90.5);
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(v, 0.0), 1);
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(v, 1.0), 100);
  EXPECT_TRUE(std::isnan(itch5::tde::weighted_quantile({}, 0.5)));
}

TEST(weighted_quantile, heavier_values_pull_the_quantiles) {
  // 0 (weight 1) sits at position 0.125, 10 (weight 3) at 0.625: the median is 3/4 of the way, 7.5.
  std::vector<std::pair<double, double>> v = {{0, 1}, {10, 3}};
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(v, 0.5), 7.5);
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(v, 0.1), 0);
  std::vector<std::pair<double, double>> with_zero = {{-50, 0}, {0, 1}, {10, 3}, {99, 0}};
  EXPECT_DOUBLE_EQ(itch5::tde::weighted_quantile(with_zero, 0.5), 7.5) << "zero weights have no say";
}

TEST(delay_summary, counts_rows_and_weights_passed_delays_by_rho) {
  itch5::tde::delay_summary s;
  for (int i = 1; i <= 9; ++i) s.add(signal_kind::events, i, 0.5, true);
  s.add(signal_kind::events, 1000, 0.9, false);  // failed: not in the quantiles
  s.add(signal_kind::mid, 3, 0.0, true);         // rho 0 everywhere: equal weights
  auto st = s.statistics(signal_kind::events);
  EXPECT_EQ(st.rows, 10u);
  EXPECT_EQ(st.passed, 9u);
  EXPECT_DOUBLE_EQ(st.pass_fraction, 0.9);
  EXPECT_DOUBLE_EQ(st.median, 5);
  EXPECT_DOUBLE_EQ(st.p25, 2.75);  // position of value k: (k - 0.5) / 9
  EXPECT_DOUBLE_EQ(st.p75, 7.25);
  EXPECT_DOUBLE_EQ(st.iqr, 4.5);
  EXPECT_DOUBLE_EQ(s.statistics(signal_kind::mid).median, 3);
  EXPECT_EQ(s.signals(), (std::vector<signal_kind>{signal_kind::events, signal_kind::mid}));
  auto text = s.text("itch5tde");
  EXPECT_NE(text.find("itch5tde: events: 9 of 10 symbol windows passed"), std::string::npos) << text;
  auto yaml = s.yaml(small_options());
  EXPECT_NE(yaml.find("    median_us: 5.000000"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("B lags A"), std::string::npos);
}

TEST(csv_writer, the_header_comes_first_and_missing_values_are_empty_fields) {
  const auto path =
      (std::filesystem::temp_directory_path() / ("tde_csv_" + std::to_string(::getpid()) + ".csv")).string();
  {
    itch5::io::output_file out(path);
    itch5::tde::csv_writer csv(out);
    itch5::tde::window_row row;
    row.window_start = 34200000000000;
    row.symbol = "AAPL";
    row.signal = signal_kind::bid_size;
    row.events_a = 12;
    row.events_b = 0;
    row.estimate.flags.set(estimate_flag::few_events);
    row.estimate.flags.set(estimate_flag::flat);
    row.delay_us = std::nan("");
    row.estimate.second_ratio = std::nan("");
    csv.write(row);
    row.events_b = 11;
    row.estimate = {};
    row.estimate.lag = -3;
    row.estimate.delay = -3.25;
    row.estimate.rho = 0.5;
    row.estimate.psr = 12.345;
    row.estimate.second_ratio = 0.25;
    row.estimate.z = 4.5;
    row.estimate.p_value = 0.00123456;
    row.delay_us = -3.25;
    csv.write(row);
    row.estimate.lag = 0;
    row.estimate.delay = -1e-9;
    row.delay_us = -1e-9;
    row.estimate.rho = 1;
    row.estimate.psr = std::numeric_limits<double>::infinity();
    row.estimate.second_ratio = -0.0;
    row.estimate.z = 812.25;
    row.estimate.p_value = 0;
    csv.write(row);
    csv.flush();
    out.commit();
  }
  std::ifstream in(path);
  std::vector<std::string> got;
  for (std::string line; std::getline(in, line);) got.push_back(line);
  std::filesystem::remove(path);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], itch5::tde::csv_writer::header());
  EXPECT_EQ(
      got[0].rfind(
          "window_start_ns,symbol,signal,events_a,events_b,lag_samples,delay_us,rho,psr,second_ratio,", 0),
      0u);
  EXPECT_EQ(itch5::tde::csv_writer::column_names().size(),
            static_cast<std::size_t>(std::count(got[0].begin(), got[0].end(), ',') + 1));
  EXPECT_EQ(got[1], "34200000000000,AAPL,bid-size,12,0,,,0.0000,0.00,,0.00,1,few_events|flat");
  EXPECT_EQ(got[2], "34200000000000,AAPL,bid-size,12,11,-3,-3.2500,0.5000,12.35,0.250,4.50,0.00123,ok");
  EXPECT_EQ(got[3], "34200000000000,AAPL,bid-size,12,11,0,0.0000,1.0000,inf,0.000,812.25,0,ok")
      << "no -0.0000";
}

TEST(csv_writer, the_sidecar_yaml_holds_the_sign_convention_settings_and_build) {
  itch5::tde::analysis_options o = small_options();
  o.symbols = {itch5::tde::parse_symbol_pair("SPY:QQQ")};
  o.from = std::chrono::nanoseconds(34200000000000);
  itch5::tde::csv_metadata m;
  m.version = "0.1.0";
  m.git_commit = "abc1234";
  m.csv = "out \"x\".csv";
  m.input_a = "a.txt";
  m.input_b = "b.txt";
  m.precision = "float";
  m.fft_length = 4608;
  const std::string y = itch5::tde::metadata_yaml(o, m);
  for (const std::string expected :
       {"program: itch5tde\n", "version: \"0.1.0\"\n", "git_commit: \"abc1234\"\n",
        "csv: \"out \\\"x\\\".csv\"\n", "input_a: \"a.txt\"\n", "sign_convention: \"delay > 0 means B lags A",
        "  symbols: [\"SPY:QQQ\"]", "  sampling_period_ns: 1000\n  window_ns: 4096000\n",
        "  from_ns: 34200000000000\n", "  fft_length: 4608\n", "  precision: float\n", "  smooth_ns: 1000\n",
        "  alpha: 0.01", "columns: [window_start_ns, symbol, signal,"}) {
    EXPECT_NE(y.find(expected), std::string::npos) << expected << "\nin\n" << y;
  }
  EXPECT_EQ(y.find("to_ns"), std::string::npos) << "no --to: no to_ns";
  EXPECT_EQ(itch5::tde::default_metadata_path("tde.csv"), "tde.csv.yaml");
  EXPECT_EQ(itch5::tde::default_metadata_path("dir/tde.csv.gz"), "dir/tde.csv.gz.yaml");
  EXPECT_EQ(itch5::tde::default_metadata_path("-"), "");
  EXPECT_EQ(itch5::tde::yaml_quoted("a\\b\tc"), "\"a\\\\b\\x09c\"");
}

}  // namespace
