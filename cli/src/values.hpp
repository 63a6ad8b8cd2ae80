// The values of itch5::cli::options (cli/src/options.cpp): lists, and numbers parsed exactly, never through
// floating point for counts, sizes and durations. Each throws std::invalid_argument with the reason (without
// the option's name, which the caller adds): a malformed text, or one outside [min, max] or the type, stated
// with the range. parse_duration() and format_duration() are declared in <cli/options.hpp>.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace itch5::cli::values {

std::string join(const std::vector<std::string>& v, std::string_view sep);
/// The items of a list the program wrote itself (empty items dropped).
std::vector<std::string> split_list(const std::string& s);
/// A comma-separated list given by the user: items trimmed, an empty item refused; "" is the empty list.
std::vector<std::string> parse_list(const std::string& s);

std::int64_t parse_int(const std::string& v, std::int64_t min, std::int64_t max);
std::uint64_t parse_uint(const std::string& v, std::uint64_t min, std::uint64_t max);
/// 20000, 20k, 1.5M, 2G: decimal suffixes, exact (1.001M = 1001000), a whole number.
std::uint64_t parse_count(const std::string& v, std::uint64_t min, std::uint64_t max);
/// 65536, 64KiB, 1.5MiB: binary suffixes, exact, a whole number of bytes.
std::uint64_t parse_size(const std::string& v, std::uint64_t min, std::uint64_t max);
double parse_real(const std::string& v, double min, double max);

}  // namespace itch5::cli::values
