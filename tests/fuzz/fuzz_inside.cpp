// libFuzzer target: decoder + books + inside detection. The input runs through every book family (the
// array book with a 64-level window, to cross its edges); all must produce identical lines, statistics
// and anomaly counts, whatever the bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include <book/book_types.hpp>
#include <book/inside_runner.hpp>

namespace {

class string_sink final : public book::line_sink {
 public:
  void write(std::string_view lines) override { text.append(lines); }
  std::string text;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  std::string first_lines, first_depth;
  std::uint64_t first_anomalies = 0;
  bool first = true;
  for (const std::string& name : book::book_type_names()) {
    itch5::message_reader reader(itch5::make_block_source(itch5::memory_input(bytes), {4096, false, 3}));
    book::inside_options opt;
    opt.book = name;
    opt.books.window_levels = 64;
    opt.depth = true;
    string_sink sink;
    book::inside_result r = book::run_inside(reader, opt, sink);
    // Every line is complete: 7 fields and a newline.
    if (!sink.text.empty() && sink.text.back() != '\n') __builtin_trap();
    if (first) {
      first_lines = sink.text;
      first_depth = r.depth_csv;
      first_anomalies = r.anomalies.total();
      first = false;
    } else if (sink.text != first_lines || r.depth_csv != first_depth || r.anomalies.total() != first_anomalies) {
      __builtin_trap();  // book families disagree
    }
  }
  return 0;
}
