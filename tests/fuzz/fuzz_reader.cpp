// libFuzzer target: framing + decoding of arbitrary bytes (raw, gzip when they start with its magic, or a
// pcap/pcapng capture of MoldUDP64 likewise; a capture whose file header is bad throws input_error at once).
// Every message the reader returns is decoded and printed as text; the reader must end with a status and
// never read outside the bytes it was given.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>

#include <itch5/dispatch.hpp>
#include <itch5/io/input_error.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/message_text.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  // Tiny blocks so partial messages are carried across block boundaries at every position.
  const std::size_t block = size % 2 == 0 ? 7 : 4096;
  std::unique_ptr<itch5::io::byte_stream> input;
  try {
    input = itch5::io::memory_input(bytes);
  } catch (const itch5::io::input_error& e) {  // a capture whose file header is bad: the documented failure
    if (std::string_view(e.what()).empty()) __builtin_trap();
    return 0;
  }
  itch5::message_reader reader(itch5::io::make_block_source(std::move(input), {block, false, 3}));
  char text[itch5::max_message_text];
  std::size_t chars = 0;
  auto print = [&](const auto& m) {
    chars += static_cast<std::size_t>(itch5::format_message(text, m) - text);
  };
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) {
    if (msg.size() < itch5::message_size[static_cast<unsigned char>(msg[0])]) __builtin_trap();
    itch5::dispatch_unchecked(msg.data(), print);
  }
  if (reader.status() == itch5::read_status::error && reader.error().describe("fuzz").empty())
    __builtin_trap();
  return chars == static_cast<std::size_t>(-1);
}
