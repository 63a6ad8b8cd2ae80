#include <microbench/environment.hpp>

#include <sched.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>

namespace microbench {

environment::os_calls environment::os_calls::system() {
  os_calls os;
  os.pin_to_cpu = [](int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set) == 0 ? 0 : errno;
  };
  os.lock_memory = [] { return mlockall(MCL_CURRENT | MCL_FUTURE) == 0 ? 0 : errno; };
  os.set_fifo = [](int priority) {
    sched_param param{};
    param.sched_priority = priority;
    return sched_setscheduler(0, SCHED_FIFO, &param) == 0 ? 0 : errno;
  };
  os.max_fifo_priority = [] {
    int p = sched_get_priority_max(SCHED_FIFO);
    return p < 0 ? 0 : p;
  };
  return os;
}

environment environment::prepare(const config& cfg, const os_calls& os) {
  environment env;
  if (cfg.cpu >= 0) {
    const int cpu = static_cast<int>(cfg.cpu);
    if (int err = os.pin_to_cpu(cpu); err != 0) {
      env.ok = false;
      env.error = "--cpu " + std::to_string(cpu) + ": cannot pin to this CPU: " + std::strerror(err);
      return env;
    }
    env.affinity = "cpu " + std::to_string(cpu);
  }
  if (cfg.mlockall) {
    if (int err = os.lock_memory(); err != 0) {
      env.memory = std::string("refused (") + std::strerror(err) + ")";
      env.warnings.push_back(std::string("--mlockall: mlockall failed: ") + std::strerror(err) +
                             "; memory is not locked (needs root, CAP_IPC_LOCK or a larger RLIMIT_MEMLOCK)");
    } else {
      env.memory = "mlockall";
    }
  }
  if (cfg.wants_realtime()) {
    const int priority = os.max_fifo_priority();
    if (int err = os.set_fifo(priority); err != 0) {
      env.realtime = std::string("refused (") + std::strerror(err) + ")";
      std::string what = "cannot switch to SCHED_FIFO priority " + std::to_string(priority) + ": " +
                         std::strerror(err) + " (needs root or CAP_SYS_NICE)";
      if (cfg.realtime_strict) {
        env.ok = false;
        env.error = "--realtime-strict: " + what;
        return env;
      }
      env.warnings.push_back("--realtime: " + what + "; running with normal scheduling");
    } else {
      env.realtime = "SCHED_FIFO priority " + std::to_string(priority);
    }
  }
  return env;
}

}  // namespace microbench
