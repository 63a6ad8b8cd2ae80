// depth_statistics: the CSV header of docs/formats.md (Name,NSamples, then min..max for the event depth
// and for the book depth, the group named in the column), rows in stock locate order plus __aggregate__,
// and hand-computed quantiles.
#include <itch5/stats/depth_statistics.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <string>

#include <itch5_test/csv_headers.hpp>

namespace {

using itch5::stats::depth_statistics;
using itch5_test::depth_csv_header;

std::string name_of(std::uint16_t locate) { return locate == 2 ? "XY" : locate == 9 ? "ZZZZ" : "?"; }

TEST(DepthStatistics, HeaderExactlyAsSpecified) {
  EXPECT_EQ(depth_statistics::csv_header(), depth_csv_header);
}

TEST(DepthStatistics, EmptyHasOnlyTheAggregateRow) {
  depth_statistics d;
  EXPECT_EQ(d.csv(name_of), depth_csv_header + "__aggregate__,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n");
}

TEST(DepthStatistics, HandComputedRows) {
  // ZZZZ (9), recorded first: event depths 0..9, book depths 3 x10.
  //   event depth sorted 0..9 (N = 10): p25 rank 3 -> 2, p50 rank 5 -> 4, p75 rank 8 -> 7, p90 rank 9 -> 8,
  //   p99 rank 10 -> 9.
  // XY (2): (5, 1), (1, 2), (100, 4): event depths sorted 1 5 100: p25 rank 1 -> 1, p50 rank 2 -> 5,
  //   p75..max rank 3 -> 100; book depths 1 2 4: 1, 2, then 4.
  // aggregate (N = 13): event depths 0 1 1 2 3 4 5 5 6 7 8 9 100: p25 rank 4 -> 2, p50 rank 7 -> 5,
  //   p75 rank 10 -> 7, p90 rank 12 -> 9, p99 rank 13 -> 100; book depths 1 2 3 x10 4: p25 rank 4 -> 3,
  //   p75 rank 10 -> 3, p90 rank 12 -> 3, p99 rank 13 -> 4.
  depth_statistics d;
  for (std::uint32_t i = 0; i < 10; ++i) d.record(9, i, 3);
  d.record(2, 5, 1);
  d.record(2, 1, 2);
  d.record(2, 100, 4);
  const std::string expected = depth_csv_header +
                               "XY,3,1,1,5,100,100,100,100,100,100,1,1,2,4,4,4,4,4,4\n"
                               "ZZZZ,10,0,2,4,7,8,9,9,9,9,3,3,3,3,3,3,3,3,3\n"
                               "__aggregate__,13,0,2,5,7,9,100,100,100,100,1,3,3,3,3,4,4,4,4\n";
  EXPECT_EQ(d.csv(name_of), expected);
  EXPECT_EQ(d.aggregate_event_depth().count(), 13u);
  EXPECT_EQ(d.aggregate_book_depth().max(), 4u);
}

TEST(DepthStatistics, LargeDepthsWithinStatedError) {
  // 1000 samples of 2135 levels (the p99.9 of a real day): every quantile within 1/128, min and max exact.
  depth_statistics d;
  for (int i = 0; i < 1000; ++i) d.record(9, 2135, 70000);
  const auto& h = d.aggregate_event_depth();
  EXPECT_EQ(h.min(), 2135u);
  EXPECT_EQ(h.max(), 2135u);
  EXPECT_EQ(h.quantile(0.5), 2135u);  // clamped to [min, max], which is one value
  EXPECT_EQ(d.aggregate_book_depth().quantile(0.9), 70000u);
}

// Samples are recorded in batches (depth_statistics::batch_samples) grouped by symbol: over several batches
// of interleaved symbols (one locate beyond all others, so that the table grows inside a batch), every
// symbol's histograms and the aggregate's equal histograms fed each sample directly.
TEST(DepthStatistics, BatchedSymbolsEqualSampleBySample) {
  std::mt19937 rng(5);
  depth_statistics d;
  std::map<std::uint16_t, std::pair<itch5::stats::log_linear_histogram, itch5::stats::log_linear_histogram>>
      direct;
  itch5::stats::log_linear_histogram all_event, all_book;
  const std::size_t n = 3 * depth_statistics::batch_samples + 1234;
  for (std::size_t i = 0; i < n; ++i) {
    const auto locate = static_cast<std::uint16_t>(i == n - 5000 ? 9000 : 1 + rng() % (1 + rng() % 60));
    const auto event = static_cast<std::uint32_t>(rng() % 4 == 0 ? rng() % 5000 : rng() % 8);
    const auto book = static_cast<std::uint32_t>(rng() % 300);
    d.record(locate, event, book);
    direct[locate].first.record(event);
    direct[locate].second.record(book);
    all_event.record(event);
    all_book.record(book);
  }
  const auto t = d.table([](std::uint16_t l) { return std::to_string(l); });
  ASSERT_EQ(t.symbols.size(), direct.size());
  std::size_t k = 0;
  for (const auto& [locate, h] : direct) {
    EXPECT_EQ(t.symbols[k].name, std::to_string(locate));
    EXPECT_EQ(t.symbols[k].event, h.first) << locate;
    EXPECT_EQ(t.symbols[k].book, h.second) << locate;
    ++k;
  }
  EXPECT_EQ(t.aggregate.event, all_event);
  EXPECT_EQ(t.aggregate.book, all_book);
  EXPECT_EQ(d.aggregate_event_depth().count(), n);
}

}  // namespace
