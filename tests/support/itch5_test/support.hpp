// Helpers shared by the itch5 and tools test suites: a big-endian byte builder written independently of
// the library's encode(), the message sizes typed from the spec, an in-memory byte_stream over an
// exactly-sized heap buffer, a reference framer, temporary directories, file I/O, gzip and child processes.
//
// Everything here is test code: expected values must come from the spec or from these independent
// helpers, never from the library under test.
#pragma once

#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/message_reader.hpp>

namespace itch5_test {

using bytes = std::vector<std::byte>;

// ---------------------------------------------------------------------------------------------------------
// The message table of /work/shared/spec/itch50-messages.md, typed in by hand: type byte, total length
// (type byte included) and the number of fields after the 11-byte header.
struct spec_entry {
  char type;
  std::size_t length;
  std::size_t fields;
};

inline constexpr std::array<spec_entry, 23> spec_table{{
    {'S', 12, 1}, {'R', 39, 14}, {'H', 25, 4}, {'Y', 20, 2}, {'L', 26, 5}, {'V', 35, 3},
    {'W', 12, 1}, {'K', 28, 4},  {'J', 35, 5}, {'h', 21, 3}, {'A', 36, 5}, {'F', 40, 6},
    {'E', 31, 3}, {'C', 36, 5},  {'X', 23, 2}, {'D', 19, 1}, {'U', 35, 4}, {'P', 44, 6},
    {'Q', 40, 5}, {'B', 19, 1},  {'I', 50, 9}, {'N', 20, 2}, {'O', 48, 8},
}};

/// The spec length of `type`, 0 when the spec does not define it.
constexpr std::size_t spec_length(char type) {
  for (const auto& e : spec_table) {
    if (e.type == type) return e.length;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------------------
/// Appends big-endian integers and space-padded alpha fields, byte by byte (no memcpy, no library code).
class builder {
 public:
  builder& u8(std::uint8_t v) {
    b_.push_back(static_cast<std::byte>(v));
    return *this;
  }
  builder& ch(char c) { return u8(static_cast<std::uint8_t>(c)); }
  builder& be(std::uint64_t v, int width) {
    for (int i = width - 1; i >= 0; --i) u8(static_cast<std::uint8_t>((v >> (8 * i)) & 0xff));
    return *this;
  }
  builder& u16(std::uint16_t v) { return be(v, 2); }
  builder& u32(std::uint32_t v) { return be(v, 4); }
  builder& u48(std::uint64_t v) { return be(v, 6); }
  builder& u64(std::uint64_t v) { return be(v, 8); }
  /// `s` left-justified in `width` bytes, padded with spaces.
  builder& alpha(std::string_view s, std::size_t width) {
    if (s.size() > width) throw std::logic_error("alpha field wider than its width");
    for (char c : s) ch(c);
    for (std::size_t i = s.size(); i < width; ++i) ch(' ');
    return *this;
  }
  /// The 11-byte message header.
  builder& header(char type, std::uint16_t locate, std::uint16_t tracking, std::uint64_t ts48) {
    return ch(type).u16(locate).u16(tracking).u48(ts48);
  }
  builder& append(const bytes& more) {
    b_.insert(b_.end(), more.begin(), more.end());
    return *this;
  }
  /// A BinaryFILE frame: `length` as the prefix, then `body` (which may be shorter or longer on purpose).
  builder& frame(const bytes& body, std::size_t length) {
    u16(static_cast<std::uint16_t>(length));
    return append(body);
  }
  builder& frame(const bytes& body) { return frame(body, body.size()); }

  [[nodiscard]] const bytes& get() const noexcept { return b_; }
  [[nodiscard]] std::size_t size() const noexcept { return b_.size(); }

 private:
  bytes b_;
};

inline bytes to_bytes(std::string_view s) {
  bytes b(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) b[i] = static_cast<std::byte>(s[i]);
  return b;
}

/// A System Event message ('S', 12 bytes) with the given event code and timestamp.
inline bytes system_event_bytes(char code, std::uint64_t ts = 0x0000'0102'0304) {
  return builder().header('S', 0, 0, ts).ch(code).get();
}

/// An Add Order message ('A', 36 bytes).
inline bytes add_order_bytes(std::uint64_t ref, char side, std::uint32_t shares, std::string_view stock,
                             std::uint32_t price, std::uint16_t locate = 7) {
  return builder()
      .header('A', locate, 1, 34'200'000'000'000)
      .u64(ref)
      .ch(side)
      .u32(shares)
      .alpha(stock, 8)
      .u32(price)
      .get();
}

/// An Order Delete message ('D', 19 bytes).
inline bytes order_delete_bytes(std::uint64_t ref, std::uint16_t locate = 7) {
  return builder().header('D', locate, 2, 34'200'000'000'001).u64(ref).get();
}

// ---------------------------------------------------------------------------------------------------------
/// A byte_stream over a copy of some bytes held in an exactly-sized heap buffer (so ASan reports any read
/// past the end), returning at most `max_chunk` bytes per read() to exercise short reads.
class memory_stream final : public itch5::io::byte_stream {
 public:
  explicit memory_stream(const bytes& data, std::size_t max_chunk = SIZE_MAX)
      : data_(new std::byte[data.size()]), size_(data.size()), max_chunk_(max_chunk) {
    if (size_ > 0) std::memcpy(data_.get(), data.data(), size_);
  }
  std::size_t read(std::byte* dst, std::size_t n) override {
    std::size_t k = std::min({n, size_ - pos_, max_chunk_});
    if (k > 0) std::memcpy(dst, data_.get() + pos_, k);
    pos_ += k;
    return k;
  }
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return pos_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return size_; }

 private:
  std::unique_ptr<std::byte[]> data_;
  std::size_t size_;
  std::size_t pos_ = 0;
  std::size_t max_chunk_;
};

/// One way of cutting the input into blocks.
struct source_config {
  std::size_t block_size;
  bool threaded;
  std::size_t max_chunk = SIZE_MAX;  // bytes per byte_stream::read()

  friend std::ostream& operator<<(std::ostream& os, const source_config& c) {
    os << (c.threaded ? "threaded" : "sync") << " source, " << c.block_size << "-byte blocks";
    if (c.max_chunk != SIZE_MAX) os << ", reads of at most " << c.max_chunk << " bytes";
    return os;
  }
};

/// Tiny blocks put the carry at every position of a frame; 1 MiB is the default.
inline const std::vector<source_config>& all_source_configs() {
  static const std::vector<source_config> configs{
      {1, false}, {2, false}, {3, false}, {7, false}, {64, false, 5}, {std::size_t{1} << 20, false},
      {1, true},  {2, true},  {3, true},  {7, true},  {64, true, 5},  {std::size_t{1} << 20, true},
  };
  return configs;
}

inline std::unique_ptr<itch5::io::block_source> memory_source(const bytes& data, const source_config& c) {
  itch5::io::block_options o;
  o.block_size = c.block_size;
  o.threaded = c.threaded;
  return itch5::io::make_block_source(std::make_unique<memory_stream>(data, c.max_chunk), o);
}

/// Everything a message_reader produced for one input.
struct read_result {
  std::vector<bytes> messages;  // as returned by next(), in order
  itch5::read_status status = itch5::read_status::message;
  itch5::read_error error;
  std::uint64_t framed = 0;
  std::uint64_t oversized = 0;
  std::uint64_t unknown_total = 0;
  std::array<std::uint64_t, 256> unknown{};
  std::uint64_t offset = 0;         // reader.offset() at the end
  bool data_after_session = false;  // data_after_end_of_session() when the session ended
};

inline read_result read_all(itch5::message_reader& reader) {
  read_result r;
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) r.messages.emplace_back(msg.begin(), msg.end());
  r.status = reader.status();
  r.error = reader.error();
  r.framed = reader.messages();
  r.oversized = reader.oversized();
  r.unknown_total = reader.unknown_total();
  r.unknown = reader.unknown_types();
  r.offset = reader.offset();
  if (r.status == itch5::read_status::end_of_session)
    r.data_after_session = reader.data_after_end_of_session();
  return r;
}

inline read_result read_all(std::unique_ptr<itch5::io::block_source> source) {
  itch5::message_reader reader(std::move(source));
  return read_all(reader);
}

inline read_result read_memory(const bytes& data, const source_config& c = {std::size_t{1} << 20, false}) {
  return read_all(memory_source(data, c));
}

inline read_result read_path(const std::string& path, const source_config& c = {std::size_t{1} << 20, true},
                             itch5::io::inflate_library inflater = itch5::io::default_inflate_library()) {
  itch5::io::block_options o;
  o.block_size = c.block_size;
  o.threaded = c.threaded;
  return read_all(itch5::io::make_block_source(itch5::io::open_input(path, inflater), o));
}

/// A reference framer for well-formed input: every frame's body up to a zero length or the end.
inline std::vector<bytes> reference_frames(const bytes& data) {
  std::vector<bytes> out;
  std::size_t at = 0;
  while (at + 2 <= data.size()) {
    std::size_t len =
        (std::to_integer<std::size_t>(data[at]) << 8) | std::to_integer<std::size_t>(data[at + 1]);
    if (len == 0 || at + 2 + len > data.size()) break;
    out.emplace_back(data.begin() + static_cast<std::ptrdiff_t>(at + 2),
                     data.begin() + static_cast<std::ptrdiff_t>(at + 2 + len));
    at += 2 + len;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
inline std::string data_path(std::string_view name) {
  return std::string(ITCH5_DATA_DIR) + "/" + std::string(name);
}

inline bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return to_bytes(s);
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {(std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()};
}

inline void write_file(const std::string& path, const bytes& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

/// A fresh directory under the system's temporary directory, removed with its contents at scope exit.
class temp_dir {
 public:
  temp_dir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "itch5-test-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  [[nodiscard]] std::string file(std::string_view name) const { return (path_ / name).string(); }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  std::filesystem::path path_;
};

/// `data` as one gzip member (zlib deflate with a gzip wrapper).
inline bytes gzip(const bytes& data, int level = 6) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  bytes out(deflateBound(&zs, static_cast<uLong>(data.size())) + 64);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw std::runtime_error("deflate failed");
  out.resize(zs.total_out);
  return out;
}

/// The bytes zlib itself can inflate from a (possibly truncated) gzip member: an oracle for what a
/// streaming reader can deliver before the input runs out.
inline bytes inflate_prefix(const bytes& gz) {
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("inflateInit2 failed");
  bytes out;
  std::array<unsigned char, 1 << 16> buf{};
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  for (;;) {
    zs.next_out = buf.data();
    zs.avail_out = static_cast<uInt>(buf.size());
    int rc = inflate(&zs, Z_NO_FLUSH);
    std::size_t got = buf.size() - zs.avail_out;
    for (std::size_t i = 0; i < got; ++i) out.push_back(static_cast<std::byte>(buf[i]));
    if (rc != Z_OK || got == 0) break;
  }
  inflateEnd(&zs);
  return out;
}

/// Runs `command` with /bin/sh; returns its exit status (or 128 + signal).
inline int run_shell(const std::string& command) {
  int st = std::system(command.c_str());
  if (st == -1) throw std::runtime_error("cannot run: " + command);
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
  return -1;
}

/// `s` quoted for /bin/sh.
inline std::string sh_quote(std::string_view s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

}  // namespace itch5_test
