// Prepares the process for measuring, as config asks: pin to a CPU, lock memory, switch to real-time
// scheduling (SCHED_FIFO at maximum priority), in that order, and says what was actually applied.
//
//   auto env = microbench::environment::prepare(cfg);
//   for (auto& w : env.warnings) std::cerr << "bm_x: warning: " << w << "\n";
//   if (!env.ok) { std::cerr << "bm_x: error: " << env.error << "\n"; return 1; }
//
// Policy: real-time and mlockall are best effort (a refusal is a warning and the run goes on), except
// that config::realtime_strict turns a real-time refusal into an error. A CPU that cannot be pinned is an
// error: it is an explicit request that needs no privilege, so failing means a wrong CPU number.
// The system calls are reached through os_calls so tests can simulate refusals without root.
//
// Complexity: a few system calls. Thread-safety: affects the calling thread (scheduling, affinity) and
// the whole process (mlockall); call it once, before any other thread starts.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <microbench/config.hpp>

namespace microbench {

struct environment {
  /// The system calls prepare() uses. Each returns 0 on success or an errno value.
  struct os_calls {
    std::function<int(int cpu)> pin_to_cpu;     ///< sched_setaffinity to {cpu}
    std::function<int()> lock_memory;           ///< mlockall(MCL_CURRENT | MCL_FUTURE)
    std::function<int(int priority)> set_fifo;  ///< sched_setscheduler(0, SCHED_FIFO, priority)
    std::function<int()> max_fifo_priority;     ///< sched_get_priority_max(SCHED_FIFO)

    /// The real Linux calls.
    [[nodiscard]] static os_calls system();
  };

  bool ok = true;                     ///< false: a request that must not be dropped failed, see error
  std::string error;                  ///< why, when !ok
  std::vector<std::string> warnings;  ///< best-effort requests that were refused
  std::string realtime = "off";       ///< "SCHED_FIFO priority 99", "off", or "refused (reason)"
  std::string memory = "off";         ///< "mlockall", "off", or "refused (reason)"
  std::string affinity = "any";       ///< "cpu 3" or "any"

  /// Applies `cfg`'s environment requests through `os` (see the header comment for the policy). Stops at
  /// the first error.
  [[nodiscard]] static environment prepare(const config& cfg, const os_calls& os = os_calls::system());
};

}  // namespace microbench
