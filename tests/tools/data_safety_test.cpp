// The ways a run could lose data, run through the built programs: no flag combination overwrites an input
// or writes two outputs into one file; an interrupted run leaves complete lines in FILE.partial (or, for
// itch5synth, nothing) and no temporary file; a FILE of an earlier run never sits beside a new
// FILE.partial; the error is the last line on stderr. Expected lines come from running the same program on
// an input cut by the test's own framer, never from the run under test.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <itch5_test/support.hpp>

namespace {

namespace fs = std::filesystem;
using itch5_test::bytes;
using namespace std::chrono_literals;

const std::string tools_dir = ITCH5_TOOLS_DIR;

struct outcome {
  int exit_code = -1;  // when the program exited
  int signal = 0;      // when a signal killed it
  std::string err;     // standard error
  [[nodiscard]] std::string last_line() const {
    std::string e = err;
    while (!e.empty() && e.back() == '\n') e.pop_back();
    const auto nl = e.rfind('\n');
    return nl == std::string::npos ? e : e.substr(nl + 1);
  }
};

// A tool running as a child process in `dir`, its standard input a pipe the test writes (or /dev/null),
// its standard output and error in files.
class child {
 public:
  child(const std::string& tool, const std::vector<std::string>& args, const fs::path& dir, bool pipe_input)
      : dir_(dir) {
    int p[2] = {-1, -1};
    if (pipe_input && ::pipe(p) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork");
    if (pid_ == 0) {
      if (::chdir(dir.c_str()) != 0) ::_exit(126);
      if (pipe_input) {
        ::dup2(p[0], STDIN_FILENO);
        ::close(p[0]);
        ::close(p[1]);
      }
      std::FILE* out = std::freopen((dir / "stdout.txt").c_str(), "w", stdout);
      std::FILE* err = std::freopen((dir / "stderr.txt").c_str(), "w", stderr);
      if (out == nullptr || err == nullptr) ::_exit(126);
      std::vector<std::string> all{tools_dir + "/" + tool};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    if (pipe_input) {
      ::close(p[0]);
      in_ = p[1];
    }
  }
  ~child() {
    close_input();
    if (pid_ > 0 && !waited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  child(const child&) = delete;
  child& operator=(const child&) = delete;

  // Writes to the child's standard input; stops quietly when the child stopped reading (exited).
  void write(const bytes& b) {
    ::signal(SIGPIPE, SIG_IGN);
    std::size_t done = 0;
    while (done < b.size()) {
      const ssize_t w = ::write(in_, b.data() + done, b.size() - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return;
      done += static_cast<std::size_t>(w);
    }
  }
  void close_input() {
    if (in_ >= 0) ::close(in_);
    in_ = -1;
  }
  void signal(int sig) const { ::kill(pid_, sig); }

  outcome wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    waited_ = true;
    outcome o;
    if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
    o.err = itch5_test::read_text((dir_ / "stderr.txt").string());
    fs::remove(dir_ / "stdout.txt");
    fs::remove(dir_ / "stderr.txt");
    return o;
  }

 private:
  fs::path dir_;
  pid_t pid_ = -1;
  int in_ = -1;
  bool waited_ = false;
};

outcome run(const std::string& tool, const std::vector<std::string>& args, const fs::path& dir) {
  child c(tool, args, dir, false);
  return c.wait();
}

class DataSafety : public ::testing::Test {
 protected:
  // The shipped 200k-message sample, raw.
  static const bytes& day() {
    static const bytes b =
        itch5_test::inflate_prefix(itch5_test::read_file(itch5_test::data_path("synthetic-200k.itch.gz")));
    return b;
  }
  // The first `n` messages of day(), framed, cut by the test's own framer.
  static bytes first_messages(std::size_t n) {
    std::size_t at = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t len =
          (std::to_integer<std::size_t>(day()[at]) << 8) | std::to_integer<std::size_t>(day()[at + 1]);
      at += 2 + len;
    }
    return {day().begin(), day().begin() + static_cast<std::ptrdiff_t>(at)};
  }

  [[nodiscard]] std::string file(const std::string& name) const { return dir_.file(name); }
  [[nodiscard]] std::vector<std::string> files() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_.path())) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  [[nodiscard]] bool any_temporary() const {
    for (const auto& name : files()) {
      if (name.find(".tmp.") != std::string::npos) return true;
    }
    return false;
  }
  // Waits (up to 20 s) until a temporary output exists: the child has checked its paths and started.
  void wait_for_temporary() const {
    for (int i = 0; i < 2000 && !any_temporary(); ++i) std::this_thread::sleep_for(10ms);
    ASSERT_TRUE(any_temporary()) << "the child never created its outputs";
  }

  itch5_test::temp_dir dir_;
};

TEST_F(DataSafety, AnOutputNamingTheInputIsRefusedAndTheInputKept) {
  itch5_test::write_file(file("day.itch"), day());
  fs::create_symlink("day.itch", file("link.itch"));
  fs::create_hard_link(file("day.itch"), file("hard.itch"));
  struct row {
    std::vector<std::string> args;
    std::string expected;
  } rows[] = {
      {{"-q", "day.itch", "-o", "day.itch"}, "--output 'day.itch' is the same file as INPUT 'day.itch'"},
      {{"-q", "day.itch", "--stats", "./day.itch"},
       "--stats './day.itch' is the same file as INPUT 'day.itch'"},
      {{"-q", "day.itch", "--depth", "link.itch"},
       "--depth 'link.itch' is the same file as INPUT 'day.itch'"},
      {{"-q", "hard.itch", "-o", "day.itch"}, "--output 'day.itch' is the same file as INPUT 'hard.itch'"},
      {{"-q", "day.itch", "--histograms", "hard.itch"},
       "--histograms 'hard.itch' is the same file as INPUT 'day.itch'"},
      {{"-q", "day.itch", "--depth", "h.bin", "--histograms", "h.bin"},
       "--depth 'h.bin' and --histograms 'h.bin' are the same file"},
      {{"-q", "day.itch", "-o", "same.csv", "--stats", "same.csv"},
       "--output 'same.csv' and --stats 'same.csv' are the same file"},
  };
  for (const auto& r : rows) {
    const outcome o = run("itch5inside", r.args, dir_.path());
    EXPECT_EQ(o.exit_code, 2) << o.err;
    EXPECT_EQ(o.last_line(),
              "itch5inside: error: " + r.expected +
                  (r.expected.find(" and ") == std::string::npos ? ": refusing to overwrite an input"
                                                                 : "; each output needs a file of its own"));
  }
  EXPECT_EQ(itch5_test::read_file(file("day.itch")), day());
  EXPECT_EQ(files(), (std::vector<std::string>{"day.itch", "hard.itch", "link.itch"}))
      << "nothing was written";
}

TEST_F(DataSafety, StandardOutputAppendedToTheInputIsRefused) {
  // `>>` does not truncate: without the check, itch5cat would read its own output forever and itch5inside
  // would append lines to the ITCH file.
  itch5_test::write_file(file("day.itch"), first_messages(1000));
  for (const std::string tool : {"itch5cat", "itch5inside"}) {
    const std::string cmd = "cd " + itch5_test::sh_quote(dir_.path().string()) + " && " +
                            itch5_test::sh_quote(tools_dir + "/" + tool) + " day.itch >> day.itch 2> err.txt";
    EXPECT_EQ(itch5_test::run_shell(cmd), 2) << tool;
    EXPECT_EQ(
        itch5_test::read_text(file("err.txt")),
        tool +
            ": error: standard output is redirected to INPUT 'day.itch': refusing to overwrite an input\n");
    EXPECT_EQ(itch5_test::read_file(file("day.itch")), first_messages(1000)) << tool;
  }
}

TEST_F(DataSafety, AConfigFileIsAnInputToo) {
  itch5_test::write_file(file("day.itch"), first_messages(1000));
  itch5_test::write_file(file("c.yaml"), itch5_test::to_bytes("book: map\n"));
  const outcome o = run("itch5inside", {"--config", "c.yaml", "day.itch", "-o", "c.yaml"}, dir_.path());
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.err.find("--output 'c.yaml' is the same file as --config 'c.yaml'"), std::string::npos)
      << o.err;
  EXPECT_EQ(itch5_test::read_text(file("c.yaml")), "book: map\n");
}

TEST_F(DataSafety, SynthOutputsMustDiffer) {
  const outcome o =
      run("itch5synth", {"--messages", "20k", "-o", "s.itch", "--delayed", "./s.itch"}, dir_.path());
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_EQ(
      o.last_line(),
      "itch5synth: error: --output 's.itch' and --delayed './s.itch' are the same file; each output needs a "
      "file of its own");
  EXPECT_TRUE(files().empty());
}

TEST_F(DataSafety, InterruptedRunKeepsTheCompleteLinesOfWhatItReadAsPartial) {
  // The expectation: the lines of the first 65,536 messages (the run polls for a signal every 64 Ki
  // messages), from a separate run over exactly those messages.
  itch5_test::write_file(file("first.itch"), first_messages(65536));
  ASSERT_EQ(run("itch5inside", {"-q", "first.itch", "-o", "expected.txt"}, dir_.path()).exit_code, 0);
  const std::string expected = itch5_test::read_text(file("expected.txt"));
  ASSERT_GT(expected.size(), 0u);
  fs::remove(file("first.itch"));
  fs::remove(file("expected.txt"));
  itch5_test::write_file(file("int.txt"), itch5_test::to_bytes("output of an earlier run\n"));

  child c("itch5inside", {"-", "-o", "int.txt", "--stats", "int.csv"}, dir_.path(), true);
  c.write(first_messages(1000));  // well before the first poll
  wait_for_temporary();
  c.signal(SIGINT);
  c.write(bytes(day().begin() + static_cast<std::ptrdiff_t>(first_messages(1000).size()), day().end()));
  c.close_input();
  const outcome o = c.wait();
  EXPECT_EQ(o.signal, SIGINT) << "dies of the signal, exit code " << o.exit_code << ": " << o.err;
  EXPECT_EQ(o.last_line(), "itch5inside: interrupted by SIGINT after 65536 messages of standard input");
  EXPECT_NE(o.err.find("lines written before it are in int.txt.partial"), std::string::npos) << o.err;
  EXPECT_EQ(itch5_test::read_text(file("int.txt.partial")), expected);
  EXPECT_EQ(files(), (std::vector<std::string>{"int.csv.partial", "int.txt.partial"}))
      << "no temporary file, and no int.txt of the earlier run beside the new int.txt.partial";
}

TEST_F(DataSafety, ASecondSignalRemovesTemporariesAtOnce) {
  child c("itch5inside", {"-", "-o", "int.txt.gz", "--depth", "int.csv"}, dir_.path(), true);
  c.write(first_messages(1000));
  wait_for_temporary();
  c.signal(SIGTERM);  // the run is waiting for input: it cannot reach its next poll
  std::this_thread::sleep_for(100ms);
  c.signal(SIGTERM);
  const outcome o = c.wait();
  EXPECT_EQ(o.signal, SIGTERM) << "exit code " << o.exit_code << ": " << o.err;
  EXPECT_TRUE(files().empty()) << "left: " << (files().empty() ? "" : files().front());
}

TEST_F(DataSafety, SynthInterruptedLeavesNothing) {
  child c("itch5synth", {"--messages", "50M", "-q", "-o", "big.itch", "--delayed", "big-b.itch.gz"},
          dir_.path(), false);
  wait_for_temporary();
  std::this_thread::sleep_for(200ms);
  c.signal(SIGTERM);
  const outcome o = c.wait();
  EXPECT_EQ(o.signal, SIGTERM) << o.err;
  EXPECT_NE(o.last_line().find("itch5synth: interrupted by SIGTERM after "), std::string::npos) << o.err;
  EXPECT_TRUE(files().empty()) << "left: " << (files().empty() ? "" : files().front());
}

TEST_F(DataSafety, CorruptInputReplacesAnEarlierOutputByThePartialAndEndsWithTheError) {
  const bytes whole = first_messages(300);
  itch5_test::write_file(file("cut.itch"), bytes(whole.begin(), whole.end() - 5));  // the last message cut
  itch5_test::write_file(file("first.itch"), first_messages(299));
  ASSERT_EQ(run("itch5inside", {"-q", "first.itch", "-o", "expected.txt"}, dir_.path()).exit_code, 0);
  itch5_test::write_file(file("out.txt"), itch5_test::to_bytes("complete output of an earlier run\n"));
  const outcome o = run("itch5inside", {"cut.itch", "-o", "out.txt"}, dir_.path());  // not quiet: summary too
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.last_line().rfind("itch5inside: error: cut.itch: byte offset ", 0), 0u)
      << "the error is the last line:\n"
      << o.err;
  EXPECT_NE(o.err.find("messages in"), std::string::npos) << "the summary comes before it";
  EXPECT_FALSE(fs::exists(file("out.txt")));
  EXPECT_EQ(itch5_test::read_text(file("out.txt.partial")), itch5_test::read_text(file("expected.txt")));

  // A later complete run removes the stale FILE.partial.
  ASSERT_EQ(run("itch5inside", {"-q", "first.itch", "-o", "out.txt"}, dir_.path()).exit_code, 0);
  EXPECT_FALSE(fs::exists(file("out.txt.partial")));
  EXPECT_EQ(itch5_test::read_text(file("out.txt")), itch5_test::read_text(file("expected.txt")));
}

TEST_F(DataSafety, SynthRefusesAnOutputLargerThanTheFreeSpace) {
  struct statvfs fs {};
  ASSERT_EQ(::statvfs(dir_.path().c_str(), &fs), 0);
  const double free_bytes = static_cast<double>(fs.f_bavail) * static_cast<double>(fs.f_frsize);
  const double messages = free_bytes / 31.0 * 1.5;  // 31 bytes per raw message: the estimate itch5synth uses
  if (messages > 9e9) GTEST_SKIP() << "more free space than the largest --messages can fill";
  const std::string count = std::to_string(static_cast<unsigned long long>(messages));
  const outcome o = run("itch5synth", {"--messages", count, "-o", "big.itch"}, dir_.path());
  EXPECT_EQ(o.exit_code, 1) << o.err;
  EXPECT_NE(o.last_line().find("big.itch needs about"), std::string::npos) << o.err;
  EXPECT_NE(o.last_line().find("(--force writes anyway)"), std::string::npos) << o.err;
  EXPECT_TRUE(files().empty());
}

TEST_F(DataSafety, SymbolsAreCheckedMatchedWithoutCaseAndMissingOnesNamed) {
  itch5_test::write_file(file("day.itch"), first_messages(20000));
  ASSERT_EQ(run("itch5inside", {"-q", "day.itch", "-o", "all.txt"}, dir_.path()).exit_code, 0);
  const std::string all = itch5_test::read_text(file("all.txt"));
  // The symbol of the first line, from the text (field 3).
  const auto line_end = all.find('\n');
  ASSERT_NE(line_end, std::string::npos);
  std::vector<std::string> fields;
  std::string field;
  for (char ch : all.substr(0, line_end) + " ") {
    if (ch == ' ') {
      fields.push_back(field);
      field.clear();
    } else {
      field += ch;
    }
  }
  ASSERT_EQ(fields.size(), 7u);
  const std::string symbol = fields[2];
  std::string lower = symbol;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::string expected;
  for (std::size_t at = 0; at < all.size();) {
    const auto nl = all.find('\n', at);
    const std::string line = all.substr(at, nl + 1 - at);
    if (line.find(" " + symbol + " ") != std::string::npos) expected += line;
    at = nl + 1;
  }

  const outcome o = run(
      "itch5inside", {"-q", "day.itch", "-o", "some.txt", "--symbols", lower + ",NOPE,zzzzz"}, dir_.path());
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(itch5_test::read_text(file("some.txt")), expected) << "lower case selects " << symbol;
  EXPECT_EQ(o.last_line(),
            "itch5inside: warning: --symbols NOPE, ZZZZZ: no message of day.itch names them (no "
            "stock directory or order message); no lines for them");

  const outcome bad = run("itch5inside", {"-q", "day.itch", "--symbols", "AAPL,ABCDEFGHI"}, dir_.path());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(
      bad.last_line(),
      "itch5inside: error: --symbols: 'ABCDEFGHI' cannot be an ITCH symbol (1 to 8 printable characters, no "
      "spaces)");
}

}  // namespace
