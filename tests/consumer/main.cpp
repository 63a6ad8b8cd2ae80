// A consumer of the installed itch5 package: decodes an ITCH file (itch5::itch5 over itch5::io, gzip
// through zlib), keeps its order books (itch5::book) and asks itch5::tde for an FFT length.
//   itch5_consumer FILE.itch[.gz]   prints "messages N inside-changes M", exit status 0 if plausible
#include <cstdint>
#include <cstdio>
#include <span>
#include <type_traits>

#include <itch5/book/book_engine.hpp>
#include <itch5/book/book_types.hpp>
#include <itch5/dispatch.hpp>
#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/tde/fft/fast_length.hpp>

namespace {

struct counter {
  std::uint64_t events = 0;
  std::uint64_t inside_changes = 0;
  void on_book_event(const itch5::book::book_event& e,
                     const itch5::book::order_book<itch5::book::map_book>&) {
    ++events;
    if (e.inside_changed) ++inside_changes;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: itch5_consumer FILE\n");
    return 2;
  }
  itch5::message_reader reader(itch5::io::make_block_source(itch5::io::open_input(argv[1]), {}));
  counter books;
  itch5::book::book_config cfg;
  cfg.order_window_bits = 16;
  itch5::book::book_engine<itch5::book::map_book, counter> engine(cfg, books);
  std::span<const std::byte> msg;
  std::uint64_t messages = 0;
  std::uint64_t skipped = 0;
  while (reader.next(msg) == itch5::read_status::message) {
    ++messages;
    if (itch5::dispatch_unchecked(msg.data(), engine) != itch5::dispatch_result::delivered) ++skipped;
  }
  if (reader.status() == itch5::read_status::error) {
    std::fprintf(stderr, "%s\n", reader.error().describe(argv[1]).c_str());
    return 1;
  }
  std::printf("messages %llu book-events %llu inside-changes %llu\n",
              static_cast<unsigned long long>(messages), static_cast<unsigned long long>(books.events),
              static_cast<unsigned long long>(books.inside_changes));
  const std::size_t fft = itch5::tde::next_fast_length(1000);
  if (messages == 0 || skipped != 0 || books.events == 0 || books.inside_changes == 0 || fft < 1000 ||
      !itch5::tde::is_fast_length(fft)) {
    std::fprintf(stderr, "implausible result (fft length %zu)\n", fft);
    return 1;
  }
  return 0;
}
