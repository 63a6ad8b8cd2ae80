#include <microbench/environment.hpp>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace {

using microbench::config;
using microbench::environment;

// Records every call; each call fails with the configured errno (0: succeeds).
struct fake_os {
  int pin_error = 0, lock_error = 0, fifo_error = 0;
  std::vector<std::string> calls;
  int pinned_cpu = -2, fifo_priority = -1;

  environment::os_calls calls_for_prepare() {
    environment::os_calls os;
    os.pin_to_cpu = [this](int cpu) {
      calls.push_back("pin");
      pinned_cpu = cpu;
      return pin_error;
    };
    os.lock_memory = [this] {
      calls.push_back("lock");
      return lock_error;
    };
    os.set_fifo = [this](int priority) {
      calls.push_back("fifo");
      fifo_priority = priority;
      return fifo_error;
    };
    os.max_fifo_priority = [] { return 42; };
    return os;
  }
};

TEST(Environment, NothingRequestedTouchesNothing) {
  fake_os os;
  auto env = environment::prepare(config{}, os.calls_for_prepare());
  EXPECT_TRUE(env.ok);
  EXPECT_TRUE(os.calls.empty());
  EXPECT_TRUE(env.warnings.empty());
  EXPECT_EQ(env.realtime, "off");
  EXPECT_EQ(env.memory, "off");
  EXPECT_EQ(env.affinity, "any");
}

TEST(Environment, AllGrantedInOrder) {
  fake_os os;
  config cfg;
  cfg.cpu = 3;
  cfg.mlockall = true;
  cfg.realtime = true;
  auto env = environment::prepare(cfg, os.calls_for_prepare());
  EXPECT_TRUE(env.ok);
  EXPECT_EQ(os.calls, (std::vector<std::string>{"pin", "lock", "fifo"}));
  EXPECT_EQ(os.pinned_cpu, 3);
  EXPECT_EQ(os.fifo_priority, 42);  // the maximum priority
  EXPECT_EQ(env.realtime, "SCHED_FIFO priority 42");
  EXPECT_EQ(env.memory, "mlockall");
  EXPECT_EQ(env.affinity, "cpu 3");
  EXPECT_TRUE(env.warnings.empty());
}

TEST(Environment, RealtimeRefusedIsAWarningByDefault) {
  fake_os os;
  os.fifo_error = EPERM;
  config cfg;
  cfg.realtime = true;
  auto env = environment::prepare(cfg, os.calls_for_prepare());
  EXPECT_TRUE(env.ok);
  EXPECT_TRUE(env.error.empty());
  ASSERT_EQ(env.warnings.size(), 1u);
  EXPECT_NE(env.warnings[0].find("SCHED_FIFO"), std::string::npos);
  EXPECT_NE(env.warnings[0].find(std::strerror(EPERM)), std::string::npos);
  EXPECT_EQ(env.realtime, std::string("refused (") + std::strerror(EPERM) + ")");
}

TEST(Environment, RealtimeRefusedIsAnErrorWhenStrict) {
  fake_os os;
  os.fifo_error = EPERM;
  config cfg;
  cfg.realtime_strict = true;  // without realtime: strict implies it
  auto env = environment::prepare(cfg, os.calls_for_prepare());
  EXPECT_FALSE(env.ok);
  EXPECT_NE(env.error.find("SCHED_FIFO"), std::string::npos);
  EXPECT_NE(env.error.find(std::strerror(EPERM)), std::string::npos);
  EXPECT_TRUE(env.warnings.empty());
}

TEST(Environment, StrictRealtimeGrantedIsFine) {
  fake_os os;
  config cfg;
  cfg.realtime_strict = true;
  auto env = environment::prepare(cfg, os.calls_for_prepare());
  EXPECT_TRUE(env.ok);
  EXPECT_EQ(os.calls, (std::vector<std::string>{"fifo"}));
}

TEST(Environment, MlockallRefusedIsAWarning) {
  fake_os os;
  os.lock_error = ENOMEM;
  config cfg;
  cfg.mlockall = true;
  cfg.realtime = true;
  auto env = environment::prepare(cfg, os.calls_for_prepare());
  EXPECT_TRUE(env.ok);
  ASSERT_EQ(env.warnings.size(), 1u);
  EXPECT_NE(env.warnings[0].find("mlockall"), std::string::npos);
  EXPECT_EQ(os.calls, (std::vector<std::string>{"lock", "fifo"}));  // goes on to real-time
}

TEST(Environment, PinningFailureIsAnErrorAndStops) {
  fake_os os;
  os.pin_error = EINVAL;
  config cfg;
  cfg.cpu = 9999;
  cfg.realtime = true;
  auto env = environment::prepare(cfg, os.calls_for_prepare());
  EXPECT_FALSE(env.ok);
  EXPECT_NE(env.error.find("9999"), std::string::npos);
  EXPECT_EQ(os.calls, (std::vector<std::string>{"pin"}));
}

TEST(Environment, SystemCallsRejectImpossibleCpu) {
  // No side effect on this process: the CPU number is rejected before any system call.
  EXPECT_EQ(environment::os_calls::system().pin_to_cpu(-1), EINVAL);
  EXPECT_EQ(environment::os_calls::system().pin_to_cpu(1 << 20), EINVAL);
  EXPECT_GE(environment::os_calls::system().max_fifo_priority(), 1);  // Linux: 99
}

}  // namespace
