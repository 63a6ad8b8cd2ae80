// Internal: the samples of a batch grouped by stock locate with a stable counting sort, for the batched
// recording of feed_statistics and depth_statistics (each symbol's series then takes its run at once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace itch5::stats::detail {

/// `out` = `in` ordered by Sample::locate (< `locates`), samples of one locate in their order in `in`;
/// On return `starts[l]` is where locate l's run ends in `out` (and so where l + 1's begins); its storage
/// is kept for the next batch.
template <class Sample>
void group_by_locate(const std::vector<Sample>& in, std::size_t locates, std::vector<std::uint32_t>& starts,
                     std::vector<Sample>& out) {
  starts.assign(locates + 1, 0);
  for (const Sample& s : in) ++starts[std::size_t{s.locate} + 1];
  for (std::size_t i = 1; i < starts.size(); ++i) starts[i] += starts[i - 1];
  out.resize(in.size());
  for (const Sample& s : in) out[starts[s.locate]++] = s;
}

}  // namespace itch5::stats::detail
