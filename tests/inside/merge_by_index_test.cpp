// detail::merge_by_index, the k-way merge of the sharded run's merger (lines and feed samples of the book
// threads back into message order): the order it visits entries in, the runs it hands over, empty and
// single sequences, and equal indices.
#include <itch5/inside/detail/merge_by_index.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

namespace {

using sequences = std::vector<std::vector<std::uint32_t>>;
using run = std::tuple<unsigned, std::size_t, std::size_t>;  // sequence, first, last

std::vector<run> runs_of(const sequences& in) {
  std::vector<std::size_t> at{7, 7, 7};  // scratch left over from an earlier merge
  std::vector<run> out;
  itch5::inside::detail::merge_by_index(
      at, static_cast<unsigned>(in.size()), [&](unsigned s) { return in[s].size(); },
      [&](unsigned s, std::size_t j) { return in[s][j]; },
      [&](unsigned s, std::size_t first, std::size_t last) { out.emplace_back(s, first, last); });
  return out;
}

std::vector<std::uint32_t> visited(const sequences& in) {
  std::vector<std::uint32_t> out;
  for (const auto& [s, first, last] : runs_of(in)) {
    for (std::size_t j = first; j < last; ++j) out.push_back(in[s][j]);
  }
  return out;
}

TEST(MergeByIndex, VisitsEveryEntryInMessageOrderInMaximalRuns) {
  const sequences in{{0, 1, 2, 7, 8}, {3, 4, 9}, {5, 6, 10, 11}};
  EXPECT_EQ(visited(in), (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(runs_of(in),
            (std::vector<run>{{0, 0, 3}, {1, 0, 2}, {2, 0, 2}, {0, 3, 5}, {1, 2, 3}, {2, 2, 4}}));
}

TEST(MergeByIndex, EmptySequencesAreSkipped) {
  EXPECT_TRUE(runs_of({}).empty());
  EXPECT_TRUE(runs_of({{}, {}, {}}).empty());
  EXPECT_EQ(runs_of({{}, {4, 9}, {}}), (std::vector<run>{{1, 0, 2}}));
  EXPECT_EQ(runs_of({{2}, {}, {1, 3}}), (std::vector<run>{{2, 0, 1}, {0, 0, 1}, {2, 1, 2}}));
}

TEST(MergeByIndex, OneSequenceIsOneRun) {
  EXPECT_EQ(runs_of({{3, 5, 16383}}), (std::vector<run>{{0, 0, 3}}));
}

TEST(MergeByIndex, EqualIndicesGoOneAtATimeLowerSequenceFirst) {
  // Does not occur in a run (a message makes at most one line and one sample), but must not loop.
  EXPECT_EQ(runs_of({{1, 2}, {1, 2}}), (std::vector<run>{{0, 0, 1}, {1, 0, 1}, {0, 1, 2}, {1, 1, 2}}));
}

}  // namespace
