// Every book family against the naive reference (naive_reference.hpp) on streams of the real synthetic
// generator (itch5/synth/generator.hpp), run in process: every inside line must be identical. Where the
// random streams of differential_test.cpp are small and hostile, these have the shape of a trading day:
// thousands of symbols with Zipf-skewed activity, deep books, the measured depth distribution, books
// re-centring as prices drift. One seed also checks the generator's delayed copy (orders dropped whole,
// timestamps shifted), a stream of a different shape.
//
// Size: 2.5 M messages per seed by default, 10 M over the four seeds (at least 10 M generated messages
// in all), plus three seeds with other reference numberings and three of other day shapes.
// ITCH5_DIFFERENTIAL_MESSAGES (environment) sets the messages per seed, to run less under the sanitizers
// or more for a long check; it also sizes differential_test.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/synth/generator.hpp>

#include <itch5/book/book_types.hpp>
#include <itch5/inside/run_inside.hpp>

#include "../book/naive_reference.hpp"

namespace {

std::uint64_t messages_per_seed() {
  const char* env = std::getenv("ITCH5_DIFFERENTIAL_MESSAGES");
  return env != nullptr ? std::stoull(env) : 2'500'000;
}

// Compares the lines it receives with the expected text as they arrive, so that no second copy of the
// output is held; remembers where the first difference is.
class comparing_sink final : public itch5::inside::line_sink {
 public:
  explicit comparing_sink(const std::string& expected) : expected_(expected) {}

  void write(std::string_view lines) override {
    if (!differs_) {
      const std::size_t n = std::min(lines.size(), expected_.size() - std::min(at_, expected_.size()));
      for (std::size_t i = 0; i < n; ++i) {
        if (lines[i] != expected_[at_ + i]) {
          differs_ = true;
          first_difference_ = at_ + i;
          got_line_ = current_line(lines, i);
          break;
        }
      }
      if (!differs_ && n < lines.size()) {  // more output than expected
        differs_ = true;
        first_difference_ = at_ + n;
        got_line_ = current_line(lines, n);
      }
    }
    at_ += lines.size();
  }

  /// An empty string when the whole output equals the expected text, else a description of the first
  /// difference.
  [[nodiscard]] std::string difference() const {
    std::size_t pos = first_difference_;
    if (!differs_) {
      if (at_ == expected_.size()) return "";
      pos = at_;  // the output stopped early
    }
    const std::size_t line_start = pos == 0 ? 0 : expected_.rfind('\n', pos - 1) + 1;
    const std::size_t line_number =
        1 + static_cast<std::size_t>(std::count(
                expected_.begin(), expected_.begin() + static_cast<std::ptrdiff_t>(line_start), '\n'));
    return "first difference at byte " + std::to_string(pos) + ", line " + std::to_string(line_number) +
           ":\n  got      " + (differs_ ? got_line_ : std::string("(end of output)")) + "\n  expected " +
           expected_.substr(line_start, expected_.find('\n', line_start) - line_start);
  }

 private:
  // The line of `lines` that holds lines[i] (chunks always start at a line start).
  static std::string current_line(std::string_view lines, std::size_t i) {
    std::size_t from = i == 0 ? std::string_view::npos : lines.rfind('\n', i - 1);
    from = from == std::string_view::npos ? 0 : from + 1;
    return std::string(lines.substr(from, lines.find('\n', i) - from));
  }

  const std::string& expected_;
  std::size_t at_ = 0;
  bool differs_ = false;
  std::size_t first_difference_ = 0;
  std::string got_line_;
};

struct family_run {
  std::string name;
  itch5::book::book_config config;
  unsigned threads = 1;  ///< inside_options::threads: the books shared among book threads
};

// Every family with its default configuration, and the array book with its smallest window (64 levels),
// whose edges the synthetic books cross most often, and a small order table window (256 references: most
// live orders wait behind it, in the order table's hash table) and the smallest output buffer (4 KiB).
std::vector<family_run> family_runs() {
  std::vector<family_run> runs;
  for (const std::string& name : itch5::book::book_type_names()) runs.push_back({name, {}});
  itch5::book::book_config small;
  small.window_levels = 64;
  small.order_window_bits = 8;
  small.output_buffer_bytes = 4096;
  runs.push_back({"array", small});
  // Book threads (--threads): the lines merged back into message order must be the same.
  runs.push_back({"array", {}, 2});
  runs.push_back({"array", small, 3});
  return runs;
}

void expect_every_family_matches(std::span<const std::byte> stream, const std::string& what) {
  const std::string expected = naive::run(stream);
  const auto lines = std::count(expected.begin(), expected.end(), '\n');
  // Sanity of the input: a day of this size changes insides many times.
  ASSERT_GT(lines, static_cast<std::ptrdiff_t>(messages_per_seed() / 20)) << what;
  for (const family_run& run : family_runs()) {
    SCOPED_TRACE(what + ", book " + run.name + ", window " + std::to_string(run.config.window_levels) +
                 ", order window bits " + std::to_string(run.config.order_window_bits) + ", threads " +
                 std::to_string(run.threads));
    itch5::message_reader reader(
        itch5::io::make_block_source(itch5::io::memory_input(stream), {1 << 20, true, 6}));
    itch5::inside::inside_options opt;
    opt.book = run.name;
    opt.books = run.config;
    opt.threads = run.threads;
    comparing_sink sink(expected);
    const itch5::inside::inside_result r = itch5::inside::run_inside(reader, opt, sink);
    EXPECT_EQ(r.status, itch5::read_status::end_of_input) << r.error.describe(what);
    EXPECT_EQ(sink.difference(), "");
    EXPECT_EQ(r.lines, static_cast<std::uint64_t>(lines));
    // The generator's guarantees (generator.hpp): every reference live, no book crossed, timestamps
    // non-decreasing and below 24 h, prices on the grid; for the delayed copy too. So no anomaly at all.
    EXPECT_EQ(r.anomalies.total(), 0u);
  }
}

struct param {
  std::uint64_t seed;
  bool delayed;  ///< also check the delayed copy
  itch5::synth::reference_pattern references = itch5::synth::reference_pattern::sequential;
  const char* shape = nullptr;  ///< bench/patterns.py's "symbols10k", "hot", "deep"; nullptr: typical
};

// The generator settings of a shape (the same as bench/patterns.py's cases).
void apply_shape(itch5::synth::generator_config& cfg, std::string_view shape) {
  if (shape == "symbols10k") cfg.symbols = 10'000;
  if (shape == "hot") cfg.hot_share = 0.5;
  if (shape == "deep") {
    cfg.symbols = 10;
    cfg.depth_scale = 20;
  }
}

class SynthDifferential : public ::testing::TestWithParam<param> {};

TEST_P(SynthDifferential, EveryBookMatchesTheNaiveReference) {
  itch5::synth::generator_config cfg;
  cfg.messages = messages_per_seed();
  cfg.seed = GetParam().seed;
  cfg.references = GetParam().references;
  if (GetParam().shape != nullptr) apply_shape(cfg, GetParam().shape);
  const itch5::synth::generator gen(cfg);
  std::vector<std::byte> main, delayed;
  const itch5::synth::generator::sink to_main = [&](std::span<const std::byte> b) {
    main.insert(main.end(), b.begin(), b.end());
  };
  const itch5::synth::generator::sink to_delayed = [&](std::span<const std::byte> b) {
    delayed.insert(delayed.end(), b.begin(), b.end());
  };
  const auto start = std::chrono::steady_clock::now();
  (void)gen.run(to_main, GetParam().delayed ? &to_delayed : nullptr);
  const double generated = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  expect_every_family_matches(main, "seed " + std::to_string(cfg.seed));
  if (GetParam().delayed) {
    ASSERT_FALSE(delayed.empty());
    ASSERT_LT(delayed.size(), main.size()) << "the delayed copy drops orders";
    expect_every_family_matches(delayed, "seed " + std::to_string(cfg.seed) + " delayed copy");
  }
  const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("messages", std::to_string(cfg.messages));
  std::printf("seed %llu: %llu messages%s, generated in %.2f s, checked in %.2f s\n",
              static_cast<unsigned long long>(cfg.seed), static_cast<unsigned long long>(cfg.messages),
              GetParam().delayed ? " (and the delayed copy)" : "", generated, total - generated);
}

INSTANTIATE_TEST_SUITE_P(Seeds, SynthDifferential,
                         ::testing::Values(param{1, false}, param{2, false}, param{3, false}, param{4, true}),
                         [](const ::testing::TestParamInfo<param>& p) {
                           return "Seed" + std::to_string(p.param.seed) +
                                  (p.param.delayed ? "WithDelayedCopy" : "");
                         });

// The reference patterns besides sequential (increasing with large gaps, scattered over 64 bits, reused
// after delete): the order table takes other paths for them (window jumps, the hash behind the window, the
// far map), which must give the same books.
using itch5::synth::reference_pattern;
INSTANTIATE_TEST_SUITE_P(References, SynthDifferential,
                         ::testing::Values(param{5, false, reference_pattern::gapped},
                                           param{6, false, reference_pattern::random},
                                           param{7, true, reference_pattern::reuse}),
                         [](const ::testing::TestParamInfo<param>& p) {
                           return std::string(itch5::synth::to_string(p.param.references)) + "Seed" +
                                  std::to_string(p.param.seed);
                         });

// The day shapes bench/patterns.py times: 10,000 symbols (many cold books), one symbol with half the
// messages (one busy book), books thousands of levels deep (the array side's window and far levels).
INSTANTIATE_TEST_SUITE_P(Shapes, SynthDifferential,
                         ::testing::Values(param{8, false, reference_pattern::sequential, "symbols10k"},
                                           param{9, false, reference_pattern::sequential, "hot"},
                                           param{10, false, reference_pattern::sequential, "deep"}),
                         [](const ::testing::TestParamInfo<param>& p) {
                           return std::string(p.param.shape) + "Seed" + std::to_string(p.param.seed);
                         });

}  // namespace
