// Tuning knobs shared by the book side implementations, the engine and run_inside() (each uses what applies
// to it).
#pragma once

#include <cstdint>

namespace itch5::book {

struct book_config {
  /// array_book_side: price levels kept in the array window around the inside (rounded up to a power of
  /// two, at least 64).
  std::uint32_t window_levels = 256;
  /// book_engine's order_table: log2 of the window of recent order references held in its ring (see
  /// order_table.hpp; clamped to [1, 30]). The default, 2^20 references, is what the tools use; tests and
  /// the fuzz target choose small windows to cross the window's edges often and allocate little.
  std::uint32_t order_window_bits = 20;
  /// run_inside(): bytes of inside lines gathered before each write to the line sink (at least 4096 are
  /// used). Each run allocates this buffer anew; the fuzz target, which runs thousands of short inputs a
  /// second, uses a small one.
  std::uint32_t output_buffer_bytes = std::uint32_t{1} << 18;
};

}  // namespace itch5::book
