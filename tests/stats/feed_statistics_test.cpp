// feed_statistics: the CSV header of docs/formats.md (written out by hand), one row per symbol in stock
// locate order plus __aggregate__, and every column of small hand-computed event sequences.
#include <itch5/stats/feed_statistics.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <itch5_test/csv_headers.hpp>

namespace {

using namespace std::chrono_literals;
using itch5::stats::feed_statistics;
using itch5_test::stats_csv_header;
using std::chrono::nanoseconds;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

std::string name_of(std::uint16_t locate) {
  switch (locate) {
    case 1: return "BBB";
    case 3: return "AAA";
    case 7: return "CCC";
    default: return "L" + std::to_string(locate);
  }
}

TEST(FeedStatistics, HeaderExactlyAsSpecified) {
  EXPECT_EQ(feed_statistics::csv_header(), stats_csv_header);
  EXPECT_EQ(split(stats_csv_header.substr(0, stats_csv_header.size() - 1), ',').size(), 2u + 27u + 12u + 10u);
}

TEST(FeedStatistics, EmptyHasOnlyTheAggregateRow) {
  feed_statistics s;
  const std::string csv = s.finish_csv(name_of);
  const auto lines = split(csv, '\n');
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0] + "\n", stats_csv_header);
  EXPECT_EQ(lines[1].substr(0, 16), "__aggregate__,0,");
  EXPECT_EQ(s.total_samples(), 0u);
}

TEST(FeedStatistics, HandComputedRows) {
  // Events (locate, feed time ns, processing ns), recorded interleaved, locate 3 first:
  //   AAA (3): 100/10, 160/30, 160/40, 260/60
  //   BBB (1): 150/20, 200/50
  // All events are in one 1 ms and one 1 us period, so RatePerSec and RatePerMSec have a single sample,
  // the symbol's event count. RatePerUSec (1000 periods of 1 ns) has one sample per ns from the first event
  // to the last:
  //   AAA: 100..159 -> 1 (60), 160..259 -> 3 (100), 260 -> 4 (1); 161 samples.
  //        ranks: p25 41 -> 1, p50 81 -> 3, p75 121 -> 3, p90 145 -> 3, p99 160 -> 3, p999 161 -> 4.
  //   BBB: 150..199 -> 1 (50), 200 -> 2 (1); 51 samples: p25..p90 -> 1, p99 rank 51 -> 2.
  //   aggregate: 100..149 -> 1 (50), 150..159 -> 2 (10), 160..199 -> 4 (40), 200..259 -> 5 (60),
  //        260 -> 6 (1); 161 samples: p25 rank 41 -> 1, p50 81 -> 4, p75 121 -> 5, p90 145 -> 5,
  //        p99 160 -> 5, p999 161 -> 6.
  // Arrival gaps: AAA 60, 0, 100 -> sorted 0 60 100: p50 (rank 2) 60, p75 (rank 3) 100.
  //               BBB 50 -> every column 50.
  //               aggregate 50, 10, 0, 40, 60 -> sorted 0 10 40 50 60: p25 rank 2 -> 10, p50 rank 3 -> 40,
  //               p75 rank 4 -> 50, p90 rank 5 -> 60.
  // Processing: AAA 10 30 40 60: p10 rank 1, p25 rank 1, p50 rank 2, p75 rank 3, p90 rank 4.
  //             BBB 20 50: p10, p25, p50 rank 1 -> 20; p75 rank 2 -> 50.
  //             aggregate 10..60: p10 rank 1, p25 rank 2, p50 rank 3, p75 rank 5, p90 rank 6.
  feed_statistics s;
  s.record(3, 100ns, 10ns);
  s.record(1, 150ns, 20ns);
  s.record(3, 160ns, 30ns);
  s.record(3, 160ns, 40ns);
  s.record(1, 200ns, 50ns);
  s.record(3, 260ns, 60ns);
  EXPECT_EQ(s.samples(3), 4u);
  EXPECT_EQ(s.samples(1), 2u);
  EXPECT_EQ(s.samples(2), 0u);
  EXPECT_EQ(s.samples(999), 0u);
  EXPECT_EQ(s.total_samples(), 6u);

  const std::string expected = stats_csv_header +
                               // BBB first: rows are in stock locate order.
                               "BBB,2,"
                               "2,2,2,2,2,2,2,2,2,"
                               "2,2,2,2,2,2,2,2,2,"
                               "1,1,1,1,1,2,2,2,2,"
                               "50,50,50,50,50,50,50,50,50,50,50,50,"
                               "20,20,20,20,50,50,50,50,50,50\n"
                               "AAA,4,"
                               "4,4,4,4,4,4,4,4,4,"
                               "4,4,4,4,4,4,4,4,4,"
                               "1,1,3,3,3,3,4,4,4,"
                               "0,0,0,0,0,0,0,60,100,100,100,100,"
                               "10,10,10,30,40,60,60,60,60,60\n"
                               "__aggregate__,6,"
                               "6,6,6,6,6,6,6,6,6,"
                               "6,6,6,6,6,6,6,6,6,"
                               "1,1,4,5,5,5,6,6,6,"
                               "0,0,0,0,0,0,10,40,50,60,60,60,"
                               "10,10,20,30,50,60,60,60,60,60\n";
  EXPECT_EQ(s.finish_csv(name_of), expected);
}

// Columns of a CSV row by header name.
std::map<std::string, std::string> row_by_name(const std::string& csv, const std::string& name) {
  const auto lines = split(csv, '\n');
  const auto header = split(lines.at(0), ',');
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = split(lines[i], ',');
    if (cells.at(0) != name) continue;
    EXPECT_EQ(cells.size(), header.size());
    std::map<std::string, std::string> m;
    for (std::size_t c = 0; c < header.size() && c < cells.size(); ++c) m[header[c]] = cells[c];
    return m;
  }
  ADD_FAILURE() << "no row " << name;
  return {};
}

TEST(FeedStatistics, RatesAcrossPeriods) {
  // CCC (7) at 1 ns, 1 ms + 1 ns (twice), 3 ms + 1 ns.
  // RatePerSec (periods of 1 ms, window 1000 of them): periods 0..3 -> 1, 3, 3, 4:
  //   min 1, p25 rank 1 -> 1, p50 rank 2 -> 3, p75 rank 3 -> 3, p90 rank 4 -> 4.
  // RatePerMSec (periods of 1 us, window 1000): periods 0..3000 -> 1 for 0..999, 2 for 1000..1999 (the
  //   first event has left), 0 for 2000..2999, 1 at 3000; 3001 samples: 0 x1000, 1 x1001, 2 x1000:
  //   p25 rank 751 -> 0, p50 rank 1501 -> 1, p75 rank 2251 -> 2.
  // RatePerUSec (periods of 1 ns, window 1000): 3,000,001 samples: 1 x1000 (1..1000), 2 x1000
  //   (1,000,001..1,001,000), 1 x1 (3,000,001), the rest 0 (2,998,000), so 0 has ranks 1..2,998,000,
  //   1 ranks ..2,999,001 and 2 the rest: p999 rank 2,997,001 -> 0, p9999 rank 2,999,701 -> 2, max 2.
  // Arrival: 1,000,000, 0, 2,000,000.
  feed_statistics s;
  s.record(7, 1ns, 5ns);
  s.record(7, 1ms + 1ns, 5ns);
  s.record(7, 1ms + 1ns, 5ns);
  s.record(7, 3ms + 1ns, 5ns);
  const std::string csv = s.finish_csv(name_of);
  auto r = row_by_name(csv, "CCC");
  EXPECT_EQ(r["NSamples"], "4");
  EXPECT_EQ(r["minRatePerSec"], "1");
  EXPECT_EQ(r["p25RatePerSec"], "1");
  EXPECT_EQ(r["p50RatePerSec"], "3");
  EXPECT_EQ(r["p75RatePerSec"], "3");
  EXPECT_EQ(r["p90RatePerSec"], "4");
  EXPECT_EQ(r["maxRatePerSec"], "4");
  EXPECT_EQ(r["minRatePerMSec"], "0");
  EXPECT_EQ(r["p25RatePerMSec"], "0");
  EXPECT_EQ(r["p50RatePerMSec"], "1");
  EXPECT_EQ(r["p75RatePerMSec"], "2");
  EXPECT_EQ(r["maxRatePerMSec"], "2");
  EXPECT_EQ(r["minRatePerUSec"], "0");
  EXPECT_EQ(r["p99RatePerUSec"], "0");
  EXPECT_EQ(r["p999RatePerUSec"], "0");
  EXPECT_EQ(r["p9999RatePerUSec"], "2");
  EXPECT_EQ(r["maxRatePerUSec"], "2");
  EXPECT_EQ(r["minArrival"], "0");
  EXPECT_EQ(r["p25Arrival"], "0");
  EXPECT_EQ(r["maxArrival"], "2000000");
  const auto p50 = std::stoull(r["p50Arrival"]);  // 1,000,000 within 1/128
  EXPECT_LE(p50 > 1'000'000 ? p50 - 1'000'000 : 1'000'000 - p50, 1'000'000u / 128);
  EXPECT_EQ(r["minProcessing"], "5");
  EXPECT_EQ(r["maxProcessing"], "5");
  // The aggregate of a single symbol is that symbol.
  auto a = row_by_name(csv, "__aggregate__");
  for (const auto& [column, value] : r) {
    if (column != "Name") {
      EXPECT_EQ(a[column], value) << column;
    }
  }
}

TEST(FeedStatistics, OutOfOrderAndNegativeValues) {
  // A timestamp earlier than the previous one gives an arrival gap of 0; a negative processing time
  // (a clock glitch) is recorded as 0.
  feed_statistics s;
  s.record(1, 1000ns, 7ns);
  s.record(1, 900ns, -3ns);
  s.record(1, 1050ns, 9ns);
  const auto r = row_by_name(s.finish_csv(name_of), "BBB");
  // Arrival gaps: 0 (900 < 1000), 50 (1050 - 1000).
  EXPECT_EQ(r.at("minArrival"), "0");
  EXPECT_EQ(r.at("maxArrival"), "50");
  EXPECT_EQ(r.at("minProcessing"), "0");
  EXPECT_EQ(r.at("maxProcessing"), "9");
  EXPECT_EQ(r.at("NSamples"), "3");
}

TEST(FeedStatistics, ManySymbolsOneRowEachInLocateOrder) {
  feed_statistics s;
  for (std::uint16_t locate : std::initializer_list<std::uint16_t>{500, 3, 12000, 7, 3, 500})
    s.record(locate, nanoseconds(locate), 1ns);
  const auto lines = split(s.finish_csv(name_of), '\n');
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[1].substr(0, 6), "AAA,2,");
  EXPECT_EQ(lines[2].substr(0, 6), "CCC,1,");
  EXPECT_EQ(lines[3].substr(0, 7), "L500,2,");
  EXPECT_EQ(lines[4].substr(0, 8), "L12000,1");
  EXPECT_EQ(lines[5].substr(0, 16), "__aggregate__,6,");
}

// The symbols' samples wait in a buffer and are handed to their series in batches grouped by symbol
// (feed_statistics::batch_samples a batch): over several batches of interleaved symbols, with latencies and
// times going backwards, every symbol's series equals that of a feed_statistics fed only that symbol's
// samples, in order, and the aggregate equals that of one fed every sample under one locate.
TEST(FeedStatistics, BatchedSymbolsEqualSampleBySample) {
  constexpr int symbols = 37;
  std::mt19937_64 rng(11);
  feed_statistics all;
  std::vector<std::unique_ptr<feed_statistics>> alone;
  for (int l = 0; l < symbols; ++l) alone.push_back(std::make_unique<feed_statistics>());
  feed_statistics one_locate;
  std::int64_t t = 34'200'000'000'000;
  const std::size_t n = 2 * feed_statistics::batch_samples + 4321;  // with latencies: 3 batches and more
  for (std::size_t i = 0; i < n; ++i) {
    // Skewed activity, as on a real day: low locates far busier than high ones.
    const auto locate = static_cast<std::uint16_t>(rng() % (rng() % symbols + 1));
    t += static_cast<std::int64_t>(rng() % 3'000) - 100;  // now and then backwards
    const nanoseconds took(static_cast<std::int64_t>(rng() % 5'000));
    all.record(locate, nanoseconds(t), took);
    alone[locate]->record(0, nanoseconds(t), took);
    one_locate.record(0, nanoseconds(t), took);
    if (i % 3 == 0) {
      const nanoseconds latency(static_cast<std::int64_t>(rng() % 100'000) - 50);
      all.record_latency(locate, latency);
      alone[locate]->record_latency(0, latency);
      one_locate.record_latency(0, latency);
    }
  }
  EXPECT_EQ(all.samples(5) + all.samples(6), alone[5]->samples(0) + alone[6]->samples(0));
  const auto table = all.finish(name_of);
  ASSERT_EQ(table.symbols.size(), static_cast<std::size_t>(symbols));
  for (int l = 0; l < symbols; ++l) {
    auto expected = alone[l]->finish([](std::uint16_t) { return std::string("x"); }).symbols.at(0);
    expected.name = name_of(static_cast<std::uint16_t>(l));
    EXPECT_EQ(table.symbols[static_cast<std::size_t>(l)], expected) << "locate " << l;
  }
  const auto whole = one_locate.finish(name_of);
  EXPECT_EQ(table.aggregate, whole.aggregate);
  EXPECT_EQ(table.aggregate.samples, n);
  // finish() moved the histograms into its table: a second call must not hand out empty ones.
  EXPECT_THROW(static_cast<void>(all.finish(name_of)), std::logic_error);
}

TEST(FeedStatistics, LatencyColumnsOnlyWhenAskedForAppendedAtTheEnd) {
  const std::string latency_header =
      ",minLatency,p25Latency,p50Latency,p75Latency,p90Latency,p99Latency,p999Latency,"
      "maxLatency\n";
  feed_statistics s;
  s.record(3, 100ns, 10ns);
  s.record_latency(3, 50ns);
  s.record(3, 200ns, 10ns);
  s.record_latency(3, -20ns);  // a capture clock behind: counted as 0
  s.record(1, 300ns, 10ns);
  s.record_latency(1, 37000ns);
  const auto lines = split(s.finish_csv(name_of), '\n');
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0] + "\n", stats_csv_header.substr(0, stats_csv_header.size() - 1) + latency_header);
  // Rows: BBB (locate 1), AAA (locate 3), aggregate; the last 8 fields are the latency quantiles.
  auto tail = [](const std::string& line) {
    const auto f = split(line, ',');
    return std::vector<std::string>(f.end() - 8, f.end());
  };
  EXPECT_EQ(tail(lines[1]), (std::vector<std::string>{"37000", "37000", "37000", "37000", "37000", "37000",
                                                      "37000", "37000"}));
  EXPECT_EQ(tail(lines[2]), (std::vector<std::string>{"0", "0", "0", "50", "50", "50", "50", "50"}));
  EXPECT_EQ(tail(lines[3]),
            (std::vector<std::string>{"0", "0", "50", "37000", "37000", "37000", "37000", "37000"}));
  EXPECT_EQ(split(lines[1], ',').size(), 2u + 27u + 12u + 10u + 8u);

  // Without latencies: the header and rows of before; enable_latency() alone gives the columns (all 0).
  feed_statistics plain;
  plain.record(3, 100ns, 10ns);
  EXPECT_EQ(split(plain.finish_csv(name_of), '\n')[0] + "\n", stats_csv_header);
  feed_statistics enabled;
  enabled.enable_latency();
  enabled.record(3, 100ns, 10ns);
  const auto e = split(enabled.finish_csv(name_of), '\n');
  EXPECT_EQ(e[0] + "\n", stats_csv_header.substr(0, stats_csv_header.size() - 1) + latency_header);
  EXPECT_EQ(e[1].substr(e[1].size() - 16), ",0,0,0,0,0,0,0,0");

  // A merge keeps the columns when either table has them.
  feed_statistics a, b;
  a.record(3, 100ns, 10ns);
  b.record(3, 200ns, 10ns);
  b.record_latency(3, 40ns);
  itch5::stats::feed_table ta = a.finish(name_of);
  EXPECT_FALSE(ta.latency);
  itch5::stats::merge(ta, b.finish(name_of));
  EXPECT_TRUE(ta.latency);
  ASSERT_EQ(ta.symbols.size(), 1u);
  EXPECT_EQ(ta.symbols[0].latency.count(), 1u);
  EXPECT_EQ(ta.aggregate.latency.quantile(1.0), 40u);
}

}  // namespace
