// itch5::cli::path_guard: every way a name can denote an input (the same name, ./name, a symbolic link, a
// hard link, standard input redirected from it, a FILE.partial fallback name) is refused as an output; two
// outputs in one file are refused; unusable paths are named. The files are made here, so each expectation
// follows from how they were made.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include <filesystem>
#include <string>

#include <itch5_test/support.hpp>

#include <itch5/cli/path_guard.hpp>

namespace {

namespace fs = std::filesystem;

class PathGuard : public ::testing::Test {
 protected:
  void SetUp() override {
    input_ = dir_.file("day.itch");
    itch5_test::write_file(input_, itch5_test::to_bytes("input bytes"));
  }

  // The message of the path_error that check() throws (empty if none), and its exit status.
  struct outcome {
    std::string message;
    int status = 0;
  };
  static outcome check(const itch5::cli::path_guard& g) {
    try {
      g.check();
      return {};
    } catch (const itch5::cli::path_error& e) {
      return {e.what(), e.exit_status()};
    }
  }
  static bool has(const outcome& o, const std::string& part) {
    return o.message.find(part) != std::string::npos;
  }

  itch5_test::temp_dir dir_;
  std::string input_;
};

TEST_F(PathGuard, DistinctFilesPass) {
  itch5::cli::path_guard g;
  g.input(input_, "INPUT");
  g.output(dir_.file("inside.txt"), "--output");
  g.output(dir_.file("stats.csv"), "--stats");
  g.output("-", "--depth");
  g.output("", "--unused");  // an output that is off
  EXPECT_EQ(check(g).message, "");
}

// Distinct inputs (the files itch5stats merge adds up) must be different files under any name; ordinary
// inputs may repeat (itch5tde compares a file with itself).
TEST_F(PathGuard, ADistinctInputGivenTwiceUnderAnyNameIsRefused) {
  fs::create_symlink(input_, dir_.file("link"));
  fs::create_hard_link(input_, dir_.file("hard"));
  const std::string dotted = (dir_.path() / "." / "day.itch").string();
  for (const std::string& name : {input_, dotted, dir_.file("link"), dir_.file("hard")}) {
    itch5::cli::path_guard g;
    g.distinct_input(input_, "FILE");
    g.distinct_input(name, "FILE");
    const auto o = check(g);
    EXPECT_TRUE(has(o, "FILE '" + name + "' is the same file as FILE '" + input_ + "'"))
        << name << ": " << o.message;
    EXPECT_EQ(o.status, 2);
  }
  itch5::cli::path_guard g;
  g.input(input_, "A");
  g.input(dir_.file("hard"), "B");
  g.distinct_input(input_, "FILE");
  EXPECT_EQ(check(g).message, "");
}

TEST_F(PathGuard, OutputThatIsTheInputUnderAnyNameIsRefused) {
  fs::create_symlink(input_, dir_.file("link"));
  fs::create_hard_link(input_, dir_.file("hard"));
  const std::string dotted = (dir_.path() / "." / "day.itch").string();
  for (const std::string& name : {input_, dotted, dir_.file("link"), dir_.file("hard")}) {
    itch5::cli::path_guard g;
    g.input(input_, "INPUT");
    g.output(dir_.file("fine.txt"), "--output");
    g.output(name, "--stats");
    const auto o = check(g);
    EXPECT_TRUE(has(o, "--stats '" + name + "' is the same file as INPUT '" + input_ + "'"))
        << name << ": " << o.message;
    EXPECT_EQ(o.status, 2);
  }
  EXPECT_EQ(itch5_test::read_text(input_), "input bytes");
}

TEST_F(PathGuard, TwoOutputsInOneFileAreRefusedWhetherOrNotItExists) {
  for (bool exists : {false, true}) {
    const std::string name = dir_.file(exists ? "old.csv" : "new.csv");
    if (exists) itch5_test::write_file(name, itch5_test::to_bytes("old"));
    itch5::cli::path_guard g;
    g.input(input_, "INPUT");
    g.output(name, "--output");
    g.output((dir_.path() / "." / fs::path(name).filename()).string(), "--stats");
    const auto o = check(g);
    EXPECT_TRUE(has(o, "are the same file")) << o.message;
    EXPECT_TRUE(has(o, "--output '" + name + "'")) << o.message;
    EXPECT_EQ(o.status, 2);
  }
}

TEST_F(PathGuard, AnOutputsPartialNameMustNotBeAnInputOrAnotherOutput) {
  const std::string partial_input = dir_.file("x.partial");
  itch5_test::write_file(partial_input, itch5_test::to_bytes("an input"));
  itch5::cli::path_guard g;
  g.input(partial_input, "INPUT");
  g.output(dir_.file("x"), "--output");
  EXPECT_TRUE(has(check(g), "would keep an incomplete output as")) << check(g).message;

  itch5::cli::path_guard g2;
  g2.input(input_, "INPUT");
  g2.output(dir_.file("y"), "--output");
  g2.output(dir_.file("y.partial"), "--stats");
  EXPECT_TRUE(has(check(g2), "collide")) << check(g2).message;
}

TEST_F(PathGuard, StandardStreamsAtMostOnce) {
  itch5::cli::path_guard in;
  in.input("-", "A");
  in.input("-", "B");
  const auto o = check(in);
  EXPECT_TRUE(has(o, "standard input (-) is given twice, as A and as B")) << o.message;
  EXPECT_EQ(o.status, 2);

  itch5::cli::path_guard out;
  out.input(input_, "INPUT");
  out.output("-", "--output");
  out.output("-", "--stats");
  EXPECT_TRUE(has(check(out), "standard output (-) is given twice, as --output and as --stats"))
      << check(out).message;
}

TEST_F(PathGuard, ADeviceMayTakeSeveralOutputs) {
  itch5::cli::path_guard g;
  g.input(input_, "INPUT");
  g.output("/dev/null", "--output");
  g.output("/dev/null", "--stats");
  EXPECT_EQ(check(g).message, "");
}

TEST_F(PathGuard, UnusablePathsAreNamedWithExitStatus1) {
  fs::create_directory(dir_.file("sub"));
  struct row {
    std::string input, output, expected;
  } rows[] = {
      {dir_.file("missing.itch"), dir_.file("o.txt"),
       dir_.file("missing.itch") + ": cannot open: No such file"},
      {dir_.file("sub"), dir_.file("o.txt"), dir_.file("sub") + ": is a directory, not a file"},
      {input_, dir_.file("sub"), "--output '" + dir_.file("sub") + "' is a directory, not a file"},
      {input_, dir_.file("nodir/o.txt"), "directory '" + dir_.file("nodir") + "': No such file"},
  };
  for (const auto& r : rows) {
    itch5::cli::path_guard g;
    g.input(r.input, "INPUT");
    g.output(r.output, "--output");
    const auto o = check(g);
    EXPECT_TRUE(has(o, r.expected)) << "expected '" << r.expected << "' in '" << o.message << "'";
    EXPECT_EQ(o.status, 1) << o.message;
  }
}

// The checks of ReadOnlyOutputsAndDirectoriesAreRefused, in a directory of the current user; returns what
// went wrong (empty when every check held).
std::string read_only_checks() {
  itch5_test::temp_dir dir;
  const std::string input = dir.file("day.itch"), locked = dir.file("locked.txt");
  itch5_test::write_file(input, itch5_test::to_bytes("input"));
  itch5_test::write_file(locked, itch5_test::to_bytes("keep me"));
  fs::permissions(locked, fs::perms::owner_read);
  fs::create_directory(dir.file("ro"));
  fs::permissions(dir.file("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  std::string problems;
  auto expect = [&](const std::string& output, const std::string& part) {
    itch5::cli::path_guard g;
    g.input(input, "INPUT");
    g.output(output, "--output");
    try {
      g.check();
      problems += output + ": no error; ";
    } catch (const itch5::cli::path_error& e) {
      if (std::string(e.what()).find(part) == std::string::npos) problems += std::string(e.what()) + "; ";
    }
  };
  expect(locked, "exists and is not writable");
  expect(dir.file("ro/o.txt"), "cannot create files in directory");
  fs::permissions(dir.file("ro"), fs::perms::owner_all);
  return problems;
}

TEST_F(PathGuard, ReadOnlyOutputsAndDirectoriesAreRefused) {
  if (::geteuid() != 0) {
    EXPECT_EQ(read_only_checks(), "");
    return;
  }
  // Root may write anything: the checks run in a child process that has become an ordinary user.
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
    const std::string problems = read_only_checks();
    if (!problems.empty()) std::fprintf(stderr, "%s\n", problems.c_str());
    ::_exit(problems.empty() ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 3) GTEST_SKIP() << "cannot become user 65534 here";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the checks failed as user 65534 (see stderr)";
}

TEST_F(PathGuard, AnInputOutputFileIsNeitherAnInputNorAnOutput) {
  const std::string wisdom = dir_.file("wisdom");
  itch5::cli::path_guard g;
  g.input(input_, "A");
  g.input(input_, "B");  // the same file twice as input is fine (two symbols of one file)
  g.input_output(wisdom, "--wisdom");
  g.output(dir_.file("o.csv"), "--output");
  EXPECT_EQ(check(g).message, "");

  itch5::cli::path_guard bad;
  bad.input(input_, "A");
  bad.input_output(input_, "--wisdom");
  EXPECT_TRUE(has(check(bad), "--wisdom '" + input_ + "' is the same file as A")) << check(bad).message;

  itch5::cli::path_guard bad2;
  bad2.input(input_, "A");
  bad2.input_output(wisdom, "--wisdom");
  bad2.output(wisdom, "--output");
  EXPECT_TRUE(has(check(bad2), "is the same file as --wisdom")) << check(bad2).message;
}

TEST_F(PathGuard, StandardInputAndOutputRedirectedFromAndToFiles) {
  // Standard output appended to the input (`tool - >> day.itch < day.itch` would not truncate it first).
  const int saved_out = ::dup(STDOUT_FILENO), saved_in = ::dup(STDIN_FILENO);
  const int fd = ::open(input_.c_str(), O_RDWR | O_APPEND);
  ASSERT_GE(fd, 0);
  ::dup2(fd, STDOUT_FILENO);
  itch5::cli::path_guard g;
  g.input(input_, "INPUT");
  g.output("-", "--output");
  const auto o = check(g);
  ::dup2(saved_out, STDOUT_FILENO);
  EXPECT_TRUE(has(o, "standard output is redirected to INPUT")) << o.message;

  // Standard input read from the file an output names.
  ::dup2(fd, STDIN_FILENO);
  itch5::cli::path_guard g2;
  g2.input("-", "INPUT");
  g2.output(input_, "--output");
  const auto o2 = check(g2);
  ::dup2(saved_in, STDIN_FILENO);
  ::close(fd);
  ::close(saved_out);
  ::close(saved_in);
  EXPECT_TRUE(has(o2, "--output '" + input_ + "' is the same file as INPUT (-)")) << o2.message;
}

}  // namespace
