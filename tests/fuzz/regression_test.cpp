// Replays the fuzz targets' entry points (compiled in without libFuzzer) over the kept regression inputs
// (inputs that once crashed or hung a target) and over the shipped sample files.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int fuzz_reader_entry(const std::uint8_t* data, std::size_t size);
extern "C" int fuzz_inside_entry(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> inputs(const std::string& target) {
  std::vector<std::filesystem::path> files;
  for (const auto& dir : {std::filesystem::path(ITCH5_FUZZ_REGRESSIONS) / target, std::filesystem::path(ITCH5_DATA_DIR)}) {
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
    }
  }
  return files;
}

std::vector<std::uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(FuzzRegressions, ReaderTarget) {
  auto files = inputs("reader");
  ASSERT_FALSE(files.empty());
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    auto bytes = slurp(f);
    EXPECT_EQ(fuzz_reader_entry(bytes.data(), bytes.size()), 0);
  }
}

TEST(FuzzRegressions, InsideTarget) {
  for (const auto& f : inputs("inside")) {
    SCOPED_TRACE(f.string());
    auto bytes = slurp(f);
    EXPECT_EQ(fuzz_inside_entry(bytes.data(), bytes.size()), 0);
  }
}

}  // namespace
