// window_analyzer<T>: delay estimates between two inside-change files, window by window, per symbol and
// signal: the library behind itch5tde.
//
// Windows are [k * hop, k * hop + window) in nanoseconds since midnight (aligned to midnight, so runs over
// different files line up); windows in which no chosen symbol changes are skipped without work. With a
// time range [from, to), only the windows wholly inside it are analysed (both files are still read to the
// end, so that every chosen symbol is looked for). In each window, each symbol pair with at least
// min_events changes in A and in B is estimated for each chosen signal: both files' changes are binned into
// N = window / sampling_period samples and cross-correlated by a delay_estimator. Binning splits each change
// between the two samples around its time in proportion to its distance from them (linear interpolation), so
// a shift of a fraction of a sampling period shifts the series by that fraction instead of moving some
// changes by a whole period and others not at all. A pair with fewer changes on either side is skipped
// before any transform and gives no row (counted by skipped()); with min_events 0, a pair that changed on
// one side only gives a row flagged flat. Sign convention: delay > 0 means B lags A.
//
// Threads: the estimates of many windows are gathered into a batch; with threads >= 2 each full batch is
// estimated by threads - 1 workers while the calling thread reads and bins the next one (each worker with
// its own delay_estimator planned up front; the last batch uses every thread). The rows are delivered in
// order on the calling thread, so the output does not depend on the number of threads.
//
// Cost per window: O(pairs with changes + their changes); per estimated pair O(M log M) (see
// delay_estimator). Memory O(threads x M) plus the changes of one batch of windows. Streaming: both files
// are read once, in step. One thread at a time calls run(); construction plans FFTW transforms (see
// fft_plan.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <itch5/tde/estimate/delay_estimator.hpp>
#include <itch5/tde/windows/feed_events.hpp>
#include <itch5/tde/fft/fft_plan.hpp>
#include <itch5/tde/windows/inside_reader.hpp>
#include <itch5/tde/windows/signal_kind.hpp>
#include <itch5/tde/windows/work_pool.hpp>

namespace itch5::tde {

/// A symbol in file A compared with a symbol in file B: the same one for two feeds ("AAPL"), or two
/// different ones for a lead-lag study ("AAPL:MSFT").
struct symbol_pair {
  std::string a;
  std::string b;
  /// "AAPL" when a == b, else "AAPL:MSFT".
  [[nodiscard]] std::string label() const { return a == b ? a : a + ":" + b; }
};

/// Parses "SYM" or "SYMA:SYMB" (1 to 8 characters each, no blanks). Throws std::invalid_argument saying what
/// is wrong: an empty side (":B", "A:"), more than one ':', a name longer than 8 characters.
[[nodiscard]] symbol_pair parse_symbol_pair(std::string_view text);

/// A setting of analysis_options that cannot be used: which one, and why in one line that names settings
/// as {member} ("{hop} 1.5us is not a whole number of sampling periods (1us): use 1us or 2us"), so that a
/// program can call them by its own names (its flags).
struct setting_problem {
  std::string field;  ///< the member at fault ("hop", "max_lag"); "" when no one setting is (the time range)
  std::string why;    ///< the reason, naming settings as {member}

  /// `why` with every {member} replaced by name(member) (a string); text() keeps the members' names.
  template <class Name>
  [[nodiscard]] std::string text(Name&& name) const {
    std::string out;
    std::size_t at = 0;
    while (true) {
      const std::size_t open = why.find('{', at), close = why.find('}', open);
      if (open == std::string::npos || close == std::string::npos) break;
      out.append(why, at, open - at);
      out += name(std::string_view(why).substr(open + 1, close - open - 1));
      at = close + 1;
    }
    return out.append(why, at);
  }
  [[nodiscard]] std::string text() const {
    return text([](std::string_view member) { return std::string(member); });
  }
};

struct analysis_options {
  /// Pairs to compare; empty: every symbol seen in either file, paired with itself.
  std::vector<symbol_pair> symbols;
  std::vector<signal_kind> signals = {signal_kind::events};
  std::chrono::nanoseconds sampling_period = std::chrono::microseconds(1);
  /// A whole number of sampling periods, at least 2 (see default_window()).
  std::chrono::nanoseconds window = std::chrono::microseconds(16384);
  /// Distance between window starts, a whole number of sampling periods; 0: the window length (windows
  /// tile time).
  std::chrono::nanoseconds hop{0};
  /// Largest delay searched, either sign: a whole number of sampling periods, at least one, below half the
  /// window (see default_max_lag()).
  std::chrono::nanoseconds max_lag = std::chrono::milliseconds(1);
  /// Only windows wholly inside [from, to) (ns since midnight) are analysed; the defaults take all.
  std::chrono::nanoseconds from{0};
  std::chrono::nanoseconds to = std::chrono::nanoseconds::max();
  /// Gaussian smoothing standard deviation (0: none; smooth_auto: one sampling period); about the jitter
  /// between the feeds, and at least about a sampling period: a narrower correlation peak is too few
  /// samples wide for an unbiased sub-sample delay.
  std::chrono::nanoseconds smooth = smooth_auto;
  static constexpr std::chrono::nanoseconds smooth_auto{-1};
  /// A (window, pair) with fewer changes than this in A or in B is skipped: no transform, no row.
  std::uint64_t min_events = 10;
  /// Sub-sample refinement: 0 Gaussian through the integer lags, 2 to 1024 band-limited on a 1/U grid (1 is
  /// rejected: it would silently mean 0).
  std::size_t upsample = 0;
  plan_rigor rigor = plan_rigor::estimate;
  double min_rho = 0.1;
  double min_psr = 6.0;
  double max_second_ratio = 0.9;
  /// Significance level: rows whose p_value is above it get the not_significant flag (1: never).
  double alpha = 0.01;
  /// Workers estimating pairs in parallel (>= 1); the rows are the same for any number.
  std::size_t threads = 1;

  /// The first inconsistency, naming the setting, the value and what would be accepted: {field "hop", why
  /// "{hop} 1.5us is not a whole number of sampling periods (1us): use 1us or 2us"}; none when usable.
  [[nodiscard]] std::optional<setting_problem> problem() const;
  /// Throws std::invalid_argument with the problem()'s text() (members by their names), if there is one.
  void validate() const;
  /// N, samples per window.
  [[nodiscard]] std::size_t samples() const;
  [[nodiscard]] std::int64_t hop_ns() const { return hop.count() > 0 ? hop.count() : window.count(); }
  /// The smoothing width used: `smooth`, or the sampling period for smooth_auto.
  [[nodiscard]] std::chrono::nanoseconds smooth_width() const {
    return smooth == smooth_auto ? sampling_period : smooth;
  }
  /// The estimator configuration these options imply.
  [[nodiscard]] estimator_options estimator() const;
};

/// Bins the `s` values of `events` (timestamps in [start, start + out.size() * period) ns) into `out`, one
/// sample per period: a change at (i + f) periods from `start` adds (1 - f) x value to sample i and f x
/// value to sample i + 1 (left out past the last sample). Linear interpolation keeps sub-period timing: a
/// shift by a fraction of a period moves every change's weight by that fraction. Returns the largest |value|
/// (what one change can add to the correlation; see series_pair). O(events + out.size()).
template <fft_real T>
double bin_changes(std::span<const change_event> events, signal_kind s, std::int64_t start,
                   std::int64_t period, std::span<T> out);
/// The default window for `sampling_period`: the power-of-two number of samples nearest 16.384 ms (on a log
/// scale, ties up; at least 4 samples, at most 2^26): 16384 samples at 1us (16.384 ms), 2048 at 10us
/// (20.48 ms), 128 at 100us (12.8 ms).
[[nodiscard]] std::chrono::nanoseconds default_window(std::chrono::nanoseconds sampling_period);
/// The default max lag: 1 ms rounded down to whole sampling periods, at least one period, and below half of
/// `window` (at most (N - 1) / 2 periods for N samples).
[[nodiscard]] std::chrono::nanoseconds default_max_lag(std::chrono::nanoseconds sampling_period,
                                                       std::chrono::nanoseconds window);

/// One output row: the estimate for one (window, symbol pair, signal).
struct window_row {
  std::int64_t window_start = 0;  ///< ns since midnight
  std::string_view symbol;        ///< the pair's label; valid during the sink call
  signal_kind signal = signal_kind::events;
  std::uint64_t events_a = 0;
  std::uint64_t events_b = 0;
  delay_estimate estimate;
  double delay_us = 0;  ///< estimate.delay x sampling period, in microseconds (NaN without an estimate)
};

/// Thrown by window_analyzer::run() when the flag given to stop_when() is set: the run stopped early, the
/// rows delivered so far are all there are.
class analysis_stopped : public std::runtime_error {
 public:
  analysis_stopped() : std::runtime_error("the analysis was asked to stop") {}
};

template <fft_real T>
class window_analyzer {
 public:
  /// Validates `options` and plans. The readers must outlive the analyzer.
  window_analyzer(analysis_options options, inside_reader& a, inside_reader& b);
  window_analyzer(const window_analyzer&) = delete;
  window_analyzer& operator=(const window_analyzer&) = delete;
  /// Waits for a batch still being estimated (when run() was left by an exception).
  ~window_analyzer();

  /// Reads both inputs to the end, calling sink(row) for each (window, pair, signal) where the pair has
  /// min_events changes in A and in B (with min_events 0: changed in A or B), on the calling thread:
  /// windows in time order, then pairs (in the given order, or by symbol when discovered), then
  /// signals (in the given order). Throws what the readers throw. At the end, throws std::runtime_error
  /// ("NOPE does not appear in b.txt", see absent_symbols_text()) when a chosen symbol never appeared in
  /// its file: the rows were delivered, but they compare a series that was never there.
  void run(const std::function<void(const window_row&)>& sink);

  [[nodiscard]] const analysis_options& options() const noexcept { return options_; }
  [[nodiscard]] std::size_t fft_length() const noexcept { return workers_.front().estimator.fft_length(); }
  /// Windows that produced rows so far.
  [[nodiscard]] std::uint64_t windows() const noexcept { return windows_; }
  /// (window, pair) combinations skipped so far for having fewer than min_events changes in A or in B
  /// (each would have been one row per signal).
  [[nodiscard]] std::uint64_t skipped() const noexcept { return skipped_; }
  /// Called on the calling thread about every thousand windows and after each batch, e.g. to draw a
  /// progress line. Optional.
  void on_progress(std::function<void()> tick) { progress_ = std::move(tick); }
  /// run() throws analysis_stopped soon after `*flag` becomes true (a signal handler's flag): the workers
  /// estimate no more jobs, and the flag is checked between batches and every 1024 windows. A batch holds
  /// fewer jobs when the transforms are long (down to one per worker), so this is within about one
  /// transform. Optional; `flag` must outlive run().
  void stop_when(const std::atomic<bool>* flag) noexcept { stop_ = flag; }

 private:
  // One row to deliver: an estimate of one (window, pair, signal), or a row without one.
  struct job {
    std::int64_t start;
    std::size_t label;  // into labels_
    signal_kind signal;
    bool estimate;  // false: a one-sided pair with min_events 0, flagged flat
    std::uint64_t events_a, events_b;
    std::size_t a_begin, b_begin, b_end;  // its points: A's in [a_begin, b_begin), B's in [b_begin, b_end)
    double impulse_a, impulse_b;          // the largest |value| of one change in A, in B (series_pair)
    delay_estimate result;
  };
  // One change binned (bin_changes): its sample in the window, the part of its value there and the part on
  // the next sample.
  struct point {
    std::uint32_t sample;
    T here, next;
  };
  // What one worker thread owns: an estimator and two series of N samples, kept zero between jobs.
  struct worker {
    explicit worker(const analysis_options& o) : estimator(o.estimator()), a(o.samples()), b(o.samples()) {}
    delay_estimator<T> estimator;
    std::vector<T> a, b;
  };

  void analyse_window(std::int64_t start);
  double add_points(std::span<const change_event> events, signal_kind s, std::int64_t start);
  void estimate(worker& w, job& j, const point* points);
  /// Hands the full batch to the workers (after delivering the one before); the last, on every thread.
  void flush(const std::function<void(const window_row&)>& sink);
  void finish(const std::function<void(const window_row&)>& sink);
  void deliver(const std::vector<job>& jobs, const std::function<void(const window_row&)>& sink);
  std::size_t label_of(std::string_view symbol);
  [[nodiscard]] bool stopping() const noexcept {
    return stop_ != nullptr && stop_->load(std::memory_order_relaxed);
  }
  void stop_if_asked() const;

  static analysis_options validated(analysis_options o);

  analysis_options options_;
  feed_events a_;
  feed_events b_;
  std::vector<worker> workers_;
  work_pool pool_;
  std::function<void()> progress_;
  const std::atomic<bool>* stop_ = nullptr;
  std::size_t batch_jobs_ = 0;  // jobs gathered before a batch is estimated
  std::uint64_t windows_ = 0;
  std::uint64_t skipped_ = 0;
  // The batch: jobs in row order and their points; reused (capacity kept) from batch to batch.
  std::vector<job> jobs_;
  std::vector<point> points_;
  // The batch the workers are estimating while jobs_ fills (threads >= 2).
  std::vector<job> flying_jobs_;
  std::vector<point> flying_points_;
  bool flying_ = false;
  struct active_pair {
    std::string_view a, b;
    std::size_t label;
  };
  std::vector<active_pair> window_pairs_;
  // Row labels: those of options_.symbols first, then each discovered symbol once (discovered_ maps it).
  std::vector<std::string> labels_;
  std::unordered_map<std::string, std::size_t> discovered_;
  std::vector<std::string_view> names_;
};

extern template class window_analyzer<float>;
extern template class window_analyzer<double>;

}  // namespace itch5::tde
