// The estimator validated end to end: itch5synth writes a day and a delayed copy
// with a known delay, jitter and dropped orders; itch5inside turns both into inside-change files; itch5tde
// estimates the delay on the busiest symbols. The expected delay is the generator's --delay, never a value
// the tools compute.
//
// Settings, chosen so the problem is well posed and the test takes well under a second (Release):
// - Day: 200k messages, 20 symbols, --mean-gap 5us: about 1 s of trading (62 windows) after a sparse
//   pre-market (04:00-09:30) that builds the books. The four busiest symbols (read from the data) carry
//   roughly 70-350 inside changes per window each: enough events for a sharp correlation peak.
// - Copy: --delay 250us, --jitter 5us (uniform, so up to twice the mean gap: the copy's changes are
//   reordered relative to A's at the microsecond scale), --drop 0.05 (5% of the orders missing whole,
//   more than the generator's default 2%).
// - Estimator: --sampling-period 1us (the tolerance is 2 periods = 2 us), --window 16.384ms (16384
//   samples, 3,300 times the jitter), --max-lag 1ms (4x the delay; the peak is never near the edge),
//   --smooth 5us (Gaussian sigma at the jitter's scale, as --help advises), --min-events 10 (the tool's
//   default), signals events (the default) and mid (signed mid-price changes).
//
// What is counted: per signal, every window in which a chosen symbol has at least min_events events of
// that signal in A (inside changes for events, mid-price changes for mid), counted here from the inside
// file, whatever flags the tool gives the row. The flags are the code under test's own judgement: counting
// only the rows it passes would let a tool that flags every hard window pass. Sparser windows are left out
// because they hold no delay to recover: in the pre-market most hold one change, whose estimate is that
// change's own jitter (uniform in +-5 us, so within 2 us only 40% of the time), or a change whose copy
// fell into the next window or was dropped; and a busy window whose mid never moves (only sizes change)
// gives a flat mid series, for which the tool rightly reports no delay.
//
// Measured at these settings (seed 4): events 248 of 248 active windows within 2 us, summary median
// 249.994 us; mid 217 of 217, median 250.045 us. Over every row of the four symbols, sparse windows
// included: events 313 of 393, mid 246 of 393 (142 flat). Seeds 1-10: events 100%, mid 97.6-100% of the
// windows with 10 inside changes. Before the generator kept the copy's mean delay (clamping each
// timestamp to the previous one), these settings gave medians of 251.2 us and mid 205 of 217: a failure.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <itch5/frame_writer.hpp>
#include <itch5_test/support.hpp>
#include <yaml-cpp/yaml.h>

#include "../book/message_builders.hpp"

namespace {

using itch5_test::run_shell;
using itch5_test::sh_quote;

const std::string tools = ITCH5_TOOLS_DIR;

constexpr std::int64_t delay_ns = 250'000;
constexpr double period_us = 1.0;
constexpr std::int64_t window_ns = 16'384'000;
constexpr std::uint64_t min_events = 10;
constexpr std::size_t active_symbols = 4;
const std::vector<std::string> signals = {"events", "mid"};

const std::string synth_args =
    "--messages 200k --symbols 20 --mean-gap 5us --seed 4 --delay 250us "
    "--jitter 5us --drop 0.05";
const std::string tde_args =
    "--signal events,mid --sampling-period 1us --window 16.384ms --max-lag 1ms "
    "--smooth 5us --min-events 10";

struct row {
  std::int64_t start = 0;
  std::string symbol, signal;
  std::uint64_t events_a = 0, events_b = 0;
  double delay_us = 0;
  std::string flags;
};

// The rows of itch5tde's CSV: the column line first (no comment line), then rows with as many fields, read
// by column name.
std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> f;
  std::size_t from = 0;
  for (std::size_t comma; (comma = line.find(',', from)) != std::string::npos; from = comma + 1) {
    f.push_back(line.substr(from, comma - from));
  }
  f.push_back(line.substr(from));
  return f;
}

std::vector<row> parse_csv(const std::string& text) {
  std::vector<row> rows;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line)) return rows;
  EXPECT_EQ(line.rfind("window_start_ns,symbol,signal,events_a,events_b,lag_samples,delay_us,", 0), 0u)
      << line;
  const std::vector<std::string> names = split_fields(line);
  auto column = [&](const char* name) {
    return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  const std::size_t flags = column("flags");
  EXPECT_LT(flags, names.size()) << line;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = split_fields(line);
    EXPECT_EQ(f.size(), names.size()) << line;
    if (f.size() != names.size() || flags >= names.size()) continue;
    rows.push_back({std::stoll(f[0]), f[1], f[2], std::stoull(f[3]), std::stoull(f[4]),
                    f[6].empty() ? std::nan("") : std::stod(f[6]), f[flags]});
  }
  return rows;
}

// Events per signal, symbol and window of A, from the inside lines: every line is an `events` event, a
// line whose bid + offer differs from the symbol's previous line a `mid` event.
using window_counts = std::map<std::string, std::map<std::string, std::map<std::int64_t, std::uint64_t>>>;

window_counts count_events(const std::string& inside_text) {
  window_counts counts;
  std::unordered_map<std::string, std::int64_t> last_sum;
  std::istringstream in(inside_text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::int64_t t = 0, bid = 0, bid_qty = 0, offer = 0;
    std::string locate, symbol;
    fields >> t >> locate >> symbol >> bid >> bid_qty >> offer;
    EXPECT_TRUE(fields) << line;
    const std::int64_t start = t - t % window_ns;
    ++counts["events"][symbol][start];
    auto [it, first] = last_sum.try_emplace(symbol, bid + offer);
    if (!first && it->second != bid + offer) ++counts["mid"][symbol][start];
    it->second = bid + offer;
  }
  return counts;
}

// The day and its delayed copy as inside files, made once per process (each test is its own process).
class tde_pipeline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new itch5_test::temp_dir;
    a_ = dir_->file("a.txt");
    b_ = dir_->file("b.txt");
    const std::string a_itch = dir_->file("a.itch"), b_itch = dir_->file("b.itch");
    ASSERT_EQ(run_shell(sh_quote(tools + "/itch5synth") + " -q " + synth_args + " --delayed " +
                        sh_quote(b_itch) + " -o " + sh_quote(a_itch)),
              0);
    for (const auto& [in, out] : {std::pair{a_itch, a_}, std::pair{b_itch, b_}}) {
      ASSERT_EQ(run_shell(sh_quote(tools + "/itch5inside") + " -q -o " + sh_quote(out) + " " + sh_quote(in)),
                0);
    }
    // The busiest symbols of A, and per signal the windows in which each of them is active.
    window_counts counts = count_events(itch5_test::read_text(a_));
    std::vector<std::pair<std::uint64_t, std::string>> by_changes;
    for (const auto& [symbol, windows] : counts["events"]) {
      std::uint64_t n = 0;
      for (const auto& w : windows) n += w.second;
      by_changes.emplace_back(n, symbol);
    }
    std::sort(by_changes.rbegin(), by_changes.rend());
    ASSERT_GE(by_changes.size(), active_symbols);
    symbols_.clear();
    active_.clear();
    for (std::size_t i = 0; i < active_symbols; ++i) {
      const std::string& symbol = by_changes[i].second;
      symbols_ += (i ? "," : "") + symbol;
      for (const auto& signal : signals) {
        for (const auto& [start, n] : counts[signal][symbol]) {
          if (n >= min_events) active_[signal].emplace(symbol, start);
        }
      }
    }
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  // Runs itch5tde on `first` and `second`; returns its rows and the summary's median per signal.
  static std::pair<std::vector<row>, std::map<std::string, double>> estimate(const std::string& first,
                                                                             const std::string& second) {
    const std::string csv = dir_->file("out.csv"), yaml = dir_->file("summary.yaml"),
                      err = dir_->file("err.txt");
    // The FFTW wisdom cache in the test's directory, not the user's.
    int rc =
        run_shell("XDG_CACHE_HOME=" + sh_quote(dir_->file("cache")) + " " + sh_quote(tools + "/itch5tde") +
                  " " + sh_quote(first) + " " + sh_quote(second) + " --symbols " + symbols_ + " " + tde_args +
                  " -q -o " + sh_quote(csv) + " --summary-yaml " + sh_quote(yaml) + " --summary " +
                  sh_quote(dir_->file("pairs.csv")) + " 2>" + sh_quote(err));
    EXPECT_EQ(rc, 0) << itch5_test::read_text(err);
    if (rc != 0) return {};
    std::map<std::string, double> medians;
    YAML::Node summary = YAML::LoadFile(yaml);
    for (const auto& s : signals) medians[s] = summary["signals"][s]["median_us"].as<double>();
    // The CSV's sidecar: the default name, a YAML document with the settings.
    YAML::Node meta = YAML::LoadFile(csv + ".yaml");
    EXPECT_EQ(meta["program"].as<std::string>(), "itch5tde");
    EXPECT_EQ(meta["options"]["sampling_period_ns"].as<std::int64_t>(), 1000);
    EXPECT_EQ(meta["columns"][0].as<std::string>(), "window_start_ns");
    return {parse_csv(itch5_test::read_text(csv)), medians};
  }

  // Within 2 sampling periods of `expected_us`: the fraction of the active windows, per signal. Fails the
  // test when an active window has no row.
  static std::map<std::string, double> within_two_periods(const std::vector<row>& rows, double expected_us) {
    std::map<std::tuple<std::string, std::string, std::int64_t>, double> delay;
    for (const auto& r : rows) delay[{r.signal, r.symbol, r.start}] = r.delay_us;
    std::map<std::string, double> fraction;
    for (const auto& s : signals) {
      std::size_t within = 0;
      for (const auto& [symbol, start] : active_[s]) {
        auto it = delay.find({s, symbol, start});
        EXPECT_NE(it, delay.end()) << "no " << s << " row for " << symbol << " at " << start;
        if (it == delay.end()) continue;
        if (std::abs(it->second - expected_us) <= 2 * period_us) ++within;
      }
      fraction[s] = static_cast<double>(within) / static_cast<double>(active_[s].size());
      std::cout << "  " << s << ": " << within << " of " << active_[s].size()
                << " active windows within 2 sampling periods of " << expected_us << " us\n";
    }
    return fraction;
  }

  static itch5_test::temp_dir* dir_;
  static std::string a_, b_, symbols_;
  // Per signal, the (symbol, window start) pairs with at least min_events events of that signal in A.
  static std::map<std::string, std::set<std::pair<std::string, std::int64_t>>> active_;
};

itch5_test::temp_dir* tde_pipeline::dir_ = nullptr;
std::string tde_pipeline::a_, tde_pipeline::b_, tde_pipeline::symbols_;
std::map<std::string, std::set<std::pair<std::string, std::int64_t>>> tde_pipeline::active_;

TEST_F(tde_pipeline, recovers_the_generators_delay_in_95_percent_of_active_windows) {
  // At least 50 active windows per symbol: the day is long and busy enough for the count to mean something.
  for (const auto& s : signals) ASSERT_GE(active_[s].size(), 50 * active_symbols) << s << " " << symbols_;
  auto [rows, medians] = estimate(a_, b_);
  ASSERT_FALSE(rows.empty());
  const double expected_us = static_cast<double>(delay_ns) / 1e3;
  for (const auto& [signal, fraction] : within_two_periods(rows, expected_us)) {
    EXPECT_GE(fraction, 0.95) << signal;
  }
  for (const auto& [signal, median] : medians) {
    EXPECT_NEAR(median, expected_us, period_us) << signal;
  }
  // The summary's median is over the rows without flags: they must be most of the active windows, or the
  // median would describe a few of them only. (Measured: 97-100%.)
  std::map<std::string, std::size_t> passed;
  for (const auto& r : rows) {
    if (r.flags == "ok" && active_[r.signal].contains({r.symbol, r.start})) ++passed[r.signal];
  }
  for (const auto& s : signals) {
    EXPECT_GE(static_cast<double>(passed[s]), 0.9 * static_cast<double>(active_[s].size())) << s;
  }
  // --summary: every (symbol, signal) significant, its median within a sampling period of the delay and
  // inside its bootstrap interval, the interval narrower than a sampling period either side.
  const std::string pairs = itch5_test::read_text(dir_->file("pairs.csv"));
  std::istringstream in(pairs);
  std::string line;
  std::getline(in, line);
  ASSERT_EQ(line, "symbol,signal,windows,tested,passed,delay_us,ci_low_us,ci_high_us,p_value,significant");
  std::size_t verdicts = 0;
  while (std::getline(in, line)) {
    const auto f = split_fields(line);
    ASSERT_EQ(f.size(), 10u) << line;
    ++verdicts;
    EXPECT_EQ(f[9], "yes") << line;
    const double median = std::stod(f[5]), low = std::stod(f[6]), high = std::stod(f[7]);
    EXPECT_NEAR(median, expected_us, period_us) << line;
    EXPECT_LE(low, median) << line;
    EXPECT_GE(high, median) << line;
    EXPECT_LT(high - low, 2 * period_us) << line;
    EXPECT_LT(std::stod(f[8]), 1e-6) << line;
  }
  EXPECT_EQ(verdicts, active_symbols * signals.size()) << pairs;
}

TEST_F(tde_pipeline, swapping_the_files_negates_every_delay) {
  auto [forward, forward_medians] = estimate(a_, b_);
  auto [swapped, swapped_medians] = estimate(b_, a_);
  ASSERT_FALSE(forward.empty());
  // The correlation of (B, A) is that of (A, B) mirrored: the same rows, the event counts exchanged, and
  // every delay negated up to rounding (the CSV has 4 decimals).
  ASSERT_EQ(swapped.size(), forward.size());
  for (std::size_t i = 0; i < forward.size(); ++i) {
    const row &f = forward[i], &s = swapped[i];
    ASSERT_EQ(std::tie(s.start, s.symbol, s.signal), std::tie(f.start, f.symbol, f.signal)) << "row " << i;
    EXPECT_EQ(s.events_a, f.events_b);
    EXPECT_EQ(s.events_b, f.events_a);
    if (std::isnan(f.delay_us)) {
      EXPECT_TRUE(std::isnan(s.delay_us)) << "row " << i;  // a flat series has no delay either way
    } else {
      EXPECT_NEAR(s.delay_us, -f.delay_us, 0.01) << f.symbol << " " << f.signal << " at " << f.start;
    }
  }
  const double expected_us = -static_cast<double>(delay_ns) / 1e3;  // A lags B
  for (const auto& [signal, fraction] : within_two_periods(swapped, expected_us)) {
    EXPECT_GE(fraction, 0.95) << signal;
  }
  for (const auto& [signal, median] : swapped_medians) {
    EXPECT_NEAR(median, expected_us, period_us) << signal;
    EXPECT_NEAR(median, -forward_medians[signal], 0.01) << signal;
  }
}

// A feed's timestamp going backwards: itch5inside writes the line as the feed had it (and counts an
// anomaly); itch5tde reads that file, takes the line at the time of the line before, and says so.
TEST(tde_pipeline_backwards, itch5tde_reads_a_line_itch5inside_wrote_with_a_timestamp_going_backwards) {
  using namespace testing_messages;
  itch5_test::temp_dir dir;
  itch5::frame_writer w;
  w.write(system_event(1000, 'O'));
  w.write(directory(1, "AAA", 1100));
  const std::int64_t t0 = 36'000'000'000'000;  // 10:00
  for (std::uint64_t i = 0; i < 40; ++i) {
    // Every order improves its side: one inside change each. The 21st is stamped 5 us before the 20th.
    const std::int64_t t = t0 + static_cast<std::int64_t>(i) * 10'000 - (i == 20 ? 15'000 : 0);
    const auto step = static_cast<std::uint32_t>(i / 2);
    w.write(i % 2 == 0 ? add(t, 1, i + 1, 'B', 100, 100000 + 100 * step, "AAA")
                       : add(t, 1, i + 1, 'S', 100, 200000 - 100 * step, "AAA"));
  }
  const std::string itch = dir.file("in.itch"), inside = dir.file("inside.txt");
  itch5_test::write_file(itch, {w.bytes().begin(), w.bytes().end()});
  ASSERT_EQ(run_shell(sh_quote(tools + "/itch5inside") + " -q " + sh_quote(itch) + " -o " + sh_quote(inside)),
            0);
  // The line where the time goes back, found here from the file itch5inside wrote.
  std::istringstream lines(itch5_test::read_text(inside));
  std::string line;
  std::uint64_t number = 0, backwards_at = 0;
  std::int64_t last = 0;
  while (std::getline(lines, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const std::int64_t t = std::stoll(line.substr(0, line.find(' ')));
    if (t < last && backwards_at == 0) backwards_at = number;
    last = std::max(last, t);
  }
  ASSERT_NE(backwards_at, 0u) << "itch5inside wrote the backwards timestamp as it came";

  const std::string err = dir.file("err.txt"), csv = dir.file("tde.csv");
  const int rc = run_shell("XDG_CACHE_HOME=" + sh_quote(dir.file("cache")) + " " +
                           sh_quote(tools + "/itch5tde") + " " + sh_quote(inside) + " " + sh_quote(inside) +
                           " --symbols AAA --min-events 1 --sampling-period 1us -q -o " + sh_quote(csv) +
                           " 2>" + sh_quote(err));
  const std::string text = itch5_test::read_text(err);
  EXPECT_EQ(rc, 0) << text;
  EXPECT_EQ(text, "itch5tde: warning: " + inside +
                      ": 1 line has a timestamp earlier than the line before (first at line " +
                      std::to_string(backwards_at) + "); taken at the time of the line before\n");
  EXPECT_NE(itch5_test::read_text(csv).find(",AAA,events,"), std::string::npos) << "the window has its row";
}

}  // namespace
