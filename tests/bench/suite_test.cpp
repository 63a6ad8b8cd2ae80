#include <microbench/suite.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "argv.hpp"
#include <itch5/cli/options.hpp>

namespace {

using microbench::config;
using microbench::suite;
using microbench::test::argv;

struct counters {
  int constructed = 0;
  int runs = 0;
  int last_arg = 0;
};

// Counts into a counters object handed over through add()'s extra arguments.
struct counting_fixture {
  counting_fixture(const config&, counters* c, int arg) : c_(c) {
    ++c_->constructed;
    c_->last_arg = arg;
  }
  void run() { ++c_->runs; }
  counters* c_;
};

struct ten_items {
  explicit ten_items(const config&) {}
  int run() { return 1; }
  unsigned items_per_iteration() const { return 10; }
};

struct failing_setup {
  explicit failing_setup(const config&) { throw std::runtime_error("no input"); }
  void run() {}
};

// Sleeps in setup far longer than in run(): the samples show only run().
struct slow_setup {
  explicit slow_setup(const config&) { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }
  void run() { std::this_thread::sleep_for(std::chrono::milliseconds(1)); }
};

microbench::environment::os_calls refusing_realtime() {
  auto os = microbench::environment::os_calls::system();
  os.set_fifo = [](int) { return EPERM; };
  return os;
}

struct fixture_suite {
  counters a, b;
  suite s{"bm_test", "Test suite."};
  std::ostringstream out, err;
  fixture_suite() {
    s.add<counting_fixture>("a", &a, 1);
    s.add<counting_fixture>("b", &b, 2);
    s.add<ten_items>("items");
    s.set_os_calls(refusing_realtime());
  }
  int main(argv args) { return s.main(args.argc(), args.get(), out, err); }
};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

TEST(Suite, RunsWarmupPlusIterationsAndOneSamplePerIteration) {
  fixture_suite t;
  t.s.defaults().warmup = 4;
  t.s.defaults().iterations = 25;
  auto r = t.s.run("b");
  EXPECT_EQ(t.b.constructed, 1);
  EXPECT_EQ(t.b.runs, 4 + 25);
  EXPECT_EQ(t.b.last_arg, 2);
  EXPECT_EQ(t.a.constructed, 0);
  EXPECT_EQ(r.name, "b");
  EXPECT_EQ(r.samples.size(), 25u);
  EXPECT_EQ(r.summary.n, 25u);
  EXPECT_EQ(r.items_per_iteration, 0u);
  EXPECT_THROW((void)t.s.run("c"), std::invalid_argument);
}

TEST(Suite, SetupIsNotTimed) {
  suite s("bm_test", "");
  s.add<slow_setup>("slow");
  s.defaults().warmup = 0;
  s.defaults().iterations = 3;
  auto r = s.run("slow");
  for (auto ns : r.samples) {
    EXPECT_GE(ns, 1'000'000);    // run() is inside
    EXPECT_LT(ns, 300'000'000);  // the 300 ms setup is not
  }
}

TEST(Suite, MainRunsTheChosenCasesInTheGivenOrder) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--testcase", "items,a", "-n", "3", "--warmup", "2"}), 0);
  EXPECT_EQ(t.a.runs, 5);
  EXPECT_EQ(t.b.constructed, 0);
  EXPECT_TRUE(t.out.str().empty());  // no data without --verbose
  auto e = lines(t.err.str());
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].rfind("items: N 3 | ns/iter min ", 0), 0u) << e[0];
  EXPECT_NE(e[0].find(" | 10 items/iter: p50 "), std::string::npos) << e[0];
  EXPECT_EQ(e[1].rfind("a: N 3 | ns/iter min ", 0), 0u) << e[1];
  EXPECT_EQ(e[1].find("items/iter"), std::string::npos);
}

TEST(Suite, MainRunsAllCasesByDefault) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "-n", "2", "--warmup", "0"}), 0);
  EXPECT_EQ(t.a.runs, 2);
  EXPECT_EQ(t.b.runs, 2);
  EXPECT_EQ(lines(t.err.str()).size(), 3u);
}

TEST(Suite, VerboseDump) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--verbose", "--testcase", "b,a", "--iterations", "3", "--warmup", "1"}), 0);
  auto o = lines(t.out.str());
  std::size_t i = 0;
  std::vector<std::string> keys;
  while (i < o.size() && o[i].rfind("# ", 0) == 0) {
    auto colon = o[i].find(": ");
    ASSERT_NE(colon, std::string::npos) << o[i];
    keys.push_back(o[i].substr(2, colon - 2));
    ++i;
  }
  for (const char* k : {"compiler", "flags", "build_type", "git_commit", "cpu_model", "kernel", "date",
                        "realtime", "option.iterations", "option.testcase", "option.warmup"}) {
    EXPECT_NE(std::find(keys.begin(), keys.end(), k), keys.end()) << k;
  }
  EXPECT_NE(t.out.str().find("# option.iterations: 3\n"), std::string::npos);
  ASSERT_LT(i, o.size());
  EXPECT_EQ(o[i++], "testcase,nanoseconds");
  const std::regex row_b("b,[0-9]+"), row_a("a,[0-9]+");
  for (int k = 0; k < 3; ++k, ++i) EXPECT_TRUE(std::regex_match(o.at(i), row_b)) << o[i];
  EXPECT_EQ(o.at(i++).rfind("# summary: b: N 3 ", 0), 0u);
  for (int k = 0; k < 3; ++k, ++i) EXPECT_TRUE(std::regex_match(o.at(i), row_a)) << o[i];
  EXPECT_EQ(o.at(i++).rfind("# summary: a: N 3 ", 0), 0u);
  EXPECT_EQ(i, o.size());
  EXPECT_EQ(lines(t.err.str()).size(), 2u);  // the summaries also go to stderr
}

TEST(Suite, RealtimeRefusedWarnsAndRuns) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--realtime", "--testcase", "a", "-n", "2"}), 0);
  EXPECT_NE(t.err.str().find("bm_test: warning: --realtime: "), std::string::npos) << t.err.str();
  EXPECT_EQ(t.a.constructed, 1);
}

TEST(Suite, RealtimeRefusedFailsWhenStrict) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--realtime-strict", "--testcase", "a", "-n", "2"}), 1);
  EXPECT_NE(t.err.str().find("bm_test: error: --realtime-strict: "), std::string::npos) << t.err.str();
  EXPECT_EQ(t.a.constructed, 0);  // nothing ran
  EXPECT_TRUE(t.out.str().empty());
}

TEST(Suite, UsageErrors) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--testcase", "a,zzz"}), 2);
  EXPECT_NE(t.err.str().find("unknown test case 'zzz'"), std::string::npos);
  EXPECT_EQ(t.a.constructed, 0);
  fixture_suite u;
  EXPECT_EQ(u.main({"bm_test", "--iterations", "ten"}), 2);
}

TEST(Suite, List) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--list"}), 0);
  EXPECT_EQ(t.out.str(), "a\nb\nitems\n");
  EXPECT_EQ(t.s.names(), (std::vector<std::string>{"a", "b", "items"}));
}

TEST(Suite, ConfigFile) {
  auto path = std::filesystem::temp_directory_path() / "microbench_suite_test.yaml";
  {
    std::ofstream f(path);
    f << "testcase: [b]\niterations: 6\nwarmup: 0\n";
  }
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--config", path.string()}), 0);
  std::filesystem::remove(path);
  EXPECT_EQ(t.b.runs, 6);
  EXPECT_EQ(t.a.runs, 0);
  EXPECT_EQ(t.s.current().iterations, 6u);
}

TEST(Suite, FixtureFailureIsReported) {
  suite s("bm_test", "");
  s.add<failing_setup>("broken");
  std::ostringstream out, err;
  argv a{"bm_test"};
  EXPECT_EQ(s.main(a.argc(), a.get(), out, err), 1);
  EXPECT_EQ(err.str(), "bm_test: error: test case broken: no input\n");
}

// A program option parsed by main() reaches fixtures registered before it, through std::cref.
struct reads_option {
  reads_option(const config&, const std::string& mode, std::string* seen) { *seen = mode; }
  void run() {}
};

TEST(Suite, ProgramOptionsReachFixturesThroughCref) {
  suite s("bm_test", "");
  std::string mode = "array", seen;
  s.options().add("mode", mode, "Book type.");
  s.add<reads_option>("x", std::cref(mode), &seen);
  std::ostringstream out, err;
  argv a{"bm_test", "--mode", "map", "-n", "1"};
  EXPECT_EQ(s.main(a.argc(), a.get(), out, err), 0);
  EXPECT_EQ(seen, "map");
}

TEST(Suite, RejectsBadNames) {
  suite s("bm_test", "");
  counters c;
  s.add<counting_fixture>("x", &c, 0);
  EXPECT_THROW(s.add<counting_fixture>("x", &c, 0), std::invalid_argument);
  EXPECT_THROW(s.add<counting_fixture>("a,b", &c, 0), std::invalid_argument);
  EXPECT_THROW(s.add<counting_fixture>("", &c, 0), std::invalid_argument);
}

// An itemwise fixture: 4 items per iteration, each a short spin.
struct spin_items {
  explicit spin_items(const config&) {}
  std::uint64_t run() {
    std::uint64_t s = 0;
    for (std::uint64_t i = 0; i < 4; ++i) s += run_item(i);
    return s;
  }
  std::uint64_t run_item(std::uint64_t i) {
    std::uint64_t x = i;
    for (int k = 0; k < 200; ++k) x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
  }
  std::uint64_t items_per_iteration() const { return 4; }
};

TEST(Suite, PerItemModeHasOneSamplePerItem) {
  suite s("bm_test", "");
  s.add<spin_items>("spin");
  s.defaults().per_item = true;
  s.defaults().iterations = 5;
  s.defaults().warmup = 1;
  auto r = s.run("spin");
  EXPECT_TRUE(r.per_item);
  EXPECT_EQ(r.samples.size(), 20u);
  EXPECT_EQ(r.items_per_iteration, 4u);
  EXPECT_EQ(r.summary.n, 20u);
  // 200 dependent multiply-adds take at least 200 cycles, so at least ~40 ns on any CPU up to 5 GHz;
  // a sample below that would mean the item was not inside the timed region or the scale is wrong.
  EXPECT_GE(r.summary.min, 30);
  EXPECT_LT(r.summary.p50, 1'000'000);
}

TEST(Suite, PerItemMainReportsTheTimerAndDumpsEveryItem) {
  suite s("bm_test", "");
  s.add<spin_items>("spin");
  std::ostringstream out, err;
  argv a{"bm_test",         "--per-item",     "-n",    "3", "--warmup", "0", "--verbose",
         "--disturb-cache", "--disturb-size", "128KiB"};
  ASSERT_EQ(s.main(a.argc(), a.get(), out, err), 0) << err.str();
  auto e = lines(err.str());
  ASSERT_EQ(e.size(), 3u) << err.str();
  EXPECT_EQ(e[0].rfind("bm_test: per-item timer: ", 0), 0u) << e[0];
  EXPECT_NE(e[0].find("p50 subtracted from every item"), std::string::npos) << e[0];
  EXPECT_EQ(e[1].rfind("bm_test: cache disturbance: 0.1 MiB read before every item (last-level cache ", 0),
            0u)
      << e[1];
  EXPECT_EQ(e[2].rfind("spin: N 12 | ns/item min ", 0), 0u) << e[2];
  EXPECT_EQ(e[2].find("items/iter"), std::string::npos) << e[2];
  const std::string dump = out.str();
  EXPECT_NE(dump.find("# mode: per-item\n"), std::string::npos);
  EXPECT_NE(dump.find("# timer: " + e[0].substr(std::string("bm_test: per-item timer: ").size()) + "\n"),
            std::string::npos);
  EXPECT_NE(dump.find("# cache_disturbance: 0.1 MiB read before every item"), std::string::npos);
  const std::regex row("spin,[0-9]+");
  int rows = 0;
  for (const auto& l : lines(dump)) rows += std::regex_match(l, row) ? 1 : 0;
  EXPECT_EQ(rows, 12);
}

TEST(Suite, PerItemModeNeedsRunItem) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--per-item", "--testcase", "items", "-n", "2"}), 1);
  EXPECT_NE(
      t.err.str().find("bm_test: error: test case items: no per-item mode: the fixture has no run_item()"),
      std::string::npos)
      << t.err.str();
}

TEST(Suite, PerItemSampleCountIsChecked) {
  suite s("bm_test", "");
  s.add<spin_items>("spin");
  s.defaults().per_item = true;
  s.defaults().iterations = 300'000'000;  // x 4 items: more than 10^9 samples
  EXPECT_THROW((void)s.run("spin"), std::invalid_argument);
}

TEST(Suite, PerIterationDisturbanceIsNotedAndTheRunGoesOn) {
  fixture_suite t;
  EXPECT_EQ(t.main({"bm_test", "--disturb-cache", "--disturb-size", "64KiB", "--testcase", "a", "-n", "2"}),
            0);
  auto e = lines(t.err.str());
  ASSERT_EQ(e.size(), 2u) << t.err.str();
  EXPECT_EQ(e[0].rfind("bm_test: cache disturbance: 0.1 MiB read before every iteration", 0), 0u) << e[0];
  EXPECT_EQ(t.a.runs, 2 + 100);
}

}  // namespace
