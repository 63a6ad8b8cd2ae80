// Maps float and double onto FFTW's fftwf_* and fftw_* entry points, so the wrappers are written once.
//
// Only the calls the wrappers use. Planner calls (plan_*, destroy, wisdom) are not thread-safe in FFTW; the
// wrappers serialise them with planner_mutex(). Execute calls are thread-safe.
#pragma once

#include <complex>
#include <cstddef>
#include <mutex>

#include <fftw3.h>

namespace itch5::tde::detail {

/// The process-wide lock held around every FFTW planner call (plan creation and destruction, wisdom).
std::mutex& planner_mutex() noexcept;

template <class T>
struct fftw_api;

template <>
struct fftw_api<double> {
  using plan_type = ::fftw_plan;
  static ::fftw_complex* cast(std::complex<double>* p) noexcept {
    return reinterpret_cast<::fftw_complex*>(p);
  }
  static plan_type plan_r2c(int n, double* in, std::complex<double>* out, unsigned flags) {
    return ::fftw_plan_dft_r2c_1d(n, in, cast(out), flags);
  }
  static plan_type plan_c2r(int n, std::complex<double>* in, double* out, unsigned flags) {
    return ::fftw_plan_dft_c2r_1d(n, cast(in), out, flags);
  }
  static void execute_r2c(plan_type p, double* in, std::complex<double>* out) noexcept {
    ::fftw_execute_dft_r2c(p, in, cast(out));
  }
  static void execute_c2r(plan_type p, std::complex<double>* in, double* out) noexcept {
    ::fftw_execute_dft_c2r(p, cast(in), out);
  }
  static void destroy(plan_type p) noexcept { ::fftw_destroy_plan(p); }
  static void* malloc(std::size_t bytes) noexcept { return ::fftw_malloc(bytes); }
  static void free(void* p) noexcept { ::fftw_free(p); }
  static int alignment_of(double* p) noexcept { return ::fftw_alignment_of(p); }
  static char* export_wisdom() noexcept { return ::fftw_export_wisdom_to_string(); }
  static int import_wisdom(const char* text) noexcept { return ::fftw_import_wisdom_from_string(text); }
  static void forget_wisdom() noexcept { ::fftw_forget_wisdom(); }
  static constexpr const char* name = "double";
};

template <>
struct fftw_api<float> {
  using plan_type = ::fftwf_plan;
  static ::fftwf_complex* cast(std::complex<float>* p) noexcept {
    return reinterpret_cast<::fftwf_complex*>(p);
  }
  static plan_type plan_r2c(int n, float* in, std::complex<float>* out, unsigned flags) {
    return ::fftwf_plan_dft_r2c_1d(n, in, cast(out), flags);
  }
  static plan_type plan_c2r(int n, std::complex<float>* in, float* out, unsigned flags) {
    return ::fftwf_plan_dft_c2r_1d(n, cast(in), out, flags);
  }
  static void execute_r2c(plan_type p, float* in, std::complex<float>* out) noexcept {
    ::fftwf_execute_dft_r2c(p, in, cast(out));
  }
  static void execute_c2r(plan_type p, std::complex<float>* in, float* out) noexcept {
    ::fftwf_execute_dft_c2r(p, cast(in), out);
  }
  static void destroy(plan_type p) noexcept { ::fftwf_destroy_plan(p); }
  static void* malloc(std::size_t bytes) noexcept { return ::fftwf_malloc(bytes); }
  static void free(void* p) noexcept { ::fftwf_free(p); }
  static int alignment_of(float* p) noexcept { return ::fftwf_alignment_of(p); }
  static char* export_wisdom() noexcept { return ::fftwf_export_wisdom_to_string(); }
  static int import_wisdom(const char* text) noexcept { return ::fftwf_import_wisdom_from_string(text); }
  static void forget_wisdom() noexcept { ::fftwf_forget_wisdom(); }
  static constexpr const char* name = "float";
};

/// The real type underneath an fft_element: float for std::complex<float>.
template <class E>
struct real_of {
  using type = E;
};
template <class T>
struct real_of<std::complex<T>> {
  using type = T;
};

}  // namespace itch5::tde::detail
