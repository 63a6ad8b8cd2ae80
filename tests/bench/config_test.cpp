#include <microbench/config.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "argv.hpp"
#include <itch5/cli/options.hpp>

namespace {

using microbench::test::argv;

struct parsed {
  microbench::config cfg;
  itch5::cli::options opts{"bm_test", "[options]", "test"};
  parsed() { microbench::add_options(opts, cfg); }
};

TEST(Config, Defaults) {
  parsed p;
  argv a{"bm_test"};
  EXPECT_FALSE(p.opts.parse(a.argc(), a.get()).has_value());
  EXPECT_EQ(p.cfg.warmup, 100u);
  EXPECT_EQ(p.cfg.iterations, 1000u);
  EXPECT_EQ(p.cfg.size, 1000u);
  EXPECT_TRUE(p.cfg.testcase.empty());
  EXPECT_EQ(p.cfg.seed, 1u);
  EXPECT_FALSE(p.cfg.verbose);
  EXPECT_FALSE(p.cfg.wants_realtime());
  EXPECT_FALSE(p.cfg.mlockall);
  EXPECT_EQ(p.cfg.cpu, -1);
  EXPECT_FALSE(p.cfg.per_item);
  EXPECT_FALSE(p.cfg.disturb_cache);
  EXPECT_EQ(p.cfg.disturb_size, 0u);
}

TEST(Config, PerItemAndCacheDisturbance) {
  parsed p;
  argv a{"bm_test", "--per-item", "--disturb-cache", "--disturb-size", "3MiB"};
  ASSERT_FALSE(p.opts.parse(a.argc(), a.get()).has_value());
  EXPECT_TRUE(p.cfg.per_item);
  EXPECT_TRUE(p.cfg.disturb_cache);
  EXPECT_EQ(p.cfg.disturb_size, 3u << 20);
  parsed q;
  q.opts.apply_yaml("per-item: true\ndisturb-cache: true\ndisturb-size: 64KiB\n", "test.yaml");
  EXPECT_TRUE(q.cfg.per_item);
  EXPECT_TRUE(q.cfg.disturb_cache);
  EXPECT_EQ(q.cfg.disturb_size, 65536u);
}

TEST(Config, Flags) {
  parsed p;
  argv a{"bm_test", "--warmup", "5",  "-n",         "2k",    "--size=1M", "--testcase",       "b,a",
         "--seed",  "42",       "-v", "--mlockall", "--cpu", "1",         "--realtime-strict"};
  ASSERT_FALSE(p.opts.parse(a.argc(), a.get()).has_value());
  EXPECT_EQ(p.cfg.warmup, 5u);
  EXPECT_EQ(p.cfg.iterations, 2000u);
  EXPECT_EQ(p.cfg.size, 1'000'000u);
  EXPECT_EQ(p.cfg.testcase, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(p.cfg.seed, 42u);
  EXPECT_TRUE(p.cfg.verbose);
  EXPECT_TRUE(p.cfg.mlockall);
  EXPECT_EQ(p.cfg.cpu, 1);
  EXPECT_TRUE(p.cfg.realtime_strict);
  EXPECT_FALSE(p.cfg.realtime);
  EXPECT_TRUE(p.cfg.wants_realtime());  // strict implies the request
}

TEST(Config, Yaml) {
  parsed p;
  p.opts.apply_yaml(
      "warmup: 7\niterations: 300\nsize: 64k\ntestcase: [x, y]\nseed: 9\nverbose: true\nrealtime: true\n"
      "mlockall: yes\ncpu: 0\n",
      "test.yaml");
  EXPECT_EQ(p.cfg.warmup, 7u);
  EXPECT_EQ(p.cfg.iterations, 300u);
  EXPECT_EQ(p.cfg.size, 64'000u);
  EXPECT_EQ(p.cfg.testcase, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(p.cfg.seed, 9u);
  EXPECT_TRUE(p.cfg.verbose);
  EXPECT_TRUE(p.cfg.realtime);
  EXPECT_FALSE(p.cfg.realtime_strict);
  EXPECT_TRUE(p.cfg.mlockall);
  EXPECT_EQ(p.cfg.cpu, 0);
}

TEST(Config, FlagsOverrideTheConfigFile) {
  auto path = std::filesystem::temp_directory_path() / "microbench_config_test.yaml";
  {
    std::ofstream f(path);
    f << "iterations: 300\nwarmup: 4\nrealtime-strict: true\n";
  }
  parsed p;
  argv a{"bm_test", "--iterations", "9", "--config", path.string(), "--no-realtime-strict"};
  ASSERT_FALSE(p.opts.parse(a.argc(), a.get()).has_value());
  std::filesystem::remove(path);
  EXPECT_EQ(p.cfg.iterations, 9u);  // flag wins although it comes first
  EXPECT_EQ(p.cfg.warmup, 4u);      // from the file
  EXPECT_FALSE(p.cfg.realtime_strict);
}

TEST(Config, RejectsBadValues) {
  {
    parsed p;
    argv a{"bm_test", "--iterations", "0"};  // at least one sample
    EXPECT_EQ(p.opts.parse(a.argc(), a.get()), 2);
  }
  {
    parsed p;
    argv a{"bm_test", "--cpu", "-2"};
    EXPECT_EQ(p.opts.parse(a.argc(), a.get()), 2);
  }
  parsed p;
  EXPECT_THROW(p.opts.apply_yaml("iteration: 5\n", "test.yaml"), std::invalid_argument);  // typo in the key
  EXPECT_THROW(p.opts.apply_yaml("seed: many\n", "test.yaml"), std::invalid_argument);
}

TEST(Config, PrintConfigRoundTrips) {
  parsed p;
  argv a{"bm_test", "--iterations", "77", "--testcase", "q"};
  ASSERT_FALSE(p.opts.parse(a.argc(), a.get()).has_value());
  parsed q;
  q.opts.apply_yaml(p.opts.to_yaml(), "printed");
  EXPECT_EQ(q.cfg.iterations, 77u);
  EXPECT_EQ(q.cfg.testcase, (std::vector<std::string>{"q"}));
}

}  // namespace
