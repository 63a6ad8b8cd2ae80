// bm_feed_statistics: the statistics thread's work for --stats, alone: one iteration records a stream of
// samples (stock locate, feed timestamp, processing time) into a fresh stats::feed_statistics and
// finishes it (the table is built, not formatted). No books and no other thread, so a change to the rate
// windows, the histograms or the batching shows in its own time rather than in the noise of a 5-thread
// run on 2 cores.
//
//   build/tools/itch5inside day.itch -o inside.txt
//   build/bench/bm_feed_statistics --inside inside.txt -n 5 --warmup 1
//
// With --inside, the samples are those of a real run: each inside change's timestamp and locate (the inside
// file's first two fields; --stats samples exactly these). Without it, --size samples of a generated stream:
// 3,000 symbols of skewed activity (symbol floor(3000 u^3), u uniform), exponential gaps of 1 us on average.
// Processing times are drawn from a seeded log-uniform distribution over 20 ns to 20 us (about the span the
// books' thread measures), so the processing histograms spread as in a run. Setup also prints, on stderr,
// a digest of the table's CSV: equal across builds that compute the same statistics.
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <itch5/cli/options.hpp>
#include <itch5/stats/feed_statistics.hpp>
#include <itch5/stats/statistics_tables.hpp>

#include <microbench/suite.hpp>

namespace {

struct bench_options {
  std::string inside;  // an inside file to take the samples from; empty: a generated stream
};

struct sample {
  std::int64_t ts;
  std::int64_t took;
  std::uint16_t locate;
};

class feed_fixture {
 public:
  feed_fixture(const microbench::config& cfg, const bench_options& opts) {
    std::mt19937_64 rng(cfg.seed);
    std::uniform_real_distribution<double> exponent(std::log(20.0), std::log(20'000.0));
    const auto took = [&] { return static_cast<std::int64_t>(std::exp(exponent(rng))); };
    if (!opts.inside.empty()) {
      read_inside(opts.inside, took);
    } else {
      std::uniform_real_distribution<double> u(0.0, 1.0);
      std::exponential_distribution<double> gap(1.0 / 1000.0);  // ns
      double t = 4.0 * 3600e9;
      for (std::uint64_t i = 0; i < cfg.size; ++i) {
        t += gap(rng);
        const double x = u(rng);
        samples_.push_back(
            {static_cast<std::int64_t>(t), took(), static_cast<std::uint16_t>(1 + 3000 * x * x * x)});
      }
    }
    if (samples_.empty()) throw std::runtime_error("bm_feed_statistics: no samples");
    std::uint64_t digest = 14695981039346656037ull;  // FNV-1a of the table's CSV
    for (const char c : itch5::stats::feed_csv(table())) {
      digest = (digest ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    }
    std::fprintf(stderr, "bm_feed_statistics: %zu samples, table digest %016llx\n", samples_.size(),
                 static_cast<unsigned long long>(digest));
  }

  /// Records every sample into a fresh feed_statistics and builds its table.
  std::uint64_t run() { return table().aggregate.samples; }

  [[nodiscard]] std::uint64_t items_per_iteration() const noexcept { return samples_.size(); }

 private:
  template <class Took>
  void read_inside(const std::string& path, Took& took) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("bm_feed_statistics: cannot open " + path);
    std::string line;
    while (std::getline(in, line)) {
      const char* const end = line.data() + line.size();
      std::int64_t ts = 0;
      unsigned locate = 0;
      auto r = std::from_chars(line.data(), end, ts);
      if (r.ec != std::errc{} || r.ptr == end) continue;
      r = std::from_chars(r.ptr + 1, end, locate);
      if (r.ec != std::errc{} || locate > 0xffff) continue;
      samples_.push_back({ts, took(), static_cast<std::uint16_t>(locate)});
    }
  }

  itch5::stats::feed_table table() const {
    itch5::stats::feed_statistics feed;
    for (const sample& s : samples_) {
      feed.record(s.locate, std::chrono::nanoseconds(s.ts), std::chrono::nanoseconds(s.took));
    }
    return feed.finish([](std::uint16_t locate) { return std::to_string(locate); });
  }

  std::vector<sample> samples_;
};

static_assert(microbench::fixture<feed_fixture, const bench_options&>);

}  // namespace

int main(int argc, char** argv) {
  microbench::suite s(
      "bm_feed_statistics",
      "Times stats::feed_statistics (the --stats table: per-symbol and aggregate rate windows "
      "and histograms) recording a stream of samples and building its table. One iteration "
      "is the whole stream into a fresh table.");
  s.defaults().size = 1'000'000;
  s.defaults().iterations = 10;
  s.defaults().warmup = 1;
  bench_options opts;
  s.options().add("inside", opts.inside,
                  "An inside file (itch5inside -o): its changes' timestamps and locates are the samples, as "
                  "in an itch5inside --stats run of that day. Empty: --size generated samples.");
  s.options().epilog(
      "--size is the number of generated samples (without --inside). The summary adds ns/sample.\n\n"
      "Test cases: feed.\n");
  s.add<feed_fixture>("feed", std::cref(opts));
  return s.main(argc, argv);
}
