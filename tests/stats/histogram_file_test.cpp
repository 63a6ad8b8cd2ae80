// histogram_file: the tables behind the CSVs written and read back unchanged, every truncation and
// corruption reported with the file name and byte offset, merging per symbol name whatever the locates, and
// what merging the two parts of a cut stream gives compared with the whole stream.
#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>
#include <itch5/stats/histogram_file.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace std::chrono_literals;
using std::chrono::nanoseconds;

struct event {
  std::uint16_t locate;
  std::int64_t ts;
  std::int64_t took;
  std::uint32_t event_depth;
  std::uint32_t book_depth;
};

// Events of `symbols` locates (1..symbols) with increasing timestamps: bursts and quiet gaps, so that every
// rate window sees both.
std::vector<event> random_events(std::size_t n, std::uint16_t symbols, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<event> out;
  std::int64_t t = 34'200'000'000'000;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    t += (r % 10 == 0) ? static_cast<std::int64_t>(rng() % 2'000'000'000)
                       : static_cast<std::int64_t>(rng() % 5'000);
    out.push_back({static_cast<std::uint16_t>(1 + rng() % symbols), t,
                   static_cast<std::int64_t>(50 + rng() % 100'000), static_cast<std::uint32_t>(rng() % 300),
                   static_cast<std::uint32_t>(rng() % 3000)});
  }
  return out;
}

std::string name_of(std::uint16_t locate) { return "S" + std::to_string(locate); }

itch5::stats::statistics_histograms collect(
    const std::vector<event>& events, std::size_t begin, std::size_t end,
    const std::function<std::string(std::uint16_t)>& names = name_of) {
  itch5::stats::feed_statistics feed;
  itch5::stats::depth_statistics depth;
  for (std::size_t i = begin; i < end; ++i) {
    const event& e = events[i];
    feed.record(e.locate, nanoseconds(e.ts), nanoseconds(e.took));
    depth.record(e.locate, e.event_depth, e.book_depth);
  }
  itch5::stats::statistics_histograms h;
  h.meta = {{"stats_events", "inside"}};
  h.feed = feed.finish(names);
  h.depth = depth.table(names);
  return h;
}

TEST(HistogramFile, RoundTripGivesEqualTablesAndCsvs) {
  const auto events = random_events(5000, 12, 1);
  const auto h = collect(events, 0, events.size());
  const std::string bytes = itch5::stats::encode_histograms(h);
  const auto back = itch5::stats::decode_histograms(bytes, "h.bin");
  EXPECT_EQ(back, h);
  EXPECT_EQ(itch5::stats::feed_csv(back.feed), itch5::stats::feed_csv(h.feed));
  EXPECT_EQ(itch5::stats::depth_csv(back.depth), itch5::stats::depth_csv(h.depth));
  EXPECT_EQ(back.meta_value("stats_events"), "inside");
  EXPECT_EQ(itch5::stats::encode_histograms(back), bytes);
}

TEST(HistogramFile, CsvsOfTheTablesAreThoseOfTheCollectors) {
  const auto events = random_events(2000, 5, 2);
  itch5::stats::feed_statistics feed;
  itch5::stats::depth_statistics depth;
  for (const auto& e : events) {
    feed.record(e.locate, nanoseconds(e.ts), nanoseconds(e.took));
    depth.record(e.locate, e.event_depth, e.book_depth);
  }
  const auto h = collect(events, 0, events.size());
  EXPECT_EQ(itch5::stats::feed_csv(h.feed), feed.finish_csv(name_of));
  EXPECT_EQ(itch5::stats::depth_csv(h.depth), depth.csv(name_of));
}

TEST(HistogramFile, EmptyRunAndExtremeValuesRoundTrip) {
  itch5::stats::statistics_histograms empty;
  const auto back = itch5::stats::decode_histograms(itch5::stats::encode_histograms(empty), "e");
  EXPECT_EQ(back, empty);
  std::string zeros;
  for (int i = 0; i < 49; ++i) zeros += ",0";
  EXPECT_EQ(itch5::stats::feed_csv(back.feed),
            itch5::stats::feed_csv_header() + "__aggregate__,0" + zeros + "\n");
  itch5::stats::statistics_histograms h;
  itch5::stats::feed_series s;
  s.name = "BIG";
  s.samples = 3;
  for (auto* x : {&s.per_sec, &s.arrival, &s.processing}) {
    x->record(0);
    x->record(std::numeric_limits<std::uint64_t>::max());
    x->record(1'000'000, std::numeric_limits<std::uint64_t>::max() / 4);
  }
  s.processing = {};
  s.processing.record(7, 3);
  h.feed.symbols.push_back(s);
  h.feed.aggregate.merge(s);
  EXPECT_EQ(itch5::stats::decode_histograms(itch5::stats::encode_histograms(h), "x"), h);
}

TEST(HistogramFile, EveryTruncationIsReportedWithNameAndOffset) {
  const auto events = random_events(300, 4, 3);
  const std::string bytes = itch5::stats::encode_histograms(collect(events, 0, events.size()));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    try {
      (void)itch5::stats::decode_histograms(std::string_view(bytes).substr(0, n), "day.hist");
      ADD_FAILURE() << "a prefix of " << n << " bytes was accepted";
    } catch (const itch5::stats::histogram_file_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("day.hist: byte ", 0), 0u) << what;
      if (n >= 8) {
        EXPECT_NE(what.find("truncated"), std::string::npos) << n << ": " << what;
      }
    }
  }
}

TEST(HistogramFile, BadMagicWrongVersionAndTrailingBytes) {
  const std::string good = itch5::stats::encode_histograms({});
  auto error = [](const std::string& bytes) {
    try {
      (void)itch5::stats::decode_histograms(bytes, "f");
    } catch (const itch5::stats::histogram_file_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error("Name,NSamples\n"),
            "f: byte 0: not a histogram file (it does not start with ITCH5HST; itch5inside "
            "--histograms writes them)");
  std::string v2 = good;
  v2[8] = 2;
  EXPECT_EQ(error(v2), "f: byte 8: histogram file version 2 is not supported (this build reads version 1)");
  EXPECT_EQ(error(good + "x"),
            "f: byte " + std::to_string(good.size()) + ": corrupt: bytes after the end mark");
  std::string no_end = good;
  no_end.back() = 'X';
  EXPECT_NE(error(no_end).find("the end mark HEND is missing"), std::string::npos);
}

TEST(HistogramFile, CorruptBytesAreRejectedOrReadNeverCrash) {
  const auto events = random_events(200, 3, 4);
  const std::string bytes = itch5::stats::encode_histograms(collect(events, 0, events.size()));
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (unsigned x : {0x01u, 0x80u, 0xffu}) {
      std::string bad = bytes;
      bad[i] = static_cast<char>(static_cast<unsigned char>(bad[i]) ^ x);  // NOLINT
      try {
        (void)itch5::stats::decode_histograms(bad, "c");
      } catch (const itch5::stats::histogram_file_error&) {
        ++rejected;
      }
    }
  }
  EXPECT_GT(rejected, bytes.size());  // most changes are caught; none may crash (sanitizer builds)
}

// The same symbols under different locates in two runs: rows are matched by name, in order of first
// appearance. Depth and processing do not depend on how the samples are split: the merge equals one
// collector fed with both runs under one numbering.
TEST(HistogramFile, MergeMatchesSymbolsByNameWhateverTheLocates) {
  const auto day1 = random_events(1500, 3, 5);  // locates 1..3
  auto day2 = random_events(1500, 3, 6);
  const std::map<std::uint16_t, std::string> names1{{1, "AAA"}, {2, "BBB"}, {3, "CCC"}};
  const std::map<std::uint16_t, std::string> names2{{1, "DDD"}, {2, "CCC"}, {3, "AAA"}};  // locates differ
  auto h1 = collect(day1, 0, day1.size(), [&](std::uint16_t l) { return names1.at(l); });
  const auto h2 = collect(day2, 0, day2.size(), [&](std::uint16_t l) { return names2.at(l); });
  itch5::stats::merge(h1, h2, "day2");

  // Reference: one numbering, AAA=1 BBB=2 CCC=3 DDD=4; day 2's samples after day 1's.
  const std::map<std::uint16_t, std::uint16_t> renumber2{{1, 4}, {2, 3}, {3, 1}};
  itch5::stats::feed_statistics feed;
  itch5::stats::depth_statistics depth;
  for (const auto& e : day1) {
    feed.record(e.locate, nanoseconds(e.ts), nanoseconds(e.took));
    depth.record(e.locate, e.event_depth, e.book_depth);
  }
  for (const auto& e : day2) {
    feed.record(renumber2.at(e.locate), nanoseconds(e.ts + 86'400'000'000'000), nanoseconds(e.took));
    depth.record(renumber2.at(e.locate), e.event_depth, e.book_depth);
  }
  const std::map<std::uint16_t, std::string> ref_names{{1, "AAA"}, {2, "BBB"}, {3, "CCC"}, {4, "DDD"}};
  auto ref_name = [&](std::uint16_t l) { return ref_names.at(l); };
  EXPECT_EQ(itch5::stats::depth_csv(h1.depth), depth.csv(ref_name));
  const auto ref = feed.finish(ref_name);
  ASSERT_EQ(h1.feed.symbols.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(h1.feed.symbols[i].name, ref.symbols[i].name);
    EXPECT_EQ(h1.feed.symbols[i].samples, ref.symbols[i].samples);
    EXPECT_EQ(h1.feed.symbols[i].processing, ref.symbols[i].processing);
  }
  EXPECT_EQ(h1.feed.aggregate.samples, 3000u);
  EXPECT_EQ(h1.feed.aggregate.processing, ref.aggregate.processing);
}

TEST(HistogramFile, MergeRefusesDifferentSampledEventsAndKeepsCommonMeta) {
  itch5::stats::statistics_histograms a, b, c;
  a.meta = {{"stats_events", "inside"}, {"time_range", "whole day"}};
  b.meta = {{"stats_events", "inside"}, {"time_range", "whole day"}, {"host", "x"}};
  c.meta = {{"stats_events", "all"}, {"time_range", "whole day"}};
  itch5::stats::merge(a, b, "b");
  EXPECT_EQ(a.meta, (std::vector<std::pair<std::string, std::string>>{
                        {"stats_events", "inside"}, {"time_range", "whole day"}, {"time_ranges", "0-end"}}));
  try {
    itch5::stats::merge(a, c, "c", "a");
    FAIL() << "merged different stats_events";
  } catch (const itch5::stats::histogram_file_error& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "c: its statistics sample 'all' events, a 'inside' (itch5inside --stats-events): they cannot be "
        "merged");
  }
}

// The ranges of files written before time_ranges (version 1 files of older builds) come from their
// time_range text; a file without either is a whole day.
TEST(HistogramFile, TimeRangesComeFromTheMetaOrTheOlderText) {
  using itch5::stats::feed_time_range;
  using ranges = std::vector<feed_time_range>;
  auto of = [](std::vector<std::pair<std::string, std::string>> meta) {
    itch5::stats::statistics_histograms h;
    h.meta = std::move(meta);
    return itch5::stats::time_ranges_of(h);
  };
  const std::uint64_t h930 = 34'200'000'000'000, h16 = 57'600'000'000'000;
  EXPECT_EQ(of({}), (ranges{{0, std::nullopt}}));
  EXPECT_EQ(of({{"time_range", "whole day"}}), (ranges{{0, std::nullopt}}));
  EXPECT_EQ(of({{"time_range", "09:30:00 to 16:00:00"}}), (ranges{{h930, h16}}));
  EXPECT_EQ(of({{"time_range", "09:30:00.5 to the end"}}), (ranges{{h930 + 500'000'000, std::nullopt}}));
  EXPECT_EQ(of({{"time_range", "the start to 09:30"}}), (ranges{{0, h930}}));
  EXPECT_EQ(of({{"time_range", "sometime"}}), std::nullopt);
  EXPECT_EQ(of({{"time_range", "anything"}, {"time_ranges", "5-9,0-5,20-end"}}),
            (ranges{{0, 9}, {20, std::nullopt}}));
  EXPECT_EQ(of({{"time_ranges", "9-5"}}), std::nullopt);
  EXPECT_EQ(itch5::stats::format_time_ranges({{0, 9}, {20, std::nullopt}}), "0-9,20-end");
}

// A whole day and its regular session overlap: their sum would count 09:30-16:00 twice. The disjoint parts
// of a day merge, into their union; equal ranges (days) merge.
TEST(HistogramFile, MergeRefusesOverlappingRangesAndJoinsDisjointOnes) {
  itch5::stats::statistics_histograms whole, regular, early, late, other_day;
  whole.meta = {{"stats_events", "inside"}, {"time_range", "whole day"}, {"time_ranges", "0-end"}};
  regular.meta = {{"stats_events", "inside"},
                  {"time_range", "09:30:00 to 16:00:00"},
                  {"time_ranges", "34200000000000-57600000000000"}};
  early.meta = {{"stats_events", "inside"}, {"time_range", "the start to 09:30:00"}};  // an older file
  late.meta = {{"stats_events", "inside"}, {"time_ranges", "34200000000000-end"}};
  other_day = whole;
  try {
    itch5::stats::merge(whole, regular, "mon-regular.hist", "mon.hist");
    FAIL() << "merged a whole day with its regular session";
  } catch (const itch5::stats::histogram_file_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos);
    EXPECT_NE(
        what.find("mon-regular.hist: its time range 34200000000000-57600000000000 ns and mon.hist's 0-end ns "
                  "overlap"),
        std::string::npos)
        << what;
  }
  EXPECT_THROW(itch5::stats::merge(regular, late, "late"), itch5::stats::histogram_file_error);
  itch5::stats::merge(early, late, "late");
  EXPECT_EQ(early.meta_value("time_ranges"), "0-end");
  EXPECT_EQ(early.meta_value("time_range"), "");       // the two texts differ: dropped
  itch5::stats::merge(early, other_day, "other day");  // the joined parts are a whole day
  EXPECT_EQ(early.meta_value("time_ranges"), "0-end");
  itch5::stats::statistics_histograms unknown, unknown2;
  unknown.meta = {{"stats_events", "inside"}, {"time_range", "sometime"}};
  unknown2 = unknown;
  itch5::stats::merge(unknown, unknown2, "u2");  // the same text: the same range
  EXPECT_THROW(itch5::stats::merge(unknown, whole, "whole"), itch5::stats::histogram_file_error);
}

// A stream cut in two at an event: what is exactly true of merge(part 1, part 2) against the whole
// (docs/formats.md, "Histogram file", merging the parts of a day).
TEST(HistogramFile, CutStreamMergesToTheWholeButTheSpanningSamples) {
  const auto events = random_events(6000, 6, 7);
  for (std::size_t cut : {std::size_t{1}, std::size_t{2500}, events.size() - 1}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    const auto whole = collect(events, 0, events.size());
    auto merged = collect(events, 0, cut);
    itch5::stats::merge(merged, collect(events, cut, events.size()), "part2");

    // Rows come in order of first appearance (part 1's, then part 2's new names): compare by name.
    auto by_name = [](auto symbols) {
      std::sort(symbols.begin(), symbols.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
      return symbols;
    };
    EXPECT_EQ(by_name(merged.depth.symbols), by_name(whole.depth.symbols));  // depth: exact
    EXPECT_EQ(merged.depth.aggregate, whole.depth.aggregate);

    // Last event of each symbol before the cut, first after it ("" and locate 0 is the aggregate).
    std::map<std::string, std::pair<std::int64_t, std::int64_t>> span;
    std::map<std::string, bool> before, after;
    for (std::size_t i = 0; i < events.size(); ++i) {
      for (const std::string& n : {name_of(events[i].locate), std::string(itch5::stats::aggregate_name)}) {
        if (i < cut) {
          span[n].first = events[i].ts;
          before[n] = true;
        } else if (!after[n]) {
          span[n].second = events[i].ts;
          after[n] = true;
        }
      }
    }
    auto check = [&](const itch5::stats::feed_series& m, const itch5::stats::feed_series& w) {
      SCOPED_TRACE(w.name);
      EXPECT_EQ(m.name, w.name);
      EXPECT_EQ(m.samples, w.samples);
      EXPECT_EQ(m.processing, w.processing);
      if (!(before[w.name] && after[w.name])) {
        EXPECT_EQ(m, w);  // a symbol on one side of the cut: everything identical
        return;
      }
      const auto [t1, t2] = span[w.name];
      // Arrival: only the one gap that spans the cut is missing.
      auto arrival = m.arrival;
      arrival.record(static_cast<std::uint64_t>(t2 - t1));
      EXPECT_EQ(arrival, w.arrival);
      // Rates: one sample per period from the first to the last event's period, in each part; the periods
      // between the parts are sampled once in the whole, the cut's period twice if both parts share it.
      const std::pair<const itch5::stats::log_linear_histogram*, const itch5::stats::log_linear_histogram*>
          rates[] = {{&m.per_sec, &w.per_sec}, {&m.per_msec, &w.per_msec}, {&m.per_usec, &w.per_usec}};
      const std::int64_t periods[] = {1'000'000, 1'000, 1};
      for (int k = 0; k < 3; ++k) {
        const auto gap = t2 / periods[k] - t1 / periods[k];
        EXPECT_EQ(static_cast<std::int64_t>(rates[k].first->count()),
                  static_cast<std::int64_t>(rates[k].second->count()) + 1 - gap);
        // A part's window holds a subset of the whole's events at the same period: never more.
        EXPECT_LE(rates[k].first->max(), rates[k].second->max());
      }
    };
    const auto m = by_name(merged.feed.symbols), w = by_name(whole.feed.symbols);
    ASSERT_EQ(m.size(), w.size());
    for (std::size_t i = 0; i < w.size(); ++i) check(m[i], w[i]);
    check(merged.feed.aggregate, whole.feed.aggregate);
  }
}

}  // namespace
