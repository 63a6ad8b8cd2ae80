// The framework's options, shared by every benchmark program: how many iterations, which test cases, the
// input size and seed handed to fixtures, the verbose dump, the per-item mode and cache disturbance, and
// the process environment (real-time scheduling, locked memory, CPU pinning).
//
//   microbench::config cfg;                      // defaults below; a program may change them first
//   itch5::cli::options opts("bm_x", "[options]", "...");
//   microbench::add_options(opts, cfg);          // --iterations N, YAML key `iterations`, --help, ...
//   if (auto rc = opts.parse(argc, argv)) return *rc;
//
// suite does this for you; add_options() is public so programs with their own driver and the tests can
// use it. Thread-safety: plain data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace itch5::cli {
class options;
}

namespace microbench {

struct config {
  std::uint64_t warmup = 100;         ///< untimed iterations before the timed ones
  std::uint64_t iterations = 1000;    ///< timed iterations = samples per test case
  std::uint64_t size = 1000;          ///< problem size, interpreted by the fixture (e.g. messages)
  std::vector<std::string> testcase;  ///< test cases to run, in this order; empty: all, in registration order
  std::uint64_t seed = 1;             ///< for fixtures that generate input
  bool verbose = false;               ///< dump every sample to stdout as CSV
  bool realtime = false;              ///< SCHED_FIFO at maximum priority, best effort
  bool realtime_strict = false;       ///< fail instead of warning when real-time is refused; implies realtime
  bool mlockall = false;              ///< lock current and future memory (best effort)
  std::int64_t cpu = -1;              ///< pin to this CPU; -1: no pinning
  bool per_item = false;           ///< time every item of an iteration on its own (fixtures with run_item())
  bool disturb_cache = false;      ///< read a buffer before every timed unit (iteration or item), untimed
  std::uint64_t disturb_size = 0;  ///< bytes read by disturb_cache; 0: twice the last-level cache

  /// True when real-time scheduling was requested (realtime or realtime_strict).
  [[nodiscard]] bool wants_realtime() const noexcept { return realtime || realtime_strict; }
};

/// Registers the options of `cfg` on `opts` (the values in `cfg` are the defaults shown by --help).
/// Keys: warmup, iterations, size, testcase, seed, verbose (-v), realtime, realtime-strict, mlockall, cpu,
/// per-item, disturb-cache, disturb-size.
void add_options(itch5::cli::options& opts, config& cfg);

}  // namespace microbench
