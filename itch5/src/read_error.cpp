#include <itch5/read_error.hpp>

namespace itch5 {

std::string_view to_string(read_errc e) noexcept {
  switch (e) {
    case read_errc::none: return "no error";
    case read_errc::empty_input: return "empty input";
    case read_errc::not_itch: return "not ITCH 5.0 BinaryFILE data";
    case read_errc::truncated_length_prefix: return "truncated length prefix";
    case read_errc::truncated_message: return "truncated message";
    case read_errc::message_too_short: return "corrupt message (shorter than its type's fixed size)";
    case read_errc::input_failure: return "cannot read input";
    case read_errc::zero_length_before_end: return "zero length prefix before the end of the input";
    case read_errc::empty_capture: return "no MoldUDP64 message";
    case read_errc::corrupt_capture: return "corrupt capture";
  }
  return "unknown error";
}

std::string read_error::describe(std::string_view input_name) const {
  std::string s(input_name);
  if (code == read_errc::empty_capture) return s + ": " + detail;
  if (code == read_errc::corrupt_capture) {
    s += ": corrupt capture: ";
    s += detail;
    s += " (after " + std::to_string(message_number - 1) + " messages)";
    return s;
  }
  s += ": byte offset ";
  s += std::to_string(offset);
  s += " (message #";
  s += std::to_string(message_number);
  s += "): ";
  s += to_string(code);
  if (!detail.empty()) {
    s += ": ";
    s += detail;
  }
  return s;
}

}  // namespace itch5
