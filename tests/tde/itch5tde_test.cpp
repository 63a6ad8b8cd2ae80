// itch5tde end to end: two inside-change files built here with a known delay (B = A shifted, jittered, a few
// lines dropped), the built tool run on them, its CSV and YAML checked against the delay put in.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/io/output_file.hpp>

namespace {

const std::string tool = std::string(ITCH5_TOOLS_DIR) + "/itch5tde";

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("tde_e2e_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

struct change {
  std::int64_t t;
  std::string symbol;
  std::int64_t bid, bid_qty, offer, offer_qty;
};

// Random inside changes: per symbol a Poisson stream (mean gap `gap_ns`) of quotes on a random walk.
std::vector<change> random_changes(const std::vector<std::string>& symbols, std::int64_t begin,
                                   std::int64_t span, double gap_ns, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> wait(1.0 / gap_ns);
  std::uniform_int_distribution<int> step(-2, 2), lots(1, 9), spread(1, 2);
  std::vector<change> out;
  for (const auto& s : symbols) {
    std::int64_t bid = 1'000'000 + 10'000 * static_cast<std::int64_t>(out.size() % 7);
    for (double t = static_cast<double>(begin) + wait(rng); t < static_cast<double>(begin + span);
         t += wait(rng)) {
      bid += 100 * step(rng);
      out.push_back(
          {static_cast<std::int64_t>(t), s, bid, 100 * lots(rng), bid + 100 * spread(rng), 100 * lots(rng)});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const change& x, const change& y) { return x.t < y.t; });
  return out;
}

// B: every change of A `delay_ns` later plus a uniform jitter in [-jitter_ns, jitter_ns], with a fraction
// `drop` of the lines missing; re-sorted by time as a feed would deliver them.
std::vector<change> delayed_copy(const std::vector<change>& a, std::int64_t delay_ns, std::int64_t jitter_ns,
                                 double drop, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> jitter(-jitter_ns, jitter_ns);
  std::bernoulli_distribution dropped(drop);
  std::vector<change> b;
  for (const auto& c : a) {
    if (dropped(rng)) continue;
    b.push_back(c);
    b.back().t += delay_ns + jitter(rng);
  }
  std::stable_sort(b.begin(), b.end(), [](const change& x, const change& y) { return x.t < y.t; });
  return b;
}

void write(const std::string& path, const std::vector<change>& changes) {
  itch5::io::output_file out(path);  // .gz names are compressed
  std::string text;
  for (const auto& c : changes) {
    text += std::to_string(c.t) + " 1 " + c.symbol + " " + std::to_string(c.bid) + " " +
            std::to_string(c.bid_qty) + " " + std::to_string(c.offer) + " " + std::to_string(c.offer_qty) +
            "\n";
  }
  out.write(text);
  out.commit();
}

// The FFTW wisdom cache of the tool's runs (XDG_CACHE_HOME): under the temporary directory, not the user's.
const std::string cache_home = temp_path("cache");

int run(const std::string& args, const std::string& out, const std::string& err) {
  std::string cmd =
      "XDG_CACHE_HOME='" + cache_home + "' '" + tool + "' " + args + " >'" + out + "' 2>'" + err + "'";
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct csv_row {
  std::int64_t start;
  std::string symbol, signal;
  std::uint64_t events_a, events_b;
  double delay_us, rho;
  std::string flags;
};

// Parses the tool's CSV: the column-name line first (no comment line), then rows with as many fields. Fields
// are found by column name, so a column added later does not break the parse; these must be there.
std::vector<csv_row> parse_csv(const std::string& text) {
  std::vector<csv_row> rows;
  std::istringstream in(text);
  std::string line;
  auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::size_t from = 0;
    for (std::size_t comma; (comma = l.find(',', from)) != std::string::npos; from = comma + 1) {
      f.push_back(l.substr(from, comma - from));
    }
    f.push_back(l.substr(from));
    return f;
  };
  if (!std::getline(in, line)) {
    ADD_FAILURE() << "no header line";
    return rows;
  }
  const std::vector<std::string> names = split(line);
  EXPECT_EQ(line.rfind("window_start_ns,symbol,signal,events_a,events_b,lag_samples,delay_us,rho,psr,", 0),
            0u)
      << line;
  auto column = [&](const std::string& name) {
    auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name << " not in " << line;
    return static_cast<std::size_t>(it - names.begin());
  };
  const std::size_t start = column("window_start_ns"), symbol = column("symbol"), signal = column("signal"),
                    events_a = column("events_a"), events_b = column("events_b"), lag = column("lag_samples"),
                    delay = column("delay_us"), rho = column("rho"), flags = column("flags");
  column("psr");
  column("second_ratio");
  while (std::getline(in, line)) {
    EXPECT_NE(line.rfind('#', 0), 0u) << "a comment line after the header: " << line;
    const std::vector<std::string> f = split(line);
    EXPECT_EQ(f.size(), names.size()) << line;
    if (f.size() != names.size()) continue;
    // A missing value is an empty field, never "nan"; lag_samples and delay_us are missing together.
    EXPECT_EQ(line.find("nan"), std::string::npos) << line;
    EXPECT_EQ(f[lag].empty(), f[delay].empty()) << line;
    rows.push_back({std::stoll(f[start]), f[symbol], f[signal], std::stoull(f[events_a]),
                    std::stoull(f[events_b]), f[delay].empty() ? std::nan("") : std::stod(f[delay]),
                    std::stod(f[rho]), f[flags]});
  }
  return rows;
}

class itch5tde_e2e : public ::testing::Test {
 protected:
  static constexpr std::int64_t delay_ns = 250'000;  // B lags A by 250 us
  static constexpr std::int64_t begin = 34'200'000'000'000;

  void SetUp() override {
    a_path = temp_path("a.txt");
    b_path = temp_path("b.txt.gz");
    out = temp_path("out.csv");
    err = temp_path("err.txt");
    yaml = temp_path("summary.yaml");
    auto a =
        random_changes({"AAA", "BBB", "CCC", "DDD"}, begin, 400'000'000, 25'000.0, 7);  // 0.4 s, ~16k each
    write(a_path, a);
    write(b_path, delayed_copy(a, delay_ns, 3'000, 0.02, 8));  // +-3 us jitter, 2% dropped
  }
  void TearDown() override {
    for (const auto& p : {a_path, b_path, out, out + ".yaml", err, yaml}) std::filesystem::remove(p);
    std::filesystem::remove_all(cache_home);
  }

  std::string a_path, b_path, out, err, yaml;
};

TEST_F(itch5tde_e2e, recovers_the_delay_within_two_sampling_periods_in_95_percent_of_windows) {
  ASSERT_EQ(run("'" + a_path + "' '" + b_path +
                    "' --symbols AAA,BBB,CCC,DDD --signal events,mid --sampling-period 1us --window 16.384ms "
                    "--max-lag 1ms --smooth 2us --summary-yaml '" +
                    yaml + "'",
                out, err),
            0)
      << slurp(err);
  auto rows = parse_csv(slurp(out));  // stdout: the CSV and nothing else
  ASSERT_GE(rows.size(), 4u * 2 * 20);
  int within = 0;
  for (const auto& r : rows) {
    EXPECT_TRUE(r.signal == "events" || r.signal == "mid");
    EXPECT_EQ(r.start % 16'384'000, 0);
    if (std::abs(r.delay_us - 250.0) <= 2.0) ++within;
  }
  EXPECT_GE(within, static_cast<int>(std::ceil(0.95 * static_cast<double>(rows.size()))))
      << within << " of " << rows.size();

  std::string summary = slurp(yaml);
  auto value = [&](const std::string& signal, const std::string& key) {
    auto at = summary.find("  " + signal + ":\n");
    EXPECT_NE(at, std::string::npos) << summary;
    auto k = summary.find("    " + key + ": ", at);
    return std::stod(summary.substr(k + key.size() + 6));
  };
  EXPECT_NEAR(value("events", "median_us"), 250.0, 1.0);
  EXPECT_NEAR(value("mid", "median_us"), 250.0, 1.0);
  EXPECT_GE(value("events", "pass_fraction"), 0.95);
  std::string stderr_text = slurp(err);
  EXPECT_NE(stderr_text.find("itch5tde: events:"), std::string::npos) << stderr_text;
}

TEST_F(itch5tde_e2e, swapping_the_files_flips_the_sign) {
  ASSERT_EQ(run("'" + b_path + "' '" + a_path + "' --smooth 2us -q -o '" + out + "'", err, err + ".2"), 0);
  std::filesystem::remove(err + ".2");
  auto rows = parse_csv(slurp(out));
  ASSERT_FALSE(rows.empty());
  int within = 0;
  for (const auto& r : rows) within += std::abs(r.delay_us + 250.0) <= 2.0 ? 1 : 0;
  EXPECT_GE(within, static_cast<int>(std::ceil(0.95 * static_cast<double>(rows.size()))));
  EXPECT_TRUE(slurp(err).empty()) << "with -o FILE, nothing goes to stdout";
}

TEST_F(itch5tde_e2e, float_precision_upsampling_and_a_wisdom_file) {
  const std::string wisdom = temp_path("wisdom");
  const std::string args = "'" + a_path + "' '" + b_path + "' --symbols AAA --smooth 2us --precision float " +
                           "--upsample 4 --plan measure --wisdom '" + wisdom + "' -o '" + out + "'";
  ASSERT_EQ(run(args, err + ".o", err), 0) << slurp(err);
  ASSERT_TRUE(std::filesystem::exists(wisdom));
  EXPECT_EQ(slurp(err).find("loaded FFTW wisdom"), std::string::npos);
  ASSERT_EQ(run(args, err + ".o", err), 0) << slurp(err);
  EXPECT_NE(slurp(err).find("loaded FFTW wisdom from " + wisdom), std::string::npos) << slurp(err);
  auto rows = parse_csv(slurp(out));
  ASSERT_FALSE(rows.empty());
  for (const auto& r : rows) {
    EXPECT_EQ(r.symbol, "AAA");
    EXPECT_NEAR(r.delay_us, 250.0, 2.0);
  }
  std::filesystem::remove(wisdom);
  std::filesystem::remove(err + ".o");
}

TEST_F(itch5tde_e2e, a_malformed_line_is_reported_with_file_and_line) {
  const std::string bad = temp_path("bad.txt");
  {
    std::ofstream f(bad);
    f << "34200000000000 1 AAA 1000000 100 1000100 100\n"
      << "34200000000100 1 AAA 1000000 100 1000100 100\n"
      << "34200000000200 1 AAA 1000000 1x0 1000100 100\n";
  }
  EXPECT_EQ(run("'" + a_path + "' '" + bad + "' -o '" + out + "'", err + ".o", err), 1);
  std::string msg = slurp(err);
  EXPECT_NE(msg.find(bad + ":3: bid qty"), std::string::npos) << msg;
  EXPECT_FALSE(std::filesystem::exists(out)) << "no half-written output under the final name";
  std::filesystem::remove(bad);
  std::filesystem::remove(out + ".partial");
  std::filesystem::remove(err + ".o");
}

TEST_F(itch5tde_e2e, an_itch_file_given_by_mistake_is_called_binary) {
  const std::string itch = std::string(ITCH5_DATA_DIR) + "/real-2019-first1000.itch";
  EXPECT_EQ(run("'" + a_path + "' '" + itch + "' -o '" + out + "'", err + ".o", err), 1);
  EXPECT_EQ(slurp(err), "itch5tde: error: " + itch +
                            ":1: binary data, not an inside-change line (an ITCH file? itch5inside turns one "
                            "into inside changes)\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove(out + ".partial");
  std::filesystem::remove(err + ".o");
}

// The lines of `text`.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) v.push_back(line);
  return v;
}

TEST_F(itch5tde_e2e, output_and_wisdom_paths_are_checked_before_any_input_is_read) {
  // B is malformed on its second line: an error about a path rather than about B shows the path was
  // checked first.
  const std::string bad = temp_path("bad2.txt");
  {
    std::ofstream f(bad);
    f << "34200000000000 1 AAA 1000000 100 1000100 100\nnot a line\n";
  }
  const std::string not_wisdom = temp_path("not-wisdom");
  std::ofstream(not_wisdom) << "not FFTW wisdom\n";
  const std::string inputs = "'" + a_path + "' '" + bad + "' ";
  const std::string missing_dir = temp_path("no-such-dir");
  struct case_ {
    std::string args, expected;
  };
  for (const auto& [args, expected] : std::vector<case_>{
           {"--summary-yaml '" + missing_dir + "/s.yaml' -o '" + out + "'",
            "itch5tde: error: --summary-yaml '" + missing_dir + "/s.yaml': directory '" + missing_dir +
                "': No such file or directory"},
           {"--summary-yaml '" + std::filesystem::temp_directory_path().string() + "' -o '" + out + "'",
            "itch5tde: error: --summary-yaml '" + std::filesystem::temp_directory_path().string() +
                "' is a directory, not a file"},
           {"--wisdom '" + missing_dir + "/w' -o '" + out + "' --summary-yaml '" + yaml + "'",
            "itch5tde: error: --wisdom '" + missing_dir + "/w': directory '" + missing_dir +
                "': No such file or directory"},
           {"--wisdom '" + not_wisdom + "' -o '" + out + "'",
            "itch5tde: error: --wisdom: " + not_wisdom + ": not FFTW wisdom for double transforms"},
           {"-o '" + missing_dir + "/out.csv' --summary-yaml '" + yaml + "'",
            "itch5tde: error: --output '" + missing_dir + "/out.csv': directory '" + missing_dir +
                "': No such file or directory"},
       }) {
    EXPECT_EQ(run(inputs + args, err + ".o", err), 1) << args;
    const std::string msg = slurp(err);
    EXPECT_EQ(msg.rfind(expected, 0), 0u) << msg;
    EXPECT_EQ(lines_of(msg).size(), 1u) << msg;
    // Nothing is left behind: neither the outputs nor empty .partial files.
    for (const auto& p : {out, out + ".yaml", yaml}) {
      EXPECT_FALSE(std::filesystem::exists(p)) << args;
      EXPECT_FALSE(std::filesystem::exists(p + ".partial")) << args;
    }
  }
  EXPECT_TRUE(slurp(err + ".o").empty());

  // With usable paths the error is about B, and it is the last line: no summary after it. The summary YAML,
  // never written, is not left behind as a .partial file either.
  EXPECT_EQ(run(inputs + "--summary-yaml '" + yaml + "' -o '" + out + "'", err + ".o", err), 1);
  auto lines = lines_of(slurp(err));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "itch5tde: error: " + bad +
                              ":2: fewer than 7 fields (expected: timestamp locate symbol bid-px bid-qty "
                              "offer-px offer-qty)");
  EXPECT_FALSE(std::filesystem::exists(yaml));
  EXPECT_FALSE(std::filesystem::exists(yaml + ".partial"));
  EXPECT_FALSE(std::filesystem::exists(out + ".yaml"));
  EXPECT_FALSE(std::filesystem::exists(out + ".yaml.partial"));
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove(out + ".partial");
  std::filesystem::remove(bad);
  std::filesystem::remove(not_wisdom);
  std::filesystem::remove(err + ".o");
}

TEST_F(itch5tde_e2e, an_input_without_changes_is_an_error_naming_it) {
  const std::string empty = temp_path("empty.txt"), blank = temp_path("blank.txt.gz");
  { std::ofstream f(empty); }
  {
    itch5::io::output_file f(blank);
    f.write("# no changes today\n\n");
    f.commit();
  }
  EXPECT_EQ(run("'" + empty + "' '" + b_path + "'", out, err), 1);
  EXPECT_EQ(slurp(err), "itch5tde: error: " + empty + ": empty input (no inside-change lines)\n");
  EXPECT_TRUE(slurp(out).empty()) << "no rows";
  EXPECT_EQ(run("'" + a_path + "' '" + blank + "' --symbols AAA", out, err), 1);
  EXPECT_EQ(slurp(err),
            "itch5tde: error: " + blank + ": no inside-change lines (only 2 blank or comment lines)\n");
  EXPECT_TRUE(slurp(out).empty());
  EXPECT_EQ(run("'" + a_path + "' - </dev/null", out, err), 1);
  EXPECT_EQ(slurp(err), "itch5tde: error: standard input: empty input (no inside-change lines)\n");
  EXPECT_TRUE(slurp(out).empty());
  std::filesystem::remove(empty);
  std::filesystem::remove(blank);
}

TEST_F(itch5tde_e2e, a_chosen_symbol_that_never_appears_is_an_error_naming_it_and_the_file) {
  // Files on disk are read ahead for the chosen symbols: the error comes before any row.
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --symbols AAA:NOPE", out, err), 1);
  EXPECT_EQ(slurp(err), "itch5tde: error: NOPE does not appear in " + b_path + "\n");
  EXPECT_TRUE(slurp(out).empty()) << "no rows, not even the CSV header";
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --symbols BBB,NOPE,XYZ", out, err), 1);
  EXPECT_EQ(slurp(err), "itch5tde: error: NOPE, XYZ do not appear in " + a_path +
                            "; NOPE, XYZ do not appear in " + b_path + "\n");
  EXPECT_TRUE(slurp(out).empty());
  // Standard input cannot be read twice: the error comes at the end, still the last line on stderr, and
  // the CSV file is not given its name.
  const std::string csv = temp_path("absent.csv");
  EXPECT_EQ(run("- '" + b_path + "' --symbols NOPE:AAA -o '" + csv + "' <'" + a_path + "'", out, err), 1);
  auto lines = lines_of(slurp(err));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back(), "itch5tde: error: NOPE does not appear in standard input");
  EXPECT_EQ(lines.size(), 1u) << slurp(err);
  EXPECT_FALSE(std::filesystem::exists(csv));
  std::filesystem::remove(csv + ".partial");
  // Symbols that are there are fine.
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --symbols DDD,AAA:CCC -q", out, err), 0) << slurp(err);
  EXPECT_FALSE(parse_csv(slurp(out)).empty());
}

TEST_F(itch5tde_e2e, usage_errors_exit_with_2) {
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --window 16.3845ms", out, err), 2);
  EXPECT_NE(slurp(err).find("whole number of sampling periods"), std::string::npos) << slurp(err);
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --signal levels", out, err), 2);
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --max-lag 20ms", out, err), 2);
  EXPECT_EQ(run("'" + a_path + "'", out, err), 2);
  EXPECT_EQ(slurp(err),
            "itch5tde: error: B is missing (it may be left out, to compare symbols of one file, only with "
            "--reference or with --symbols SYMA:SYMB pairs)\n");
  EXPECT_TRUE(slurp(out).empty());
  EXPECT_EQ(run("- --reference AAA --symbols BBB <'" + a_path + "'", out, err), 2);
  EXPECT_EQ(slurp(err),
            "itch5tde: error: B is needed when A is standard input (-): one input would be read twice\n");
  EXPECT_EQ(run("'" + a_path + "' --reference AAA", out, err), 2);
  EXPECT_EQ(slurp(err),
            "itch5tde: error: --reference AAA needs --symbols: the symbols of file B to compare with it\n");
  EXPECT_EQ(run("'" + a_path + "' --reference AAA --symbols BBB:CCC", out, err), 2);
  EXPECT_EQ(slurp(err),
            "itch5tde: error: --symbols: 'BBB:CCC' is a pair; with --reference, --symbols lists single "
            "symbols of file B\n");
}

// Every window, hop and max-lag mistake is one line naming the flag, the value and what would be accepted,
// before any input is read; the tool would otherwise run for minutes (--hop 1ns) or refuse its defaults.
TEST_F(itch5tde_e2e, window_hop_and_max_lag_mistakes_are_one_line_each) {
  const std::string common = "'" + a_path + "' '" + b_path + "' -q ";
  struct mistake {
    std::string flags, message;
  };
  for (const auto& m : std::vector<mistake>{
           {"--hop 1500ns", "--hop 1.5us is not a whole number of sampling periods (1us): use 1us or 2us"},
           {"--hop 1ns", "--hop 1ns is not a whole number of sampling periods (1us): use 1us"},
           {"--sampling-period 10us --hop 25us",
            "--hop 25us is not a whole number of sampling periods (10us): use 20us or 30us"},
           {"--window 16.3845ms",
            "--window 16.3845ms is not a whole number of sampling periods (1us): use 16.384ms or 16.385ms"},
           {"--sampling-period 3us --window 1ms",
            "--window 1ms is not a whole number of sampling periods (3us): use 999us or 1.002ms"},
           {"--window 2us", "--window 2us holds 2 sampling periods (1us): use at least 3us"},
           {"--sampling-period 1ns --window 1s",
            "--window 1s holds 1000000000 samples: at most 2^26 are supported, use at most 67.108864ms"},
           {"--max-lag 1500ns",
            "--max-lag 1.5us is not a whole number of sampling periods (1us): use 1us or 2us"},
           {"--max-lag 500ns", "--max-lag 500ns is shorter than one sampling period (1us): use at least 1us"},
           {"--max-lag 8.192ms",
            "--max-lag 8.192ms is not below half the window (16.384ms): use at most 8.191ms, or a longer "
            "--window"},
           {"--sampling-period 10us --window 1ms --max-lag 500us",
            "--max-lag 500us is not below half the window (1ms): use at most 490us, or a longer --window"},
           {"--sampling-period 0", "--sampling-period must be positive"},
           {"--smooth 20ms", "--smooth 20ms is not shorter than the window (16.384ms)"},
       }) {
    SCOPED_TRACE(m.flags);
    EXPECT_EQ(run(common + m.flags, out, err), 2);
    EXPECT_EQ(slurp(err), "itch5tde: error: " + m.message + "\n");
    EXPECT_EQ(slurp(out), "");
  }
}

// The defaults work at any sampling period: the window is the power of two of samples nearest 16.384 ms,
// the max lag 1 ms (or below half the window), and the delay comes back.
TEST_F(itch5tde_e2e, the_defaults_work_at_any_sampling_period) {
  struct expected {
    std::string period;
    std::string line;  // in the stderr summary
    std::int64_t window_ns;
  };
  for (const auto& e : std::vector<expected>{{"10us", "windows of 2048 samples of 10us", 20'480'000},
                                             {"3us", "windows of 4096 samples of 3us", 12'288'000},
                                             {"100us", "windows of 128 samples of 100us", 12'800'000}}) {
    SCOPED_TRACE(e.period);
    ASSERT_EQ(run("'" + a_path + "' '" + b_path + "' --symbols AAA --smooth 10us --sampling-period " +
                      e.period + " -o '" + out + "'",
                  err + ".o", err),
              0)
        << slurp(err);
    EXPECT_NE(slurp(err).find(e.line), std::string::npos) << slurp(err);
    const auto rows = parse_csv(slurp(out));
    ASSERT_FALSE(rows.empty());
    for (const auto& r : rows) EXPECT_EQ(r.start % e.window_ns, 0);
  }
  std::filesystem::remove(err + ".o");
  // 100us: 1 ms is 10 periods, below 64; the delay of 250 us is found within two periods.
  ASSERT_EQ(run("'" + a_path + "' '" + b_path + "' --sampling-period 10us --smooth 10us -q -o '" + out + "'",
                err, err + ".2"),
            0);
  std::filesystem::remove(err + ".2");
  int within = 0;
  const auto rows = parse_csv(slurp(out));
  ASSERT_FALSE(rows.empty());
  for (const auto& r : rows) within += std::abs(r.delay_us - 250.0) <= 20.0 ? 1 : 0;
  EXPECT_GE(within, static_cast<int>(std::ceil(0.95 * static_cast<double>(rows.size()))));
}

// Windows with fewer than --min-events changes in A or B give no row; --min-events 0 gives a row to every
// symbol that changed, and the stderr summary counts the skipped ones.
TEST_F(itch5tde_e2e, sparse_windows_give_no_row_and_are_counted) {
  const std::string common = "'" + a_path + "' '" + b_path + "' --symbols AAA --smooth 2us ";
  ASSERT_EQ(run(common + "--min-events 0 -q", out, err), 0) << slurp(err);
  const auto all = parse_csv(slurp(out));
  ASSERT_EQ(run(common + "--min-events 650 -o '" + out + "'", err + ".o", err), 0) << slurp(err);
  std::filesystem::remove(err + ".o");
  const auto busy = parse_csv(slurp(out));
  std::size_t expected = 0;
  for (const auto& r : all) expected += r.events_a >= 650 && r.events_b >= 650 ? 1 : 0;
  ASSERT_GT(expected, 0u);
  ASSERT_LT(expected, all.size()) << "650 should split the windows (about 650 changes each)";
  EXPECT_EQ(busy.size(), expected);
  for (const auto& r : busy) {
    EXPECT_GE(r.events_a, 650u);
    EXPECT_GE(r.events_b, 650u);
  }
  EXPECT_NE(slurp(err).find("itch5tde: " + std::to_string(all.size() - expected) +
                            " symbol windows skipped (fewer than 650 changes in A or in B"),
            std::string::npos)
      << slurp(err);
}

// Rows come in the same order with any number of threads: the output is byte-identical.
TEST_F(itch5tde_e2e, threads_do_not_change_the_output) {
  const std::string common =
      "'" + a_path + "' '" + b_path + "' --signal events,mid,bid-size --smooth 2us -q ";
  ASSERT_EQ(run(common + "--threads 1", out, err), 0) << slurp(err);
  const std::string one = slurp(out);
  ASSERT_GT(parse_csv(one).size(), 40u);
  for (const char* n : {"2", "3", "8"}) {
    ASSERT_EQ(run(common + "--threads " + n, out, err), 0) << slurp(err);
    const std::string many = slurp(out);
    EXPECT_TRUE(many == one) << "--threads " << n << ": " << many.size() << " bytes, " << one.size()
                             << " with one thread";
  }
}

// By default the FFTW wisdom is cached under $XDG_CACHE_HOME/itch5, created on first use; a cache that
// cannot be written is never an error; --wisdom none uses none.
TEST_F(itch5tde_e2e, fftw_wisdom_is_cached_by_default_and_never_fatal) {
  const std::string args = "'" + a_path + "' '" + b_path + "' --symbols AAA -q -o '" + out + "'";
  const std::string home = temp_path("xdg");
  auto with_home = [&](const std::string& h, const std::string& extra) {
    std::string cmd =
        "XDG_CACHE_HOME='" + h + "' '" + tool + "' " + args + extra + " >'" + err + ".o' 2>'" + err + "'";
    int status = std::system(cmd.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  ASSERT_EQ(with_home(home, ""), 0) << slurp(err);
  const std::string cached = home + "/itch5/fftw-wisdom-double";
  ASSERT_TRUE(std::filesystem::exists(cached));
  EXPECT_NE(slurp(cached).find("fftw"), std::string::npos);
  ASSERT_EQ(with_home(home, " --precision float"), 0) << slurp(err);
  EXPECT_TRUE(std::filesystem::exists(home + "/itch5/fftw-wisdom-float"));
  ASSERT_EQ(with_home(home, ""), 0) << slurp(err) << " (run with the cache loaded)";

  // A cache that is not wisdom is replaced; one that cannot be created is skipped.
  {
    std::ofstream garbage(cached);
    garbage << "not wisdom\n";
  }
  ASSERT_EQ(with_home(home, ""), 0) << slurp(err);
  EXPECT_NE(slurp(cached).find("fftw"), std::string::npos);
  const std::string file = temp_path("not_a_dir");
  { std::ofstream f(file); }
  EXPECT_EQ(with_home(file, ""), 0) << slurp(err);
  EXPECT_EQ(slurp(err), "") << "-q: not even a note";
  EXPECT_EQ(with_home(file, " -q0"), 2) << "sanity: a bad flag still fails";

  const std::string none_home = temp_path("xdg_none");
  ASSERT_EQ(with_home(none_home, " --wisdom none"), 0) << slurp(err);
  EXPECT_FALSE(std::filesystem::exists(none_home));
  std::filesystem::remove_all(home);
  std::filesystem::remove(file);
  std::filesystem::remove(err + ".o");
}

TEST_F(itch5tde_e2e, standard_input_twice_is_a_usage_error) {
  EXPECT_EQ(run("- - <'" + a_path + "'", out, err), 2);
  EXPECT_EQ(slurp(err), "itch5tde: error: A and B are both standard input (-): at most one of them can be\n");
  EXPECT_TRUE(slurp(out).empty());
  // Once is fine, on either side.
  EXPECT_EQ(run("- '" + b_path + "' --symbols AAA -q <'" + a_path + "'", out, err), 0) << slurp(err);
  EXPECT_FALSE(slurp(out).empty());
  EXPECT_EQ(run("'" + a_path + "' - --symbols AAA -q <'" + b_path + "'", out, err), 0) << slurp(err);
  EXPECT_FALSE(slurp(out).empty());
}

TEST_F(itch5tde_e2e, outputs_that_would_clash_are_usage_errors) {
  const std::string files = "'" + a_path + "' '" + b_path + "' ";
  struct case_ {
    std::string args, message;
  };
  for (const auto& [args, message] : std::vector<case_>{
           {"--wisdom -", "--wisdom: - is not allowed (the wisdom is loaded from and saved to a file)"},
           {"--summary-yaml -", "--summary-yaml - and the CSV (--output -) would both go to standard output"},
           {"--summary -", "--summary - and the CSV (--output -) would both go to standard output"},
           {"--lead-lag -", "--lead-lag - and the CSV (--output -) would both go to standard output"},
           {"--metadata -", "--metadata - and the CSV (--output -) would both go to standard output"},
           {"-o '" + out + "' --metadata '" + out + "'",
            "--output '" + out + "' and --metadata '" + out +
                "' are the same file; each output needs a file of its own"},
           {"-o '" + out + "' --summary '" + out + ".yaml'",
            "--metadata '" + out + ".yaml' and --summary '" + out +
                ".yaml' are the same file; each output needs a file of its own"},
           {"-o '" + out + "' --summary-yaml '" + out + "'",
            "--output '" + out + "' and --summary-yaml '" + out +
                "' are the same file; each output needs a file of its own"},
           {"--summary-yaml '" + yaml + "' --wisdom '" + yaml + "'",
            "--summary-yaml '" + yaml + "' is the same file as --wisdom '" + yaml +
                "': refusing to overwrite an input"},
           {"-o '" + a_path + "'", "--output '" + a_path + "' is the same file as input A '" + a_path +
                                       "': refusing to overwrite an input"},
           {"--summary-yaml '" + b_path + "'", "--summary-yaml '" + b_path +
                                                   "' is the same file as input B '" + b_path +
                                                   "': refusing to overwrite an input"},
       }) {
    EXPECT_EQ(run(files + args, out + ".stdout", err), 2) << args;
    EXPECT_EQ(slurp(err), "itch5tde: error: " + message + "\n") << args;
    EXPECT_TRUE(slurp(out + ".stdout").empty()) << args;
  }
  std::filesystem::remove(out + ".stdout");
  // The summary on standard output is fine when the CSV goes to a file.
  EXPECT_EQ(run(files + "--symbols AAA -q -o '" + out + "' --summary-yaml -", out + ".stdout", err), 0)
      << slurp(err);
  EXPECT_NE(slurp(out + ".stdout").find("median_us"), std::string::npos) << slurp(out + ".stdout");
  std::filesystem::remove(out + ".stdout");
}

TEST_F(itch5tde_e2e, the_sidecar_is_named_after_the_csv_unless_told_otherwise) {
  const std::string files = "'" + a_path + "' '" + b_path + "' --symbols AAA -q ";
  ASSERT_EQ(run(files + "-o '" + out + "'", err + ".o", err), 0) << slurp(err);
  const std::string meta = slurp(out + ".yaml");
  EXPECT_NE(meta.find("csv: \"" + out + "\"\n"), std::string::npos) << meta;
  EXPECT_NE(meta.find("sign_convention: \"delay > 0 means B lags A"), std::string::npos) << meta;
  EXPECT_NE(meta.find("  symbols: [\"AAA\"]"), std::string::npos) << meta;
  std::filesystem::remove(out + ".yaml");
  ASSERT_EQ(run(files + "-o '" + out + "' --metadata none", err + ".o", err), 0) << slurp(err);
  EXPECT_FALSE(std::filesystem::exists(out + ".yaml"));
  // Standard output: no sidecar unless asked for.
  ASSERT_EQ(run(files + "--metadata '" + yaml + "'", out, err), 0) << slurp(err);
  EXPECT_NE(slurp(yaml).find("csv: \"-\"\n"), std::string::npos) << slurp(yaml);
  EXPECT_EQ(slurp(out).rfind("window_start_ns,", 0), 0u);
  std::filesystem::remove(err + ".o");
}

TEST_F(itch5tde_e2e, upsample_1_is_a_usage_error) {
  // --help: "0 = Gaussian ...; U >= 2 = band-limited interpolation"; 1 is neither.
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --upsample 1", out, err), 2);
  EXPECT_EQ(
      slurp(err),
      "itch5tde: error: --upsample: 1 is not a factor (0: Gaussian through the three samples at the peak; "
      "2 to 1024: band-limited interpolation on a 1/U-sample grid)\n");
  EXPECT_TRUE(slurp(out).empty());
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --upsample 2 --symbols AAA -q", out, err), 0)
      << slurp(err);
  EXPECT_FALSE(slurp(out).empty());
}

TEST_F(itch5tde_e2e, smooth_is_a_duration_or_auto_one_sampling_period_by_default) {
  // The smoothing used is in the sidecar YAML (options.smooth_ns).
  const std::string sidecar = out + ".yaml";
  const std::string files = "'" + a_path + "' '" + b_path +
                            "' --symbols AAA -q --sampling-period 2us --metadata '" + sidecar + "' ";
  ASSERT_EQ(run(files, out, err), 0) << slurp(err);
  EXPECT_NE(slurp(sidecar).find("\n  smooth_ns: 2000\n"), std::string::npos) << slurp(sidecar);
  ASSERT_EQ(run(files + "--smooth auto", out, err), 0) << slurp(err);
  EXPECT_NE(slurp(sidecar).find("\n  smooth_ns: 2000\n"), std::string::npos) << slurp(sidecar);
  ASSERT_EQ(run(files + "--smooth 0", out, err), 0) << slurp(err);
  EXPECT_NE(slurp(sidecar).find("\n  smooth_ns: 0\n"), std::string::npos) << slurp(sidecar);
  EXPECT_EQ(run(files + "--smooth 5parsec", out, err), 2);
  EXPECT_EQ(
      slurp(err),
      "itch5tde: error: --smooth: unknown duration unit 'parsec' in '5parsec' (ns, us, ms, s, min, h)\n");
  EXPECT_EQ(slurp(out), "");
}

TEST_F(itch5tde_e2e, bad_symbol_pairs_are_usage_errors_naming_the_flag) {
  const std::string files = "'" + a_path + "' '" + b_path + "' ";
  const std::string expected = " (expected SYM or SYMA:SYMB, 1 to 8 characters each)\n";
  for (const auto& [arg, why] : std::vector<std::pair<std::string, std::string>>{
           {"AAA:BBB:CCC", "more than one ':'"},
           {":BBB", "empty symbol before ':'"},
           {"AAA:", "empty symbol after ':'"},
           {"AAA:TOOLONGSYM", "'TOOLONGSYM' is longer than 8 characters"},
           {"TOOLONGSYM", "'TOOLONGSYM' is longer than 8 characters"}}) {
    EXPECT_EQ(run(files + "--symbols AAA," + arg, out, err), 2) << arg;
    EXPECT_EQ(slurp(err), "itch5tde: error: --symbols: bad symbol '" + arg + "': " + why + expected);
    EXPECT_TRUE(slurp(out).empty()) << arg;
  }
}

TEST_F(itch5tde_e2e, options_come_from_a_yaml_config_too) {
  const std::string config = temp_path("config.yaml");
  {
    std::ofstream f(config);
    f << "symbols: [BBB, CCC]\nsignal: mid\nsmooth: 2us\nwindow: 8.192ms\nmax-lag: 500us\n";
  }
  ASSERT_EQ(run("'" + a_path + "' '" + b_path + "' --config '" + config + "' -q", out, err), 0) << slurp(err);
  auto rows = parse_csv(slurp(out));
  ASSERT_FALSE(rows.empty());
  for (const auto& r : rows) {
    EXPECT_TRUE(r.symbol == "BBB" || r.symbol == "CCC") << r.symbol;
    EXPECT_EQ(r.signal, "mid");
    EXPECT_EQ(r.start % 8'192'000, 0);
  }
  std::filesystem::remove(config);
}

}  // namespace

// --from/--to/--session: exactly the whole run's rows whose window lies wholly in the range, the
// range written in the CSV header and the summary; a range shorter than a window or a bad time is a usage
// error. The data span 09:30:00.000 to 09:30:00.400; windows are 16.384 ms from midnight.
TEST_F(itch5tde_e2e, a_time_range_keeps_the_windows_wholly_inside_it) {
  const std::string common = "'" + a_path + "' '" + b_path + "' --smooth 2us -q";
  ASSERT_EQ(run(common, out, err), 0) << slurp(err);
  const std::vector<csv_row> all = parse_csv(slurp(out));
  ASSERT_GE(all.size(), 20u);
  const std::int64_t from = begin + 100'000'000, to = begin + 250'000'000;  // 09:30:00.1 to 09:30:00.25
  const std::string meta = temp_path("range.meta.yaml");
  ASSERT_EQ(run(common + " --from 09:30:00.1 --to 34200250000000 --summary-yaml '" + yaml + "' --metadata '" +
                    meta + "'",
                out, err),
            0)
      << slurp(err);
  const std::string csv = slurp(out);
  const std::vector<csv_row> ranged = parse_csv(csv);
  std::vector<csv_row> expected;
  for (const auto& r : all) {
    if (r.start >= from && r.start + 16'384'000 <= to) expected.push_back(r);
  }
  ASSERT_GE(expected.size(), 8u);
  ASSERT_LT(expected.size(), all.size());
  ASSERT_EQ(ranged.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(ranged[i].start, expected[i].start);
    EXPECT_EQ(ranged[i].symbol, expected[i].symbol);
    EXPECT_EQ(ranged[i].events_a, expected[i].events_a);
    EXPECT_EQ(ranged[i].delay_us, expected[i].delay_us);
    EXPECT_EQ(ranged[i].flags, expected[i].flags);
  }
  EXPECT_NE(slurp(meta).find("  from_ns: 34200100000000\n  to_ns: 34200250000000\n"), std::string::npos)
      << slurp(meta);
  std::filesystem::remove(meta);
  const std::string summary = slurp(yaml);
  EXPECT_NE(summary.find("  from_ns: 34200100000000\n  to_ns: 34200250000000\n"), std::string::npos)
      << summary;
  // Not -q: stderr says which windows.
  ASSERT_EQ(run(common.substr(0, common.size() - 3) + " --from 09:30:00.1 --to 09:30:00.25 -o '" + out + "'",
                err + ".out", err),
            0);
  std::filesystem::remove(err + ".out");
  EXPECT_NE(slurp(err).find(", windows from 09:30:00.100000000 to 09:30:00.250000000\n"), std::string::npos)
      << slurp(err);
  // The regular session holds all of these data, but the window that holds 09:30:00 starts before it.
  ASSERT_EQ(run(common + " --session regular", out, err), 0) << slurp(err);
  const auto regular = parse_csv(slurp(out));
  ASSERT_FALSE(regular.empty());
  EXPECT_EQ(regular.size(), static_cast<std::size_t>(std::count_if(
                                all.begin(), all.end(), [](const csv_row& r) { return r.start >= begin; })));
  EXPECT_LT(regular.size(), all.size());
  EXPECT_GE(regular.front().start, begin);
}

TEST_F(itch5tde_e2e, a_range_past_the_day_is_a_warning) {
  const std::string common = "'" + a_path + "' '" + b_path + "' -q --from 24:00";
  ASSERT_EQ(run(common, out, err), 0) << slurp(err);
  EXPECT_EQ(
      slurp(err).rfind("itch5tde: warning: --from 24:00:00 is the end of the day: no event of the day is in "
                       "the range, so no line, statistic or window comes from it\n",
                       0),
      0u)
      << slurp(err);
}

// B 250 us behind A, searched only to 100 us: nothing passes, and the summary says why and what to try.
TEST_F(itch5tde_e2e, a_delay_beyond_max_lag_gets_a_hint_to_search_further) {
  ASSERT_EQ(run("'" + a_path + "' '" + b_path + "' --max-lag 100us --metadata none -o '" + out + "'",
                out + ".o", err),
            0)
      << slurp(err);
  std::filesystem::remove(out + ".o");
  const std::string text = slurp(err);
  EXPECT_NE(text.find("itch5tde: events: 0 of "), std::string::npos) << text;
  EXPECT_NE(text.find(" have their peak at the edge of the searched lags: if B is more than --max-lag 100us "
                      "behind or ahead of A, its peak lies outside them; try --max-lag 400us\n"),
            std::string::npos)
      << text;
  // Searched to 400 us, the delay is found and no hint follows.
  ASSERT_EQ(run("'" + a_path + "' '" + b_path + "' --max-lag 400us --metadata none -o '" + out + "'",
                out + ".o", err),
            0);
  std::filesystem::remove(out + ".o");
  EXPECT_EQ(slurp(err).find("--max-lag 1"), std::string::npos) << slurp(err);
  EXPECT_EQ(slurp(err).find("try --max-lag"), std::string::npos) << slurp(err);
}

// Every window skipped for too few changes: said as that, not as "no window had changes".
TEST_F(itch5tde_e2e, windows_all_skipped_for_too_few_changes_are_called_that) {
  ASSERT_EQ(run("'" + a_path + "' '" + b_path + "' --min-events 100000 --metadata none -o '" + out + "'",
                out + ".o", err),
            0)
      << slurp(err);
  std::filesystem::remove(out + ".o");
  const std::string text = slurp(err);
  EXPECT_EQ(text.find("no window had changes"), std::string::npos) << text;
  EXPECT_NE(
      text.find("itch5tde: no rows: every symbol window with changes had fewer than 100000 in A or in B "
                "(--min-events)"),
      std::string::npos)
      << text;
}

// --sampling-period 1ns with the default window: transforms of ~17.8 M samples per symbol window, refused up
// front (before any input is read) unless --force; at 10 ns a note says it will be slow.
TEST_F(itch5tde_e2e, work_past_the_bound_is_refused_up_front) {
  EXPECT_EQ(run("'" + a_path + "' '" + b_path + "' --sampling-period 1ns -o '" + out + "'", out + ".o", err),
            2);
  std::filesystem::remove(out + ".o");
  EXPECT_EQ(slurp(err).rfind("itch5tde: error: windows of 16777216 samples", 0), 0u) << slurp(err);
  EXPECT_NE(slurp(err).find("or --force to run anyway"), std::string::npos) << slurp(err);
  EXPECT_FALSE(std::filesystem::exists(out));
  // At 10 ns (transforms of 2.2 M): a note first, and the run goes on (a time range of one window keeps
  // it short).
  ASSERT_EQ(
      run("'" + a_path + "' '" + b_path + "' --sampling-period 10ns --plan estimate --from 09:30:00.1 " +
              "--to 09:30:00.13 --metadata none -o '" + out + "'",
          out + ".o", err),
      0)
      << slurp(err);
  std::filesystem::remove(out + ".o");
  EXPECT_EQ(slurp(err).rfind("itch5tde: note: windows of 2097152 samples", 0), 0u) << slurp(err);
}

// SIGINT while long transforms run: the run stops within about one transform, says so, and exits as killed
// by the signal (130). Before, a batch of 32 transforms per thread had to finish first, and the 10 s
// safety alarm killed the process without a word.
TEST_F(itch5tde_e2e, sigint_stops_a_run_of_long_transforms_promptly) {
  const std::string cmd = "XDG_CACHE_HOME='" + cache_home + "' exec '" + tool + "' '" + a_path + "' '" +
                          b_path +
                          "' --sampling-period 10ns --plan estimate --threads 2 -q --metadata none -o '" +
                          out + "' 2>'" + err + "'";
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::sleep(3);  // planning with --plan estimate is instant: well into the transforms
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "the run ended before the signal: " << slurp(err);
  const auto sent = std::chrono::steady_clock::now();
  ::kill(pid, SIGINT);
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  EXPECT_LT(seconds, 5.0) << "the 10 s alarm is what stopped it before";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  EXPECT_NE(slurp(err).find("itch5tde: interrupted by SIGINT; the rows written before it are in " + out +
                            ".partial"),
            std::string::npos)
      << slurp(err);
  EXPECT_FALSE(std::filesystem::exists(out));
  std::filesystem::remove(out + ".partial");
}

// itch5tde's outputs replaced: a 0600 CSV stays 0600, a symlinked summary stays a link to the new content.
TEST_F(itch5tde_e2e, replaced_outputs_keep_their_mode_and_links) {
  const std::string target = temp_path("target.yaml"), link = temp_path("link.yaml");
  {
    std::ofstream(out) << "earlier\n";
    std::ofstream(target) << "stale\n";
  }
  ASSERT_EQ(::chmod(out.c_str(), 0600), 0);
  std::filesystem::remove(link);
  std::filesystem::create_symlink(target, link);
  ASSERT_EQ(run("'" + a_path + "' '" + b_path + "' -q --metadata none --summary-yaml '" + link + "' -o '" +
                    out + "'",
                out + ".o", err),
            0)
      << slurp(err);
  std::filesystem::remove(out + ".o");
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_NE(slurp(target).find("signals:"), std::string::npos) << slurp(target);
  std::filesystem::remove(link);
  std::filesystem::remove(target);
}

TEST_F(itch5tde_e2e, a_bad_time_range_is_a_usage_error) {
  const std::string common = "'" + a_path + "' '" + b_path + "' -q ";
  struct mistake {
    std::string flags, message;
  };
  for (const auto& m : std::vector<mistake>{
           {"--from 09:30 --to 09:30:00.01",
            "itch5tde: error: the time range (10ms) is shorter than one window (16.384ms)\n"},
           {"--from 10:00 --to 09:00",
            "itch5tde: error: --from 10:00 is not before --to 09:00: the range would be empty\n"},
           {"--from 9.30",
            "itch5tde: error: --from: '9.30' is not a time of day (unexpected character; expected "
            "HH:MM[:SS[.fraction]] or nanoseconds since midnight)\n"},
           {"--session regular --from 09:31",
            "itch5tde: error: --session regular sets the range; it cannot be combined with --from or --to\n"},
       }) {
    SCOPED_TRACE(m.flags);
    EXPECT_EQ(run(common + m.flags, out, err), 2);
    EXPECT_EQ(slurp(err), m.message);
    EXPECT_EQ(slurp(out), "");
  }
}

namespace {

// One file, three symbols: BBB copies AAA's changes 50 us later (+-1 us), CCC is unrelated.
class itch5tde_lead_lag : public ::testing::Test {
 protected:
  static constexpr std::int64_t begin = 34'200'000'000'000;

  void SetUp() override {
    day = temp_path("day.txt");
    out = temp_path("ll.csv");
    summary = temp_path("ll-summary.csv");
    ranked = temp_path("ll-ranked.csv");
    err = temp_path("ll-err.txt");
    auto changes = random_changes({"AAA", "CCC"}, begin, 800'000'000, 25'000.0, 21);  // 0.8 s
    std::vector<change> aaa;
    for (const auto& c : changes) {
      if (c.symbol == "AAA") aaa.push_back(c);
    }
    for (auto c : delayed_copy(aaa, 50'000, 1'000, 0.0, 22)) {
      c.symbol = "BBB";
      changes.push_back(c);
    }
    // A lone CCC change a second before: a window where AAA:CCC has no estimate (flag flat).
    changes.push_back({begin - 1'000'000'000, "CCC", 1'000'000, 100, 1'000'100, 100});
    std::stable_sort(changes.begin(), changes.end(),
                     [](const change& x, const change& y) { return x.t < y.t; });
    write(day, changes);
  }
  void TearDown() override {
    for (const auto& p : {day, out, out + ".yaml", summary, ranked, err}) std::filesystem::remove(p);
  }

  std::string day, out, summary, ranked, err;
};

int run_python(const std::string& script, const std::vector<std::string>& args, const std::string& out) {
  std::string cmd = "/usr/bin/python3 '" + script + "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  const int status = std::system((cmd + " >'" + out + "' 2>&1").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::vector<std::vector<std::string>> csv_lines(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& line : lines_of(text)) {
    std::vector<std::string> f;
    std::size_t from = 0;
    for (std::size_t comma; (comma = line.find(',', from)) != std::string::npos; from = comma + 1) {
      f.push_back(line.substr(from, comma - from));
    }
    f.push_back(line.substr(from));
    rows.push_back(f);
  }
  return rows;
}

TEST_F(itch5tde_lead_lag,
       the_copy_is_ranked_first_as_led_by_50_us_and_the_unrelated_symbol_is_not_significant) {
  ASSERT_EQ(run("'" + day + "' --reference AAA --symbols CCC,BBB -o '" + out + "' --summary '" + summary +
                    "' --lead-lag '" + ranked + "'",
                err + ".o", err),
            0)
      << slurp(err);
  EXPECT_TRUE(slurp(err + ".o").empty());
  std::filesystem::remove(err + ".o");

  const auto table = csv_lines(slurp(ranked));
  ASSERT_EQ(table.size(), 3u);
  ASSERT_EQ(table[0], (std::vector<std::string>{"rank", "symbol_a", "symbol_b", "signal", "windows", "tested",
                                                "passed", "delay_us", "ci_low_us", "ci_high_us", "p_value",
                                                "significant", "verdict"}));
  const auto& led = table[1];
  EXPECT_EQ(led[0], "1");
  EXPECT_EQ(led[1], "AAA");
  EXPECT_EQ(led[2], "BBB");
  EXPECT_EQ(led[11], "yes");
  EXPECT_NEAR(std::stod(led[7]), 50.0, 1.0);
  EXPECT_LE(std::stod(led[8]), 50.0);
  EXPECT_GE(std::stod(led[9]), 50.0);
  EXPECT_LT(std::stod(led[10]), 1e-6);
  EXPECT_EQ(led[12].rfind("AAA leads BBB by ", 0), 0u) << led[12];
  EXPECT_GE(std::stoull(led[4]), 40u);  // 0.8 s of 16.384 ms windows
  const auto& unrelated = table[2];
  EXPECT_EQ(unrelated[2], "CCC");
  EXPECT_EQ(unrelated[11], "no");
  EXPECT_GT(std::stod(unrelated[10]), 0.05);
  EXPECT_EQ(unrelated[12], "not significant");

  // The summary: the same verdicts, by symbol label.
  const auto rows = csv_lines(slurp(summary));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0][0], "symbol");
  EXPECT_EQ(rows[1][0], "AAA:BBB");
  EXPECT_EQ(rows[1][9], "yes");
  EXPECT_EQ(rows[2][0], "AAA:CCC");
  EXPECT_EQ(rows[2][9], "no");

  // stderr ranks them in words.
  const std::string text = slurp(err);
  EXPECT_NE(text.find("itch5tde: lead-lag 1. AAA:BBB events: AAA leads BBB by "), std::string::npos) << text;
  EXPECT_NE(text.find("itch5tde: lead-lag 2. AAA:CCC events: not significant"), std::string::npos) << text;

  // Deterministic: a second run writes the same summary.
  const std::string first = slurp(summary);
  ASSERT_EQ(run("'" + day + "' '" + day + "' --reference AAA --symbols CCC,BBB -q -o /dev/null --summary '" +
                    summary + "'",
                err + ".o", err),
            0)
      << slurp(err);
  std::filesystem::remove(err + ".o");
  EXPECT_EQ(slurp(summary), first);
}

// The CSVs are plain: Python's csv.DictReader (and pandas.read_csv, where installed) read them as they are,
// the header line first and every missing value an empty field.
TEST_F(itch5tde_lead_lag, python_reads_the_csvs_directly) {
  if (::access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "no /usr/bin/python3";
  // --min-events 0: windows where one side did not change give rows too (flat, no estimate: empty fields).
  ASSERT_EQ(run("'" + day + "' --reference AAA --symbols CCC,BBB --signal events,mid -q --min-events 0 -o '" +
                    out + "' --summary '" + summary + "' --lead-lag '" + ranked + "'",
                err + ".o", err),
            0)
      << slurp(err);
  std::filesystem::remove(err + ".o");
  const std::string script = temp_path("read.py");
  std::ofstream(script) << R"(import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and rows[0]["window_start_ns"].isdigit(), rows[:1]
assert all(r["lag_samples"] != "nan" for r in rows)
assert any(r["flags"] == "ok" and float(r["delay_us"]) > 40 for r in rows)
assert any(r["delay_us"] == "" and r["lag_samples"] == "" for r in rows), "a row without an estimate"
summary = list(csv.DictReader(open(sys.argv[2])))
assert [r["symbol"] for r in summary] == ["AAA:BBB", "AAA:BBB", "AAA:CCC", "AAA:CCC"], summary
ranked = list(csv.DictReader(open(sys.argv[3])))
assert ranked[0]["verdict"].startswith("AAA leads BBB by "), ranked[0]
try:
    import pandas
except ImportError:
    print("pandas not installed: csv.DictReader only")
    sys.exit(0)
frame = pandas.read_csv(sys.argv[1])
assert list(frame.columns[:3]) == ["window_start_ns", "symbol", "signal"], frame.columns
assert frame["lag_samples"].isna().any() and frame["delay_us"].dtype == float
assert pandas.read_csv(sys.argv[2])["significant"].tolist()[0] == "yes"
assert pandas.read_csv(sys.argv[3])["rank"].tolist() == [1, 2, 3, 4]
)";
  const int rc = run_python(script, {out, summary, ranked}, err);
  EXPECT_EQ(rc, 0) << slurp(err);
  std::filesystem::remove(script);
}

}  // namespace
