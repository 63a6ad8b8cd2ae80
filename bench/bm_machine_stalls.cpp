// bm_machine_stalls: how long the machine itself holds up a thread that only reads the clock, on each CPU
// at once, and what that puts under any latency quantile (machine_stalls.hpp). Run it on an otherwise idle
// machine, before a latency benchmark: its floors are what no program can beat there (bench/live_latency.py
// does, for the wire-to-inside latencies of issue 34).
//
//   build/bench/bm_machine_stalls --duration 10s          # every CPU this process may run on
//   build/bench/bm_machine_stalls --duration 10s --json   # one JSON object, for scripts
//
// One thread per CPU, pinned to it, reads steady_clock in a loop for --duration; a gap of at least
// --threshold between two readings is a stall (an interrupt, a kernel thread, the hypervisor running
// another guest on the CPU). Gaps are kept in memory allocated before the probe (at most --max-gaps per CPU;
// more are counted as dropped and still count in the time lost). Reported per CPU: the stalls, the share of
// the time spent in them, the longest, and P(wait > x) for work due at a random moment; then the floors of
// the latency quantiles for a path that needs every CPU probed (the worst CPU's, and with the CPUs' stalls
// independent). The CPUs probed are those the process may run on: on a machine with more CPUs than the
// path uses, choose them with taskset (`taskset -c 2,3 build/bench/bm_machine_stalls`).
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <itch5/cli/options.hpp>

#include "machine_stalls.hpp"

namespace {

using steady = std::chrono::steady_clock;

struct probe_result {
  int cpu = 0;
  machine_stalls::profile stalls;
  std::uint64_t dropped = 0;    // stalls beyond max_gaps (their time is in lost_ns)
  std::int64_t lost_ns = 0;     // time in all stalls
  std::int64_t longest_ns = 0;  // the longest stall
  bool pinned = false;          // pthread_setaffinity_np succeeded
};

// Pins the thread to `r.cpu`, waits for `go`, then reads the clock for `length`, recording every gap of at
// least `threshold` in r.stalls.
void probe(probe_result& r, std::size_t max_gaps, std::chrono::nanoseconds threshold,
           const std::atomic<bool>& go, steady::duration length) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(r.cpu, &set);
  r.pinned = pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
  std::vector<std::int64_t>& gaps = r.stalls.gaps;
  gaps.reserve(max_gaps);  // before the probe: no allocation while it runs
  while (!go.load(std::memory_order_acquire)) {
  }
  const steady::time_point start = steady::now();
  const steady::time_point end = start + length;
  const std::int64_t min_gap = threshold.count();
  steady::time_point prev = start;
  for (;;) {
    const steady::time_point t = steady::now();
    const std::int64_t gap = std::chrono::duration_cast<std::chrono::nanoseconds>(t - prev).count();
    if (gap >= min_gap) [[unlikely]] {
      if (gaps.size() < max_gaps) {
        gaps.push_back(gap);
      } else {
        ++r.dropped;
      }
      r.lost_ns += gap;
      r.longest_ns = std::max(r.longest_ns, gap);
    }
    prev = t;
    if (t >= end) break;
  }
  r.stalls.span = std::chrono::duration_cast<std::chrono::nanoseconds>(prev - start);
}

std::vector<int> allowed_cpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    }
  }
  return cpus;
}

constexpr double waits_us[] = {5, 10, 20, 50, 100, 200, 500, 1000, 5000};
constexpr double quantiles[] = {0.5, 0.9, 0.99, 0.999, 0.9999};
const char* const quantile_names[] = {"p50", "p90", "p99", "p99.9", "p99.99"};

}  // namespace

int main(int argc, char** argv) {
  std::chrono::nanoseconds duration = std::chrono::seconds(10);
  std::chrono::nanoseconds threshold = std::chrono::microseconds(1);
  std::uint64_t max_gaps = 1'000'000;
  bool json = false;
  itch5::cli::options opts(
      "bm_machine_stalls", "[options]",
      "Measures how long the machine holds up a thread that only reads the clock, on every CPU this "
      "process may run on at once, and prints per CPU the stalls and P(wait > x) for work due at a random "
      "moment, then the floors those stalls put under latency quantiles (bench/machine_stalls.hpp). Run "
      "it on an otherwise idle machine.");
  opts.add("duration", duration, "How long to probe (e.g. 10s, 500ms).");
  opts.add("threshold", threshold,
           "The shortest gap between two clock readings counted as a stall (e.g. 1us).");
  opts.add_count("max-gaps", max_gaps, "Stalls kept per CPU (8 bytes each, allocated before the probe).",
                 1000, 100'000'000);
  opts.add("json", json, "Print one JSON object instead of the tables.");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  if (duration < std::chrono::milliseconds(10) || duration > std::chrono::hours(1)) {
    std::fprintf(stderr, "bm_machine_stalls: error: --duration must be between 10ms and 1h\n");
    return 2;
  }
  if (threshold < std::chrono::nanoseconds(100)) {
    std::fprintf(stderr,
                 "bm_machine_stalls: error: --threshold must be at least 100ns (a clock reading's cost)\n");
    return 2;
  }
  const double seconds = std::chrono::duration<double>(duration).count();
  const double threshold_us = std::chrono::duration<double, std::micro>(threshold).count();

  const std::vector<int> cpus = allowed_cpus();
  if (cpus.empty()) {
    std::fprintf(stderr, "bm_machine_stalls: error: sched_getaffinity gave no CPU\n");
    return 1;
  }
  std::vector<probe_result> results(cpus.size());
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  const auto length = std::chrono::duration_cast<steady::duration>(duration);
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    results[i].cpu = cpus[i];
    threads.emplace_back(probe, std::ref(results[i]), static_cast<std::size_t>(max_gaps), threshold,
                         std::cref(go), length);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // every thread pinned and waiting
  go.store(true, std::memory_order_release);
  for (std::thread& t : threads) t.join();

  // The CPUs' profiles side by side for the floors (moved: a profile holds up to --max-gaps stalls).
  std::vector<machine_stalls::profile> profiles;
  for (probe_result& r : results) {
    if (!r.pinned) {
      std::fprintf(stderr, "bm_machine_stalls: error: could not pin a thread to CPU %d\n", r.cpu);
      return 1;
    }
    profiles.push_back(std::move(r.stalls));
  }
  double floors_worst[std::size(quantiles)], floors_indep[std::size(quantiles)];
  for (std::size_t k = 0; k < std::size(quantiles); ++k) {
    floors_worst[k] = static_cast<double>(machine_stalls::floor_worst(profiles, quantiles[k])) / 1e3;
    floors_indep[k] = static_cast<double>(machine_stalls::floor_independent(profiles, quantiles[k])) / 1e3;
  }

  if (json) {
    std::printf("{\"seconds\": %g, \"threshold_us\": %g, \"cpus\": [", seconds, threshold_us);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const probe_result& r = results[i];
      const machine_stalls::profile& p = profiles[i];
      const double span = static_cast<double>(p.span.count());
      std::printf(
          "%s{\"cpu\": %d, \"stalls\": %llu, \"dropped\": %llu, \"lost_share\": %.6g, \"longest_us\": %.1f, "
          "\"p_wait_over_us\": {",
          i ? ", " : "", r.cpu, static_cast<unsigned long long>(p.gaps.size() + r.dropped),
          static_cast<unsigned long long>(r.dropped), span > 0 ? static_cast<double>(r.lost_ns) / span : 0.0,
          static_cast<double>(r.longest_ns) / 1e3);
      for (std::size_t k = 0; k < std::size(waits_us); ++k) {
        std::printf("%s\"%g\": %.6g", k ? ", " : "", waits_us[k],
                    p.exceedance(static_cast<std::int64_t>(waits_us[k] * 1e3)));
      }
      std::printf("}}");
    }
    std::printf("], \"floor_worst_us\": {");
    for (std::size_t k = 0; k < std::size(quantiles); ++k) {
      std::printf("%s\"%s\": %.1f", k ? ", " : "", quantile_names[k], floors_worst[k]);
    }
    std::printf("}, \"floor_independent_us\": {");
    for (std::size_t k = 0; k < std::size(quantiles); ++k) {
      std::printf("%s\"%s\": %.1f", k ? ", " : "", quantile_names[k], floors_indep[k]);
    }
    std::printf("}}\n");
    return 0;
  }

  std::printf(
      "# bm_machine_stalls: %.2f s on %zu CPUs at once; stalls = gaps of at least %.1f us between two "
      "clock readings\n",
      seconds, cpus.size(), threshold_us);
  std::printf("%-4s %9s %8s %10s", "cpu", "stalls", "lost %", "longest us");
  for (const double w : waits_us)
    std::printf(" %9s", ("P>" + std::to_string(static_cast<int>(w)) + "us%").c_str());
  std::printf("\n");
  for (std::size_t i = 0; i < results.size(); ++i) {
    const probe_result& r = results[i];
    const machine_stalls::profile& p = profiles[i];
    const double span = static_cast<double>(p.span.count());
    std::printf("%-4d %9llu %8.3f %10.1f", r.cpu, static_cast<unsigned long long>(p.gaps.size() + r.dropped),
                span > 0 ? 100.0 * static_cast<double>(r.lost_ns) / span : 0.0,
                static_cast<double>(r.longest_ns) / 1e3);
    for (const double w : waits_us) {
      std::printf(" %9.4f", 100.0 * p.exceedance(static_cast<std::int64_t>(w * 1e3)));
    }
    std::printf("%s\n", r.dropped ? "  (stalls dropped: raise --max-gaps)" : "");
  }
  std::printf("\n# floors under the latency quantiles of a path that needs every CPU above (us)\n");
  std::printf("%-22s", "");
  for (const char* q : quantile_names) std::printf(" %9s", q);
  std::printf("\n%-22s", "worst CPU");
  for (const double f : floors_worst) std::printf(" %9.1f", f);
  std::printf("\n%-22s", "independent CPUs");
  for (const double f : floors_indep) std::printf(" %9.1f", f);
  std::printf("\n");
  return 0;
}
