// The floating-point types the FFTW wrappers and the estimator accept: float (fftwf_*) and double (fftw_*).
//
// Compile-time only; no cost, no state.
#pragma once

#include <complex>
#include <concepts>

namespace itch5::tde {

/// A real type FFTW has a library for in this build: float or double.
template <class T>
concept fft_real = std::same_as<T, float> || std::same_as<T, double>;

/// An element an fft_buffer may hold: a real FFTW type or its std::complex (layout-compatible with
/// fftw_complex / fftwf_complex, as the FFTW manual guarantees).
template <class E>
concept fft_element =
    fft_real<E> || std::same_as<E, std::complex<float>> || std::same_as<E, std::complex<double>>;

}  // namespace itch5::tde
