// fft_plan<T, direction>: an owned FFTW plan for a 1-D real-to-complex (r2c) or complex-to-real (c2r)
// transform of length n, in float or double.
//
// Plan once, execute many: execute() uses FFTW's new-array interface (fftw_execute_dft_r2c / _c2r), so one
// plan transforms any pair of arrays of the planned size and alignment. Buffers from fft_buffer all share
// fftw_malloc's alignment; execute() checks sizes and alignment and throws std::invalid_argument on misuse.
// Transforms are unnormalised (FFTW's convention): c2r(r2c(x)) == n * x. A c2r execution overwrites its
// complex input (FFTW_DESTROY_INPUT, the fast default); r2c leaves its input alone.
//
// Complexity: planning costs from microseconds (estimate) to seconds (patient) per size, and measuring
// rigors overwrite the arrays given to the planner; execution is O(n log n) for lengths of the form
// 2^a 3^b 5^c 7^d (see fast_length.hpp).
//
// Thread-safety: FFTW's planner is not thread-safe. Creating and destroying plans takes a process-wide
// mutex, so it is safe from any thread, but the intended use is to plan up front on one thread and keep
// the plans. execute() is const and thread-safe (concurrent executions on different arrays are fine).
// Move-only: moving transfers the plan, the source becomes empty.
#pragma once

#include <climits>
#include <complex>
#include <cstddef>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <itch5/tde/fft/detail/fftw_api.hpp>
#include <itch5/tde/fft/fft_real.hpp>

namespace itch5::tde {

enum class fft_direction { r2c, c2r };

/// How hard FFTW's planner searches for the fastest algorithm (FFTW_ESTIMATE ... FFTW_EXHAUSTIVE).
enum class plan_rigor { estimate, measure, patient, exhaustive };

/// "estimate", "measure", "patient", "exhaustive".
[[nodiscard]] std::string_view to_string(plan_rigor r) noexcept;
/// The inverse of to_string(). Throws std::invalid_argument naming the accepted values.
[[nodiscard]] plan_rigor parse_plan_rigor(std::string_view text);
/// The FFTW planner flags for `r` (plus FFTW_WISDOM_ONLY when `wisdom_only`).
[[nodiscard]] unsigned fftw_flags(plan_rigor r, bool wisdom_only = false) noexcept;

template <fft_real T, fft_direction D>
class fft_plan {
  using api = detail::fftw_api<T>;

 public:
  using real_type = T;
  using complex_type = std::complex<T>;
  /// What execute() reads: real samples for r2c, n/2+1 complex bins for c2r.
  using input_type = std::conditional_t<D == fft_direction::r2c, T, std::complex<T>>;
  /// What execute() writes: n/2+1 complex bins for r2c, n real samples for c2r.
  using output_type = std::conditional_t<D == fft_direction::r2c, std::complex<T>, T>;

  /// An empty plan (execute() throws).
  fft_plan() noexcept = default;

  /// Plans a transform of length `n` from `in` to `out` (distinct arrays: out-of-place). With a measuring
  /// rigor the planner overwrites both arrays. With `wisdom_only`, the plan is made only if wisdom for
  /// this problem is loaded (see fft_wisdom.hpp). Throws std::invalid_argument for bad sizes and
  /// std::runtime_error when FFTW cannot make the plan.
  fft_plan(std::size_t n, std::span<input_type> in, std::span<output_type> out,
           plan_rigor rigor = plan_rigor::estimate, bool wisdom_only = false)
      : n_(n) {
    if (n == 0 || n > static_cast<std::size_t>(INT_MAX)) {
      throw std::invalid_argument("fft_plan: length out of range");
    }
    if (in.size() < input_size() || out.size() < output_size()) {
      throw std::invalid_argument("fft_plan: arrays too small for a transform of length " +
                                  std::to_string(n));
    }
    if (static_cast<const void*>(in.data()) == static_cast<const void*>(out.data())) {
      throw std::invalid_argument("fft_plan: in-place transforms are not supported");
    }
    const auto flags = fftw_flags(rigor, wisdom_only);
    {
      std::lock_guard lock(detail::planner_mutex());
      if constexpr (D == fft_direction::r2c) {
        plan_ = api::plan_r2c(static_cast<int>(n), in.data(), out.data(), flags);
      } else {
        plan_ = api::plan_c2r(static_cast<int>(n), in.data(), out.data(), flags);
      }
    }
    if (plan_ == nullptr) {
      throw std::runtime_error(std::string("fft_plan: FFTW made no plan for a ") + api::name +
                               (D == fft_direction::r2c ? " r2c" : " c2r") + " transform of length " +
                               std::to_string(n) + (wisdom_only ? " (no wisdom for it)" : ""));
    }
    in_alignment_ = alignment_of(in.data());
    out_alignment_ = alignment_of(out.data());
  }

  fft_plan(const fft_plan&) = delete;
  fft_plan& operator=(const fft_plan&) = delete;
  fft_plan(fft_plan&& other) noexcept
      : plan_(std::exchange(other.plan_, nullptr)),
        n_(std::exchange(other.n_, 0)),
        in_alignment_(other.in_alignment_),
        out_alignment_(other.out_alignment_) {}
  fft_plan& operator=(fft_plan&& other) noexcept {
    if (this != &other) {
      reset();
      plan_ = std::exchange(other.plan_, nullptr);
      n_ = std::exchange(other.n_, 0);
      in_alignment_ = other.in_alignment_;
      out_alignment_ = other.out_alignment_;
    }
    return *this;
  }
  ~fft_plan() { reset(); }

  /// r2c: transforms n real samples into n/2+1 complex bins. `in` is not modified.
  void execute(std::span<const T> in, std::span<std::complex<T>> out) const
      requires(D == fft_direction::r2c) {
    T* src =
        const_cast<T*>(in.data());  // FFTW's r2c signature is non-const; out-of-place r2c preserves input
    check(src, in.size(), out.data(), out.size());
    api::execute_r2c(plan_, src, out.data());
  }

  /// c2r: transforms n/2+1 complex bins (Hermitian half-spectrum) into n real samples, unnormalised.
  /// Overwrites `in`.
  void execute(std::span<std::complex<T>> in, std::span<T> out) const requires(D == fft_direction::c2r) {
    check(in.data(), in.size(), out.data(), out.size());
    api::execute_c2r(plan_, in.data(), out.data());
  }

  /// Transform length n (0 for an empty plan).
  [[nodiscard]] std::size_t size() const noexcept { return n_; }
  /// Elements execute() reads: n for r2c, n/2+1 for c2r.
  [[nodiscard]] std::size_t input_size() const noexcept { return D == fft_direction::r2c ? n_ : n_ / 2 + 1; }
  /// Elements execute() writes: n/2+1 for r2c, n for c2r.
  [[nodiscard]] std::size_t output_size() const noexcept { return D == fft_direction::r2c ? n_ / 2 + 1 : n_; }
  explicit operator bool() const noexcept { return plan_ != nullptr; }

 private:
  template <class E>
  static int alignment_of(E* p) noexcept {
    return api::alignment_of(reinterpret_cast<T*>(p));  // FFTW measures alignment on the real type
  }

  template <class I, class O>
  void check(I* in, std::size_t in_size, O* out, std::size_t out_size) const {
    if (plan_ == nullptr) throw std::invalid_argument("fft_plan: execute() on an empty plan");
    if (in_size < input_size() || out_size < output_size()) {
      throw std::invalid_argument("fft_plan: arrays too small for the planned length " + std::to_string(n_));
    }
    if (static_cast<const void*>(in) == static_cast<const void*>(out)) {
      throw std::invalid_argument("fft_plan: planned out-of-place, got the same array twice");
    }
    if (alignment_of(in) != in_alignment_ || alignment_of(out) != out_alignment_) {
      throw std::invalid_argument(
          "fft_plan: array alignment differs from the planned arrays' (use fft_buffer)");
    }
  }

  void reset() noexcept {
    if (plan_ != nullptr) {
      std::lock_guard lock(detail::planner_mutex());
      api::destroy(plan_);
      plan_ = nullptr;
    }
  }

  typename api::plan_type plan_ = nullptr;
  std::size_t n_ = 0;
  int in_alignment_ = 0;
  int out_alignment_ = 0;
};

template <fft_real T>
using r2c_plan = fft_plan<T, fft_direction::r2c>;
template <fft_real T>
using c2r_plan = fft_plan<T, fft_direction::c2r>;

}  // namespace itch5::tde
