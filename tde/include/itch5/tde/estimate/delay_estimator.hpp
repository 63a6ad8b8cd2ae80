// delay_estimator<T>: estimates the delay between two equally long, uniformly sampled series by linear
// cross-correlation computed with FFTW, with a confidence for each estimate.
//
// Method, per pair (a, b) of N samples:
//   1. remove each series' mean; zero-pad both to M = next_fast_length(N + max_lag + 1 + ceil(8 sigma)), so
//      the circular correlation FFTW computes equals the linear one at every searched lag (no wrap-around);
//   2. r2c both, multiply conj(A) * B (times |H|^2 of the optional Gaussian smoothing of width sigma samples,
//      applied to both series in the frequency domain), c2r: c[k] = sum_n a[n] b[n + k];
//   3. take the maximum of c over k in [-max_lag, max_lag] (the integer lag), refine it to a sub-sample delay
//      with the Gaussian through the three samples around the peak (a parabola through their logarithms,
//      exact for a Gaussian peak, which smoothing makes of it; a plain parabola when one of the three is not
//      positive), or, with `upsample` U >= 2, by evaluating the band-limited (DFT) interpolation of c on a
//      1/U grid around the peak and fitting the same there. A plain parabola on a narrow peak pulls the
//      delay towards the nearest whole sample (by up to 0.15 sample for impulses binned on the grid);
//   4. confidence: rho = c[peak] / sqrt(sum a^2 * sum b^2) (energies after mean removal and smoothing,
//      computed from the spectra, so the FFT's factor M cancels), the peak-to-sidelobe ratio and the second
//      peak / peak ratio (see delay_estimate), and flags (edge, flat, low_rho, low_psr, ambiguous);
//   5. significance: under the null hypothesis of unrelated series, c[k] has mean ~0 and Bartlett's variance
//      v = sum_j R_a(j) R_b(j) / N (R the autocorrelations, = sum_f |A_f|^2 |B_f|^2 / M by Parseval: O(M)
//      in the loop that forms the cross spectrum); z = c[peak] / sqrt(v). Sparse series (a few impulses)
//      make c heavy-tailed, where a Gaussian tail would call most unrelated pairs significant, so the tail of
//      one lag is Bennett's bound exp(-(v / B^2) h(B c / v)), h(u) = (1 + u) ln(1 + u) - u, with B = I_a *
//      I_b * (peak of the smoothing kernel's autocorrelation), I the largest impulse (max|x - mean|, or the
//      caller's larger value: see series_pair), the largest contribution of one pair of impulses; it is
//      Gaussian for dense series and Poisson-like for sparse ones. The maximum over the 2L + 1
//      searched lags is corrected by the expected number of independent lags, min(2L + 1, 1 + 2L sqrt(l2) z
//      / sqrt(2 pi)) (Rice's formula; l2 the mean square frequency of |A|^2 |B|^2): p_value = min(1, that x
//      the tail). not_significant flags p_value > alpha. The bound is conservative: measured false-positive
//      rates are in docs/tde.md.
// Sign convention: a positive lag/delay means b lags a (b[n] ~ a[n - delay]).
//
// Plan once, execute many: the constructor allocates every buffer and plans both transforms; estimate()
// performs two r2c and one c2r transform plus O(M) work and never allocates. The batch overload runs many
// pairs (symbols x signals) through the same plans and buffers. Complexity O(M log M) per pair, plus
// O((2U+1) M) with upsampling.
//
// Thread-safety: an estimator owns mutable work buffers, so one thread at a time per instance; separate
// instances may run concurrently. Construction plans with FFTW (serialised by a process-wide mutex, see
// fft_plan.hpp); plan on one thread up front and reuse the estimator. Move-only.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <itch5/tde/estimate/delay_estimate.hpp>
#include <itch5/tde/fft/fft_buffer.hpp>
#include <itch5/tde/fft/fft_plan.hpp>
#include <itch5/tde/fft/fft_real.hpp>

namespace itch5::tde {

struct estimator_options {
  /// N: samples per series (>= 2).
  std::size_t length = 0;
  /// Largest |lag| searched, in samples (< length).
  std::size_t max_lag = 0;
  /// Gaussian smoothing of both series, standard deviation in samples (0: none). Smoothing at the scale of
  /// the jitter between two feeds turns misaligned impulses back into overlapping bumps.
  double smooth_sigma = 0;
  /// 0 or 1: Gaussian (log-parabola) interpolation on the integer lags; U >= 2: band-limited interpolation
  /// on a 1/U grid.
  std::size_t upsample = 0;
  plan_rigor rigor = plan_rigor::estimate;
  /// Acceptance thresholds; failing one sets low_rho, low_psr or ambiguous.
  double min_rho = 0.1;
  double min_psr = 6.0;
  double max_second_ratio = 0.9;
  /// Significance level: p_value above it sets not_significant (1: never).
  double alpha = 0.01;
};

template <fft_real T>
struct series_pair {
  std::span<const T> a;
  std::span<const T> b;
  /// The largest |value| of one impulse a (b) was built from, when one impulse can spread over several
  /// samples (bin_changes splits each change between two); 0: the largest |sample|. Bounds one pair's
  /// contribution in the p_value.
  double impulse_a = 0, impulse_b = 0;
};

template <fft_real T>
class delay_estimator {
 public:
  /// Allocates and plans. Throws std::invalid_argument for inconsistent options.
  explicit delay_estimator(const estimator_options& options);

  delay_estimator(delay_estimator&&) noexcept = default;
  delay_estimator& operator=(delay_estimator&&) noexcept = default;
  delay_estimator(const delay_estimator&) = delete;
  delay_estimator& operator=(const delay_estimator&) = delete;
  ~delay_estimator() = default;

  /// Estimates how much `b` lags `a` (both of options().length samples; throws std::invalid_argument
  /// otherwise). `impulse_a`, `impulse_b`: as in series_pair. Never allocates.
  [[nodiscard]] delay_estimate estimate(std::span<const T> a, std::span<const T> b, double impulse_a = 0,
                                        double impulse_b = 0);

  /// Estimates every pair of `batch` into `out` (same size), reusing the plans and buffers.
  void estimate(std::span<const series_pair<T>> batch, std::span<delay_estimate> out);

  [[nodiscard]] const estimator_options& options() const noexcept { return options_; }
  /// M, the padded transform length.
  [[nodiscard]] std::size_t fft_length() const noexcept { return m_; }
  /// The M the constructor would choose for `options`.
  [[nodiscard]] static std::size_t fft_length_for(const estimator_options& options);

  /// The last estimate's normalised correlation (the scale of rho) at integer `lag`, |lag| <= max_lag + 1.
  /// NaN when the last pair was flat.
  [[nodiscard]] double correlation(std::int64_t lag) const;
  /// The band-limited interpolation of that correlation at fractional lag `t` (only with upsample >= 2;
  /// throws std::logic_error otherwise). O(M).
  [[nodiscard]] double interpolated_correlation(double t) const;

 private:
  using complex_type = std::complex<T>;

  /// Energy after mean removal (0 for a constant series) and largest |x - mean| of one loaded series.
  struct loaded {
    double energy = 0, peak = 0;
  };
  [[nodiscard]] loaded load(std::span<const T> in, fft_buffer<T>& out) const;
  [[nodiscard]] double raw(std::int64_t lag) const noexcept {
    return static_cast<double>(
        corr_[static_cast<std::size_t>(lag >= 0 ? lag : static_cast<std::int64_t>(m_) + lag)]);
  }
  [[nodiscard]] double refine_upsampled(std::int64_t peak);

  // The steps of estimate(), in order.
  /// Sums of the correlation over the search range outside the main lobe around the peak.
  struct sidelobe_stats {
    double n = 0, sum = 0, sum2 = 0;
    double max = -std::numeric_limits<double>::infinity();
  };
  /// A pair without a peak: flag flat alone, second_ratio NaN.
  [[nodiscard]] static delay_estimate flat_estimate() noexcept;
  /// From the spectra fa_ and fb_: the (smoothed) cross spectrum over fb_ (copied to kept_ when
  /// upsampling); returns sqrt(S_a S_b), the smoothed energies by Parseval.
  [[nodiscard]] double cross_spectrum() noexcept;
  /// The integer lag of the correlation maximum over [-max_lag, max_lag]; on ties lag 0, else the lowest lag.
  [[nodiscard]] std::int64_t find_peak() const noexcept;
  [[nodiscard]] sidelobe_stats sidelobes(std::int64_t peak) const noexcept;
  /// rho, PSR and second_ratio from the peak value `best` and the sidelobes.
  void set_confidence(delay_estimate& r, double best, const sidelobe_stats& s) const noexcept;
  /// z and p_value from the peak value `best` and the peaks of the centred series (step 5 above).
  void set_significance(delay_estimate& r, double best, double peak_a, double peak_b) const noexcept;
  /// The flags that compare r with the options' thresholds (edge, low_rho, low_psr, ambiguous,
  /// not_significant).
  void set_flags(delay_estimate& r) const noexcept;

  estimator_options options_;
  std::size_t m_ = 0;
  fft_buffer<T> a_, b_, corr_;
  fft_buffer<complex_type> fa_, fb_;       // spectra; fb_ then holds the cross spectrum (destroyed by c2r)
  fft_buffer<std::complex<double>> kept_;  // cross spectrum kept for upsampling
  std::vector<T> weight_;                  // |H(k)|^2 of the smoothing (empty without)
  std::vector<double> grid_;               // the 2U+1 interpolated values around the peak
  r2c_plan<T> forward_;
  c2r_plan<T> inverse_;
  double norm_ = 0;        // sqrt(S_a S_b), the spectral energies times M
  double weight_sum_ = 0;  // sum of |H|^2 over all M bins: M x the peak of the kernel's autocorrelation
  // Of the last cross spectrum, over all M bins: sum |A|^2 |B|^2 and sum k^2 |A|^2 |B|^2 (smoothed).
  double power_product_ = 0, power_product_k2_ = 0;
};

extern template class delay_estimator<float>;
extern template class delay_estimator<double>;

}  // namespace itch5::tde
