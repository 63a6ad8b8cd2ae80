// itch5tde: estimates, window by window, how much inside-change file B lags file A, by FFT
// cross-correlation of per-symbol signals. The work is in the tde library; this parses options, wires the
// inputs and outputs, and reports.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <itch5/io/output_file.hpp>
#include <itch5/tde/estimate/delay_estimator.hpp>
#include <itch5/tde/report/csv_writer.hpp>
#include <itch5/tde/report/delay_summary.hpp>
#include <itch5/tde/report/pair_summary.hpp>
#include <itch5/tde/windows/inside_reader.hpp>
#include <itch5/tde/windows/window_analyzer.hpp>
#include <itch5/tde/fft/wisdom_file.hpp>

#include <itch5/cli/build_info.hpp>
#include <itch5/cli/interruption.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>
#include <itch5/cli/progress.hpp>
#include <itch5/cli/time_of_day.hpp>

namespace {

struct config {
  std::string a;
  std::string b;
  std::vector<std::string> symbols;
  std::vector<std::string> signals{"events"};
  std::chrono::nanoseconds sampling_period = std::chrono::microseconds(1);
  std::chrono::nanoseconds window{0};  // 0: itch5::tde::default_window()
  std::chrono::nanoseconds hop{0};
  std::chrono::nanoseconds max_lag{0};  // 0: itch5::tde::default_max_lag()
  std::string smooth = "auto";
  std::uint64_t upsample = 0;
  std::uint64_t min_events = 10;
  double min_rho = 0.1;
  double min_psr = 6.0;
  double max_second_ratio = 0.9;
  double alpha = 0.01;
  std::string plan = "measure";
  std::string precision = "double";
  std::string wisdom;
  std::string summary_yaml;
  std::string output = "-";
  std::string metadata;  // empty: OUTPUT.yaml for a named output, none for standard output
  std::string summary;
  std::string lead_lag;
  std::string reference;
  double null_pass_rate = 0;  // 0: --alpha
  std::uint64_t bootstrap = 1000;
  double confidence = 0.95;
  double pair_level = 0.05;
  std::uint64_t threads = 0;  // 0: the hardware threads
  bool quiet = false;
  bool force = false;
  std::string from;
  std::string to;
  std::string session;
};

// --reference R --symbols X,Y: the pairs R:X, R:Y (R in file A, each symbol in file B).
std::vector<std::string> pair_texts(const config& c) {
  if (c.reference.empty()) return c.symbols;
  if (c.reference.find(':') != std::string::npos) {
    throw std::invalid_argument("--reference: '" + c.reference + "' is one symbol (of file A), not a pair");
  }
  if (c.symbols.empty()) {
    throw std::invalid_argument("--reference " + c.reference +
                                " needs --symbols: the symbols of file B to compare with it");
  }
  std::vector<std::string> pairs;
  for (const auto& s : c.symbols) {
    if (s.find(':') != std::string::npos) {
      throw std::invalid_argument("--symbols: '" + s +
                                  "' is a pair; with --reference, --symbols lists single symbols of file B");
    }
    pairs.push_back(c.reference + ":" + s);
  }
  return pairs;
}

// The flag of a setting of analysis_options: max_lag is --max-lag.
std::string flag_of(std::string_view member) {
  std::string flag = "--" + std::string(member);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

itch5::tde::analysis_options to_analysis(const config& c) {
  itch5::tde::analysis_options o;
  for (const auto& s : pair_texts(c)) {
    try {
      o.symbols.push_back(itch5::tde::parse_symbol_pair(s));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--symbols: ") + e.what());
    }
  }
  o.signals.clear();
  for (const auto& s : c.signals) o.signals.push_back(itch5::tde::parse_signal_kind(s));
  o.sampling_period = c.sampling_period;
  if (c.sampling_period.count() <= 0) throw std::invalid_argument("--sampling-period must be positive");
  o.window = c.window.count() != 0 ? c.window : itch5::tde::default_window(c.sampling_period);
  o.hop = c.hop;
  o.max_lag = c.max_lag.count() != 0 ? c.max_lag : itch5::tde::default_max_lag(c.sampling_period, o.window);
  const itch5::cli::time_range range = itch5::cli::resolve_time_range(c.from, c.to, c.session);
  o.from = range.from;
  o.to = range.to;
  if (const std::string note = range.past_the_day(); !note.empty())
    std::cerr << "itch5tde: warning: " << note << "\n";
  if (c.smooth != "auto") {
    try {
      o.smooth = itch5::cli::parse_duration(c.smooth);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--smooth: ") + e.what());
    }
  }
  o.upsample = static_cast<std::size_t>(c.upsample);
  o.min_events = c.min_events;
  o.min_rho = c.min_rho;
  o.min_psr = c.min_psr;
  o.max_second_ratio = c.max_second_ratio;
  o.alpha = c.alpha;
  o.rigor = itch5::tde::parse_plan_rigor(c.plan);
  o.threads = c.threads != 0 ? static_cast<std::size_t>(c.threads)
                             : std::max<std::size_t>(1, std::thread::hardware_concurrency());
  if (auto problem = o.problem()) throw std::invalid_argument(problem->text(flag_of));
  return o;
}

// Rethrows `e` with `flag` in front, so an unusable path names the option that gave it.
[[noreturn]] void rethrow_for(const char* flag, const std::exception& e) {
  throw std::runtime_error(std::string(flag) + ": " + e.what());
}

// Opens an output now (under a temporary name), naming `flag` if it cannot be. An existing directory is
// refused now too: output_file would only fail to rename over it at the end.
void open_output(std::optional<itch5::io::output_file>& f, const char* flag, const std::string& path) {
  std::error_code ec;
  if (path != "-" && std::filesystem::is_directory(path, ec)) {
    throw std::runtime_error(std::string(flag) + ": " + path + " is a directory");
  }
  try {
    f.emplace(path);
  } catch (const std::exception& e) {
    rethrow_for(flag, e);
  }
}

// What output_file::abandon() keeps of an output the run never got to write: removed, not left behind as
// an empty FILE.partial.
void discard(itch5::io::output_file& f) noexcept {
  const std::string kept = f.abandon();
  std::error_code ec;
  if (kept != f.path()) std::filesystem::remove(kept, ec);
}

// Loads the wisdom before planning (itch5::tde::load_wisdom: a chosen file's errors are errors, the cache's
// are ignored), naming --wisdom in an error.
template <class T>
void load_wisdom(const itch5::tde::wisdom_file& w, bool quiet) {
  bool loaded = false;
  try {
    loaded = itch5::tde::load_wisdom<T>(w);
  } catch (const std::exception& e) {
    rethrow_for("--wisdom", e);
  }
  if (loaded && w.chosen && !quiet) std::cerr << "itch5tde: loaded FFTW wisdom from " << w.path << "\n";
}

// Saves the wisdom at the end; a failure to save the cache is a note, not an error.
template <class T>
void save_wisdom(const itch5::tde::wisdom_file& w, bool quiet) {
  std::string note;
  try {
    note = itch5::tde::save_wisdom<T>(w);
  } catch (const std::exception& e) {
    rethrow_for("--wisdom", e);
  }
  if (!note.empty() && !quiet) std::cerr << "itch5tde: note: FFTW wisdom not cached: " << note << "\n";
}

// Opens an input; standard input is called that in messages.
itch5::tde::inside_reader open_input(const std::string& path) {
  if (path == "-") return itch5::tde::inside_reader(itch5::io::open_input("-"), "standard input");
  return itch5::tde::inside_reader(path);
}

// An input without a single change gives nothing to compare: an error naming it, not rows of flags.
void check_not_empty(itch5::tde::inside_reader& r) {
  if (!r.at_end()) return;
  if (r.line_number() == 0) throw std::runtime_error(r.name() + ": empty input (no inside-change lines)");
  throw std::runtime_error(r.name() + ": no inside-change lines (only " + std::to_string(r.line_number()) +
                           " blank or comment lines)");
}

// A chosen symbol that never appears in its file is an error. A regular file is read ahead now, up to the
// first change of each chosen symbol (to the end only when one is absent), so the error comes before any
// work; standard input and pipes cannot be read twice, and the analyzer reports it at the end instead.
void check_symbols_appear(const config& cfg, const itch5::tde::analysis_options& options) {
  std::vector<std::string> in_a, in_b;
  for (const auto& p : options.symbols) {
    in_a.push_back(p.a);
    in_b.push_back(p.b);
  }
  auto absent = [](const std::string& path, const std::vector<std::string>& symbols) -> std::string {
    std::error_code ec;
    if (path == "-" || !std::filesystem::is_regular_file(path, ec)) return {};
    itch5::tde::inside_reader r(path);
    return itch5::tde::absent_symbols_text(itch5::tde::absent_symbols(r, symbols), r.name());
  };
  std::string text = absent(cfg.a, in_a);
  if (auto b = absent(cfg.b, in_b); !b.empty()) text += (text.empty() ? "" : "; ") + b;
  if (!text.empty()) throw std::runtime_error(text);
}

// The sidecar YAML of the CSV: --metadata FILE, none with --metadata none, else OUTPUT.yaml for a named
// output and none for standard output.
std::string metadata_file(const config& cfg) {
  if (cfg.metadata == "none") return {};
  if (!cfg.metadata.empty()) return cfg.metadata;
  return itch5::tde::default_metadata_path(cfg.output);
}

itch5::tde::csv_metadata csv_metadata(const config& cfg, std::size_t fft_length) {
  const auto& build = itch5::cli::build_info::current();
  itch5::tde::csv_metadata m;
  m.version = std::string(build.version);
  m.git_commit = std::string(build.git_commit);
  m.csv = cfg.output;
  m.input_a = cfg.a;
  m.input_b = cfg.b;
  m.precision = cfg.precision;
  m.fft_length = fft_length;
  return m;
}

itch5::tde::pair_summary_options pair_options(const config& cfg) {
  itch5::tde::pair_summary_options p;
  p.null_pass_rate = cfg.null_pass_rate > 0 ? cfg.null_pass_rate : cfg.alpha;
  p.resamples = static_cast<std::size_t>(cfg.bootstrap);
  p.confidence = cfg.confidence;
  p.level = cfg.pair_level;
  return p;
}

// Thrown out of the row callback when a signal asks the run to stop.
struct interrupted {};

// Transforms longer than this make each symbol window cost about a second or more (and FFTW's measuring
// planner minutes): refused without --force, as a sampling period of 1 ns with the default window gives
// (16,777,216 samples, transforms of about 17.9 M).
constexpr std::size_t large_fft = std::size_t{1} << 22;
// From this length on, a note says up front that the run will be slow.
constexpr std::size_t slow_fft = std::size_t{1} << 20;

// The work of one symbol window, estimated before planning: an error past large_fft (without --force),
// a note past slow_fft. Empty when neither.
std::string work_estimate(const config& cfg, const itch5::tde::analysis_options& o, bool& refuse) {
  const std::size_t m = itch5::tde::delay_estimator<double>::fft_length_for(o.estimator());
  refuse = m > large_fft && !cfg.force;
  if (m <= slow_fft) return {};
  const double bytes_per_thread = static_cast<double>(2 * o.samples() + 4 * m) *
                                  (cfg.precision == "float" ? sizeof(float) : sizeof(double));
  std::string text = "windows of " + std::to_string(o.samples()) + " samples (--window " +
                     itch5::cli::format_duration(o.window) + " at --sampling-period " +
                     itch5::cli::format_duration(o.sampling_period) + ") need transforms of length " +
                     std::to_string(m) + " for every symbol window (about " +
                     itch5::cli::human_bytes(bytes_per_thread) + " per thread; planning them with --plan " +
                     cfg.plan + " and each symbol window take long)";
  if (refuse) {
    return text + ": use a coarser --sampling-period or a shorter --window, or --force to run anyway (past " +
           std::to_string(large_fft) + ")";
  }
  return text + "; progress is shown on a terminal, Ctrl-C stops";
}

// Said after the summary when the delay may lie beyond --max-lag: at least half of the rows have their
// peak at the edge of the searched lags, or no row passed at all (a delay beyond the searched lags leaves
// only noise in them, whose highest point is rarely at the edge). Empty otherwise.
std::string max_lag_hint(const itch5::tde::analysis_options& o, std::uint64_t rows, std::uint64_t edge,
                         std::uint64_t passed) {
  if (rows == 0 || (2 * edge < rows && passed > 0)) return {};
  const std::int64_t period = o.sampling_period.count();
  const std::int64_t limit = (static_cast<std::int64_t>(o.samples()) - 1) / 2;  // periods, below half
  const std::int64_t lag = o.max_lag.count() / period;
  const std::string max_lag = "--max-lag " + itch5::cli::format_duration(o.max_lag);
  std::string text =
      2 * edge >= rows
          ? std::to_string(edge) + " of " + std::to_string(rows) +
                " symbol windows have their correlation peak at the edge of the searched lags (" + max_lag +
                "): the delay is probably beyond it; "
          : "no symbol window passed, and " + std::to_string(edge) + " of " + std::to_string(rows) +
                " have their peak at the edge of the searched lags: if B is more than " + max_lag +
                " behind or ahead of A, its peak lies outside them; ";
  if (lag >= limit) {
    return text + max_lag + " is already the largest below half the --window " +
           itch5::cli::format_duration(o.window) + ": try a longer --window and a larger --max-lag";
  }
  const std::int64_t larger = std::min(limit, 4 * lag);
  return text + "try --max-lag " + itch5::cli::format_duration(std::chrono::nanoseconds(larger * period)) +
         (larger == limit ? " (the largest below half the --window)" : "");
}

template <class T>
int run(const config& cfg, const itch5::tde::analysis_options& options) {
  // Everything that can fail on a path is tried before any input is read: the outputs are created (under
  // temporary names), the wisdom file loaded and its directory checked.
  std::optional<itch5::io::output_file> yaml, metadata, pair_csv, lead_lag_csv;
  std::optional<itch5::io::output_file> out;
  bool rows_started = false;
  const std::string metadata_path = metadata_file(cfg);
  try {
    if (!cfg.summary_yaml.empty()) open_output(yaml, "--summary-yaml", cfg.summary_yaml);
    if (!metadata_path.empty()) open_output(metadata, "--metadata", metadata_path);
    if (!cfg.summary.empty()) open_output(pair_csv, "--summary", cfg.summary);
    if (!cfg.lead_lag.empty()) open_output(lead_lag_csv, "--lead-lag", cfg.lead_lag);
    const auto wisdom = itch5::tde::wisdom_file::of(cfg.wisdom, cfg.precision);
    load_wisdom<T>(wisdom, cfg.quiet);
    open_output(out, "--output", cfg.output);

    itch5::tde::inside_reader a = open_input(cfg.a), b = open_input(cfg.b);
    check_not_empty(a);
    check_not_empty(b);
    if (!options.symbols.empty()) check_symbols_appear(cfg, options);
    itch5::tde::window_analyzer<T> analyzer(options, a, b);
    analyzer.stop_when(&itch5::cli::interruption::flag());
    std::uint64_t estimated_rows = 0, edge_rows = 0, passed_rows = 0;
    itch5::tde::csv_writer csv(*out);
    itch5::tde::delay_summary summary;
    itch5::tde::pair_summary pairs(pair_options(cfg));
    itch5::cli::progress progress(!cfg.quiet);
    analyzer.on_progress([&] {
      if (itch5::cli::interruption::requested()) throw interrupted{};
      progress.update(a.input_position() + b.input_position(), a.input_size() + b.input_size(),
                      a.changes() + b.changes());
    });
    rows_started = true;
    analyzer.run([&](const itch5::tde::window_row& row) {
      if (itch5::cli::interruption::requested()) throw interrupted{};
      csv.write(row);
      ++estimated_rows;
      edge_rows += row.estimate.flags.test(itch5::tde::estimate_flag::edge) ? 1 : 0;
      passed_rows += row.estimate.flags.none() ? 1 : 0;
      summary.add(row);
      pairs.add(row);
    });
    progress.finish();
    csv.flush();
    out->commit();
    if (metadata) {
      metadata->write(itch5::tde::metadata_yaml(options, csv_metadata(cfg, analyzer.fft_length())));
      metadata->commit();
    }

    save_wisdom<T>(wisdom, cfg.quiet);
    if (yaml) {
      yaml->write(summary.yaml(options));
      yaml->commit();
    }
    std::vector<itch5::tde::pair_statistics> ranked;
    if (pair_csv || lead_lag_csv || !cfg.reference.empty()) {
      const auto verdicts = pairs.statistics();
      if (pair_csv) {
        pair_csv->write(itch5::tde::summary_csv(verdicts));
        pair_csv->commit();
      }
      ranked = itch5::tde::rank_lead_lag(verdicts);
      if (lead_lag_csv) {
        lead_lag_csv->write(itch5::tde::lead_lag_csv(ranked));
        lead_lag_csv->commit();
      }
    }
    // Lines whose timestamp went backwards (itch5inside writes them as the feed had them): read at the
    // time of the line before, and said, with --quiet too.
    for (const itch5::tde::inside_reader* r : {&a, &b}) {
      if (r == &b && cfg.b == cfg.a) break;  // one file read twice: said once
      if (const std::string text = itch5::tde::backwards_text(*r); !text.empty())
        std::cerr << "itch5tde: warning: " << text << "\n";
    }
    // Last, so that nothing follows an error on stderr.
    if (!cfg.quiet) {
      std::cerr << "itch5tde: " << a.changes() << " changes in " << a.name() << ", " << b.changes() << " in "
                << b.name() << "; " << analyzer.windows() << " windows of " << options.samples()
                << " samples of " << itch5::cli::format_duration(options.sampling_period) << " (FFT length "
                << analyzer.fft_length() << ")";
      const itch5::cli::time_range range{options.from, options.to};
      if (!range.whole_day()) std::cerr << ", windows from " << range.describe();
      std::cerr << "\n";
      std::cerr << "itch5tde: " << analyzer.skipped() << " symbol windows skipped (fewer than "
                << options.min_events << " changes in A or in B: no transform, no row)\n";
      if (summary.signals().empty() && analyzer.skipped() > 0) {
        // Not "no window had changes": they had, too few in each.
        std::cerr << "itch5tde: no rows: every symbol window with changes had fewer than "
                  << options.min_events
                  << " in A or in B (--min-events); a longer --window holds more of them\n";
      } else {
        std::cerr << summary.text("itch5tde");
      }
      if (const std::string hint = max_lag_hint(options, estimated_rows, edge_rows, passed_rows);
          !hint.empty())
        std::cerr << "itch5tde: " << hint << "\n";
      if (!cfg.reference.empty()) std::cerr << itch5::tde::lead_lag_text(ranked, "itch5tde");
    }
    return 0;
  } catch (...) {
    for (auto* f : {&yaml, &metadata, &pair_csv, &lead_lag_csv}) {
      if (*f) discard(**f);
    }
    if (out && !rows_started) discard(*out);  // once rows are written, what was written is kept as .partial
    throw;
  }
}

// Paths that clash in ways specific to itch5tde: the wisdom on standard output, the summary and the CSV both
// on standard output. The one-line reason, or empty.
std::string path_clash(const config& cfg) {
  if (cfg.wisdom == "-") return "--wisdom: - is not allowed (the wisdom is loaded from and saved to a file)";
  if (cfg.output == "-") {
    for (const auto& [flag, path] :
         {std::pair{"--summary-yaml", cfg.summary_yaml}, std::pair{"--metadata", cfg.metadata},
          std::pair{"--summary", cfg.summary}, std::pair{"--lead-lag", cfg.lead_lag}}) {
      if (path == "-")
        return std::string(flag) + " - and the CSV (--output -) would both go to standard output";
    }
  }
  return {};
}

// Every input and output compared by identity (device and inode): an output that is an input, the wisdom
// file or another output is a usage error naming both.
void check_paths(const config& cfg, const itch5::cli::options& opts) {
  itch5::cli::path_guard paths;
  for (const auto& c : opts.config_files()) paths.input(c, "--config");
  paths.input(cfg.a, "input A");
  paths.input(cfg.b, "input B");
  paths.output(cfg.output, "--output");
  paths.output(cfg.summary_yaml, "--summary-yaml");
  paths.output(metadata_file(cfg), "--metadata");
  paths.output(cfg.summary, "--summary");
  paths.output(cfg.lead_lag, "--lead-lag");
  if (cfg.wisdom != "none") paths.input_output(cfg.wisdom, "--wisdom");
  paths.check();
}

}  // namespace

int main(int argc, char** argv) {
  config cfg;
  itch5::cli::options opts(
      "itch5tde", "A.txt[.gz] B.txt[.gz] [options]",
      "Estimates how much inside-change file B lags file A (two feeds of the same market, or two symbols), "
      "window "
      "by window, by linear FFT cross-correlation of per-symbol signals. Sign convention: a positive delay "
      "means "
      "B lags A (B's changes come later). Writes a plain CSV (the column-name line first, no comment lines; "
      "a "
      "missing value is an empty field), one row per (window, symbol, signal) in which the "
      "symbol changed at least --min-events times in A and in B: window_start_ns, symbol, signal, events_a, "
      "events_b, lag_samples (integer "
      "correlation "
      "peak), delay_us (sub-sample delay), rho (normalised correlation at the peak), psr (peak-to-sidelobe "
      "ratio), second_ratio (highest other peak / peak), z (peak in standard deviations of the correlation "
      "of "
      "unrelated series), p_value (chance of such a peak between unrelated series), flags (ok, or "
      "edge, flat, low_rho, low_psr, ambiguous, not_significant joined by '|'). The sign convention, "
      "settings "
      "and build go to a YAML sidecar (--metadata). A summary per signal goes to stderr: fraction of windows "
      "passed (flags ok) "
      "and "
      "the rho-weighted median, IQR, p10 and p90 of their delays.");
  opts.positional("A", cfg.a,
                  "Reference inside-change file (itch5inside output), plain or gzip, or - for stdin.");
  opts.positional(
      "B", cfg.b,
      "Inside-change file compared with A; delay > 0 when B lags A. May be left out with --reference "
      "or with --symbols SYMA:SYMB pairs: then B is A (symbols of one file compared).",
      false);
  opts.add("symbols", cfg.symbols,
           "Symbols to compare: SYM (the same symbol in both files) or SYMA:SYMB (SYMA in A with SYMB in B). "
           "Empty: every symbol seen in either file. A chosen symbol that never appears in its file is an "
           "error. With --reference: the symbols of B compared with the reference.");
  opts.add("reference", cfg.reference,
           "Lead-lag: compare this symbol of A with each --symbols symbol of B (pairs REF:SYM) and rank the "
           "pairs on stderr by significance, then by |delay| (see --lead-lag).")
      .value_name("SYM");
  opts.add(
      "signal", cfg.signals,
      "Series built per symbol, one row each: events (count of changes), mid (signed mid price changes), "
      "bid, offer (signed best price changes), bid-size, offer-size (signed size changes). Changes, not "
      "price levels: levels correlate through their trend and give wrong delays.");
  opts.add("sampling-period", cfg.sampling_period,
           "Bin width of the series, e.g. 1us or 10us. --window, --hop and --max-lag are whole numbers of "
           "it.");
  opts.add("window", cfg.window,
           "Length of each estimation window, a whole number of sampling periods. 0: the power-of-two number "
           "of samples nearest 16.384 ms, 16384 samples at 1us, 2048 at 10us (20.48 ms), 128 at 100us "
           "(12.8 ms).");
  opts.add("hop", cfg.hop,
           "Distance between window starts, a whole number of sampling periods (0: the window length, "
           "windows that tile time). Every window costs the same: a hop of window/K analyses the data K "
           "times.");
  opts.add("from", cfg.from,
           "Only windows that start at or after this time of day: HH:MM[:SS[.fraction]] in the exchange's "
           "time "
           "(New York for Nasdaq) or nanoseconds since midnight. Default: the start.")
      .value_name("TIME");
  opts.add("to", cfg.to, "Only windows that end at or before this time of day. Default: the end.")
      .value_name("TIME");
  opts.add("session", cfg.session, "regular: --from 09:30 --to 16:00 (not combined with them).")
      .value_name("NAME");
  opts.add("max-lag", cfg.max_lag,
           "Largest delay searched, either sign: a whole number of sampling periods, below half the window. "
           "0: 1ms rounded down to whole sampling periods (at least one, below half the window).");
  opts.add("smooth", cfg.smooth,
           "Gaussian smoothing width (standard deviation) applied to both series, e.g. 5us; auto: one "
           "sampling "
           "period, which makes the correlation peak wide enough for an unbiased sub-sample delay; 0: none. "
           "Raise it to about the jitter between the feeds, which otherwise scatters the peak.")
      .value_name("DURATION|auto");
  opts.add("upsample", cfg.upsample,
           "Sub-sample refinement: 0 = Gaussian through the three samples at the peak; U >= 2 = band-limited "
           "interpolation of the correlation on a 1/U-sample grid, U from 2 to 1024 (slower, more precise).",
           0, 1024);
  opts.add("min-events", cfg.min_events,
           "Skip a (window, symbol) with fewer changes than this in A or in B: no transform and no row (the "
           "summary counts them). 0: a row for every symbol that changed in A or B (flat when one side did "
           "not).",
           0, UINT64_MAX);
  opts.add("min-rho", cfg.min_rho, "Flag low_rho below this normalised correlation.", -1, 1);
  opts.add("min-psr", cfg.min_psr, "Flag low_psr below this peak-to-sidelobe ratio.", 0, 1e9);
  opts.add("max-second-ratio", cfg.max_second_ratio, "Flag ambiguous above this second-peak / peak ratio.", 0,
           1e9);
  opts.add("alpha", cfg.alpha,
           "Significance level: flag not_significant when p_value (the chance that unrelated series give a "
           "peak this high somewhere in the searched lags) is above it; 1: never.",
           1e-300, 1);
  opts.add("plan", cfg.plan,
           "FFTW planning rigor: measure (times a few algorithms once per transform size, under a second, "
           "then kept in the wisdom file), estimate (plans instantly, transforms slower), patient "
           "(seconds to minutes per size), exhaustive (can take minutes even for a tiny input; only worth it "
           "with a kept "
           "wisdom file).")
      .choices({"estimate", "measure", "patient", "exhaustive"});
  opts.add("wisdom", cfg.wisdom,
           "FFTW wisdom file (the planner's measurements): loaded at start if it exists, saved at the end "
           "(its directory must be writable; checked at start). Without --wisdom: the cache file "
           "$XDG_CACHE_HOME/itch5/fftw-wisdom-double (-float with --precision float; ~/.cache without "
           "XDG_CACHE_HOME), created on first use and never an error; none: no wisdom file.")
      .value_name("FILE");
  opts.add("precision", cfg.precision, "Floating-point precision of the transforms.")
      .choices({"double", "float"});
  opts.add("summary-yaml", cfg.summary_yaml, "Also write the summary as YAML to this file.")
      .value_name("FILE");
  opts.add("output", cfg.output, "CSV output file (- for stdout; .gz compresses).")
      .alias('o')
      .value_name("FILE");
  opts.add("metadata", cfg.metadata,
           "YAML sidecar of the CSV: program, version, commit, inputs, sign convention, columns, settings. "
           "Default: the output's name with .yaml appended (tde.csv -> tde.csv.yaml, tde.csv.gz -> "
           "tde.csv.gz.yaml); none when the CSV goes to stdout. none: no sidecar.")
      .value_name("FILE");
  opts.add("summary", cfg.summary,
           "Write a CSV with one row per (symbol pair, signal): windows, tested, passed, the rho-weighted "
           "median delay, its bootstrap interval over windows, the binomial p-value of the passed count and "
           "whether it is significant.")
      .value_name("FILE");
  opts.add("lead-lag", cfg.lead_lag,
           "Write the --summary rows ranked by p-value, then by |delay|, with who leads whom in words.")
      .value_name("FILE");
  opts.add("null-pass-rate", cfg.null_pass_rate,
           "Fraction of windows an unrelated pair passes (the per-window test's level): a pair's p-value is "
           "P(Binomial(tested, rate) >= passed). 0: --alpha, which bounds it (a window passes only with "
           "p_value <= alpha).",
           0, 1);
  opts.add("bootstrap", cfg.bootstrap,
           "Bootstrap resamples of the windows for the median's interval (seeded: the same output every run; "
           "0: no interval).",
           0, 1000000);
  opts.add("confidence", cfg.confidence, "Confidence level of the bootstrap interval.", 0.5, 0.9999);
  opts.add("pair-level", cfg.pair_level,
           "A pair is significant when its p-value <= this level / the number of (pair, signal) rows "
           "(Bonferroni).",
           1e-12, 1);
  opts.add("threads", cfg.threads,
           "Threads: with N >= 2, N - 1 estimate the symbol windows while one reads and bins the next "
           "ones; 0: one per hardware thread. The output is the same for any number.",
           0, 1024);
  opts.add("force", cfg.force,
           "Run even when the transforms are longer than 4194304 (2^22; e.g. --sampling-period 1ns with the "
           "default window): each symbol window then takes about a second or more. Without it such a run "
           "is refused up front.");
  opts.add("quiet", cfg.quiet, "No progress line and no summary on stderr.").alias('q');
  opts.epilog(
      "Input lines: <timestamp ns> <locate> <symbol> <bid px> <bid qty> <offer px> <offer qty>, sorted by "
      "time (a line whose timestamp goes backwards, as itch5inside writes a feed's, is read at the time of "
      "the "
      "line before; a warning counts them). "
      "Windows start at multiples of --hop after midnight; windows without changes are skipped.\n"
      "Lead-lag over many symbols of one file: itch5tde day.txt --reference SPY --symbols QQQ,IWM --summary "
      "s.csv --lead-lag ranked.csv -o tde.csv (two files: day_a.txt day_b.txt, the reference read from A).\n"
      "Progress: a line on stderr when it is a terminal (not with --quiet).\n"
      "Formats: the CSV, its YAML sidecar, the --summary and --lead-lag CSVs and the stderr summary are "
      "described column by column in docs/formats.md of the source tree.\n"
      "Exit status: 0 on success, 1 on unreadable, malformed or empty input (the message names the file, and "
      "the line when there is one) or an output that cannot be written, 2 on a usage error.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;

  if (cfg.b.empty()) {
    const bool pairs_only =
        !cfg.symbols.empty() && std::all_of(cfg.symbols.begin(), cfg.symbols.end(), [](const std::string& x) {
          return x.find(':') != std::string::npos;
        });
    if (cfg.reference.empty() && !pairs_only) {
      std::cerr
          << "itch5tde: error: B is missing (it may be left out, to compare symbols of one file, only with "
             "--reference or with --symbols SYMA:SYMB pairs)\n";
      return 2;
    }
    if (cfg.a == "-") {
      std::cerr
          << "itch5tde: error: B is needed when A is standard input (-): one input would be read twice\n";
      return 2;
    }
    cfg.b = cfg.a;
  }
  if (cfg.a == "-" && cfg.b == "-") {
    std::cerr << "itch5tde: error: A and B are both standard input (-): at most one of them can be\n";
    return 2;
  }
  if (auto clash = path_clash(cfg); !clash.empty()) {
    std::cerr << "itch5tde: error: " << clash << "\n";
    return 2;
  }
  try {
    check_paths(cfg, opts);
  } catch (const itch5::cli::path_error& e) {
    std::cerr << "itch5tde: error: " << e.what() << "\n";
    return e.exit_status();
  }
  if (cfg.upsample == 1) {
    std::cerr << "itch5tde: error: --upsample: 1 is not a factor (0: Gaussian through the three samples at "
                 "the peak; 2 to 1024: band-limited interpolation on a 1/U-sample grid)\n";
    return 2;
  }
  itch5::tde::analysis_options options;
  try {
    options = to_analysis(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5tde: error: " << e.what() << "\n";
    return 2;
  }
  bool refuse = false;
  if (const std::string work = work_estimate(cfg, options, refuse); !work.empty()) {
    if (refuse) {
      std::cerr << "itch5tde: error: " << work << "\n";
      return 2;
    }
    if (!cfg.quiet) std::cerr << "itch5tde: note: " << work << "\n";
  }
  itch5::cli::interruption::install();
  try {
    return cfg.precision == "float" ? run<float>(cfg, options) : run<double>(cfg, options);
  } catch (const itch5::tde::analysis_stopped&) {
    std::cerr << "itch5tde: interrupted by " << itch5::cli::interruption::name()
              << "; the rows written before it are in "
              << (cfg.output == "-" ? std::string("standard output") : cfg.output + ".partial") << "\n";
    itch5::cli::interruption::exit_now();
  } catch (const interrupted&) {
    std::cerr << "itch5tde: interrupted by " << itch5::cli::interruption::name()
              << "; the rows written before it are in "
              << (cfg.output == "-" ? std::string("standard output") : cfg.output + ".partial") << "\n";
    itch5::cli::interruption::exit_now();
  } catch (const std::exception& e) {
    std::cerr << "itch5tde: error: " << e.what() << "\n";
    return 1;
  }
}
