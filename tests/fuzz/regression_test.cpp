// Replays the fuzz targets' entry points (compiled in without libFuzzer) over their committed corpus
// (tests/fuzz/corpus/<target>/, minimised coverage of earlier fuzzing), their kept regression inputs
// (tests/fuzz/regressions/<target>/: inputs that once crashed or hung a target) and, for the ITCH targets,
// the shipped sample files. A target's corpus must hold at least min_corpus inputs that ran and its
// regressions folder at least min_regressions inputs, so a missing or emptied directory fails here instead
// of passing with nothing replayed.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

extern "C" int fuzz_reader_entry(const std::uint8_t* data, std::size_t size);
extern "C" int fuzz_inside_entry(const std::uint8_t* data, std::size_t size);
extern "C" int fuzz_options_entry(const std::uint8_t* data, std::size_t size);
extern "C" int fuzz_inside_reader_entry(const std::uint8_t* data, std::size_t size);

namespace {

struct fuzz_target {
  std::string name;  ///< directory name under corpus/ and regressions/
  int (*entry)(const std::uint8_t*, std::size_t);
};

// Inputs in the committed corpus of every target at least (they hold a few hundred each).
constexpr std::size_t min_corpus = 50;
// Inputs in the kept regressions of every target at least (each has kept one or two so far).
constexpr std::size_t min_regressions = 1;

std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
  }
  return files;
}

std::vector<std::uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Runs every input; returns how many ran (entry returned 0). -1 is a target declining an input (libFuzzer's
// convention, see fuzz_inside.cpp), anything else a failure.
std::size_t replay(const fuzz_target& t, const std::vector<std::filesystem::path>& files) {
  std::size_t ran = 0;
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    auto bytes = slurp(f);
    const int r = t.entry(bytes.data(), bytes.size());
    EXPECT_TRUE(r == 0 || r == -1) << "returned " << r;
    ran += r == 0;
  }
  return ran;
}

// Names the target in failure messages instead of dumping the struct's bytes.
void PrintTo(const fuzz_target& t, std::ostream* os) { *os << t.name; }

class FuzzRegressions : public ::testing::TestWithParam<fuzz_target> {};

TEST_P(FuzzRegressions, CorpusRunsAndIsNotEmpty) {
  const std::size_t ran =
      replay(GetParam(), files_in(std::filesystem::path(ITCH5_FUZZ_DIR) / "corpus" / GetParam().name));
  EXPECT_GE(ran, min_corpus) << "tests/fuzz/corpus/" << GetParam().name
                             << "/ is missing or nearly empty (see scripts/fuzz for how to rebuild it)";
}

TEST_P(FuzzRegressions, KeptRegressionsRun) {
  const auto files = files_in(std::filesystem::path(ITCH5_FUZZ_DIR) / "regressions" / GetParam().name);
  EXPECT_GE(files.size(), min_regressions) << "tests/fuzz/regressions/" << GetParam().name
                                           << "/ is missing or holds no input (besides its README.md)";
  replay(GetParam(), files);
}

// The ITCH targets also take every shipped sample whole.
TEST(FuzzSamples, ItchTargetsRunEverySample) {
  const auto files = files_in(ITCH5_DATA_DIR);
  ASSERT_FALSE(files.empty());
  EXPECT_EQ(replay(fuzz_target{"reader", fuzz_reader_entry}, files), files.size());
  EXPECT_EQ(replay(fuzz_target{"inside", fuzz_inside_entry}, files), files.size());
}

INSTANTIATE_TEST_SUITE_P(fuzz, FuzzRegressions,
                         ::testing::Values(fuzz_target{"reader", fuzz_reader_entry},
                                           fuzz_target{"inside", fuzz_inside_entry},
                                           fuzz_target{"options", fuzz_options_entry},
                                           fuzz_target{"inside_reader", fuzz_inside_reader_entry}),
                         [](const ::testing::TestParamInfo<fuzz_target>& param_info) {
                           return param_info.param.name;
                         });

}  // namespace
