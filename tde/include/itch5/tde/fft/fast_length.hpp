// Transform lengths FFTW computes fastest: numbers whose prime factors are all 2, 3, 5 or 7.
//
// next_fast_length() is O(log^4 n) arithmetic, no allocation; thread-safe.
#pragma once

#include <cstddef>

namespace itch5::tde {

/// The smallest n' >= n of the form 2^a 3^b 5^c 7^d (1 for n <= 1). Throws std::overflow_error when
/// there is none in size_t.
[[nodiscard]] std::size_t next_fast_length(std::size_t n);

/// True when n > 0 has no prime factor above 7.
[[nodiscard]] bool is_fast_length(std::size_t n) noexcept;

}  // namespace itch5::tde
