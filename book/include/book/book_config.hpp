// Tuning knobs shared by the book side implementations (each uses what applies to it).
#pragma once

#include <cstdint>

namespace book {

struct book_config {
  /// array_book_side: price levels kept in the array window around the inside (a multiple of 64).
  std::uint32_t window_levels = 256;
};

}  // namespace book
