// open_input() and the gzip stream, with each inflate library this build has (zlib always, ISA-L's igzip
// where built; the isal cases are skipped, and say so, where it is not): raw, .gz, stdin (a redirected file
// and a pipe) give exactly the same messages; multi-member gzip, zero padding, trailing garbage, truncated
// and corrupt gzip, detection by magic rather than by name, and files that cannot be opened.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/input_error.hpp>
#include <itch5/message_reader.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5::read_errc;
using itch5::read_status;
using itch5_test::bytes;

class Inputs : public testing::TestWithParam<itch5::io::inflate_library> {
 protected:
  static void SetUpTestSuite() {
    raw_ = new bytes(itch5_test::read_file(itch5_test::data_path("artificial-3stocks.itch")));
    expected_ = new std::vector<bytes>(itch5_test::reference_frames(*raw_));
    gz_ = new bytes(itch5_test::gzip(*raw_));
  }
  static void TearDownTestSuite() {
    delete raw_;
    delete expected_;
    delete gz_;
  }

  void SetUp() override {
    if (!itch5::io::inflate_library_available(GetParam())) GTEST_SKIP() << "this build has no ISA-L";
  }

 public:
  static itch5::io::inflate_library lib() { return GetParam(); }

 protected:
  std::string write(const std::string& name, const bytes& b) {
    std::string path = dir_.file(name);
    itch5_test::write_file(path, b);
    return path;
  }

  // Reads `path` with both kinds of source and checks they agree; returns the threaded result.
  static itch5_test::read_result read_both(const std::string& path) {
    auto threaded = itch5_test::read_path(path, {std::size_t{1} << 16, true}, lib());
    auto sync = itch5_test::read_path(path, {std::size_t{1} << 16, false}, lib());
    EXPECT_TRUE(sync.messages == threaded.messages);
    EXPECT_EQ(sync.status, threaded.status);
    EXPECT_EQ(sync.error.code, threaded.error.code);
    EXPECT_EQ(sync.error.offset, threaded.error.offset);
    EXPECT_EQ(sync.error.detail, threaded.error.detail);
    return threaded;
  }

  void expect_all_messages(const itch5_test::read_result& r) {
    EXPECT_EQ(r.status, read_status::end_of_input) << r.error.describe("input");
    EXPECT_EQ(r.messages.size(), expected_->size());
    EXPECT_TRUE(r.messages == *expected_) << "message sequence differs from the raw file's";
  }

  static bytes* raw_;
  static std::vector<bytes>* expected_;
  static bytes* gz_;
  itch5_test::temp_dir dir_;
};

bytes* Inputs::raw_ = nullptr;
std::vector<bytes>* Inputs::expected_ = nullptr;
bytes* Inputs::gz_ = nullptr;

bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

bytes slice(const bytes& b, std::size_t from, std::size_t to) {
  return bytes(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(to));
}

TEST_P(Inputs, RawFileMatchesReferenceFraming) {
  ASSERT_EQ(expected_->size(), 12'012u);
  expect_all_messages(read_both(itch5_test::data_path("artificial-3stocks.itch")));
}

TEST_P(Inputs, ShippedGzipGivesTheSameMessagesAsRaw) {
  expect_all_messages(read_both(itch5_test::data_path("artificial-3stocks.itch.gz")));
}

TEST_P(Inputs, GzipWrittenHereAtEveryLevelGivesTheSameMessages) {
  for (int level : {1, 6, 9}) {
    SCOPED_TRACE("level " + std::to_string(level));
    expect_all_messages(read_both(write("a.itch.gz", itch5_test::gzip(*raw_, level))));
  }
}

TEST_P(Inputs, GzipIsDetectedByMagicNotByName) {
  expect_all_messages(read_both(write("looks-raw.itch", *gz_)));
  auto s = itch5::io::open_input(write("plain.bin", *gz_), lib());
  EXPECT_TRUE(s->compressed());
}

TEST_P(Inputs, FileNamedGzThatIsNotGzipIsReadAsRaw) {
  const auto path = write("not-really.itch.gz", *raw_);
  expect_all_messages(read_both(path));
  EXPECT_FALSE(itch5::io::open_input(path, lib())->compressed());
}

TEST_P(Inputs, MultiMemberGzipReadsAsOneStream) {
  // Split inside a message (offset 1000 is not a frame boundary), plus an empty member in the middle.
  std::size_t boundary = 0;
  for (const auto& f : *expected_) {
    if (boundary >= 1000) break;
    boundary += 2 + f.size();
  }
  ASSERT_NE(boundary, 1000u) << "the split must fall inside a frame";
  bytes two =
      cat({itch5_test::gzip(slice(*raw_, 0, 1000)), itch5_test::gzip(slice(*raw_, 1000, raw_->size()))});
  expect_all_messages(read_both(write("two.gz", two)));

  bytes three = cat({itch5_test::gzip(slice(*raw_, 0, 77'777)), itch5_test::gzip(bytes{}),
                     itch5_test::gzip(slice(*raw_, 77'777, raw_->size()), 1)});
  expect_all_messages(read_both(write("three.gz", three)));
}

TEST_P(Inputs, MemberBoundaryAnywhereAroundTheInflaterInputBuffer) {
  // The gzip stream reads compressed input 256 KiB at a time (after the 2 bytes peeked for the magic).
  // Stored (level 0) members grow one byte per input byte, so the first member's size can be set exactly:
  // the next member's magic then falls at every position across that buffer's end.
  std::size_t n = 262'000;
  for (std::size_t target = 262'141; target <= 262'149; ++target) {
    SCOPED_TRACE("first member of " + std::to_string(target) + " bytes");
    bytes first = itch5_test::gzip(slice(*raw_, 0, n), 0);
    for (int tries = 0; first.size() != target && tries < 8; ++tries) {
      n = n + target - first.size();
      first = itch5_test::gzip(slice(*raw_, 0, n), 0);
    }
    ASSERT_EQ(first.size(), target);
    expect_all_messages(
        read_both(write("boundary.gz", cat({first, itch5_test::gzip(slice(*raw_, n, raw_->size()))}))));
  }
}

TEST_P(Inputs, GzipWithTrailingZeroPaddingIsAccepted) {
  expect_all_messages(read_both(write("padded.gz", cat({*gz_, bytes(4096, std::byte{0})}))));
  expect_all_messages(read_both(write("padded1.gz", cat({*gz_, bytes(1, std::byte{0})}))));
}

// The compressed offset named by an input_error's text ("... at compressed byte offset N").
std::uint64_t named_offset(const std::string& what) {
  const std::string key = "compressed byte offset ";
  auto at = what.find(key);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no compressed offset in: " << what;
    return 0;
  }
  return std::stoull(what.substr(at + key.size()));
}

TEST_P(Inputs, GzipWithTrailingGarbageDeliversEverythingThenFails) {
  const bytes garbage = itch5_test::to_bytes("GARBAGE!");
  // Each tail, and where its garbage starts after the member.
  const std::vector<std::pair<bytes, std::size_t>> tails{
      {garbage, 0}, {cat({bytes(100, std::byte{0}), garbage}), 100}, {bytes(1, std::byte{0x1f}), 0}};
  for (const auto& [tail, skip] : tails) {
    auto r = read_both(write("garbage.gz", cat({*gz_, tail})));
    EXPECT_EQ(named_offset(r.error.detail), gz_->size() + skip) << "the garbage's compressed offset";
    EXPECT_TRUE(r.messages == *expected_) << "messages before the garbage must all be delivered";
    EXPECT_EQ(r.status, read_status::error);
    EXPECT_EQ(r.error.code, read_errc::input_failure);
    EXPECT_EQ(r.error.offset, raw_->size());
    EXPECT_EQ(r.error.message_number, 12'013u);
    EXPECT_NE(r.error.detail.find("trailing garbage"), std::string::npos) << r.error.detail;
  }
}

TEST_P(Inputs, TruncatedGzipDeliversWhatCanBeInflatedThenFails) {
  for (std::size_t cut : {gz_->size() / 2, gz_->size() / 5, gz_->size() - 4, std::size_t{100}}) {
    SCOPED_TRACE("cut at compressed byte " + std::to_string(cut));
    const bytes cut_gz = slice(*gz_, 0, cut);
    // zlib's own inflate of the same bytes is the oracle for what can be delivered.
    const bytes inflatable = itch5_test::inflate_prefix(cut_gz);
    const auto whole = itch5_test::reference_frames(inflatable);
    auto r = read_both(write("cut.gz", cut_gz));
    EXPECT_EQ(r.messages.size(), whole.size());
    EXPECT_TRUE(r.messages == whole);
    EXPECT_EQ(r.status, read_status::error);
    EXPECT_EQ(r.error.code, read_errc::input_failure);
    std::size_t whole_bytes = 0;
    for (const auto& f : whole) whole_bytes += 2 + f.size();
    EXPECT_EQ(r.error.offset, whole_bytes) << "named at the start of the message in progress";
    if (lib() == itch5::io::inflate_library::zlib) {
      EXPECT_NE(r.error.detail.find("(input ends at byte offset " + std::to_string(inflatable.size()) + ")"),
                std::string::npos)
          << r.error.detail;
    } else {
      // igzip keeps the last few input bytes to itself, so the partial message at the cut can be a few bytes
      // shorter than zlib's (seen: 8 bytes instead of 9); the whole messages are the same.
      const auto ends = r.error.detail.find("(input ends at byte offset ");
      ASSERT_NE(ends, std::string::npos) << r.error.detail;
      const std::uint64_t inflated = std::stoull(r.error.detail.substr(ends + 27));
      EXPECT_GE(inflated, whole_bytes);
      EXPECT_LE(inflated, inflatable.size());
    }
    EXPECT_EQ(r.error.message_number, whole.size() + 1);
    EXPECT_NE(r.error.detail.find("truncated"), std::string::npos) << r.error.detail;
    EXPECT_EQ(named_offset(r.error.detail), cut) << "the input ended there";
  }
}

TEST_P(Inputs, GzipHeaderOnlyIsAnErrorBeforeAnyMessage) {
  auto r = read_both(write("header-only.gz", slice(*gz_, 0, 10)));
  EXPECT_TRUE(r.messages.empty());
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::input_failure);
  EXPECT_EQ(r.error.offset, 0u);
  EXPECT_EQ(r.error.message_number, 1u);
  EXPECT_NE(r.error.detail.find("truncated"), std::string::npos) << r.error.detail;
}

// Reads `path` to the end with a byte_stream; returns the error text (empty when there is none) and the
// number of bytes delivered before it.
std::string drain(const std::string& path, std::uint64_t& delivered) {
  auto s = itch5::io::open_input(path, Inputs::lib());
  std::vector<std::byte> buf(4096);
  delivered = 0;
  try {
    while (std::size_t n = s->read(buf.data(), buf.size())) delivered += n;
  } catch (const itch5::io::input_error& e) {
    return e.what();
  }
  return {};
}

TEST_P(Inputs, CorruptDeflateDataNamesTheCompressedOffset) {
  // Byte 10 is the first deflate byte (zlib writes a 10-byte gzip header). 0xff there is BFINAL=1 with the
  // reserved block type 3: zlib stops on it after reading that one byte, so the offset named is 10 or 11
  // (the corrupt byte, or just past it); igzip reads its input 8 bytes at a time and names up to 8 later.
  bytes bad = *gz_;
  bad[10] = std::byte{0xff};
  std::uint64_t delivered = 0;
  std::string what = drain(write("bad-block.gz", bad), delivered);
  EXPECT_NE(what.find("corrupt gzip data"), std::string::npos) << what;
  std::uint64_t at = named_offset(what);
  EXPECT_GE(at, 10u);
  EXPECT_LE(at, lib() == itch5::io::inflate_library::zlib ? 11u : 18u);
  EXPECT_EQ(delivered, 0u);

  // Through the reader: no message, an input failure naming the offset.
  auto r = read_both(write("bad-block.gz", bad));
  EXPECT_TRUE(r.messages.empty());
  EXPECT_EQ(r.error.code, read_errc::input_failure);
  EXPECT_NE(r.error.detail.find("compressed byte offset"), std::string::npos) << r.error.detail;

  // A byte flipped in the middle: inflate fails somewhere after it (the bits may still decode for a while,
  // into wrong bytes; at the latest the CRC-32 check fails), and never later than the end of the file.
  bad = *gz_;
  const std::size_t mid = bad.size() / 2;
  bad[mid] ^= std::byte{0x55};
  what = drain(write("bad-mid.gz", bad), delivered);
  EXPECT_NE(what.find("corrupt gzip data"), std::string::npos) << what;
  at = named_offset(what);
  EXPECT_GT(at, mid);
  EXPECT_LE(at, bad.size());
}

TEST_P(Inputs, CorruptCrcFailsAfterAllMessages) {
  // The gzip trailer is CRC-32 then ISIZE: a wrong CRC is found after every byte was inflated.
  bytes bad = *gz_;
  bad[bad.size() - 8] ^= std::byte{0x01};
  auto r = read_both(write("bad-crc.gz", bad));
  EXPECT_TRUE(r.messages == *expected_);
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::input_failure);
  EXPECT_EQ(r.error.offset, raw_->size());
  EXPECT_EQ(r.error.message_number, 12'013u);
  std::uint64_t at = named_offset(r.error.detail);
  EXPECT_GE(at, bad.size() - 8);
  EXPECT_LE(at, bad.size());
}

TEST_P(Inputs, ZeroLengthInCorruptGzipIsAnErrorNotAnEndOfSession) {
  // A zero length prefix after message #100, the rest of the file after it. A corrupt member can inflate
  // to two zero bytes: from gzip, the reader inflates the rest and reports the member's error there.
  std::size_t at = 0;
  for (std::size_t i = 0; i < 100; ++i) at += 2 + (*expected_)[i].size();
  const std::vector<bytes> first(expected_->begin(), expected_->begin() + 100);
  const bytes zero{std::byte{0}, std::byte{0}};
  const bytes with_rest = cat({slice(*raw_, 0, at), zero, slice(*raw_, at, raw_->size())});
  const bytes at_end = cat({slice(*raw_, 0, at), zero});

  // Sound: at the end, an end of session; with bytes after it, the error of a zero-filled tail (a zero
  // length before the end of the input), naming the bytes after it; raw input alike.
  for (const bytes* in : {&with_rest, &at_end}) {
    for (const bool compressed : {false, true}) {
      auto r = read_both(write("ended", compressed ? itch5_test::gzip(*in) : *in));
      EXPECT_TRUE(r.messages == first);
      if (in == &at_end) {
        EXPECT_EQ(r.status, read_status::end_of_session) << r.error.describe("input");
        EXPECT_EQ(r.offset, at);
        EXPECT_FALSE(r.data_after_session);
      } else {
        EXPECT_EQ(r.status, read_status::error);
        EXPECT_EQ(r.error.code, read_errc::zero_length_before_end);
        EXPECT_EQ(r.error.offset, at);
        EXPECT_EQ(r.error.message_number, 101u);
        EXPECT_EQ(r.error.detail,
                  std::to_string(raw_->size() - at) + " bytes after it not read (a zero-filled tail?)");
      }
    }
  }

  // The CRC-32 wrong, or a byte flipped well after the zero length: an input failure at the zero length.
  for (const bytes* in : {&with_rest, &at_end}) {
    bytes crc = itch5_test::gzip(*in);
    crc[crc.size() - 8] ^= std::byte{0x01};
    std::vector<bytes> corrupt{crc};
    if (in == &with_rest) {
      bytes mid = itch5_test::gzip(*in);
      mid[mid.size() * 3 / 4] ^= std::byte{0x55};
      corrupt.push_back(mid);
    }
    for (const bytes& bad : corrupt) {
      auto r = read_both(write("bad.gz", bad));
      EXPECT_EQ(r.status, read_status::error);
      EXPECT_TRUE(r.messages == first);
      EXPECT_EQ(r.error.code, read_errc::input_failure);
      EXPECT_EQ(r.error.offset, at);
      EXPECT_EQ(r.error.message_number, 101u);
      EXPECT_NE(r.error.detail.find("corrupt gzip data"), std::string::npos) << r.error.detail;
      EXPECT_NE(r.error.detail.find("after a zero length prefix"), std::string::npos) << r.error.detail;
      EXPECT_GT(named_offset(r.error.detail), bad.size() / 2);
    }
  }

  // Trailing garbage after the member is found the same way.
  auto r =
      read_both(write("garbage.gz", cat({itch5_test::gzip(with_rest), itch5_test::to_bytes("GARBAGE!")})));
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.offset, at);
  EXPECT_NE(r.error.detail.find("trailing garbage"), std::string::npos) << r.error.detail;
}

TEST_P(Inputs, GzippedTextIsNotItch) {
  auto r = read_both(write("text.gz", itch5_test::gzip(itch5_test::to_bytes("just some words\nand more\n"))));
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::not_itch);
}

TEST_P(Inputs, MissingFileNamesThePath) {
  const std::string path = dir_.file("no-such-dir/missing.itch.gz");
  try {
    (void)itch5::io::open_input(path, lib());
    FAIL() << "open_input of a missing file did not throw";
  } catch (const itch5::io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST_P(Inputs, DirectoryNamesThePath) {
  // open(2) succeeds on a directory; the failure comes from the first read and must still name the path.
  const std::string path = dir_.path().string();
  try {
    auto s = itch5::io::open_input(path, lib());
    std::byte b[16];
    (void)s->read(b, sizeof b);
    FAIL() << "reading a directory did not throw";
  } catch (const itch5::io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST_P(Inputs, EmptyFile) {
  auto r = read_both(write("empty.itch", bytes{}));
  EXPECT_EQ(r.error.code, read_errc::empty_input);
  EXPECT_FALSE(itch5::io::open_input(dir_.file("empty.itch"), lib())->compressed());
}

TEST_P(Inputs, ReportsSizeAndPosition) {
  const auto path = write("a.gz", *gz_);
  auto s = itch5::io::open_input(path, lib());
  EXPECT_EQ(s->total(), gz_->size());
  std::uint64_t got = 0;
  std::vector<std::byte> buf(1 << 16);
  while (std::size_t n = s->read(buf.data(), buf.size())) got += n;
  EXPECT_EQ(got, raw_->size());
  EXPECT_EQ(s->consumed(), gz_->size());
}

// Standard input is `fd` for the lifetime of this object.
class stdin_redirect {
 public:
  explicit stdin_redirect(int fd) : saved_(::dup(STDIN_FILENO)) {
    ::dup2(fd, STDIN_FILENO);
    ::close(fd);
  }
  ~stdin_redirect() {
    ::dup2(saved_, STDIN_FILENO);
    ::close(saved_);
  }
  stdin_redirect(const stdin_redirect&) = delete;
  stdin_redirect& operator=(const stdin_redirect&) = delete;

 private:
  int saved_;
};

TEST_P(Inputs, StdinFromARedirectedFile) {
  for (const bytes* content : {raw_, gz_}) {
    const auto path = write("stdin.bin", *content);
    int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    stdin_redirect redirect(fd);
    expect_all_messages(itch5_test::read_path("-", {std::size_t{1} << 20, true}, lib()));
  }
}

// Reads `content` from standard input fed through a pipe by a writer thread in odd-sized writes, so reads
// see short, unaligned chunks.
itch5_test::read_result read_through_pipe(const bytes& content, bool threaded, bool expect_compressed,
                                          itch5::io::inflate_library lib) {
  ::signal(SIGPIPE, SIG_IGN);  // a failing reader closes the pipe early: the writer must see EPIPE, not die
  int p[2];
  if (::pipe(p) != 0) throw std::runtime_error("pipe failed");
  std::thread writer([fd = p[1], &content] {
    std::size_t at = 0;
    while (at < content.size()) {
      ssize_t w = ::write(fd, content.data() + at, std::min<std::size_t>(4099, content.size() - at));
      if (w <= 0) break;
      at += static_cast<std::size_t>(w);
    }
    ::close(fd);
  });
  itch5_test::read_result r;
  {
    stdin_redirect redirect(p[0]);
    auto s = itch5::io::open_input("-", lib);
    EXPECT_EQ(s->total(), 0u) << "a pipe has no known size";
    EXPECT_EQ(s->compressed(), expect_compressed);
    itch5::io::block_options o;
    o.threaded = threaded;
    r = itch5_test::read_all(itch5::io::make_block_source(std::move(s), o));
  }
  writer.join();
  return r;
}

TEST_P(Inputs, StdinFromAPipe) {
  for (bool threaded : {true, false}) {
    expect_all_messages(read_through_pipe(*raw_, threaded, false, lib()));
    expect_all_messages(read_through_pipe(*gz_, threaded, true, lib()));
  }
}

TEST_P(Inputs, ManySmallMembersThroughAPipe) {
  // 60-odd members of uneven sizes and levels: member boundaries land at all sorts of places relative to
  // the short reads from the pipe.
  bytes many;
  std::size_t at = 0;
  for (std::size_t i = 1; at < raw_->size(); ++i) {
    std::size_t len = std::min(raw_->size() - at, 1'000 + (i * 7'919) % 12'000);
    bytes member = itch5_test::gzip(slice(*raw_, at, at + len), static_cast<int>(i % 10));
    many.insert(many.end(), member.begin(), member.end());
    at += len;
  }
  expect_all_messages(read_through_pipe(many, true, true, lib()));
  expect_all_messages(read_both(write("many.gz", many)));
}

INSTANTIATE_TEST_SUITE_P(InflateLibraries, Inputs,
                         testing::Values(itch5::io::inflate_library::zlib, itch5::io::inflate_library::isal),
                         [](const testing::TestParamInfo<itch5::io::inflate_library>& p) {
                           return p.param == itch5::io::inflate_library::zlib ? "zlib" : "isal";
                         });

// The default is ISA-L exactly where the build has it; zlib is the fallback every build can use.
TEST(InflateDefault, IsIsalWhereBuiltElseZlib) {
  EXPECT_TRUE(itch5::io::inflate_library_available(itch5::io::inflate_library::zlib));
  const bool isal = itch5::io::inflate_library_available(itch5::io::inflate_library::isal);
  EXPECT_EQ(itch5::io::default_inflate_library(),
            isal ? itch5::io::inflate_library::isal : itch5::io::inflate_library::zlib);
  EXPECT_EQ(isal, ITCH5_TEST_WITH_ISAL != 0) << "the build's ITCH5_WITH_ISAL and the library disagree";
}

TEST(InflateDefault, IsalInABuildWithoutItIsOneClearError) {
  if (itch5::io::inflate_library_available(itch5::io::inflate_library::isal))
    GTEST_SKIP() << "this build has ISA-L";
  itch5_test::temp_dir dir;
  const std::string path = dir.file("a.gz");
  itch5_test::write_file(path, itch5_test::gzip(itch5_test::to_bytes("x")));
  try {
    (void)itch5::io::open_input(path, itch5::io::inflate_library::isal);
    FAIL() << "no error";
  } catch (const itch5::io::input_error& e) {
    EXPECT_NE(std::string(e.what()).find("no ISA-L support"), std::string::npos) << e.what();
  }
}

}  // namespace
