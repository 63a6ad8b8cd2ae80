// Hostile and inconsistent input for itch5inside: one row per case, each run through the built
// program with its exact expectation. Errors: exit status 1, the error kind, the byte offset and the
// message number, all computed by hand from how the input is built below. Inconsistent but decodable
// input: exit status 0, the anomaly kinds and counts of the summary, and every message read to the end.
// In every case stdout holds exactly the complete lines a correct run gives over the part that can be
// read; with -o FILE a failing run leaves no FILE, only FILE.partial with those lines.
//
// Every row starts from the same valid prefix (frame sizes from the spec: S 12, R 39, A 36, plus 2 bytes
// of length prefix each):
//
//   offset   0  #1 S 'O'                        ts 1000   (14 bytes)
//   offset  14  #2 R locate 1 AAA               ts 1100   (41 bytes)
//   offset  55  #3 A ref 1 B 100 @ 10.0000      ts 2000   (38 bytes)   line: bid 100000x100, no offer
//   offset  93  #4 A ref 2 S 200 @ 10.0200      ts 3000   (38 bytes)   line: offer 100200x200
//   offset 131  (the hostile part starts here, as message #5)
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/frame_writer.hpp>
#include <itch5/messages.hpp>
#include <itch5_test/support.hpp>

#include <itch5/book/book_types.hpp>

#include "../book/message_builders.hpp"

namespace {

namespace fs = std::filesystem;
using itch5_test::bytes;
using namespace testing_messages;

const std::string tool = std::string(ITCH5_TOOLS_DIR) + "/itch5inside";

// ---------------------------------------------------------------------------------------------------------
// Input construction.

bytes to_bytes(const itch5::frame_writer& w) { return {w.bytes().begin(), w.bytes().end()}; }

bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

bytes slice(const bytes& b, std::size_t from, std::size_t to) {
  return {b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(to)};
}

/// The encoded body (type byte first, no length prefix) of one message.
template <itch5::message M>
bytes body(const M& m) {
  itch5::frame_writer w;
  w.write(m);
  return slice(to_bytes(w), 2, 2 + M::size);
}

constexpr std::size_t prefix_size = 131;  // 14 + 41 + 38 + 38, see the header comment

/// Messages #1..#4 of the header comment, continued by `more`.
bytes valid_prefix(const std::function<void(itch5::frame_writer&)>& more = {}) {
  itch5::frame_writer w;
  w.write(system_event(1000, 'O'));
  w.write(directory(1, "AAA", 1100));
  w.write(add(2000, 1, 1, 'B', 100, 100000, "AAA"));
  w.write(add(3000, 1, 2, 'S', 200, 100200, "AAA"));
  if (more) more(w);
  return to_bytes(w);
}

const std::string prefix_lines =
    "2000 1 AAA 100000 100 2000000000 0\n"
    "3000 1 AAA 100000 100 100200 200\n";

/// The prefix plus message #5, A ref 3 B 50 @ 10.0100 at ts 4000: 169 bytes, five messages.
const bytes& five_messages() {
  static const bytes b =
      valid_prefix([](itch5::frame_writer& w) { w.write(add(4000, 1, 3, 'B', 50, 100100, "AAA")); });
  return b;
}
const std::string five_lines = prefix_lines + "4000 1 AAA 100100 50 100200 200\n";

/// One gzip member written by hand with a single stored (uncompressed) deflate block, so that compressed
/// offset 15 + k holds decompressed byte k: a 10-byte header (no name, no extra fields), the block header
/// (BFINAL=1, BTYPE=00, then LEN and its complement, little-endian), the data, CRC-32 and ISIZE.
bytes stored_gzip(const bytes& data) {
  if (data.size() > 0xffff) throw std::logic_error("one stored block holds at most 65535 bytes");
  const auto len = static_cast<std::uint16_t>(data.size());
  const auto nlen = static_cast<std::uint16_t>(~len);
  // ID1 ID2, CM = 8 (deflate), FLG = 0, MTIME = 0 (4 bytes), XFL = 0, OS = 3 (Unix).
  bytes out = {std::byte{0x1f}, std::byte{0x8b}, std::byte{8}, std::byte{0}, std::byte{0},
               std::byte{0},    std::byte{0},    std::byte{0}, std::byte{0}, std::byte{3}};
  out.push_back(std::byte{1});  // BFINAL = 1, BTYPE = 00 (stored), padding to the byte boundary
  auto le = [&out](std::uint32_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
  };
  le(len, 2);
  le(nlen, 2);
  out.insert(out.end(), data.begin(), data.end());
  const uLong crc = crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(data.data()),
                          static_cast<uInt>(data.size()));
  le(static_cast<std::uint32_t>(crc), 4);
  le(static_cast<std::uint32_t>(data.size()), 4);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The table.

struct hostile_case {
  std::string name;
  /// Writes the input into `dir` and returns the path to give the program.
  std::function<std::string(const fs::path& dir)> make_input;
  std::string flags;  ///< given to every run of the row
  /// The error is all of stderr: one line, no summary, no line about kept lines (a failure before the
  /// first message). `error` is then the whole line after "itch5inside: error: <input>: ".
  bool one_line = false;
  /// The input holds an End of Messages system event (S 'C'); the others get a warning when read to the end.
  bool end_of_messages = false;
  int exit_code = 0;
  /// Text stderr must contain after "itch5inside: error: <input>: " (empty: no error expected).
  std::string error;
  /// Text stderr must contain, "{input}" standing for the input's path (empty: no warning expected).
  std::string warning;
  std::string out;  ///< the exact standard output
  /// From the summary: messages framed, unknown types, oversized messages and the anomalies by kind.
  /// A negative `messages` means that no summary is expected (the input could not be opened).
  std::int64_t messages = -1;
  std::uint64_t unknown = 0;
  std::uint64_t oversized = 0;
  std::map<std::string, std::uint64_t> anomalies;

  hostile_case& fails(std::string e) {
    exit_code = 1;
    error = std::move(e);
    return *this;
  }
  hostile_case& ends_day() {
    end_of_messages = true;
    return *this;
  }
  hostile_case& alone() {
    one_line = true;
    return *this;
  }
  hostile_case& with(std::string f) {
    flags = std::move(f);
    return *this;
  }
  hostile_case& warns(std::string w) {
    warning = std::move(w);
    return *this;
  }
  hostile_case& prints(std::string o) {
    out = std::move(o);
    return *this;
  }
  hostile_case& reads(std::int64_t n) {
    messages = n;
    return *this;
  }
  hostile_case& unknown_types(std::uint64_t n) {
    unknown = n;
    return *this;
  }
  hostile_case& oversized_messages(std::uint64_t n) {
    oversized = n;
    return *this;
  }
  hostile_case& counts(const std::string& kind, std::uint64_t n) {
    anomalies[kind] = n;
    return *this;
  }
};

// Test names and failure messages show the row's name, not its bytes.
void PrintTo(const hostile_case& c, std::ostream* os) { *os << c.name; }

hostile_case row(std::string name, std::function<std::string(const fs::path&)> make_input) {
  hostile_case c;
  c.name = std::move(name);
  c.make_input = std::move(make_input);
  return c;
}

// The input written as `name` in the test's directory.
std::function<std::string(const fs::path&)> file(std::string name, bytes content) {
  return [name = std::move(name), content = std::move(content)](const fs::path& dir) {
    const std::string p = (dir / name).string();
    itch5_test::write_file(p, content);
    return p;
  };
}

std::vector<hostile_case> table() {
  std::vector<hostile_case> t;

  // ---- framing errors: exit 1, the lines of messages #1..#4, then the error at message #5, offset 131.
  t.push_back(
      row("TruncatedLengthPrefix", file("in.itch", cat({valid_prefix(), bytes{std::byte{0}}})))
          .fails("byte offset 131 (message #5): truncated length prefix: the input ends 1 byte into a "
                 "2-byte length prefix")
          .prints(prefix_lines)
          .reads(4));
  t.push_back(
      row("TruncatedBody", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                  w.write_raw(36,
                                              slice(body(add(4000, 1, 3, 'B', 50, 100100, "AAA")), 0, 10));
                                })))
          .fails("byte offset 131 (message #5): truncated message: the length prefix says 36 bytes but the "
                 "input ends after 10")
          .prints(prefix_lines)
          .reads(4));
  t.push_back(
      row("LengthBelowTypeSize", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                        w.write_raw(
                                            30, slice(body(add(4000, 1, 3, 'B', 50, 100100, "AAA")), 0, 30));
                                        w.write(add(5000, 1, 4, 'S', 10, 100150, "AAA"));  // never reached
                                      })))
          .fails("byte offset 131 (message #5): corrupt message (shorter than its type's fixed size): type "
                 "'A' (0x41) needs 36 bytes, length prefix says 30")
          .prints(prefix_lines)
          .reads(4));

  // ---- irregular but framed: skipped or trimmed, counted, read to the end.
  t.push_back(
      row("LengthAboveTypeSize",
          file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                 // 4 extra bytes that look like the start of a frame; the next message must still decode.
                 w.write_raw(40, cat({body(add(4000, 1, 3, 'B', 50, 100100, "AAA")),
                                      bytes{std::byte{0}, std::byte{0x24}, std::byte{'A'}, std::byte{0}}}));
                 w.write(add(5000, 1, 4, 'S', 10, 100150, "AAA"));
               })))
          .prints(prefix_lines + "4000 1 AAA 100100 50 100200 200\n" + "5000 1 AAA 100100 50 100150 10\n")
          .reads(6)
          .oversized_messages(1));
  t.push_back(row("UnknownType", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                        // 'Z' is no ITCH 5.0 type; its body holds what looks like a System
                                        // Event frame.
                                        bytes z(20, std::byte{0});
                                        z[0] = std::byte{'Z'};
                                        z[5] = std::byte{0x0c};
                                        z[6] = std::byte{'S'};
                                        w.write_raw(20, z);
                                        w.write(add(5000, 1, 3, 'B', 50, 100100, "AAA"));
                                      })))
                  .prints(prefix_lines + "5000 1 AAA 100100 50 100200 200\n")
                  .reads(6)
                  .unknown_types(1));
  t.push_back(
      row("ZeroLengthMidFile", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                      w.write_end_of_session();
                                      w.write(add(5000, 1, 3, 'B', 50, 100100,
                                                  "AAA"));  // after the end: not read
                                    })))
          .fails("byte offset 131 (message #5): zero length prefix before the end of the input: 38 bytes "
                 "after it not read (a zero-filled tail?)")
          .prints(prefix_lines)
          .reads(4));
  t.push_back(
      row("ZeroLengthMidFileAllowed", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                             w.write_end_of_session();
                                             w.write(add(5000, 1, 3, 'B', 50, 100100, "AAA"));
                                           })))
          .with("--allow-zero-tail")
          .warns("itch5inside: warning: {input}: zero length prefix at byte offset 131 ended the input "
                 "(--allow-zero-tail); 38 bytes after it not read")
          .prints(prefix_lines)
          .reads(4));
  // A copy that stopped: the file's size is right but its end is zeros.
  t.push_back(
      row("ZeroFilledTail", file("in.itch", cat({valid_prefix(), bytes(100'000, std::byte{0})})))
          .fails("byte offset 131 (message #5): zero length prefix before the end of the input: 99998 "
                 "bytes after it not read (a zero-filled tail?)")
          .prints(prefix_lines)
          .reads(4));
  // Nothing but zeros is no day, whatever the flag.
  t.push_back(row("ZerosOnly", file("zeros.itch", bytes(4096, std::byte{0})))
                  .with("--allow-zero-tail")
                  .fails("byte offset 0 (message #1): zero length prefix before the end of the input: 4094 "
                         "bytes after it not read (a zero-filled tail?)")
                  .alone()
                  .reads(0));

  // ---- not ITCH at all: one line, naming what the file is when its first bytes say so. "Th" is a length
  // of 0x5468 = 21608, and 'i' is no ITCH type.
  t.push_back(
      row("TextFile", file("notes.txt", itch5_test::to_bytes("This is not ITCH data, just text.\n")))
          .fails("byte offset 0 (message #1): not ITCH 5.0 BinaryFILE data: the first length prefix is 21608 "
                 "and the type byte is 'i' (0x69); ITCH 5.0 BinaryFILE data starts with a 2-byte big-endian "
                 "length and a known message type of that length (e.g. 00 0c 53 for a System Event)")
          .alone()
          .reads(0));
  t.push_back(row("EmptyFile", file("empty.itch", bytes{}))
                  .fails("byte offset 0 (message #1): empty input: the input has no bytes")
                  .alone()
                  .reads(0));
  const std::string not_itch = "byte offset 0 (message #1): not ITCH 5.0 BinaryFILE data: the input is ";
  auto magic = [](std::string_view head) {  // a file starting with these bytes, then some of a day
    return cat({itch5_test::to_bytes(head), five_messages()});
  };
  t.push_back(
      row("ZstdFile", file("day.itch.zst", magic("\x28\xb5\x2f\xfd")))
          .fails(not_itch +
                 "zstd-compressed (magic 28 b5 2f fd): only gzip is decompressed; decompress it first "
                 "(zstd -dc FILE | ... -)")
          .alone()
          .reads(0));
  t.push_back(row("Bzip2File", file("day.itch.bz2", magic("BZh91AY&SY")))
                  .fails(not_itch +
                         "bzip2-compressed (magic 'BZh'): only gzip is decompressed; decompress it first "
                         "(bzip2 -dc FILE | ... -)")
                  .alone()
                  .reads(0));
  t.push_back(row("XzFile", file("day.itch.xz", magic(std::string_view("\xfd"
                                                                       "7zXZ\x00",
                                                                       6))))
                  .fails(not_itch +
                         "xz-compressed (magic fd 37 7a 58 5a 00): only gzip is decompressed; decompress it "
                         "first (xz -dc FILE | ... -)")
                  .alone()
                  .reads(0));
  // itch5inside --histograms output given as input (gzip-compressed, as itch5batch writes it).
  t.push_back(
      row("HistogramFile", file("day.hist.gz", itch5_test::gzip(magic("ITCH5HST"))))
          .fails(not_itch +
                 "an itch5 histogram file (itch5inside --histograms; magic 'ITCH5HST'), not ITCH data: "
                 "'itch5stats merge' reads it")
          .alone()
          .reads(0));

  // ---- gzip.
  // Cut 150 bytes into the stored data (compressed offset 15 + 150): messages #1..#4 (131 bytes) inflate
  // whole, #5 is 19 bytes in when the compressed input runs out. The reader names the message in progress
  // (#5, at 131) and where the decompressed bytes ran out (150).
  t.push_back(
      row("GzipCutInTheMiddle", file("cut.gz", slice(stored_gzip(five_messages()), 0, 15 + 150)))
          .fails("byte offset 131 (message #5): cannot read input: unexpected end of gzip data (truncated "
                 "file?) at compressed byte offset 165 (input ends at byte offset 150)")
          .prints(prefix_lines)
          .reads(4));
  // Garbage right after the member's trailer: everything is inflated, then the error at the garbage's
  // compressed offset (the member's size), after message #5, at decompressed offset 169.
  const bytes gz = itch5_test::gzip(five_messages());
  t.push_back(
      row("GzipWithGarbageAppended", file("garbage.gz", cat({gz, itch5_test::to_bytes("GARBAGE!")})))
          .fails("byte offset 169 (message #6): cannot read input: trailing garbage after gzip member 1 (not "
                 "a gzip header and not zero padding) at compressed byte offset " +
                 std::to_string(gz.size()))
          .prints(five_lines)
          .reads(5));
  // A zero length prefix inside a gzip member whose CRC-32 is wrong: the zero length may itself come from
  // the corruption, so the rest of the member is checked and the run fails (every line kept in .partial),
  // named at the zero length prefix. The same member with a correct CRC-32 ends the session with a warning.
  const bytes ended_mid_file = valid_prefix([](itch5::frame_writer& w) {
    w.write_end_of_session();
    w.write(add(5000, 1, 3, 'B', 50, 100100, "AAA"));
  });
  bytes bad_crc = stored_gzip(ended_mid_file);
  bad_crc[bad_crc.size() - 8] ^= std::byte{0x01};
  t.push_back(row("GzipZeroLengthInCorruptMember", file("bad-crc.gz", bad_crc))
                  .fails("byte offset 131 (message #5): cannot read input: corrupt gzip data")
                  .prints(prefix_lines)
                  .reads(4));
  t.push_back(row("GzipZeroLengthInSoundMember", file("ended.gz", stored_gzip(ended_mid_file)))
                  .fails("byte offset 131 (message #5): zero length prefix before the end of the input: 38 "
                         "bytes after it not read (a zero-filled tail?)")
                  .prints(prefix_lines)
                  .reads(4));
  t.push_back(
      row("GzipZeroLengthInSoundMemberAllowed", file("ended.gz", stored_gzip(ended_mid_file)))
          .with("--allow-zero-tail")
          .warns("itch5inside: warning: {input}: zero length prefix at byte offset 131 ended the input "
                 "(--allow-zero-tail); 38 bytes after it not read")
          .prints(prefix_lines)
          .reads(4));
  // Two members split inside message #3 (offset 70): the same lines as the raw stream.
  t.push_back(row("GzipMultiMember", file("two.gz", cat({itch5_test::gzip(slice(five_messages(), 0, 70)),
                                                         itch5_test::gzip(slice(five_messages(), 70, 169))})))
                  .prints(five_lines)
                  .reads(5));

  // ---- inconsistent book messages: counted by kind, skipped or applied as anomaly_counts.hpp says.
  t.push_back(row("AddsWithZeroShares", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                               w.write(add(4000, 1, 3, 'B', 0, 100100, "AAA"));
                                               w.write(add_mpid(4100, 1, 4, 'S', 0, 100150, "AAA"));
                                               w.write(add(5000, 1, 3, 'B', 50, 100100,
                                                           "AAA"));  // ref 3 was skipped: not a duplicate
                                             })))
                  .prints(prefix_lines + "5000 1 AAA 100100 50 100200 200\n")
                  .reads(7)
                  .counts("zero_shares", 2));
  t.push_back(
      row("PricesAbove200000",
          file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                 w.write(add(4000, 1, 3, 'B', 10, 2'000'000'001u, "AAA"));  // $200,000.0001
                 w.write(add(4100, 1, 4, 'S', 10, 0xffff'ffffu, "AAA"));    // $429,496.7295
                 w.write(add(4200, 1, 5, 'S', 10, 2'000'000'000u, "AAA"));  // $200,000.0000: valid, behind
                 w.write(del(5000, 1, 2));                                  // ... and now the best offer
               })))
          .prints(prefix_lines + "5000 1 AAA 100000 100 2000000000 10\n")
          .reads(8)
          .counts("invalid_price", 2));
  t.push_back(row("TimestampsBeyond24h",
                  file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                         w.write(add(86'399'999'999'999, 1, 3, 'B', 50, 100100, "AAA"));  // the day's last ns
                         w.write(cancel(86'400'000'000'000, 1, 3, 10));                   // 24:00:00
                         w.write(system_event(0xffff'ffff'ffff, 'C'));  // the largest 48-bit value
                       })))
                  .prints(prefix_lines + "86399999999999 1 AAA 100100 50 100200 200\n" +
                          "86400000000000 1 AAA 100100 40 100200 200\n")
                  .reads(7)
                  .ends_day()
                  .counts("timestamp_beyond_day", 2));
  t.push_back(
      row("TimestampsGoingBackwards", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                             w.write(add(2500, 1, 3, 'B', 50, 100100, "AAA"));  // below 3000
                                             w.write(cancel(2400, 1, 3, 10));                   // below 2500
                                             w.write(del(2400, 1, 3));  // equal: not backwards
                                           })))
          .prints(prefix_lines + "2500 1 AAA 100100 50 100200 200\n" + "2400 1 AAA 100100 40 100200 200\n" +
                  "2400 1 AAA 100000 100 100200 200\n")
          .reads(7)
          .counts("timestamp_backwards", 2));
  t.push_back(row("ReplacesOfUnknownOrders",
                  file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                         w.write(replace(4000, 1, 99, 3, 50, 100100));  // 99 was never added
                         w.write(del(5000, 1, 3));  // so its new order 3 does not exist either
                         w.write(replace(6000, 1, 1, 4, 100, 100050));  // a valid replace still works
                       })))
                  .prints(prefix_lines + "6000 1 AAA 100050 100 100200 200\n")
                  .reads(7)
                  .counts("unknown_order", 2));
  t.push_back(row("DuplicateOrderReferences",
                  file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                         w.write(add(4000, 1, 1, 'B', 70, 100100, "AAA"));      // ref 1 is live: skipped
                         w.write(add_mpid(4100, 1, 2, 'S', 5, 100150, "AAA"));  // ref 2 is live: skipped
                         w.write(
                             replace(5000, 1, 1, 2, 100, 100100));  // removes 1; new ref 2 is live: skipped
                         w.write(exec(6000, 1, 2, 50));             // ref 2 is still the 200 @ 10.02
                       })))
                  .prints(prefix_lines + "5000 1 AAA 0 0 100200 200\n" + "6000 1 AAA 0 0 100200 150\n")
                  .reads(8)
                  .counts("duplicate_order", 3));
  t.push_back(row("ExecutionsLargerThanTheOrder",
                  file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                         w.write(exec(4000, 1, 1, 150));                   // ref 1 has 100: removed
                         w.write(exec_price(5000, 1, 2, 250, 100200));     // ref 2 has 200: removed
                         w.write(add(6000, 1, 1, 'B', 10, 99000, "AAA"));  // ref 1 is free again
                       })))
                  .prints(prefix_lines + "4000 1 AAA 0 0 100200 200\n" + "5000 1 AAA 0 0 2000000000 0\n" +
                          "6000 1 AAA 99000 10 2000000000 0\n")
                  .reads(7)
                  .counts("reduce_exceeds_order", 2));
  t.push_back(
      row("StockLocateNeverAnnounced", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                              w.write(add(4000, 9, 3, 'B', 10, 5000,
                                                          "ZZZ"));  // locate 9 has no R: named by the add
                                              w.write(add(5000, 9, 4, 'S', 20, 5100, "ZZZ"));
                                              w.write(del(6000, 9, 3));
                                            })))
          .prints(prefix_lines + "4000 9 ZZZ 5000 10 2000000000 0\n" + "5000 9 ZZZ 5000 10 5100 20\n" +
                  "6000 9 ZZZ 0 0 5100 20\n")
          .reads(7)
          .counts("unannounced_locate", 2));
  // Two more anomaly kinds of anomaly_counts.hpp, for completeness.
  t.push_back(row("AddsWithAnInvalidSide", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                                  w.write(add(4000, 1, 3, 'X', 50, 100100, "AAA"));
                                                  w.write(add(5000, 1, 3, 'B', 50, 100100,
                                                              "AAA"));  // ref 3 was skipped: not a duplicate
                                                })))
                  .prints(prefix_lines + "5000 1 AAA 100100 50 100200 200\n")
                  .reads(6)
                  .counts("invalid_side", 1));
  t.push_back(
      row("CrossedBooksCountedOnEntry",
          file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                 w.write(add(4000, 1, 3, 'B', 50, 100200, "AAA"));  // locked: bid = offer, entered (1)
                 w.write(add(5000, 1, 4, 'B', 10, 100300, "AAA"));  // crossed further: the same entry
                 w.write(del(6000, 1, 3));                          // not at the inside: no line
                 w.write(del(7000, 1, 4));                          // uncrossed
                 w.write(add(8000, 1, 5, 'S', 10, 99900, "AAA"));   // crossed again (2)
               })))
          .prints(prefix_lines + "4000 1 AAA 100200 50 100200 200\n" + "5000 1 AAA 100300 10 100200 200\n" +
                  "7000 1 AAA 100000 100 100200 200\n" + "8000 1 AAA 100000 100 99900 10\n")
          .reads(9)
          .counts("crossed_book", 2));

  // ---- size: every stock locate, announced in ascending order as real days do. Each run must stay far
  // below the time limit (it used to be quadratic in the number of locates: ~80 s here).
  t.push_back(row("EveryStockLocateInOrder", file("in.itch", valid_prefix([](itch5::frame_writer& w) {
                                                    for (std::uint32_t l = 2; l <= 65535; ++l) {
                                                      w.write(directory(static_cast<std::uint16_t>(l),
                                                                        "S" + std::to_string(l), 4000));
                                                    }
                                                    w.write(add(5000, 65535, 3, 'B', 10, 5000, "S65535"));
                                                  })))
                  .prints(prefix_lines + "5000 65535 S65535 5000 10 2000000000 0\n")
                  .reads(4 + 65534 + 1));

  // ---- inputs that cannot be opened or read: no summary, nothing on stdout.
  t.push_back(row("MissingFile", [](const fs::path& dir) {
                return (dir / "does-not-exist.itch").string();
              }).fails("cannot open: No such file or directory"));
  t.push_back(row("DirectoryAsInput", [](const fs::path& dir) {
                fs::create_directory(dir / "a-directory");
                return (dir / "a-directory").string();
              }).fails("is a directory, not a file"));
  return t;
}

// ---------------------------------------------------------------------------------------------------------
// Running the program and reading its summary.

struct result {
  int code = -1;
  std::string out;
  std::string err;
};

// A generous bound on one run over these small inputs (milliseconds when all is well, also under the
// sanitizers): the tools must never hang.
constexpr double time_limit_seconds = 20;

result run(const fs::path& dir, const std::string& args) {
  const std::string out = (dir / "stdout.txt").string(), err = (dir / "stderr.txt").string();
  result r;
  const auto start = std::chrono::steady_clock::now();
  r.code = itch5_test::run_shell(itch5_test::sh_quote(tool) + " " + args + " > " + itch5_test::sh_quote(out) +
                                 " 2> " + itch5_test::sh_quote(err));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
            time_limit_seconds)
      << args;
  r.out = itch5_test::read_text(out);
  r.err = itch5_test::read_text(err);
  fs::remove(out);
  fs::remove(err);
  return r;
}

struct summary {
  bool found = false;
  std::int64_t messages = -1;
  std::uint64_t unknown = 0;
  std::uint64_t oversized = 0;
  std::uint64_t anomalies_total = 0;
  std::map<std::string, std::uint64_t> anomalies;
};

// The rest of the line of `text` that starts with `key` (not the first line).
std::optional<std::string> line_after(const std::string& text, const std::string& key) {
  const std::string needle = "\n" + key;
  std::size_t at = text.find(needle);
  if (at == std::string::npos) return std::nullopt;
  at += needle.size();
  return text.substr(at, text.find('\n', at) - at);
}

bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

bool all_digits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_digit); }

std::vector<std::string> split(std::string_view s, std::string_view sep) {
  std::vector<std::string> parts;
  for (std::size_t at = 0;;) {
    const std::size_t end = s.find(sep, at);
    parts.emplace_back(s.substr(at, end - at));
    if (end == std::string_view::npos) return parts;
    at = end + sep.size();
  }
}

// The summary itch5inside prints on stderr:
//   itch5inside: FILE: N messages in T s (R msg/s), book B
//     messages by type: A=.. ... [unknown=U]
//     anomalies: TOTAL[, kind=n]...[, oversized_messages=n]
summary parse_summary(const std::string& err) {
  summary s;
  const std::size_t in = err.find(" messages in ");
  if (in == std::string::npos) return s;
  std::size_t digits = in;
  while (digits > 0 && is_digit(err[digits - 1])) --digits;
  if (digits == in) return s;
  s.messages = std::stoll(err.substr(digits, in - digits));
  if (auto types = line_after(err, "  messages by type:")) {
    if (auto u = types->find(" unknown="); u != std::string::npos)
      s.unknown = std::stoull(types->substr(u + 9));
  }
  const auto anomalies = line_after(err, "  anomalies: ");
  if (!anomalies) return s;
  const auto parts = split(*anomalies, ", ");
  if (!all_digits(parts[0])) return s;
  s.anomalies_total = std::stoull(parts[0]);
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::size_t eq = parts[i].find('=');
    if (eq == std::string::npos || !all_digits(parts[i].substr(eq + 1))) return s;
    const std::string kind = parts[i].substr(0, eq);
    const std::uint64_t n = std::stoull(parts[i].substr(eq + 1));
    if (kind == "oversized_messages") {
      s.oversized = n;
    } else {
      s.anomalies[kind] = n;
    }
  }
  s.found = true;
  return s;
}

// Every line is complete and has the 7 fields of the format: ts locate symbol bid qty offer qty.
void expect_complete_lines(const std::string& text) {
  if (text.empty()) return;
  EXPECT_EQ(text.back(), '\n') << "the last line is incomplete";
  for (const std::string& line : split(std::string_view(text).substr(0, text.size() - 1), "\n")) {
    const auto f = split(line, " ");
    const bool ok = f.size() == 7 && all_digits(f[0]) && all_digits(f[1]) && !f[2].empty() &&
                    all_digits(f[3]) && all_digits(f[4]) && all_digits(f[5]) && all_digits(f[6]);
    EXPECT_TRUE(ok) << "'" << line << "'";
  }
}

std::string replace_input(std::string text, const std::string& input) {
  const std::string key = "{input}";
  if (auto at = text.find(key); at != std::string::npos) text.replace(at, key.size(), input);
  return text;
}

class HostileInput : public ::testing::TestWithParam<hostile_case> {
 protected:
  itch5_test::temp_dir dir_;

  // Names in the temporary directory, sorted.
  [[nodiscard]] std::vector<std::string> files() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_.path())) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
};

TEST_P(HostileInput, ExactExpectation) {
  const hostile_case& c = GetParam();
  const std::string input = c.make_input(dir_.path());
  const std::vector<std::string> inputs_only = files();

  // Every book family, and the array book with its smallest window, gives the same result.
  std::vector<std::string> books;
  for (const auto& name : itch5::book::book_type_names()) books.push_back("--book " + name);
  books.push_back("--book array --window-levels 64");
  for (const std::string& book_args : books) {
    SCOPED_TRACE(book_args);
    const result r = run(dir_.path(), book_args + " " + c.flags + " " + itch5_test::sh_quote(input));
    EXPECT_EQ(r.code, c.exit_code) << r.err;
    EXPECT_EQ(r.out, c.out);
    expect_complete_lines(r.out);
    if (!c.error.empty()) {
      EXPECT_NE(r.err.find("itch5inside: error: " + input + ": " + c.error), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
    }
    // Most inputs hold no End of Messages system event (S 'C'): a run that reads them to the end says so.
    std::string err = r.err;
    if (c.exit_code == 0 && !c.end_of_messages) {
      const std::string no_end =
          "itch5inside: warning: " + input +
          ": no End of Messages system event (S 'C'): the day is incomplete (cut short?)\n";
      const std::size_t at = err.find(no_end);
      EXPECT_NE(at, std::string::npos) << r.err;
      if (at != std::string::npos) err.erase(at, no_end.size());
    }
    if (!c.warning.empty()) {
      EXPECT_NE(err.find(replace_input(c.warning, input) + "\n"), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(err.find("warning"), std::string::npos) << r.err;
    }
    if (c.one_line) {
      EXPECT_EQ(r.err, "itch5inside: error: " + input + ": " + c.error + "\n");
      continue;
    }
    const summary s = parse_summary(r.err);
    if (c.messages < 0) {
      EXPECT_FALSE(s.found) << "no summary when the input cannot be opened:\n" << r.err;
      continue;
    }
    ASSERT_TRUE(s.found) << r.err;
    EXPECT_EQ(s.messages, c.messages) << r.err;
    EXPECT_EQ(s.unknown, c.unknown) << r.err;
    EXPECT_EQ(s.oversized, c.oversized) << r.err;
    EXPECT_EQ(s.anomalies, c.anomalies) << r.err;
    std::uint64_t total = 0;
    for (const auto& [kind, n] : c.anomalies) total += n;
    EXPECT_EQ(s.anomalies_total, total) << r.err;
  }

  // With -o FILE: on success FILE holds the lines; on failure there is no FILE, and FILE.partial holds the
  // complete lines when the input could be opened at all (the output is created after the input).
  const result o = run(dir_.path(), "-q " + c.flags + " -o " + itch5_test::sh_quote(dir_.file("lines.txt")) +
                                        " " + itch5_test::sh_quote(input));
  EXPECT_EQ(o.code, c.exit_code) << o.err;
  EXPECT_EQ(o.out, "");
  std::vector<std::string> expected_files = inputs_only;
  if (c.exit_code == 0) {
    EXPECT_EQ(itch5_test::read_text(dir_.file("lines.txt")), c.out);
    expected_files.push_back("lines.txt");
  } else {
    EXPECT_FALSE(fs::exists(dir_.file("lines.txt")));
    if (c.messages >= 0) {
      EXPECT_EQ(itch5_test::read_text(dir_.file("lines.txt.partial")), c.out);
      if (c.one_line) {
        EXPECT_EQ(o.err, "itch5inside: error: " + input + ": " + c.error + "\n");
      } else {
        EXPECT_NE(o.err.find("lines.txt.partial"), std::string::npos) << o.err;
      }
      expected_files.push_back("lines.txt.partial");
    }
  }
  std::sort(expected_files.begin(), expected_files.end());
  EXPECT_EQ(files(), expected_files) << "no temporary file may be left behind";
}

INSTANTIATE_TEST_SUITE_P(Table, HostileInput, ::testing::ValuesIn(table()),
                         [](const ::testing::TestParamInfo<hostile_case>& p) { return p.param.name; });

// The construction behind the gzip rows: the raw five-message stream gives the lines they expect, and the
// hand-built stored member is valid gzip when whole (so the cut row tests the cut, not a bad member).
TEST(HostileInputChecks, WholeGzipInputsMatchTheRawStream) {
  itch5_test::temp_dir dir;
  itch5_test::write_file(dir.file("raw.itch"), five_messages());
  itch5_test::write_file(dir.file("stored.gz"), stored_gzip(five_messages()));
  EXPECT_EQ(itch5_test::inflate_prefix(stored_gzip(five_messages())), five_messages());
  for (const char* name : {"raw.itch", "stored.gz"}) {
    SCOPED_TRACE(name);
    const result r = run(dir.path(), std::string("-q ") + itch5_test::sh_quote(dir.file(name)));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, five_lines);
  }
  EXPECT_EQ(five_messages().size(), 169u);
  EXPECT_EQ(valid_prefix().size(), prefix_size);
}

// /dev/zero is no day: an endless zero-filled tail, read up to a limit, whatever the flags and the threads.
TEST(HostileInputChecks, DevZeroFails) {
  itch5_test::temp_dir dir;
  for (const char* args : {"", "--allow-zero-tail", "--threads 2", "--no-read-ahead"}) {
    SCOPED_TRACE(args);
    const result r = run(dir.path(), std::string(args) + " /dev/zero");
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(
        r.err.rfind("itch5inside: error: /dev/zero: byte offset 0 (message #1): zero length prefix before "
                    "the end of the input: at least ",
                    0),
        0u)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
