#include <itch5/tde/estimate/delay_estimator.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

#include <itch5/tde/fft/fast_length.hpp>

#include "number_text.hpp"

namespace itch5::tde {

namespace {

using detail::nan;

// Vertex offset of the parabola through (-1, y0), (0, y1), (1, y2), clamped to [-0.5, 0.5]; 0 when the
// three points do not bend downwards.
double parabolic_offset(double y0, double y1, double y2) noexcept {
  double denom = y0 - 2 * y1 + y2;
  if (!(denom < 0)) return 0;
  return std::clamp(0.5 * (y0 - y2) / denom, -0.5, 0.5);
}

// Centre offset of the Gaussian through the three points (the parabola through their logarithms): exact
// for a Gaussian peak, where the parabola is biased towards the middle sample. The parabola when a point is
// not positive.
double peak_offset(double y0, double y1, double y2) noexcept {
  if (y0 > 0 && y1 > 0 && y2 > 0) return parabolic_offset(std::log(y0), std::log(y1), std::log(y2));
  return parabolic_offset(y0, y1, y2);
}

// Bennett's h(u) = (1 + u) ln(1 + u) - u, by its series where that cancels.
double bennett_h(double u) noexcept {
  if (u < 1e-4) return u * u * (0.5 - u / 6);
  return (1 + u) * std::log1p(u) - u;
}

void validate(const estimator_options& o) {
  if (o.length < 2) throw std::invalid_argument("delay_estimator: series length must be at least 2");
  if (o.max_lag >= o.length) {
    throw std::invalid_argument("delay_estimator: max_lag (" + std::to_string(o.max_lag) +
                                " samples) must be below the series length (" + std::to_string(o.length) +
                                ")");
  }
  if (!(o.smooth_sigma >= 0) || !std::isfinite(o.smooth_sigma) || o.smooth_sigma > 1e9) {
    throw std::invalid_argument("delay_estimator: smoothing width must be a finite number >= 0");
  }
  if (o.upsample > 1024) throw std::invalid_argument("delay_estimator: upsample factor above 1024");
  if (!(o.alpha > 0 && o.alpha <= 1)) {
    throw std::invalid_argument("delay_estimator: significance level alpha must be in (0, 1]");
  }
}

}  // namespace

template <fft_real T>
std::size_t delay_estimator<T>::fft_length_for(const estimator_options& o) {
  validate(o);
  // N + max_lag + 1 makes lags up to max_lag + 1 (the parabola's neighbours) free of wrap-around; the
  // Gaussian spreads each series by ~4 sigma on either side, hence 8 sigma more.
  auto margin = static_cast<std::size_t>(std::ceil(8 * o.smooth_sigma));
  return next_fast_length(o.length + o.max_lag + 1 + margin);
}

template <fft_real T>
delay_estimator<T>::delay_estimator(const estimator_options& options)
    : options_(options),
      m_(fft_length_for(options)),
      a_(m_),
      b_(m_),
      corr_(m_),
      fa_(m_ / 2 + 1),
      fb_(m_ / 2 + 1),
      weight_(options.smooth_sigma > 0 ? m_ / 2 + 1 : 0) {
  if (options_.upsample >= 2) {
    kept_ = fft_buffer<std::complex<double>>(m_ / 2 + 1);
    grid_.assign(2 * options_.upsample + 1, 0.0);
  }
  if (options_.smooth_sigma > 0) {
    // Smoothing both series by a Gaussian of sigma samples multiplies the cross spectrum by
    // |H(f)|^2 = exp(-4 pi^2 sigma^2 f^2), f = k / M cycles per sample.
    const double s = 2 * std::numbers::pi * options_.smooth_sigma / static_cast<double>(m_);
    for (std::size_t k = 0; k < weight_.size(); ++k) {
      double x = s * static_cast<double>(k);
      weight_[k] = static_cast<T>(std::exp(-x * x));
    }
  }
  // Over all M bins: the interior half-spectrum bins stand for two each.
  for (std::size_t k = 0; k < m_ / 2 + 1; ++k) {
    const double w = weight_.empty() ? 1.0 : static_cast<double>(weight_[k]);
    weight_sum_ += (k == 0 || (m_ % 2 == 0 && k == m_ / 2) ? 1.0 : 2.0) * w;
  }
  forward_ = r2c_plan<T>(m_, a_.span(), fa_.span(), options_.rigor);
  inverse_ = c2r_plan<T>(m_, fb_.span(), corr_.span(), options_.rigor);
  // Measuring planners scribble on the arrays; the padding of a_ and b_ must be zero from here on
  // (r2c never writes its input, so it stays zero).
  std::fill(a_.begin(), a_.end(), T(0));
  std::fill(b_.begin(), b_.end(), T(0));
}

template <fft_real T>
typename delay_estimator<T>::loaded delay_estimator<T>::load(std::span<const T> in,
                                                             fft_buffer<T>& out) const {
  if (in.size() != options_.length) {
    throw std::invalid_argument("delay_estimator: series of " + std::to_string(in.size()) +
                                " samples, expected " + std::to_string(options_.length));
  }
  double sum = 0, sum2 = 0;
  for (T v : in) {
    const auto x = static_cast<double>(v);
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / static_cast<double>(in.size());
  T* dst = out.data();
  double peak = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const double x = static_cast<double>(in[i]) - mean;
    dst[i] = static_cast<T>(x);
    peak = std::max(peak, std::abs(x));
  }
  // Energy left after removing the mean; a constant series leaves only rounding (relative ~1e-16).
  const double centred2 = sum2 - sum * mean;
  return {centred2 > sum2 * 1e-10 ? centred2 : 0, peak};
}

template <fft_real T>
delay_estimate delay_estimator<T>::estimate(std::span<const T> a, std::span<const T> b, double impulse_a,
                                            double impulse_b) {
  const loaded la = load(a, a_);
  const loaded lb = load(b, b_);
  if (la.energy == 0 || lb.energy == 0) {
    norm_ = 0;
    delay_estimate r = flat_estimate();
    r.psr = 0;
    return r;
  }
  forward_.execute(a_.span(), fa_.span());
  forward_.execute(b_.span(), fb_.span());
  const double norm = cross_spectrum();
  inverse_.execute(fb_.span(), corr_.span());
  norm_ = norm;
  if (!(norm_ > 0)) {
    norm_ = 0;
    return flat_estimate();
  }

  delay_estimate r;
  r.lag = find_peak();
  const double best = raw(r.lag);
  set_confidence(r, best, sidelobes(r.lag));
  set_significance(r, best, std::max(la.peak, impulse_a), std::max(lb.peak, impulse_b));
  if (options_.upsample >= 2) {
    r.delay = refine_upsampled(r.lag);
  } else {
    r.delay = static_cast<double>(r.lag) + peak_offset(raw(r.lag - 1), best, raw(r.lag + 1));
  }
  set_flags(r);
  return r;
}

template <fft_real T>
delay_estimate delay_estimator<T>::flat_estimate() noexcept {
  delay_estimate r;
  r.flags.set(estimate_flag::flat);  // alone: rho and PSR mean nothing here
  r.second_ratio = nan;
  return r;
}

template <fft_real T>
double delay_estimator<T>::cross_spectrum() noexcept {
  // Cross spectrum conj(A) B |H|^2, written over B, and the (smoothed) energies by Parseval: every bin but 0
  // and the Nyquist bin of an even length stands for a Hermitian pair, so the loop counts every bin twice
  // and the single ones are taken back once (measured before the loop overwrites them).
  const std::size_t bins = m_ / 2 + 1;
  const complex_type* fa = fa_.data();
  complex_type* fb = fb_.data();
  double single_a = 0, single_b = 0, single_ab = 0, single_ab_k2 = 0;
  for (std::size_t k : {std::size_t{0}, m_ % 2 == 0 ? bins - 1 : std::size_t{0}}) {
    const double w = weight_.empty() ? 1.0 : static_cast<double>(weight_[k]);
    const double pa = w * static_cast<double>(std::norm(fa[k])),
                 pb = w * static_cast<double>(std::norm(fb[k]));
    single_a += pa;
    single_b += pb;
    single_ab += pa * pb;
    single_ab_k2 += static_cast<double>(k) * static_cast<double>(k) * pa * pb;
    if (m_ % 2 != 0) break;  // no Nyquist bin
  }
  double sa = 0, sb = 0, sab = 0, sab_k2 = 0;
  auto cross = [&]<bool smooth>(std::bool_constant<smooth>) {
    for (std::size_t k = 0; k < bins; ++k) {
      const T ar = fa[k].real(), ai = fa[k].imag(), br = fb[k].real(), bi = fb[k].imag();
      T pa = ar * ar + ai * ai, pb = br * br + bi * bi, re = ar * br + ai * bi, im = ar * bi - ai * br;
      if constexpr (smooth) {
        const T w = weight_[k];
        pa *= w;
        pb *= w;
        re *= w;
        im *= w;
      }
      const double pab = static_cast<double>(pa) * static_cast<double>(pb);
      const auto kk = static_cast<double>(k);
      sa += static_cast<double>(pa);
      sb += static_cast<double>(pb);
      sab += pab;
      sab_k2 += kk * kk * pab;
      fb[k] = complex_type(re, im);
    }
  };
  if (weight_.empty()) {
    cross(std::false_type{});
  } else {
    cross(std::true_type{});
  }
  sa = 2 * sa - single_a;
  sb = 2 * sb - single_b;
  power_product_ = 2 * sab - single_ab;
  power_product_k2_ = 2 * sab_k2 - single_ab_k2;
  if (!kept_.empty()) {
    for (std::size_t k = 0; k < bins; ++k) kept_[k] = std::complex<double>(fb[k]);
  }
  return std::sqrt(sa * sb);
}

template <fft_real T>
std::int64_t delay_estimator<T>::find_peak() const noexcept {
  // Peak over [-max_lag, max_lag]: lags 0..L sit at the start of corr_, lags -L..-1 at its end.
  const T* c = corr_.data();
  const std::size_t l = options_.max_lag;
  std::int64_t peak = 0;
  T best_value = c[0];
  for (std::size_t k = m_ - l; k < m_; ++k) {
    if (c[k] > best_value) {
      best_value = c[k];
      peak = static_cast<std::int64_t>(k) - static_cast<std::int64_t>(m_);
    }
  }
  for (std::size_t k = 1; k <= l; ++k) {
    if (c[k] > best_value) {
      best_value = c[k];
      peak = static_cast<std::int64_t>(k);
    }
  }
  return peak;
}

template <fft_real T>
typename delay_estimator<T>::sidelobe_stats delay_estimator<T>::sidelobes(std::int64_t peak) const noexcept {
  // Main lobe: the monotonically falling region on either side of the peak; the rest of the search range
  // is the sidelobe region.
  const std::int64_t lmax = static_cast<std::int64_t>(options_.max_lag);
  const T* c = corr_.data();
  std::int64_t lo = peak, hi = peak;
  while (lo > -lmax && raw(lo - 1) < raw(lo)) --lo;
  while (hi < lmax && raw(hi + 1) < raw(hi)) ++hi;
  sidelobe_stats s;
  auto side = [&](std::int64_t from, std::int64_t to) {  // lags [from, to), all of one sign
    if (from >= to) return;
    const std::size_t first =
        static_cast<std::size_t>(from >= 0 ? from : static_cast<std::int64_t>(m_) + from);
    const auto count = static_cast<std::size_t>(to - from);
    T top = c[first];
    double s1 = 0, s2 = 0;
    for (std::size_t k = first; k < first + count; ++k) {
      const auto v = static_cast<double>(c[k]);
      s1 += v;
      s2 += v * v;
      top = std::max(top, c[k]);
    }
    s.n += static_cast<double>(count);
    s.sum += s1;
    s.sum2 += s2;
    s.max = std::max(s.max, static_cast<double>(top));
  };
  // Split each side at lag 0, where the storage wraps.
  side(-lmax, std::min<std::int64_t>(lo, 0));
  side(std::max<std::int64_t>(-lmax, 0), lo);
  side(hi + 1, std::min<std::int64_t>(lmax + 1, 0));
  side(std::max<std::int64_t>(hi + 1, 0), lmax + 1);
  return s;
}

template <fft_real T>
void delay_estimator<T>::set_confidence(delay_estimate& r, double best,
                                        const sidelobe_stats& s) const noexcept {
  // The same statistics on the raw correlation: the ratios do not depend on the scale.
  r.rho = best / norm_;
  if (s.n >= 2) {
    const double mean = s.sum / s.n;
    const double var = std::max(0.0, s.sum2 / s.n - mean * mean);
    r.psr = var > 0 ? (best - mean) / std::sqrt(var) : std::numeric_limits<double>::infinity();
  } else {
    r.psr = std::numeric_limits<double>::infinity();
  }
  if (s.n == 0) {
    r.second_ratio = 0;
  } else {
    r.second_ratio = best > 0 ? s.max / best : 1.0;
  }
}

template <fft_real T>
void delay_estimator<T>::set_significance(delay_estimate& r, double best, double peak_a,
                                          double peak_b) const noexcept {
  // In the units of corr_ (M x the correlation): Var c[k] = M sum_f |A|^2 |B|^2 / N under the null.
  const double m = static_cast<double>(m_);
  const double v = m * power_product_ / static_cast<double>(options_.length);
  if (!(v > 0) || !(best > 0)) {
    r.z = v > 0 ? best / std::sqrt(v) : 0;
    r.p_value = 1;
    return;
  }
  r.z = best / std::sqrt(v);
  // The largest contribution of one pair of samples: peak_a peak_b times the kernel's autocorrelation at
  // 0, which is weight_sum_ / M; times M for the units of corr_.
  const double b = peak_a * peak_b * weight_sum_;
  const double log_tail = b > 0 ? -(v / (b * b)) * bennett_h(b * best / v) : -0.5 * r.z * r.z;
  const double lags = 2 * static_cast<double>(options_.max_lag) + 1;
  const double rms_frequency = 2 * std::numbers::pi / m * std::sqrt(power_product_k2_ / power_product_);
  const double independent =
      std::min(lags, 1 + (lags - 1) * rms_frequency * std::max(r.z, 1.0) / std::sqrt(2 * std::numbers::pi));
  r.p_value = std::min(1.0, independent * std::exp(log_tail));
}

template <fft_real T>
void delay_estimator<T>::set_flags(delay_estimate& r) const noexcept {
  const std::int64_t lmax = static_cast<std::int64_t>(options_.max_lag);
  if (r.lag == -lmax || r.lag == lmax) r.flags.set(estimate_flag::edge);
  if (!(r.rho >= options_.min_rho)) r.flags.set(estimate_flag::low_rho);
  if (!(r.psr >= options_.min_psr)) r.flags.set(estimate_flag::low_psr);
  if (r.second_ratio > options_.max_second_ratio) r.flags.set(estimate_flag::ambiguous);
  if (r.p_value > options_.alpha) r.flags.set(estimate_flag::not_significant);
}

template <fft_real T>
void delay_estimator<T>::estimate(std::span<const series_pair<T>> batch, std::span<delay_estimate> out) {
  if (out.size() != batch.size()) {
    throw std::invalid_argument("delay_estimator: batch and output sizes differ");
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    out[i] = estimate(batch[i].a, batch[i].b, batch[i].impulse_a, batch[i].impulse_b);
  }
}

template <fft_real T>
double delay_estimator<T>::correlation(std::int64_t lag) const {
  const auto limit = static_cast<std::int64_t>(options_.max_lag) + 1;
  if (lag < -limit || lag > limit) throw std::out_of_range("delay_estimator::correlation: lag out of range");
  if (norm_ == 0) return nan;
  return raw(lag) / norm_;
}

template <fft_real T>
double delay_estimator<T>::interpolated_correlation(double t) const {
  if (kept_.empty()) throw std::logic_error("delay_estimator: interpolation needs upsample >= 2");
  if (norm_ == 0) return nan;
  // c(t) = sum over all M bins of X_k e^{2 pi i k t / M}, folded onto the half spectrum: X_0 + 2 Re(...) for
  // the interior bins + Re(X_{M/2} e^{i pi t}) for an even M. The rotation is renewed every 64 bins to keep
  // the recurrence's rounding error small.
  const std::size_t bins = m_ / 2 + 1;
  const std::size_t last_single = (m_ % 2 == 0) ? bins - 1 : 0;
  const double theta = 2 * std::numbers::pi * t / static_cast<double>(m_);
  const std::complex<double> step = std::polar(1.0, theta);
  std::complex<double> rot(1, 0);
  double acc = kept_[0].real();
  for (std::size_t k = 1; k < bins; ++k) {
    if ((k & 63) == 0) {
      rot = std::polar(1.0, theta * static_cast<double>(k));
    } else {
      rot *= step;
    }
    const double re = kept_[k].real() * rot.real() - kept_[k].imag() * rot.imag();
    acc += (k == last_single ? 1.0 : 2.0) * re;
  }
  return acc / norm_;
}

template <fft_real T>
double delay_estimator<T>::refine_upsampled(std::int64_t peak) {
  // Grid maximum over [peak - 1, peak + 1] in steps of 1/U, then the Gaussian through it and its neighbours.
  const auto u = static_cast<std::int64_t>(options_.upsample);
  const double h = 1.0 / static_cast<double>(u);
  const double centre = static_cast<double>(peak);
  for (std::int64_t j = -u; j <= u; ++j) {
    grid_[static_cast<std::size_t>(j + u)] = interpolated_correlation(centre + static_cast<double>(j) * h);
  }
  const auto top = static_cast<std::int64_t>(std::max_element(grid_.begin(), grid_.end()) - grid_.begin());
  if (top == 0 || top == 2 * u) return centre + static_cast<double>(top - u) * h;
  const auto i = static_cast<std::size_t>(top);
  return centre + (static_cast<double>(top - u) + peak_offset(grid_[i - 1], grid_[i], grid_[i + 1])) * h;
}

template class delay_estimator<float>;
template class delay_estimator<double>;

}  // namespace itch5::tde
