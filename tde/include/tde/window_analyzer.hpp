// window_analyzer<T>: delay estimates between two inside-change files, window by window, per symbol and
// signal: the library behind itch5tde.
//
// Windows are [k * hop, k * hop + window) in nanoseconds since midnight (aligned to midnight, so runs over
// different files line up); windows in which no chosen symbol changes are skipped without work. With a
// time range [from, to), only the windows wholly inside it are analysed (both files are still read to the
// end, so that every chosen symbol is looked for). In each
// window, for each symbol pair that changed in A or B and each chosen signal, both files' changes are
// binned into N = window / sampling_period samples and the pair is estimated with one delay_estimator
// (planned once, batch-executed per window). Binning splits each change between the two samples around its
// time in proportion to its distance from them (linear interpolation), so a shift of a fraction of a
// sampling period shifts the series by that fraction instead of moving some changes by a whole period and
// others not at all. Sign convention: delay > 0 means B lags A.
//
// Cost per window: O(changes) binning + O(K (N + M log M)) for K = active pairs x signals; memory O(K N)
// plus the changes of one window. Streaming: both files are read once, in step. One thread at a time;
// construction plans FFTW transforms (see fft_plan.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <tde/delay_estimator.hpp>
#include <tde/feed_events.hpp>
#include <tde/fft_plan.hpp>
#include <tde/inside_reader.hpp>
#include <tde/signal_kind.hpp>

namespace tde {

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

struct analysis_options {
  /// Pairs to compare; empty: every symbol seen in either file, paired with itself.
  std::vector<symbol_pair> symbols;
  std::vector<signal_kind> signals = {signal_kind::events};
  std::chrono::nanoseconds sampling_period = std::chrono::microseconds(1);
  std::chrono::nanoseconds window = std::chrono::microseconds(16384);
  /// Distance between window starts; 0: the window length (windows tile time).
  std::chrono::nanoseconds hop{0};
  std::chrono::nanoseconds max_lag = std::chrono::milliseconds(1);
  /// Only windows wholly inside [from, to) (ns since midnight) are analysed; the defaults take all.
  std::chrono::nanoseconds from{0};
  std::chrono::nanoseconds to = std::chrono::nanoseconds::max();
  /// Gaussian smoothing standard deviation (0: none; smooth_auto: one sampling period); about the jitter
  /// between the feeds, and at least about a sampling period: a narrower correlation peak is too few
  /// samples wide for an unbiased sub-sample delay.
  std::chrono::nanoseconds smooth = smooth_auto;
  static constexpr std::chrono::nanoseconds smooth_auto{-1};
  /// Rows with fewer changes than this in A or in B get the few_events flag.
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

  /// Throws std::invalid_argument explaining the first inconsistency.
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
double bin_changes(std::span<const change_event> events, signal_kind s, std::int64_t start, std::int64_t period,
                 std::span<T> out);

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

template <fft_real T>
class window_analyzer {
 public:
  /// Validates `options` and plans. The readers must outlive the analyzer.
  window_analyzer(analysis_options options, inside_reader& a, inside_reader& b);

  /// Reads both inputs to the end, calling sink(row) for each (window, pair, signal) where the pair changed
  /// in A or B: windows in time order, then pairs (in the given order, or by symbol when discovered), then
  /// signals (in the given order). Throws what the readers throw. At the end, throws std::runtime_error
  /// ("NOPE does not appear in b.txt", see absent_symbols_text()) when a chosen symbol never appeared in
  /// its file: the rows were delivered, but they compare a series that was never there.
  void run(const std::function<void(const window_row&)>& sink);

  [[nodiscard]] const analysis_options& options() const noexcept { return options_; }
  [[nodiscard]] std::size_t fft_length() const noexcept { return estimator_.fft_length(); }
  /// Windows that produced rows so far.
  [[nodiscard]] std::uint64_t windows() const noexcept { return windows_; }

 private:
  void analyse_window(std::int64_t start, const std::function<void(const window_row&)>& sink);

  static analysis_options validated(analysis_options o);

  analysis_options options_;
  std::size_t n_;
  feed_events a_;
  feed_events b_;
  delay_estimator<T> estimator_;
  std::uint64_t windows_ = 0;
  // Per-window work space, grown to the largest window seen.
  std::vector<T> series_;
  std::vector<series_pair<T>> batch_;
  std::vector<delay_estimate> results_;
  struct row_info {
    std::size_t pair;  // into labels_
    signal_kind signal;
    std::uint64_t events_a, events_b;
    std::ptrdiff_t batch_index;  // -1: not estimated (no changes on one side)
  };
  std::vector<row_info> rows_;
  struct active_pair {
    std::string_view a, b, label;
  };
  std::vector<active_pair> window_pairs_;
  std::vector<std::string> labels_;  // of options_.symbols
  std::vector<std::string_view> names_;
};

extern template class window_analyzer<float>;
extern template class window_analyzer<double>;

}  // namespace tde
