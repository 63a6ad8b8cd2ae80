#include <microbench/measure.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace {

// A clock that only moves when a fixture moves it, so every duration the loop records is known exactly.
struct fake_clock {
  using rep = std::int64_t;
  using period = std::nano;
  using duration = std::chrono::nanoseconds;
  using time_point = std::chrono::time_point<fake_clock>;
  static inline std::int64_t ticks = 0;
  static time_point now() noexcept { return time_point(duration(ticks)); }
};

// run() number k (counting from 1) lasts 7 + k fake nanoseconds; construction and reset() move the clock
// too, which must not show in any sample.
struct counting_fixture {
  explicit counting_fixture(const microbench::config&) { fake_clock::ticks += 1'000'000; }
  void reset() {
    ++resets;
    fake_clock::ticks += 500;
  }
  void run() {
    ++runs;
    fake_clock::ticks += 7 + runs;
  }
  std::int64_t runs = 0;
  std::int64_t resets = 0;
};

TEST(Measure, WarmupThenOneSamplePerIterationWithExactDurations) {
  microbench::config cfg;
  counting_fixture f(cfg);
  std::vector<std::int64_t> samples(5, -1);
  microbench::measure<fake_clock>(f, 3, samples);
  EXPECT_EQ(f.runs, 3 + 5);
  EXPECT_EQ(f.resets, 3 + 5);  // before every iteration, warm-up included
  // The i-th timed iteration is run number 3 + i + 1; neither setup nor reset() is in its time.
  EXPECT_EQ(samples, (std::vector<std::int64_t>{11, 12, 13, 14, 15}));
}

struct value_fixture {
  explicit value_fixture(const microbench::config&) {}
  std::uint64_t run() {
    fake_clock::ticks += 2;
    return ++calls;
  }
  std::uint64_t calls = 0;
};
static_assert(microbench::fixture<value_fixture>);
static_assert(!microbench::resettable<value_fixture>);
static_assert(microbench::resettable<counting_fixture>);

TEST(Measure, FixtureReturningAValueAndNoReset) {
  microbench::config cfg;
  value_fixture f(cfg);
  std::vector<std::int64_t> samples(4);
  microbench::measure<fake_clock>(f, 0, samples);
  EXPECT_EQ(f.calls, 4u);
  EXPECT_EQ(samples, (std::vector<std::int64_t>{2, 2, 2, 2}));
}

TEST(Measure, EmptySampleBufferRunsOnlyTheWarmup) {
  microbench::config cfg;
  value_fixture f(cfg);
  microbench::measure<fake_clock>(f, 6, {});
  EXPECT_EQ(f.calls, 6u);
}

struct sleeping_fixture {
  explicit sleeping_fixture(const microbench::config&) {}
  void run() { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }
};

TEST(Measure, SteadyClockSamplesCoverTheRun) {
  microbench::config cfg;
  sleeping_fixture f(cfg);
  std::vector<std::int64_t> samples(3, 0);
  microbench::measure(f, 0, samples);
  for (auto s : samples) EXPECT_GE(s, 2'000'000);  // sleep_for sleeps at least as long as asked
}

// A timer in ticks that only moves when a fixture moves it.
struct fake_timer {
  static inline std::uint64_t ticks = 0;
  static std::uint64_t start() noexcept { return ticks; }
  static std::uint64_t stop() noexcept { return ticks; }
};

// Item i lasts 10 * (i + 1) fake ticks; run() does all items at once. The order of calls is recorded.
struct item_fixture {
  explicit item_fixture(const microbench::config&) {}
  void reset() {
    log.push_back('R');
    fake_timer::ticks += 1000;  // reset is never inside a sample
  }
  void run() {
    log.push_back('W');
    for (std::uint64_t i = 0; i < 3; ++i) run_item(i);
  }
  void run_item(std::uint64_t i) {
    log.push_back(static_cast<char>('0' + i));
    fake_timer::ticks += 10 * (i + 1);
  }
  std::uint64_t items_per_iteration() const { return 3; }
  std::string log;
};
static_assert(microbench::itemwise<item_fixture>);
static_assert(!microbench::itemwise<value_fixture>);

TEST(MeasureItems, WarmupRunsWholeIterationsThenEveryItemIsOneSample) {
  microbench::config cfg;
  item_fixture f(cfg);
  std::vector<std::int64_t> ticks(2 * 3, -1);
  microbench::measure_items<fake_timer>(f, 1, ticks);
  // Warm-up: reset, run() (which does the items); then per timed iteration: reset, items 0, 1, 2.
  EXPECT_EQ(f.log, "RW012R012R012");
  EXPECT_EQ(ticks, (std::vector<std::int64_t>{10, 20, 30, 10, 20, 30}));
}

TEST(MeasureItems, ARemainderShorterThanAnIterationIsLeftAlone) {
  microbench::config cfg;
  item_fixture f(cfg);
  std::vector<std::int64_t> ticks(5, -1);
  microbench::measure_items<fake_timer>(f, 0, ticks);
  EXPECT_EQ(f.log, "R012");
  EXPECT_EQ(ticks, (std::vector<std::int64_t>{10, 20, 30, -1, -1}));
}

// Like item_fixture, and prepare_item(i) costs 1000 fake ticks, which no sample may show.
struct preparing_fixture : item_fixture {
  using item_fixture::item_fixture;
  void prepare_item(std::uint64_t i) {
    log.push_back('p');
    log.push_back(static_cast<char>('0' + i));
    fake_timer::ticks += 1000;
  }
};
static_assert(microbench::prepares_items<preparing_fixture>);
static_assert(!microbench::prepares_items<item_fixture>);

TEST(MeasureItems, EveryItemIsPreparedUntimedJustBeforeItRuns) {
  microbench::config cfg;
  preparing_fixture f(cfg);
  std::vector<std::int64_t> ticks(3, -1);
  microbench::measure_items<fake_timer>(f, 1, ticks);
  EXPECT_EQ(f.log, "RW012Rp00p11p22");  // the warm-up's run() prepares nothing
  EXPECT_EQ(ticks, (std::vector<std::int64_t>{10, 20, 30}));
}

TEST(MeasureItems, TheDisturberIsReadOutsideTheSamples) {
  // A disturber of 256 KiB read before every item: the fake timer shows only the items, and the real
  // cycle_timer still runs the loop to the end.
  microbench::config cfg;
  item_fixture f(cfg);
  microbench::cache_disturber d(256 << 10);
  std::vector<std::int64_t> ticks(3, -1);
  microbench::measure_items<fake_timer>(f, 0, ticks, &d);
  EXPECT_EQ(ticks, (std::vector<std::int64_t>{10, 20, 30}));
  std::vector<std::int64_t> real(30, -1);
  microbench::measure_items(f, 0, real, &d);
  for (auto t : real) EXPECT_GE(t, 0);
}

TEST(Measure, TheDisturberIsReadOutsideTheSamples) {
  microbench::config cfg;
  counting_fixture f(cfg);
  microbench::cache_disturber d(64 << 10);
  std::vector<std::int64_t> samples(2, -1);
  fake_clock::ticks = 0;
  microbench::measure<fake_clock>(f, 0, samples, &d);
  EXPECT_EQ(samples, (std::vector<std::int64_t>{8, 9}));
}

// Concept checks: what is and is not a fixture.
struct no_run {
  explicit no_run(const microbench::config&) {}
};
struct no_config_ctor {
  void run() {}
};
struct with_args {
  with_args(const microbench::config&, int, const char*) {}
  void run() {}
  unsigned items_per_iteration() const { return 3; }
};
static_assert(!microbench::fixture<no_run>);
static_assert(!microbench::fixture<no_config_ctor>);
static_assert(microbench::fixture<with_args, int, const char*>);
static_assert(!microbench::fixture<with_args>);
static_assert(microbench::counts_items<with_args>);
static_assert(!microbench::counts_items<counting_fixture>);

}  // namespace
