// libFuzzer target: itch5::tde::inside_reader over the input bytes (raw, or gzip when they start with its
// magic), reading every change. itch5::tde::inside_format_error (a malformed line) and itch5::io::input_error
// (corrupt gzip) are the documented failures; any other exception, a crash or undefined behaviour is a bug.
// Every change returned must be what the format allows (itch5/inside_line.hpp): timestamps non-negative and
// non-decreasing, a symbol of 1 to 8 characters without blanks, prices and quantities non-negative; and the
// reader's counts must add up.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <span>
#include <typeinfo>
#include <utility>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/input_error.hpp>
#include <itch5/tde/windows/inside_reader.hpp>

namespace {

bool valid_symbol(std::string_view s) {
  if (s.empty() || s.size() > 8) return false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n') return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  std::unique_ptr<itch5::io::byte_stream> input;
  try {
    input = itch5::io::memory_input(bytes);
  } catch (const itch5::io::input_error&) {  // a capture whose file header is bad: the documented failure
    return 0;
  }
  itch5::tde::inside_reader reader(std::move(input), "fuzz");
  itch5::inside_line c;
  std::uint64_t changes = 0;
  std::int64_t last = 0;
  try {
    while (reader.next(c)) {
      ++changes;
      if (c.timestamp < last || !valid_symbol(c.symbol) || c.bid_price < 0 || c.bid_qty < 0 ||
          c.offer_price < 0 || c.offer_qty < 0) {
        __builtin_trap();
      }
      last = c.timestamp;
      if (reader.changes() != changes || reader.line_number() < changes) __builtin_trap();
    }
  } catch (const itch5::tde::inside_format_error& e) {
    if (e.line() != reader.line_number() || e.line() == 0) __builtin_trap();
  } catch (const itch5::io::input_error&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_inside_reader: %s: %s\n", typeid(e).name(), e.what());
    std::abort();
  }
  if (reader.changes() != changes) __builtin_trap();
  return 0;
}
