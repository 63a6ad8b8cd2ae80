// bm_memory: what a random cache line costs on this machine, by working-set size, with and without a
// software prefetch some accesses ahead: the numbers that bound the book engine (an order slot, a book, a
// price level per message, scattered over tens of megabytes).
//
//   build/bench/bm_memory [ACCESSES] [ROUNDS]      defaults: 4,000,000 accesses, 3 rounds
//
// For each working set (1 MiB to 256 MiB, on 2 MiB pages where the kernel grants them, every page touched
// first) it reads one byte of a random line per access, three ways: `chained`, each address depending on
// the byte read before (the latency of a miss: nothing overlaps); `independent`, the addresses known in
// advance (what the out-of-order core overlaps by itself); `prefetched`, independent plus
// itch5::book::detail::prefetch() 16 accesses ahead; `chained, prefetched`, chained plus a prefetch 64
// accesses ahead (the engine's case: each message's loads depend on each other, its look-ahead starts them
// early). Reported: ns per access, the best of ROUNDS rounds. Where `chained` jumps is the last cache level
// this process effectively has (on the 2-core EPYC guests here: between 4 and 16 MiB, though lscpu says 32
// MiB of L3), and `prefetched` at large sizes is how many misses per second the memory system serves however
// early they are asked for.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <itch5/book/detail/huge_buffer.hpp>
#include <itch5/book/detail/prefetch.hpp>

namespace {

enum class mode { chained, independent, prefetched, chained_prefetched };

// ns per access over `lines` (indices of 64-byte lines of `base`).
double run(const char* base, const std::vector<std::uint32_t>& lines, mode m) {
  const std::size_t ahead = m == mode::chained_prefetched ? 64 : 16;
  std::uint64_t sum = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t n = lines.size();
  for (std::size_t i = 0; i < n; ++i) {
    if ((m == mode::prefetched || m == mode::chained_prefetched) && i + ahead < n)
      itch5::book::detail::prefetch(base + std::size_t{lines[i + ahead]} * 64);
    std::size_t line = lines[i];
    if (m == mode::chained || m == mode::chained_prefetched)
      line ^= sum & 1;  // the address waits for the byte read before
    sum = sum * 31 + static_cast<unsigned char>(base[line * 64 + 11]);
  }
  const auto t1 = std::chrono::steady_clock::now();
  if (sum == 42) std::puts("");  // keeps the reads
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(n);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t accesses = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4'000'000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  if (accesses == 0 || rounds <= 0) {
    std::fprintf(stderr, "usage: bm_memory [ACCESSES > 0] [ROUNDS > 0]\n");
    return 2;
  }
  std::printf(
      "| working set | chained ns | independent ns | prefetched ns | chained, prefetched ns |\n"
      "|---:|---:|---:|---:|---:|\n");
  for (std::size_t mib : {1, 2, 4, 8, 16, 32, 64, 256}) {
    const std::size_t bytes = mib << 20;
    itch5::book::detail::huge_buffer memory(bytes, itch5::book::detail::huge_buffer::fault::now);
    char* base = reinterpret_cast<char*>(memory.data());
    for (std::size_t at = 0; at < bytes; at += 64) base[at + 11] = static_cast<char>(at >> 6);
    std::vector<std::uint32_t> lines(accesses);
    std::uint64_t x = 0x9e3779b97f4a7c15ULL ^ mib;
    for (auto& l : lines) {  // xorshift64
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      l = static_cast<std::uint32_t>(x % (bytes / 64));
    }
    double best[4] = {1e300, 1e300, 1e300, 1e300};
    for (int r = 0; r < rounds; ++r) {
      for (mode m : {mode::chained, mode::independent, mode::prefetched, mode::chained_prefetched}) {
        const auto k = static_cast<std::size_t>(m);
        best[k] = std::min(best[k], run(base, lines, m));
      }
    }
    std::printf("| %zu MiB | %.1f | %.1f | %.1f | %.1f |\n", mib, best[0], best[1], best[2], best[3]);
    std::fflush(stdout);
  }
  return 0;
}
