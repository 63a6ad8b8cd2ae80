#include <itch5/tde/fft/fast_length.hpp>

#include <limits>
#include <stdexcept>

namespace itch5::tde {

bool is_fast_length(std::size_t n) noexcept {
  if (n == 0) return false;
  for (std::size_t p : {2, 3, 5, 7}) {
    while (n % p == 0) n /= p;
  }
  return n == 1;
}

std::size_t next_fast_length(std::size_t n) {
  if (n <= 1) return 1;
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  std::size_t best = max;
  // Enumerate 7^d 5^c 3^b, then the smallest power of two bringing the product to >= n.
  for (std::size_t p7 = 1;; p7 *= 7) {
    for (std::size_t p5 = p7;; p5 *= 5) {
      for (std::size_t p3 = p5;; p3 *= 3) {
        std::size_t v = p3;
        while (v < n && v <= max / 2) v *= 2;
        if (v >= n && v < best) best = v;
        if (p3 >= n || p3 > max / 3) break;
      }
      if (p5 >= n || p5 > max / 5) break;
    }
    if (p7 >= n || p7 > max / 7) break;
  }
  if (best == max && !is_fast_length(best)) {
    throw std::overflow_error("next_fast_length: no fast length >= n");
  }
  return best;
}

}  // namespace itch5::tde
