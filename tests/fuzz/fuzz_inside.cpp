// libFuzzer target: decoder + books + inside detection. The input runs through every book family (the
// array book with a 64-level window, and a 16-reference order table window, to cross their edges often);
// all must produce identical lines, statistics and anomaly counts, whatever the bytes. The first family
// reads through the decode thread (inside_options::decode_thread) and writes its lines through the line
// thread (inside_options::line_thread), the others read and write on their own thread, so the same check
// also holds both paths to the same bytes. The small order
// window and a 4 KiB output buffer also spare each run the default 12 MiB ring and 256 KiB buffer, whose
// allocation (fresh pages and shadow under ASan) cost more than the work on a typical input.
//
// Gzip input (it starts with the gzip magic) is inflated once here, up to max_inflated bytes and up to the
// first gzip error, and every run reads the inflated bytes: the reader's handling of gzip, and of errors
// after inflated bytes, is fuzz_reader's job; here it would cost each run a 256 KiB inflate buffer.
//
// Stock locates: the engine and the inside runner keep per-locate state in vectors indexed by the locate,
// so one message with locate 65000 makes each run build 65,000 empty books and their line state (tens of
// MB, ~40 ms under ASan against ~0.3 ms for a typical input). Random mutation of a locate field nearly
// always gives such a value: one corpus entry in twenty had one, and those took most of the time. So an
// input that frames a stock directory or add order message with a locate >= large_locate runs only when
// a hash of its bytes picks it (1 in 64, deterministic per input); the others cost only that scan and
// return -1 (libFuzzer 15 and later keep them out of the corpus; 14 ignores the value). Locates up to
// 65535 stay reachable, at a bounded cost.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <itch5/book/book_types.hpp>
#include <itch5/inside/run_inside.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/detail/endian.hpp>
#include <itch5/io/input_error.hpp>

namespace {

class string_sink final : public itch5::inside::line_sink {
 public:
  void write(std::string_view lines) override { text.append(lines); }
  std::string text;
};

constexpr std::uint16_t large_locate = 1024;  // above the locates of the shipped samples (at most 993)
constexpr std::uint64_t large_locate_sampling = 64;
constexpr std::size_t max_inflated = std::size_t{16} << 20;  // the shipped samples inflate to less

bool is_gzip(std::span<const std::byte> bytes) {
  return bytes.size() >= 2 && bytes[0] == std::byte{0x1f} && bytes[1] == std::byte{0x8b};
}

// The inflated bytes of gzip input, up to max_inflated and up to the first error.
std::vector<std::byte> inflate(std::span<const std::byte> bytes) {
  std::vector<std::byte> out;
  std::unique_ptr<itch5::io::byte_stream> in;
  try {
    in = itch5::io::memory_input(bytes);  // throws for a capture whose file header is bad
    while (out.size() < max_inflated) {
      const std::size_t at = out.size();
      out.resize(std::min(max_inflated, std::max<std::size_t>(2 * at, 4096)));
      const std::size_t got = in->read(out.data() + at, out.size() - at);
      out.resize(at + got);
      if (got == 0) break;
    }
  } catch (const itch5::io::input_error&) {
  }
  return out;
}

// The largest locate of a stock directory or add order message among the frames of `bytes`, walked as the
// reader frames them (without its checks, which only end the walk earlier: an over-estimate at worst).
std::uint16_t largest_book_locate(std::span<const std::byte> bytes) {
  std::uint16_t largest = 0;
  for (std::size_t at = 0; bytes.size() - at >= 2;) {
    const std::size_t len = itch5::detail::load_be16(bytes.data() + at);
    if (len == 0 || bytes.size() - at - 2 < len) break;
    const std::byte* msg = bytes.data() + at + 2;
    const auto type = static_cast<char>(msg[0]);
    if ((type == 'R' || type == 'A' || type == 'F') && len >= 3) {
      largest = std::max(largest, itch5::detail::load_be16(msg + 1));
    }
    at += 2 + len;
  }
  return largest;
}

// FNV-1a: a stable hash (the same in the fuzz build and the regression test).
std::uint64_t fnv1a(std::span<const std::byte> bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::byte b : bytes) h = (h ^ static_cast<std::uint64_t>(b)) * 0x100000001b3ull;
  return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  std::vector<std::byte> inflated;
  if (is_gzip(bytes)) {
    inflated = inflate(bytes);
    // Inflated bytes that start with the magic again would be inflated again by memory_input(); read as
    // ITCH (as the gzip stream itself would be), they are a first message of 8,075 bytes: rejected, no
    // lines. Nothing to compare.
    if (is_gzip(inflated)) return 0;
    bytes = inflated;
  }
  if (largest_book_locate(bytes) >= large_locate && fnv1a(bytes) % large_locate_sampling != 0) return -1;
  std::string first_lines, first_depth;
  std::uint64_t first_anomalies = 0;
  bool first = true;
  for (const std::string& name : itch5::book::book_type_names()) {
    std::unique_ptr<itch5::io::byte_stream> input;
    try {
      input = itch5::io::memory_input(bytes);
    } catch (const itch5::io::input_error&) {  // a capture whose file header is bad: the documented failure
      return 0;
    }
    itch5::message_reader reader(itch5::io::make_block_source(std::move(input), {4096, false, 3}));
    itch5::inside::inside_options opt;
    opt.book = name;
    opt.books.window_levels = 64;
    opt.books.order_window_bits = 4;
    opt.books.output_buffer_bytes = 4096;
    opt.depth = true;
    opt.line_thread = first;
    opt.decode_thread = first;
    string_sink sink;
    itch5::inside::inside_result r = itch5::inside::run_inside(reader, opt, sink);
    // Every line is complete: 7 fields and a newline.
    if (!sink.text.empty() && sink.text.back() != '\n') __builtin_trap();
    if (first) {
      first_lines = std::move(sink.text);
      first_depth = std::move(r.depth_csv);
      first_anomalies = r.anomalies.total();
      first = false;
    } else if (sink.text != first_lines || r.depth_csv != first_depth ||
               r.anomalies.total() != first_anomalies) {
      __builtin_trap();  // book families disagree
    }
  }
  return 0;
}
