// The k-way merge of the sharded run's merger (inside/src/shard_merger.hpp), on its own so that it can be
// tested alone: several sequences, each in ascending message index, visited in ascending message index
// overall, in runs (as many entries of one sequence as come before every other sequence's next one), so
// that the merger copies a thread's consecutive lines in one piece. O(total entries x sequences) at worst,
// O(runs x sequences) compares; no allocation once `at` has grown. Internal: no stable interface.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace itch5::inside::detail {

/// Visits the entries of `streams` sequences, each in ascending message index, in ascending message index
/// overall: calls take(s, first, last) for each run [first, last) of sequence s whose indices are below the
/// next index of every other sequence (at least one entry; of equal indices, the lower s goes first).
/// size_of(s) is the length of sequence s, index_of(s, j) the index of its entry j; `at` is scratch space.
template <class SizeOf, class IndexOf, class Take>
void merge_by_index(std::vector<std::size_t>& at, unsigned streams, const SizeOf& size_of,
                    const IndexOf& index_of, const Take& take) {
  at.assign(streams, 0);
  for (;;) {
    unsigned best = streams;
    std::uint32_t best_index = ~std::uint32_t{0};
    std::uint32_t second = ~std::uint32_t{0};
    for (unsigned s = 0; s < streams; ++s) {
      if (at[s] == size_of(s)) continue;
      const std::uint32_t i = index_of(s, at[s]);
      if (best == streams || i < best_index) {
        second = best_index;
        best_index = i;
        best = s;
      } else if (i < second) {
        second = i;
      }
    }
    if (best == streams) return;
    const std::size_t first = at[best];
    const std::size_t size = size_of(best);
    std::size_t last = first + 1;
    while (last < size && index_of(best, last) < second) ++last;
    take(best, first, last);
    at[best] = last;
  }
}

}  // namespace itch5::inside::detail
