#include <microbench/config.hpp>

#include <cstdint>

#include <itch5/cli/options.hpp>

namespace microbench {

void add_options(itch5::cli::options& opts, config& cfg) {
  constexpr std::uint64_t max_samples = 1'000'000'000;  // 8 GB of samples
  opts.add_count("warmup", cfg.warmup, "Untimed iterations before the timed ones (suffixes k, M).", 0,
                 UINT64_MAX);
  opts.add_count("iterations", cfg.iterations,
                 "Timed iterations per test case; each one is a sample (suffixes k, M). The sample buffer is "
                 "allocated before the run: 8 bytes per iteration.",
                 1, max_samples)
      .alias('n');
  opts.add_count("size", cfg.size, "Problem size handed to the fixtures (suffixes k, M, G); see the epilog.",
                 1, UINT64_MAX);
  opts.add("testcase", cfg.testcase,
           "Test cases to run, comma-separated, in this order (when empty: all, in "
           "registration order; --list shows them).")
      .value_name("NAME,...");
  opts.add("seed", cfg.seed, "Seed for generated inputs.", 0, UINT64_MAX);
  opts.add("verbose", cfg.verbose,
           "Write every sample to stdout as CSV 'testcase,nanoseconds' after '# key: value' lines recording "
           "the "
           "build, the machine and these options.")
      .alias('v');
  opts.add(
      "realtime", cfg.realtime,
      "Run with SCHED_FIFO at maximum priority. Best effort: when refused (needs root or CAP_SYS_NICE), warn "
      "on stderr and go on. A spinning real-time benchmark can starve the rest of the machine.");
  opts.add("realtime-strict", cfg.realtime_strict,
           "Like --realtime, but fail (exit status 1) when real-time scheduling is refused.");
  opts.add("mlockall", cfg.mlockall,
           "Lock current and future memory with mlockall (no page faults from swapping). Best effort: warn "
           "when refused.");
  opts.add("cpu", cfg.cpu, "Pin the process to this CPU (-1: no pinning). Failing to pin is an error.", -1,
           65535);
  opts.add(
      "per-item", cfg.per_item,
      "Time every item (operation, message) of an iteration on its own, with the fenced time-stamp counter "
      "calibrated to nanoseconds and its overhead subtracted; one sample per item, iterations x items "
      "samples of 8 bytes allocated before the run. Only for test cases whose fixture has run_item().");
  opts.add("disturb-cache", cfg.disturb_cache,
           "Before every timed unit (an iteration, or an item with --per-item), read --disturb-size bytes "
           "(one load per 64-byte line, untimed) so that the next one starts with cold caches.");
  opts.add_size("disturb-size", cfg.disturb_size,
                "Bytes read by --disturb-cache (suffixes KiB, MiB, GiB); 0: twice the last-level cache size "
                "the kernel reports.",
                0, std::uint64_t{1} << 40);
}

}  // namespace microbench
