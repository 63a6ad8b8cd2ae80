// output_file (final name only on commit, FILE.partial otherwise, .gz compressed on the fly) and
// frame_writer (BinaryFILE bytes for generators and tests).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>

#include <zstd.h>

#include <itch5/frame_writer.hpp>
#include <itch5/io/output_file.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::builder;
using itch5_test::bytes;
namespace fs = std::filesystem;

// Files in `dir` whose names start with `prefix`.
int count_files(const fs::path& dir, const std::string& prefix) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().rfind(prefix, 0) == 0;
  return n;
}

TEST(OutputFile, AppearsUnderItsNameOnlyOnCommit) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.txt");
  {
    itch5::io::output_file out(path);
    out.write("line 1\n");
    out.write("line 2\n");
    EXPECT_FALSE(fs::exists(path)) << "written under a temporary name until commit";
    EXPECT_EQ(count_files(dir.path(), "out.txt.tmp."), 1);
    out.commit();
  }
  EXPECT_EQ(itch5_test::read_text(path), "line 1\nline 2\n");
  EXPECT_EQ(count_files(dir.path(), "out.txt.tmp."), 0);
  EXPECT_FALSE(fs::exists(path + ".partial"));
}

TEST(OutputFile, UncommittedOutputIsKeptAsPartial) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.txt");
  {
    itch5::io::output_file out(path);
    out.write("complete line\n");
    EXPECT_EQ(out.abandon(), path + ".partial");
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(itch5_test::read_text(path + ".partial"), "complete line\n");

  const auto other = dir.file("dropped.txt");
  {
    itch5::io::output_file out(other);
    out.write("kept\n");
  }  // destroyed without commit, as when an exception unwinds
  EXPECT_FALSE(fs::exists(other));
  EXPECT_EQ(itch5_test::read_text(other + ".partial"), "kept\n");
  EXPECT_EQ(count_files(dir.path(), "dropped.txt.tmp."), 0);
}

TEST(OutputFile, AbandonRemovesAStaleFileOfAnEarlierRun) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.txt");
  itch5_test::write_file(path, itch5_test::to_bytes("complete output of an earlier run\n"));
  {
    itch5::io::output_file out(path);
    out.write("this run, cut short\n");
    EXPECT_EQ(itch5_test::read_text(path), "complete output of an earlier run\n")
        << "untouched while running";
    EXPECT_EQ(out.abandon(), path + ".partial");
  }
  EXPECT_FALSE(fs::exists(path)) << "an old FILE beside the new FILE.partial would look complete";
  EXPECT_EQ(itch5_test::read_text(path + ".partial"), "this run, cut short\n");
}

TEST(OutputFile, CommitRemovesAStalePartialOfAnEarlierRun) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.txt");
  itch5_test::write_file(path + ".partial", itch5_test::to_bytes("cut short earlier\n"));
  {
    itch5::io::output_file out(path);
    out.write("complete\n");
    EXPECT_TRUE(fs::exists(path + ".partial")) << "kept until this run is complete";
    out.commit();
  }
  EXPECT_EQ(itch5_test::read_text(path), "complete\n");
  EXPECT_FALSE(fs::exists(path + ".partial"));
}

TEST(OutputFile, DiscardKeepsNothingAndLeavesEarlierFilesAlone) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.itch.gz");
  itch5_test::write_file(path, itch5_test::to_bytes("earlier"));
  {
    itch5::io::output_file out(path);
    out.write("dropped");
    out.discard();
  }
  EXPECT_EQ(itch5_test::read_text(path), "earlier");
  EXPECT_FALSE(fs::exists(path + ".partial"));
  EXPECT_EQ(count_files(dir.path(), "out.itch.gz.tmp."), 0);
}

// The permission bits of `path` (following a symbolic link).
unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

// Sets the umask for one test and restores it.
class scoped_umask {
 public:
  explicit scoped_umask(mode_t m) : old_(::umask(m)) {}
  ~scoped_umask() { ::umask(old_); }
  scoped_umask(const scoped_umask&) = delete;
  scoped_umask& operator=(const scoped_umask&) = delete;

 private:
  mode_t old_;
};

TEST(OutputFile, ReplacedFileKeepsItsPermissions) {
  scoped_umask umask(022);
  itch5_test::temp_dir dir;
  for (const char* name : {"licensed.txt", "licensed.txt.gz"}) {
    const auto path = dir.file(name);
    itch5_test::write_file(path, itch5_test::to_bytes("earlier\n"));
    ASSERT_EQ(::chmod(path.c_str(), 0600), 0);
    itch5::io::output_file out(path);
    EXPECT_EQ(count_files(dir.path(), std::string(name) + ".tmp."), 1);
    const auto temp = dir.file(std::string(name) + ".tmp." + std::to_string(::getpid()));
    EXPECT_EQ(mode_of(temp), 0600u) << "not readable by others even while written";
    out.write("new\n");
    out.commit();
    EXPECT_EQ(mode_of(path), 0600u) << name << ": a 0600 file must not become 0644";
  }
  const auto group = dir.file("group.txt");
  itch5_test::write_file(group, itch5_test::to_bytes("earlier\n"));
  ASSERT_EQ(::chmod(group.c_str(), 0660), 0);
  itch5::io::output_file out(group);
  out.write("new\n");
  out.commit();
  EXPECT_EQ(mode_of(group), 0660u);
  EXPECT_EQ(itch5_test::read_text(group), "new\n");
}

TEST(OutputFile, NewFileGetsTheUmasksMode) {
  itch5_test::temp_dir dir;
  for (mode_t mask : {mode_t{002}, mode_t{027}, mode_t{0}}) {
    scoped_umask umask(mask);
    const auto path = dir.file("new-" + std::to_string(mask) + ".txt");
    itch5::io::output_file out(path);
    out.write("x\n");
    out.commit();
    EXPECT_EQ(mode_of(path), 0666u & ~mask) << "umask " << mask;
  }
}

TEST(OutputFile, SymbolicLinkIsWrittenThroughAndStaysALink) {
  itch5_test::temp_dir dir;
  fs::create_directory(dir.path() / "store");
  const auto target = (dir.path() / "store" / "day.txt").string();
  itch5_test::write_file(target, itch5_test::to_bytes("stale\n"));
  ASSERT_EQ(::chmod(target.c_str(), 0600), 0);
  const auto link = dir.file("day.txt");
  fs::create_symlink("store/day.txt", link);  // relative: against the link's directory
  const auto chain = dir.file("chain.txt");
  fs::create_symlink("day.txt", chain);  // a link to the link
  {
    itch5::io::output_file out(chain);
    out.write("fresh\n");
    EXPECT_EQ(count_files(dir.path() / "store", "day.txt.tmp."), 1)
        << "the temporary file sits beside the target";
    out.commit();
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_symlink(chain));
  EXPECT_EQ(fs::read_symlink(link), "store/day.txt");
  EXPECT_EQ(itch5_test::read_text(target), "fresh\n");
  EXPECT_EQ(mode_of(target), 0600u);

  // Cut short: the partial output sits beside the target, whose stale content is removed; the link stays.
  {
    itch5::io::output_file out(link);
    out.write("cut\n");
    EXPECT_EQ(out.abandon(), target + ".partial");
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_FALSE(fs::exists(target));
  EXPECT_EQ(itch5_test::read_text(target + ".partial"), "cut\n");

  // A dangling link: the file is created where it points.
  {
    itch5::io::output_file out(link);
    out.write("again\n");
    out.commit();
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(itch5_test::read_text(target), "again\n");
  EXPECT_FALSE(fs::exists(target + ".partial"));
}

TEST(OutputFile, SymbolicLinkLoopNamesThePath) {
  itch5_test::temp_dir dir;
  const auto a = dir.file("a.txt"), b = dir.file("b.txt");
  fs::create_symlink("b.txt", a);
  fs::create_symlink("a.txt", b);
  try {
    itch5::io::output_file out(a);
    FAIL() << "a loop of links has no file to write";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(a), std::string::npos) << e.what();
  }
}

TEST(OutputFile, RemoveTemporaryOutputsUnlinksOnlyUnfinishedOutputs) {
  itch5_test::temp_dir dir;
  itch5::io::output_file done(dir.file("done.txt"));
  done.write("done\n");
  done.commit();
  itch5::io::output_file a(dir.file("a.txt")), b(dir.file("b.txt.gz"));
  a.write("a\n");
  b.write("b\n");
  EXPECT_EQ(count_files(dir.path(), "a.txt.tmp."), 1);
  EXPECT_EQ(itch5::io::remove_temporary_outputs(), 2);
  EXPECT_EQ(count_files(dir.path(), "a.txt.tmp."), 0);
  EXPECT_EQ(count_files(dir.path(), "b.txt.gz.tmp."), 0);
  EXPECT_EQ(itch5_test::read_text(dir.file("done.txt")), "done\n");
  a.discard();
  b.discard();
  EXPECT_EQ(itch5::io::remove_temporary_outputs(), 0) << "finished outputs leave the table";
}

TEST(OutputFile, GzNameIsCompressed) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.itch.gz");
  const bytes frames =
      builder().frame(itch5_test::system_event_bytes('O')).frame(itch5_test::order_delete_bytes(3)).get();
  {
    itch5::io::output_file out(path);
    out.write({reinterpret_cast<const char*>(frames.data()), frames.size()});
    out.commit();
  }
  const bytes gz = itch5_test::read_file(path);
  ASSERT_GE(gz.size(), 18u);
  EXPECT_EQ(gz[0], std::byte{0x1f});
  EXPECT_EQ(gz[1], std::byte{0x8b});
  EXPECT_EQ(itch5_test::inflate_prefix(gz), frames);
  auto r = itch5_test::read_path(path);
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  EXPECT_EQ(r.messages.size(), 2u);
}

TEST(OutputFile, LargeGzOutputAndGzPartialAreWholeGzipStreams) {
  itch5_test::temp_dir dir;
  std::string text;
  for (int i = 0; i < 40'000; ++i) text += "line " + std::to_string(i * 7919) + " of the output\n";
  const auto path = dir.file("big.txt.gz");
  {
    itch5::io::output_file out(path);
    for (std::size_t at = 0; at < text.size(); at += 4096) out.write(std::string_view(text).substr(at, 4096));
    out.commit();
  }
  EXPECT_EQ(itch5_test::inflate_prefix(itch5_test::read_file(path)), itch5_test::to_bytes(text));

  const auto cut = dir.file("cut.txt.gz");
  {
    itch5::io::output_file out(cut);
    out.write(text);
  }  // not committed: the partial file still ends with a gzip trailer
  const bytes gz = itch5_test::read_file(cut + ".partial");
  EXPECT_EQ(itch5_test::inflate_prefix(gz), itch5_test::to_bytes(text));
  std::uint64_t isize = 0;  // the trailer's last 4 bytes: the length, little-endian
  for (int i = 0; i < 4; ++i)
    isize |= std::to_integer<std::uint64_t>(gz[gz.size() - 4 + static_cast<std::size_t>(i)]) << (8 * i);
  EXPECT_EQ(isize, text.size() % (std::uint64_t{1} << 32));
}

// Every compressed-output engine, on its own thread and in write() itself: the file holds exactly the bytes
// written (decompressed independently of the code under test: zlib's inflate, libzstd's decompressor), as
// one standard stream, also as a .partial, also when writes are larger than the 1 MiB chunks of the thread.
struct engine_case {
  const char* suffix;
  int gzip_level;
  int zstd_level;
  bool thread;
};

class CompressedOutput : public testing::TestWithParam<engine_case> {};

std::string zstd_decompress(const bytes& z) {
  std::string out;
  ZSTD_DStream* d = ZSTD_createDStream();
  ZSTD_inBuffer in{z.data(), z.size(), 0};
  std::string buf(1 << 16, '\0');
  std::size_t rc = 1;
  while (in.pos < in.size) {
    ZSTD_outBuffer o{buf.data(), buf.size(), 0};
    rc = ZSTD_decompressStream(d, &o, &in);
    if (ZSTD_isError(rc)) break;
    out.append(buf.data(), o.pos);
  }
  ZSTD_freeDStream(d);
  EXPECT_FALSE(ZSTD_isError(rc)) << ZSTD_getErrorName(rc);
  EXPECT_EQ(rc, 0u) << "the zstd frame is complete";
  return out;
}

std::string decompress(const std::string& path) {
  const bytes b = itch5_test::read_file(path);
  if (path.find(".zst") != std::string::npos) return zstd_decompress(b);
  EXPECT_GE(b.size(), 18u);
  EXPECT_EQ(b[0], std::byte{0x1f});
  EXPECT_EQ(b[1], std::byte{0x8b});
  const bytes plain = itch5_test::inflate_prefix(b);
  return std::string(reinterpret_cast<const char*>(plain.data()), plain.size());
}

TEST_P(CompressedOutput, HoldsExactlyTheBytesWrittenCommittedOrPartial) {
  const engine_case c = GetParam();
  itch5::io::output_options opt;
  opt.gzip_level = c.gzip_level;
  opt.zstd_level = c.zstd_level;
  opt.compress_thread = c.thread;
  // ~3.5 MB of lines (more than three chunks), written in pieces of random size up to 1.5 MiB.
  std::string text;
  for (int i = 0; i < 100'000; ++i)
    text += std::to_string(34'200'000'000'000LL + i * 7919LL) + " 17 AAPL 1234500 100\n";
  std::mt19937 rng(7);
  itch5_test::temp_dir dir;
  for (const bool commit : {true, false}) {
    const auto path = dir.file(std::string(commit ? "a.txt" : "b.txt") + c.suffix);
    {
      itch5::io::output_file out(path, opt);
      for (std::size_t at = 0; at < text.size();) {
        const std::size_t n = std::min<std::size_t>(text.size() - at, rng() % (3 << 19));
        out.write(std::string_view(text).substr(at, n));
        at += n;
      }
      if (commit) out.commit();
    }
    EXPECT_EQ(decompress(commit ? path : path + ".partial"), text) << path;
  }
  // An empty output is a valid empty stream.
  const auto empty = dir.file(std::string("empty.txt") + c.suffix);
  {
    itch5::io::output_file out(empty, opt);
    out.commit();
  }
  EXPECT_EQ(decompress(empty), "");
}

INSTANTIATE_TEST_SUITE_P(Engines, CompressedOutput,
                         testing::Values(engine_case{".gz", 1, 1, true}, engine_case{".gz", 1, 1, false},
                                         engine_case{".gz", 3, 1, true}, engine_case{".gz", 6, 1, true},
                                         engine_case{".gz", 9, 1, false}, engine_case{".zst", 1, 1, true},
                                         engine_case{".zst", 1, 12, false}),
                         [](const testing::TestParamInfo<engine_case>& i) {
                           return std::string(i.param.suffix[1] == 'g' ? "gzip" : "zstd") +
                                  std::to_string(i.param.suffix[1] == 'g' ? i.param.gzip_level
                                                                          : i.param.zstd_level) +
                                  (i.param.thread ? "Thread" : "Inline");
                         });

TEST(OutputFile, CompressionFollowsTheName) {
  using itch5::io::compression;
  EXPECT_EQ(itch5::io::compression_of("day.txt.gz"), compression::gzip);
  EXPECT_EQ(itch5::io::compression_of("day.txt.zst"), compression::zstd);
  EXPECT_EQ(itch5::io::compression_of("day.txt"), compression::none);
  EXPECT_EQ(itch5::io::compression_of(".gz"), compression::none) << "a name, not only a suffix";
  EXPECT_EQ(itch5::io::compression_of("day.gzip"), compression::none);
  EXPECT_EQ(itch5::io::compression_of("-"), compression::none);
}

TEST(OutputFile, CompressingThreadErrorReachesTheWriter) {
  // A .gz name that is a link to /dev/full: written in place (a device), and every write() there fails with
  // ENOSPC, on the compressing thread. The writer hears of it: a later write() or commit() throws, naming
  // the output; nothing hangs.
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  itch5_test::temp_dir dir;
  for (const char* suffix : {".gz", ".zst"}) {
    const auto path = dir.file(std::string("full.txt") + suffix);
    fs::create_symlink("/dev/full", path);
    std::string text;
    for (int i = 0; i < 300'000; ++i) text += std::to_string(i * 7919LL) + " line\n";
    try {
      itch5::io::output_file out(path);
      for (int k = 0; k < 4; ++k) out.write(text);
      out.commit();
      FAIL() << suffix << ": no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("write error"), std::string::npos) << e.what();
    }
  }
}

TEST(OutputFile, UncreatableFileNamesThePath) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("no-such-dir/out.txt");
  try {
    itch5::io::output_file out(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(FrameWriter, WritesBinaryFileFrames) {
  itch5::frame_writer w;
  const bytes s = itch5_test::system_event_bytes('Q', 0x0000'1234'5678);
  const bytes a = itch5_test::add_order_bytes(0x0102'0304'0506'0708, 'S', 250, "MSFT", 4'012'300, 99);
  w.write(itch5::decode<itch5::system_event>(s.data()));
  w.write(itch5::decode<itch5::add_order>(a.data()));
  const bytes odd = {std::byte{'D'}, std::byte{1}, std::byte{2}};
  w.write_raw(19, odd);  // a prefix that does not match the body, on purpose
  w.write_end_of_session();
  const bytes expected = builder().frame(s).frame(a).frame(odd, 19).u16(0).get();
  EXPECT_EQ(bytes(w.bytes().begin(), w.bytes().end()), expected);
  EXPECT_EQ(w.size(), 14u + 38u + 5u + 2u);
  w.clear();
  EXPECT_EQ(w.size(), 0u);
}

}  // namespace
