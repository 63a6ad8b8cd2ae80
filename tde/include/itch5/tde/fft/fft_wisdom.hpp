// FFTW wisdom (the planner's measurements) saved to and loaded from a file, so a run with a measuring plan
// rigor pays the planning cost once and later runs plan instantly.
//
// float and double keep separate wisdom (FFTW's fftwf_ and fftw_ libraries); a file holds one of them.
// Wisdom is process-global state in FFTW; these functions take the planner mutex (see fft_plan.hpp), so
// they may be called from any thread, normally once at start-up and once at the end. Cost: proportional
// to the amount of wisdom (a few KB).
#pragma once

#include <string>

#include <itch5/tde/fft/fft_real.hpp>

namespace itch5::tde {

/// Loads wisdom from `path`, adding to what is loaded. Returns false when the file does not exist (the first
/// run). Throws std::runtime_error naming the file when it cannot be read or is not FFTW wisdom for T.
template <fft_real T>
bool import_wisdom(const std::string& path);

/// Writes all accumulated wisdom for T to `path` atomically (temporary file renamed into place). Throws
/// std::runtime_error naming the file on error.
template <fft_real T>
void export_wisdom(const std::string& path);

/// The accumulated wisdom as text, and its inverse (false when `text` is not wisdom for T).
template <fft_real T>
[[nodiscard]] std::string export_wisdom_string();
template <fft_real T>
[[nodiscard]] bool import_wisdom_string(const std::string& text);

/// Drops all wisdom for T (plans already made keep working).
template <fft_real T>
void forget_wisdom();

}  // namespace itch5::tde
