// The tde library's private number helpers: the NaN that marks a missing value, and a number as a field of
// the tde CSVs (itch5tde's rows, --summary, --lead-lag). Used by the .cpp files of tde/src only.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace itch5::tde::detail {

/// A missing value (no estimate, no interval, ...).
inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// Appends `v` as `format` (printf, one double) prints it, except: NaN (a missing value) is an empty field,
/// infinities print inf / -inf, and a value that rounds to zero prints without a sign ("-0.0000" reads as a
/// direction).
inline void append_csv_number(std::string& out, double v, const char* format) {
  if (std::isnan(v)) return;
  if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
    return;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  const char* text = buf;
  if (buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1)) ++text;
  out += text;
}

}  // namespace itch5::tde::detail
