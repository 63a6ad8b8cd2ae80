// Tests of the synthetic day generator (itch5/synth/generator.hpp): determinism, book consistency checked by
// an independent reference book, and the statistical shape (mix, depths, gaps, skew, live orders, prices),
// plus the delayed copy. Expected values are the shape's targets written here, never figures the generator
// computes.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/io/byte_stream.hpp>
#include <itch5/detail/endian.hpp>
#include <itch5/messages.hpp>
#include <itch5/synth/generator.hpp>
#include <itch5/synth/symbol_universe.hpp>

#include "synth_reference_book.hpp"

namespace {

using namespace std::chrono_literals;
using itch5::synth::generator;
using itch5::synth::generator_config;
using synth_test::check_result;
using synth_test::reference_checker;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sanitized = true;
#else
constexpr bool sanitized = false;
#endif
#else
constexpr bool sanitized = false;
#endif

// Large enough for the statistics to settle, small enough for a few seconds (less under sanitizers).
constexpr std::uint64_t stats_messages = sanitized ? 600'000 : 2'000'000;

struct generated {
  std::vector<std::byte> main;
  std::vector<std::byte> delayed;
  itch5::synth::generator_stats stats;
};

generated generate(const generator_config& cfg, bool with_delayed = false) {
  generated g;
  generator gen(cfg);
  generator::sink main = [&](std::span<const std::byte> b) {
    g.main.insert(g.main.end(), b.begin(), b.end());
  };
  generator::sink copy = [&](std::span<const std::byte> b) {
    g.delayed.insert(g.delayed.end(), b.begin(), b.end());
  };
  g.stats = gen.run(main, with_delayed ? &copy : nullptr);
  return g;
}

std::string describe(const check_result& r) {
  std::string s = std::to_string(r.violations) + " violations;";
  for (const auto& [kind, n] : r.violations_by_kind) s += " " + kind + " " + std::to_string(n) + ";";
  for (const auto& v : r.first_violations) s += "\n  " + v;
  if (r.decode_error) s += "\n  decode error: " + r.decode_error_text;
  return s;
}

double share(std::uint64_t part, std::uint64_t whole) {
  return static_cast<double>(part) / static_cast<double>(whole);
}

// ---- determinism ---------------------------------------------------------------------------------------

TEST(SynthGenerator, SameSeedGivesIdenticalBytes) {
  generator_config cfg;
  cfg.messages = 200'000;
  cfg.seed = 7;
  auto a = generate(cfg);
  auto b = generate(cfg);
  ASSERT_EQ(a.main.size(), b.main.size());
  EXPECT_TRUE(a.main == b.main);

  cfg.seed = 8;
  auto c = generate(cfg);
  EXPECT_FALSE(a.main == c.main);
}

TEST(SynthGenerator, DelayedCopyDoesNotChangeTheMainStream) {
  generator_config cfg;
  cfg.messages = 100'000;
  cfg.seed = 3;
  auto plain = generate(cfg, false);
  auto with_copy = generate(cfg, true);
  EXPECT_TRUE(plain.main == with_copy.main);
  EXPECT_FALSE(with_copy.delayed.empty());
  auto again = generate(cfg, true);
  EXPECT_TRUE(again.delayed == with_copy.delayed);
}

TEST(SynthGenerator, WritesExactlyTheRequestedNumberOfMessages) {
  for (std::uint64_t n : {1'000ull, 12'345ull, 200'000ull}) {
    generator_config cfg;
    cfg.messages = n;
    cfg.symbols = 20;
    auto g = generate(cfg);
    auto r = reference_checker().run(g.main);
    EXPECT_EQ(r.messages, n);
    EXPECT_EQ(r.violations, 0u) << describe(r);
  }
}

TEST(SynthGenerator, RejectsSettingsThatCannotWork) {
  generator_config cfg;
  cfg.messages = 1'000;
  cfg.symbols = 1'000;  // the directory alone would take 2,000+ messages
  EXPECT_THROW(generator{cfg}, std::invalid_argument);
  cfg = {};
  cfg.messages = 100'000'000;
  cfg.compress = true;
  cfg.mean_gap = 1ms;  // 27 hours of trading from 09:30
  EXPECT_THROW(generator{cfg}, std::invalid_argument);
  cfg.compress = false;  // the day's shape sets the mean gap: 100M messages fit in 04:00-20:00
  EXPECT_NO_THROW(generator{cfg});
  cfg = {};
  cfg.symbols = 70'000;
  EXPECT_THROW(generator{cfg}, std::invalid_argument);
  cfg = {};
  cfg.drop = 1.0;
  EXPECT_THROW(generator{cfg}, std::invalid_argument);
}

// ---- the checker itself ---------------------------------------------------------------------------------

TEST(SynthReferenceChecker, FlagsTheKnownInconsistentArtificialSample) {
  // data/artificial-3stocks.itch refers to ~117 unknown orders and crosses some books (data/README.md).
  std::ifstream in(std::string(ITCH5_DATA_DIR) + "/artificial-3stocks.itch", std::ios::binary);
  ASSERT_TRUE(in) << "missing data/artificial-3stocks.itch";
  std::vector<char> chars((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(chars.size());
  std::memcpy(bytes.data(), chars.data(), chars.size());
  auto r = reference_checker().run(bytes);
  EXPECT_FALSE(r.decode_error) << r.decode_error_text;
  EXPECT_EQ(r.messages, 12'012u);
  EXPECT_GE(r.violations_by_kind["unknown order"], 100u) << describe(r);
  EXPECT_GT(r.violations_by_kind["crossed or locked book"], 0u) << describe(r);
}

// ---- one large day, checked property by property -------------------------------------------------------
//
// CTest runs every test in its own process, so each test generates what it needs; the 2M-message day is one
// test with one SCOPED_TRACE per property.

std::uint64_t count(const check_result& r, char type) { return r.counts[static_cast<unsigned char>(type)]; }

void expect_consistent(const check_result& r, std::uint64_t messages) {
  SCOPED_TRACE("book consistency");
  EXPECT_FALSE(r.decode_error) << r.decode_error_text;
  EXPECT_EQ(r.messages, messages);
  EXPECT_EQ(r.violations, 0u) << describe(r);
}

void expect_day_shape(const check_result& r, const std::vector<std::byte>& bytes) {
  SCOPED_TRACE("shape of the day");
  EXPECT_EQ(r.system_events, (std::vector<char>{'O', 'S', 'Q', 'M', 'E', 'C'}));
  ASSERT_GT(bytes.size(), 100u);
  EXPECT_EQ(static_cast<char>(bytes[2]), 'S');
  EXPECT_EQ(count(r, 'R'), r.directory_entries);
  EXPECT_EQ(count(r, 'H'), r.directory_entries);
  EXPECT_GT(count(r, 'Y'), 0u);
  EXPECT_LT(count(r, 'Y'), r.directory_entries / 10);
  EXPECT_GE(r.directory_entries, 300u);
  EXPECT_LE(r.directory_entries, 12'000u);
  for (char t : {'A', 'F', 'E', 'C', 'X', 'D', 'U', 'P', 'I'}) EXPECT_GT(count(r, t), 0u) << t;
}

void expect_mix(const check_result& r) {
  SCOPED_TRACE("message mix");
  double n = static_cast<double>(r.messages);
  double adds = static_cast<double>(count(r, 'A') + count(r, 'F')) / n;
  double deletes = static_cast<double>(count(r, 'D')) / n;
  double replaces = static_cast<double>(count(r, 'U')) / n;
  double executions = static_cast<double>(count(r, 'E') + count(r, 'C')) / n;
  double cancels = static_cast<double>(count(r, 'X')) / n;
  EXPECT_NEAR(adds, 0.44, 0.01);
  EXPECT_NEAR(deletes, 0.43, 0.01);
  EXPECT_NEAR(replaces, 0.09, 0.005);
  EXPECT_NEAR(executions, 0.02, 0.003);
  EXPECT_NEAR(cancels, 0.01, 0.003);
  EXPECT_GT(adds, deletes);
  EXPECT_GT(count(r, 'A'), 10 * count(r, 'F'));  // A mostly, some F
  EXPECT_GT(count(r, 'E'), 3 * count(r, 'C'));   // E mostly, some C
}

void expect_depths(const check_result& r, std::uint64_t messages) {
  SCOPED_TRACE("depth from the inside");
  const auto& d = r.depths;
  ASSERT_GT(d.size(), messages / 2);
  auto q = [&](double p) { return synth_test::quantile(d, p); };
  // Targets p50 1, p75 6, p90 14, p99 203, p99.9 ~2000 (real days), with tolerances.
  EXPECT_LE(q(0.50), 2u);
  EXPECT_GE(q(0.75), 4u);
  EXPECT_LE(q(0.75), 9u);
  EXPECT_GE(q(0.90), 9u);
  EXPECT_LE(q(0.90), 22u);
  EXPECT_GE(q(0.99), 120u);
  EXPECT_LE(q(0.99), 330u);
  EXPECT_GE(q(0.999), 1000u);
  EXPECT_LE(q(0.999), 3500u);
}

void expect_gaps(const check_result& r) {
  SCOPED_TRACE("gaps");
  double under = share(r.gaps_under_300ns, r.gaps);
  EXPECT_GE(under, 0.005);
  EXPECT_LE(under, 0.02);
  EXPECT_GT(share(r.gaps_over_1ms, r.gaps), 0.001) << "quiet periods of milliseconds";
}

void expect_skew(const check_result& r) {
  SCOPED_TRACE("symbol skew");
  std::vector<std::uint64_t> per = r.per_locate;
  std::sort(per.begin(), per.end(), std::greater<>());
  std::uint64_t total = std::accumulate(per.begin(), per.end(), std::uint64_t{0});
  std::size_t symbols = r.directory_entries;
  auto top = static_cast<std::ptrdiff_t>(std::max<std::size_t>(1, symbols / 100));
  std::uint64_t top_sum = std::accumulate(per.begin(), per.begin() + top, std::uint64_t{0});
  std::uint64_t quiet_half = std::accumulate(per.begin() + static_cast<std::ptrdiff_t>(symbols / 2) + 1,
                                             per.end(), std::uint64_t{0});
  EXPECT_GT(share(top_sum, total), 0.25) << "top 1% of symbols";
  EXPECT_LT(share(quiet_half, total), 0.15) << "quieter half of the symbols";
}

void expect_live_growth(const check_result& r) {
  SCOPED_TRACE("live orders");
  const auto& live = r.live_after_trading_message;  // ~100 samples over the trading messages
  ASSERT_GE(live.size(), 90u);
  std::uint64_t first_tenth = live[live.size() / 10];
  std::uint64_t middle = live[live.size() / 2];
  EXPECT_LT(first_tenth, middle);
  EXPECT_LT(middle, r.live_end);
  // 0.5-1% of the messages at the end, like a real day's 2-5 M for 270-650 M messages.
  EXPECT_GE(share(r.live_end, r.messages), 0.004);
  EXPECT_LE(share(r.live_end, r.messages), 0.012);
  EXPECT_LE(r.live_peak, r.live_end + r.live_end / 5);
}

void expect_prices(const check_result& r) {
  SCOPED_TRACE("prices");
  double sub = share(r.sub_dollar_symbols, r.symbols_with_adds);
  EXPECT_GE(sub, 0.03);
  EXPECT_LE(sub, 0.12);
  EXPECT_GT(r.max_price_units, 100u * 10'000u) << "some symbols above $100";
}

void expect_stats_agree(const itch5::synth::generator_stats& s, const check_result& r) {
  SCOPED_TRACE("the generator's own summary");
  EXPECT_EQ(s.messages, r.messages);
  EXPECT_EQ(s.live_end, r.live_end);
  EXPECT_EQ(s.live_peak, r.live_peak);
  for (unsigned t = 0; t < 256; ++t) EXPECT_EQ(s.counts[t], r.counts[t]) << static_cast<char>(t);
  EXPECT_EQ(s.depth_events(), r.depths.size());
  for (double q : {0.5, 0.75, 0.9, 0.99, 0.999})
    EXPECT_EQ(s.depth_quantile(q), synth_test::quantile(r.depths, q));
}

TEST(SynthDay, IsBookConsistentAndLooksLikeARealDay) {
  generator_config cfg;
  cfg.messages = stats_messages;
  cfg.seed = 1;
  auto day = generate(cfg);
  auto r = reference_checker(stats_messages / 100).run(day.main);
  expect_consistent(r, stats_messages);
  expect_day_shape(r, day.main);
  expect_mix(r);
  expect_depths(r, stats_messages);
  expect_gaps(r);
  expect_skew(r);
  expect_live_growth(r);
  expect_prices(r);
  expect_stats_agree(day.stats, r);
}

// ---- the session's shape and the symbols' names (issue 31) ----------------------------------------------

// Each message's type, timestamp and, for R, its symbol, read straight from the BinaryFILE bytes.
struct stamped {
  char type;
  std::int64_t ns;
  std::string symbol;
};

std::vector<stamped> stamps(const std::vector<std::byte>& bytes) {
  std::vector<stamped> out;
  for (std::size_t at = 0; at + 2 <= bytes.size();) {
    const std::size_t len =
        std::to_integer<std::size_t>(bytes[at]) << 8 | std::to_integer<std::size_t>(bytes[at + 1]);
    const std::byte* m = bytes.data() + at + 2;
    std::int64_t ns = 0;
    for (int i = 5; i < 11; ++i) ns = ns << 8 | std::to_integer<std::int64_t>(m[i]);
    std::string symbol;
    if (static_cast<char>(m[0]) == 'R') {
      for (int i = 11; i < 19 && static_cast<char>(m[i]) != ' '; ++i) symbol += static_cast<char>(m[i]);
    }
    out.push_back({static_cast<char>(m[0]), ns, symbol});
    at += 2 + len;
  }
  return out;
}

constexpr std::int64_t hour = 3'600'000'000'000;
constexpr std::int64_t minute = hour / 60;

// 5M messages traded only 09:30-09:42 and 200k only 30 s: a day of any size now fills the real day's shape.
TEST(SynthSession, ADayOfAnySizeSpreadsOverTheDaysShape) {
  for (std::uint64_t n : {20'000ull, 200'000ull, 1'000'000ull}) {
    SCOPED_TRACE(n);
    generator_config cfg;
    cfg.messages = n;
    cfg.seed = 5;
    const auto day = generate(cfg);
    EXPECT_EQ(reference_checker().run(day.main).violations, 0u);
    const auto m = stamps(day.main);
    ASSERT_EQ(m.size(), n);
    std::vector<std::pair<char, std::int64_t>> system;
    std::array<std::uint64_t, 24 * 2> per_half_hour{};
    std::uint64_t trading = 0, regular = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
      if (i > 0) {
        ASSERT_LE(m[i - 1].ns, m[i].ns) << i;
      }
      if (m[i].type == 'S') system.emplace_back(m[i].type, m[i].ns);
      if (m[i].type == 'S' || m[i].type == 'R' || m[i].type == 'H' || m[i].type == 'Y') continue;
      ++trading;
      ++per_half_hour[static_cast<std::size_t>(m[i].ns / (30 * minute))];
      if (m[i].ns >= 9 * hour + 30 * minute && m[i].ns < 16 * hour) ++regular;
    }
    // The system events in order, the session's at its times.
    ASSERT_EQ(system.size(), 6u);
    const std::vector<std::int64_t> times = {3 * hour,  4 * hour,  9 * hour + 30 * minute,
                                             16 * hour, 20 * hour, 20 * hour + 5 * minute};
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(system[k].second, times[k]) << k;
    // Trading from the early pre-market to the evening: every hour from 05:00 to 19:00 has messages.
    for (std::size_t h = 5; h < 20; ++h) EXPECT_GT(per_half_hour[2 * h] + per_half_hour[2 * h + 1], 0u) << h;
    EXPECT_EQ(per_half_hour[40], 0u);  // nothing after 20:00 but S E and S C
    // Most of it in the regular session, some before and after.
    EXPECT_GT(share(regular, trading), 0.85);
    EXPECT_LT(share(regular, trading), 0.96);
    // The U: the first and last half hours of the session busier than the half hour after noon.
    const std::uint64_t open = per_half_hour[19], lunch = per_half_hour[24], close = per_half_hour[31];
    EXPECT_GT(open, 2 * lunch);
    EXPECT_GT(close, 2 * lunch);
  }
}

TEST(SynthSession, ACompressedDayTradesFromTheOpenAtTheMeanGap) {
  generator_config cfg;
  cfg.messages = 100'000;
  cfg.compress = true;
  cfg.mean_gap = std::chrono::microseconds(10);
  const auto m = stamps(generate(cfg).main);
  std::int64_t first = -1, last = 0;
  for (const stamped& s : m) {
    if (s.type == 'S' || s.type == 'R' || s.type == 'H' || s.type == 'Y') continue;
    if (s.ns >= 9 * hour + 30 * minute && first < 0) first = s.ns;
    last = std::max(last, s.ns);
  }
  EXPECT_LT(last - first, 5 * 1'000'000'000ll);  // ~1 s of 10 us gaps, not hours
}

// Generated days had random names, so the README's --symbols AAPL,MSFT found nothing in them.
TEST(SynthSymbols, RealNamesUniqueInAlphabeticalOrderWithAaplAndMsft) {
  for (std::uint64_t n : {2'000ull, 200'000ull, 5'000'000ull}) {
    SCOPED_TRACE(n);
    generator_config cfg;
    cfg.messages = n;
    if (n == 5'000'000) {
      // The directory alone (symbol_universe draws it first): no need to write the whole day.
      itch5::synth::rng r(1);
      const itch5::synth::symbol_universe u(1565, 1.1, 0.07, r);
      std::vector<std::string> names;
      for (const auto& s : u.symbols()) names.emplace_back(s.name().str());
      EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
      EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
      EXPECT_NE(std::find(names.begin(), names.end(), "AAPL"), names.end());
      EXPECT_NE(std::find(names.begin(), names.end(), "MSFT"), names.end());
      continue;
    }
    const auto day = generate(cfg);
    std::vector<std::string> names;
    for (const stamped& s : stamps(day.main)) {
      if (s.type == 'R') names.push_back(s.symbol);
    }
    EXPECT_EQ(names.size(), generator_config::default_symbols(n));
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
    for (const char* real : {"AAPL", "MSFT", "SPY", "QQQ"})
      EXPECT_NE(std::find(names.begin(), names.end(), real), names.end()) << real;
    // Real names beyond the famous few, from the 2019 directory's shapes: letters only, 1 to 5 of them.
    for (const std::string& name : names) {
      EXPECT_GE(name.size(), 1u);
      EXPECT_LE(name.size(), 5u) << name;
      EXPECT_EQ(name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), std::string::npos) << name;
    }
  }
}

// ---- the day shapes bench/patterns.py times (--hot-share, --depth-scale, many symbols) -----------------

// Order-related messages of the busiest locate, as a share of all of them.
double busiest_share(const check_result& r) {
  const std::uint64_t total = std::accumulate(r.per_locate.begin(), r.per_locate.end(), std::uint64_t{0});
  return share(*std::max_element(r.per_locate.begin(), r.per_locate.end()), total);
}

TEST(SynthShapes, HotShareGivesOneSymbolThatShareOfTheMessages) {
  generator_config cfg;
  cfg.messages = stats_messages / 4;
  cfg.seed = 5;
  const auto typical = reference_checker(cfg.messages / 100).run(generate(cfg).main);
  cfg.hot_share = 0.5;
  const auto hot = reference_checker(cfg.messages / 100).run(generate(cfg).main);
  expect_consistent(hot, cfg.messages);
  EXPECT_LT(busiest_share(typical), 0.3) << "without the setting no symbol has half the messages";
  EXPECT_NEAR(busiest_share(hot), 0.5, 0.03);
  EXPECT_EQ(hot.directory_entries, typical.directory_entries);
}

TEST(SynthShapes, DepthScaleSpreadsBooksOverThousandsOfLevels) {
  // Books 2,000 levels deep, as in bench/patterns.py's deep case (10 symbols, --depth-scale 20). A
  // book that deep needs thousands of live orders on one side, hence the full 2 M messages (fewer, and
  // a shallower bound, under the sanitizers).
  generator_config cfg;
  cfg.messages = stats_messages;
  cfg.seed = 6;
  cfg.symbols = 10;
  const auto typical = reference_checker(cfg.messages / 100).run(generate(cfg).main);
  cfg.depth_scale = 20;
  const auto deep = reference_checker(cfg.messages / 100).run(generate(cfg).main);
  expect_consistent(deep, cfg.messages);
  EXPECT_GE(deep.max_levels, sanitized ? 600u : 2'000u);
  EXPECT_GE(deep.max_levels, 3 * typical.max_levels);
  EXPECT_GE(synth_test::quantile(deep.depths, 0.9), 10 * synth_test::quantile(typical.depths, 0.9));
}

TEST(SynthShapes, TenThousandSymbolsAreAllListedAndConsistent) {
  generator_config cfg;
  cfg.messages = stats_messages / 4;
  cfg.seed = 7;
  cfg.symbols = 10'000;
  const auto r = reference_checker(cfg.messages / 100).run(generate(cfg).main);
  expect_consistent(r, cfg.messages);
  EXPECT_EQ(r.directory_entries, 10'000u);
  EXPECT_GT(r.symbols_with_adds, 5'000u);
}

TEST(SynthShapes, DefaultSettingsGiveTheSameBytesAsBefore) {
  // hot_share 0 and depth_scale 1 draw nothing extra: explicitly set, they change no byte.
  generator_config cfg;
  cfg.messages = 50'000;
  cfg.seed = 8;
  const auto plain = generate(cfg).main;
  cfg.hot_share = 0;
  cfg.depth_scale = 1;
  EXPECT_TRUE(generate(cfg).main == plain);
  cfg.depth_scale = 1.5;
  EXPECT_FALSE(generate(cfg).main == plain);
}

TEST(SynthShapes, RejectsOutOfRangeShapes) {
  generator_config cfg;
  cfg.hot_share = 1.0;
  EXPECT_THROW(generator{cfg}, std::invalid_argument);
  cfg = {};
  cfg.depth_scale = 0.5;
  EXPECT_THROW(generator{cfg}, std::invalid_argument);
}

// ---- the delayed copy ----------------------------------------------------------------------------------

// Message bytes apart from the timestamp (bytes 5..10 of the message).
bool same_but_timestamp(std::span<const std::byte> a, std::span<const std::byte> b) {
  return a.size() == b.size() && std::equal(a.begin(), a.begin() + 5, b.begin()) &&
         std::equal(a.begin() + 11, a.end(), b.begin() + 11);
}

std::vector<std::span<const std::byte>> split(const std::vector<std::byte>& bytes) {
  std::vector<std::span<const std::byte>> out;
  for (std::size_t at = 0; at + 2 <= bytes.size();) {
    std::size_t len = itch5::detail::load_be16(bytes.data() + at);
    out.emplace_back(bytes.data() + at + 2, len);
    at += 2 + len;
  }
  return out;
}

TEST(SynthDelayedCopy, IsBookConsistentAndTheStreamShiftedWithWholeOrdersDropped) {
  constexpr std::chrono::nanoseconds delay = 250us, jitter = 2us;
  constexpr double drop = 0.02;
  generator_config cfg;
  cfg.messages = sanitized ? 200'000 : 600'000;
  cfg.seed = 11;
  cfg.delay = delay;
  cfg.jitter = jitter;
  cfg.drop = drop;
  auto day = generate(cfg, true);

  auto checked = reference_checker().run(day.delayed);
  EXPECT_FALSE(checked.decode_error) << checked.decode_error_text;
  EXPECT_EQ(checked.violations, 0u) << describe(checked);
  EXPECT_EQ(checked.messages, day.stats.delayed_messages);

  auto orig = split(day.main);
  auto copy = split(day.delayed);
  ASSERT_EQ(orig.size(), cfg.messages);
  auto ts = [](std::span<const std::byte> m) {
    return static_cast<std::int64_t>(itch5::detail::load_be48(m.data() + 5));
  };
  auto ref_at = [](std::span<const std::byte> m, std::size_t off) {
    return itch5::detail::load_be64(m.data() + off);
  };

  // The copy must be a subsequence of the original (timestamps aside); every skipped message must belong
  // to a dropped order, and every message of a dropped order must be skipped.
  std::unordered_map<std::uint64_t, bool> dropped;  // order ref -> dropped
  std::uint64_t orders = 0, dropped_orders = 0;
  std::int64_t min_shift = INT64_MAX, max_shift = INT64_MIN;
  std::size_t j = 0;
  for (std::size_t i = 0; i < orig.size(); ++i) {
    auto m = orig[i];
    bool kept = j < copy.size() && same_but_timestamp(m, copy[j]);
    if (kept) {
      std::int64_t shift = ts(copy[j]) - ts(m);
      min_shift = std::min(min_shift, shift);
      max_shift = std::max(max_shift, shift);
      ++j;
    }
    char t = static_cast<char>(m[0]);
    switch (t) {
      case 'A':
      case 'F':
        ++orders;
        dropped[ref_at(m, 11)] = !kept;
        dropped_orders += kept ? 0 : 1;
        break;
      case 'E':
      case 'C':
      case 'X':
      case 'D': {
        auto it = dropped.find(ref_at(m, 11));
        ASSERT_NE(it, dropped.end());
        ASSERT_EQ(it->second, !kept) << "message " << i << " (" << t << ") kept/dropped unlike its order";
        break;
      }
      case 'U': {
        auto it = dropped.find(ref_at(m, 11));
        ASSERT_NE(it, dropped.end());
        ASSERT_EQ(it->second, !kept) << "replace " << i << " kept/dropped unlike its order";
        dropped[ref_at(m, 19)] = it->second;  // the replacement chain inherits
        break;
      }
      default: ASSERT_TRUE(kept) << "non-order message " << i << " (" << t << ") missing from the copy";
    }
  }
  EXPECT_EQ(j, copy.size()) << "the copy has messages that are not in the original";
  EXPECT_GE(min_shift, (delay - jitter).count());
  EXPECT_LE(max_shift, (delay + jitter).count());
  EXPECT_LT(min_shift, (delay - jitter / 2).count()) << "the jitter spreads the shift";
  EXPECT_GT(max_shift, (delay + jitter / 2).count());
  EXPECT_NEAR(share(dropped_orders, orders), drop, 0.005);
  EXPECT_EQ(dropped_orders, day.stats.dropped_orders);
}

// With a jitter ten times the mean gap, keeping the copy's timestamps non-decreasing must not move its
// mean delay: the mean shift of n uniform jitters has a standard deviation of jitter / sqrt(3 n), about
// 0.03 us here, against the 12 us a per-message clamp to the previous timestamp added at these settings.
TEST(SynthDelayedCopy, MeanShiftIsTheDelayWhenTheJitterExceedsTheGaps) {
  constexpr std::chrono::nanoseconds delay = 250us, jitter = 20us;
  generator_config cfg;
  cfg.messages = 200'000;
  cfg.seed = 12;
  cfg.mean_gap = 2us;
  cfg.delay = delay;
  cfg.jitter = jitter;
  cfg.drop = 0;  // message i of the copy is message i of the original
  auto day = generate(cfg, true);
  auto orig = split(day.main);
  auto copy = split(day.delayed);
  ASSERT_EQ(copy.size(), orig.size());
  auto ts = [](std::span<const std::byte> m) {
    return static_cast<std::int64_t>(itch5::detail::load_be48(m.data() + 5));
  };
  double sum = 0;
  std::int64_t last = 0;
  for (std::size_t i = 0; i < orig.size(); ++i) {
    ASSERT_TRUE(same_but_timestamp(orig[i], copy[i])) << "message " << i;
    std::int64_t shift = ts(copy[i]) - ts(orig[i]);
    ASSERT_GE(shift, (delay - jitter).count()) << "message " << i;
    ASSERT_LE(shift, (delay + jitter).count()) << "message " << i;
    ASSERT_GE(ts(copy[i]), last) << "copy timestamps go back at message " << i;
    last = ts(copy[i]);
    sum += static_cast<double>(shift);
  }
  EXPECT_NEAR(sum / static_cast<double>(orig.size()), static_cast<double>(delay.count()), 200.0);
}

// ---- the tool ------------------------------------------------------------------------------------------

TEST(SynthTool, WritesAGzipFileThatDecodesToTheLibraryStream) {
  auto dir = std::filesystem::temp_directory_path() / ("itch5synth-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto gz = dir / "day.itch.gz";
  std::string cmd =
      std::string(ITCH5_TOOLS_DIR) + "/itch5synth --messages 20k --seed 5 --quiet -o " + gz.string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

  generator_config cfg;
  cfg.messages = 20'000;
  cfg.seed = 5;
  auto expected = generate(cfg);
  auto in = itch5::io::open_input(gz.string());
  std::vector<std::byte> got(expected.main.size() + 1);
  std::size_t n = 0, r = 0;
  while ((r = in->read(got.data() + n, got.size() - n)) > 0) n += r;
  got.resize(n);
  EXPECT_TRUE(got == expected.main);
  std::filesystem::remove_all(dir);
}

}  // namespace
