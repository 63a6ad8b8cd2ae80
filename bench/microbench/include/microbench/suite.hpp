// The main helper: a benchmark program registers named test cases (name -> fixture type) and hands over
// its command line; the suite parses the options, prepares the process, runs the chosen test cases and
// prints the results.
//
//   int main(int argc, char** argv) {
//     microbench::suite s("bm_sum", "Sums vectors.");
//     s.defaults().size = 4096;                  // program defaults, shown by --help
//     s.add<sum_fixture>("sum");                 // sum_fixture(const microbench::config&)
//     s.add<scaled_fixture>("sum_x3", 3);        // scaled_fixture(const microbench::config&, int)
//     return s.main(argc, argv);
//   }
//
// Output (summary on stderr, data on stdout): one summary line per test case goes to stderr, so that
// stdout carries only data. With --verbose, stdout receives the dump: '# key: value' lines (build,
// machine, environment, timer, cache disturbance, effective options), the CSV header
// 'testcase,nanoseconds', then per test case one line per sample in the order measured, followed by
// '# summary: ...' repeating the summary line. Readers skip lines starting with '#'. Exit status: 0
// success, 1 a setup, environment or fixture failure, 2 a usage error.
//
// Per test case: the fixture is constructed (setup, not timed) after the sample buffer has been
// allocated and zero-filled, then measure() runs warm-up and timed iterations, then the fixture is
// destroyed and the results printed; no output during the run. Extra program options can be added with
// options() before main(); fixtures reach them through constructor arguments given to add() (pass
// std::ref() for a reference to a value parsed later).
//
// Per-item mode (--per-item): a sample is one run_item() call (fixture concept itemwise), timed with
// cycle_timer, calibrated once per suite before the first test case; the buffer of iterations x items
// samples is allocated and zero-filled after the fixture is built (its size depends on the fixture), before
// the warm-up. Samples are converted to nanoseconds, the median overhead of an empty timed region
// subtracted, after the run; the summary says ns/item, and stderr gets one line describing the timer.
// A test case whose fixture has no run_item() fails in this mode. --disturb-cache reads a buffer (see
// cache_disturber, allocated once per suite) before every timed iteration or item.
//
// Complexity: O(iterations) memory per test case, O(iterations log iterations) to summarise.
// Thread-safety: one suite, one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <microbench/cache_disturber.hpp>
#include <microbench/config.hpp>
#include <microbench/cycle_timer.hpp>
#include <microbench/environment.hpp>
#include <microbench/fixture.hpp>
#include <microbench/measure.hpp>
#include <microbench/summary.hpp>

namespace itch5::cli {
class options;
}

namespace microbench {

class suite {
 public:
  /// The results of one test case.
  struct result {
    std::string name;
    std::vector<std::int64_t> samples;      ///< nanoseconds per timed iteration (item), in the order measured
    std::uint64_t items_per_iteration = 0;  ///< 0 when the fixture does not count items
    bool per_item = false;                  ///< samples are single items (--per-item)
    microbench::summary summary;
  };

  suite(std::string program, std::string description);
  ~suite();
  suite(const suite&) = delete;
  suite& operator=(const suite&) = delete;

  /// The configuration; change defaults before main(), read effective values after parsing.
  [[nodiscard]] config& defaults() noexcept { return cfg_; }
  [[nodiscard]] const config& current() const noexcept { return cfg_; }

  /// The program's option set (itch5_cli), for options of its own; add them before main().
  [[nodiscard]] itch5::cli::options& options() noexcept { return *opts_; }

  /// Registers test case `name`: F is built as F(config, args...) when the case runs. `args` are copied.
  template <class F, class... Args>
  requires fixture<F, const Args&...> suite& add(std::string name, Args... args) {
    add_case(std::move(name), [... a = std::move(args)](const config& cfg, const run_context& ctx,
                                                        std::vector<std::int64_t>& samples) {
      F f(cfg, a...);
      std::uint64_t items = 0;
      if constexpr (counts_items<F>) items = static_cast<std::uint64_t>(f.items_per_iteration());
      if (!cfg.per_item) {
        measure(f, cfg.warmup, samples, ctx.disturb);
        return items;
      }
      if constexpr (itemwise<F>) {
        samples.assign(per_item_samples(cfg.iterations, items), 0);  // allocated and touched before the run
        measure_items(f, cfg.warmup, samples, ctx.disturb);
        for (auto& t : samples) t = ctx.calibration->to_ns(t);
        return items;
      } else {
        throw std::invalid_argument("no per-item mode: the fixture has no run_item()");
      }
    });
    return *this;
  }

  /// The registered names, in registration order.
  [[nodiscard]] std::vector<std::string> names() const;

  /// Replaces the system calls used to prepare the environment (tests).
  void set_os_calls(environment::os_calls os) { os_ = std::move(os); }

  /// Runs registered test case `name` with the current configuration. Throws std::invalid_argument for an
  /// unknown name and whatever the fixture throws. Calibrates the per-item timer and allocates the cache
  /// disturber at first need.
  [[nodiscard]] result run(std::string_view name);

  /// The per-item timer's calibration (measured at the first call, ~20 ms).
  [[nodiscard]] const timer_calibration& calibration();

  /// Parses the command line, prepares the environment, runs the selected test cases and prints results
  /// to `out` (data) and `err` (summaries, warnings, errors). Returns the exit status.
  [[nodiscard]] int main(int argc, char** argv, std::ostream& out, std::ostream& err);
  /// As above, on std::cout and std::cerr.
  [[nodiscard]] int main(int argc, char** argv);

 private:
  struct run_context {
    cache_disturber* disturb = nullptr;              ///< null: no disturbance
    const timer_calibration* calibration = nullptr;  ///< set in per-item mode
  };
  using runner = std::function<std::uint64_t(const config&, const run_context&, std::vector<std::int64_t>&)>;

  /// iterations x items, checked (an item count of 0, or more than 10^9 samples, throws).
  [[nodiscard]] static std::size_t per_item_samples(std::uint64_t iterations, std::uint64_t items);
  /// The cache disturber for the current configuration, null when disturbance is off.
  [[nodiscard]] cache_disturber* disturber();
  struct test_case {
    std::string name;
    runner run;
  };

  void add_case(std::string name, runner run);
  [[nodiscard]] const test_case* find(std::string_view name) const noexcept;

  // The steps of main(), in order; each false return has printed its error to `err`.
  /// How the timer and the cache disturbance are set up, for stderr and the run information.
  struct setup_notes {
    std::string timer;
    std::string disturb = "off";
  };
  /// The --testcase selection (every case when empty), each once, in the order given.
  [[nodiscard]] bool choose_cases(std::vector<const test_case*>& chosen, std::ostream& err) const;
  /// Calibrates the timer and allocates the disturber as configured, and reports both on `err`.
  [[nodiscard]] bool prepare_notes(setup_notes& notes, std::ostream& err);
  /// --verbose: the run information and the CSV header.
  void write_run_info(int argc, char** argv, const environment& env, const setup_notes& notes,
                      std::ostream& out) const;
  /// Runs each chosen case: its summary line on `err`, with --verbose its samples on `out`.
  [[nodiscard]] bool run_cases(const std::vector<const test_case*>& chosen, std::ostream& out,
                               std::ostream& err);

  std::string program_;
  config cfg_;
  bool list_ = false;
  std::unique_ptr<itch5::cli::options> opts_;
  std::vector<test_case> cases_;
  environment::os_calls os_ = environment::os_calls::system();
  std::optional<timer_calibration> calibration_;
  std::unique_ptr<cache_disturber> disturber_;
};

}  // namespace microbench
