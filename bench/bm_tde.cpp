// bm_tde: cost of one cross-correlation delay estimate (itch5::tde::delay_estimator<double>) next to the bare
// FFTW transforms it is built on, and of estimating many series in a batch.
//
// Per N in {2048, 4096, 16384, 65536} (max_lag N/16, so the padded length M is the estimator's
// next_fast_length(N + N/16 + 1)), three test cases over the same M, planned with the same rigor:
//   estimate_N  one estimate(a, b): mean removal, 2 r2c, cross spectrum, 1 c2r, peak search, confidence;
//   pair_N      a bare r2c + c2r pair of length M;
//   three_N     the estimator's three bare transforms (2 r2c + 1 c2r) and nothing else.
// estimate_N / three_N is the estimator's overhead around FFTW (the target is within 1.5x).
// For 80 series of --size samples (default 4096):
//   batch_80    one estimator, one batch call for the 80 pairs (plans and buffers reused);
//   loop_80     one estimator, 80 single estimate() calls;
//   fresh_80    a new estimator per pair: planning (with the wisdom the process already holds) and
//               buffer allocation every time, what batching avoids.
// Inputs: seeded white noise, b = a delayed by 7 samples plus noise. Setup and planning are not timed.
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <microbench/suite.hpp>
#include <itch5/tde/estimate/delay_estimator.hpp>
#include <itch5/tde/fft/fft_buffer.hpp>
#include <itch5/tde/fft/fft_plan.hpp>

#include <itch5/cli/options.hpp>

namespace {

using plan_text = std::reference_wrapper<const std::string>;
constexpr std::size_t batch_count = 80;

itch5::tde::estimator_options estimator_options(std::size_t n, const std::string& plan) {
  itch5::tde::estimator_options o;
  o.length = n;
  o.max_lag = n / 16;
  o.rigor = itch5::tde::parse_plan_rigor(plan);
  return o;
}

// a: white noise; b: a delayed by 7 samples plus weaker noise of its own.
void make_pair(std::size_t n, std::uint64_t seed, std::vector<double>& a, std::vector<double>& b) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0, 1);
  a.resize(n);
  b.resize(n);
  for (auto& x : a) x = noise(rng);
  for (std::size_t i = 0; i < n; ++i) b[i] = (i >= 7 ? a[i - 7] : 0.0) + 0.3 * noise(rng);
}

std::uint64_t bits(double v) {
  std::uint64_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

class estimate_fixture {
 public:
  estimate_fixture(const microbench::config& cfg, std::size_t n, plan_text plan)
      : estimator_(estimator_options(n, plan.get())) {
    make_pair(n, cfg.seed, a_, b_);
  }
  std::uint64_t run() { return bits(estimator_.estimate(a_, b_).delay); }

 private:
  itch5::tde::delay_estimator<double> estimator_;
  std::vector<double> a_, b_;
};

// The bare transforms of the estimator's length: `forward` r2c and one c2r per iteration.
class transforms_fixture {
 public:
  transforms_fixture(const microbench::config& cfg, std::size_t n, int forward, plan_text plan)
      : m_(itch5::tde::delay_estimator<double>::fft_length_for(estimator_options(n, plan.get()))),
        forward_count_(forward),
        a_(m_),
        b_(m_),
        out_(m_),
        fa_(m_ / 2 + 1),
        fb_(m_ / 2 + 1) {
    const auto rigor = itch5::tde::parse_plan_rigor(plan.get());
    forward_ = itch5::tde::r2c_plan<double>(m_, a_.span(), fa_.span(), rigor);
    inverse_ = itch5::tde::c2r_plan<double>(m_, fa_.span(), out_.span(), rigor);
    std::vector<double> a, b;
    make_pair(n, cfg.seed, a, b);
    std::copy(a.begin(), a.end(), a_.begin());  // after planning, which may overwrite the arrays
    std::copy(b.begin(), b.end(), b_.begin());
  }
  std::uint64_t run() {
    forward_.execute(a_.span(), fa_.span());
    if (forward_count_ == 2) forward_.execute(b_.span(), fb_.span());
    inverse_.execute(fa_.span(), out_.span());
    return bits(out_[7]);
  }

 private:
  std::size_t m_;
  int forward_count_;
  itch5::tde::fft_buffer<double> a_, b_, out_;
  itch5::tde::fft_buffer<std::complex<double>> fa_, fb_;
  itch5::tde::r2c_plan<double> forward_;
  itch5::tde::c2r_plan<double> inverse_;
};

enum class batch_mode { batch, loop, fresh };

class many_fixture {
 public:
  many_fixture(const microbench::config& cfg, batch_mode mode, plan_text plan)
      : mode_(mode),
        options_(estimator_options(static_cast<std::size_t>(cfg.size), plan.get())),
        estimator_(options_),
        series_(batch_count),
        out_(batch_count) {
    for (std::size_t i = 0; i < batch_count; ++i) {
      make_pair(options_.length, cfg.seed + i, series_[i].first, series_[i].second);
      pairs_.push_back({series_[i].first, series_[i].second});
    }
  }
  std::uint64_t run() {
    switch (mode_) {
      case batch_mode::batch: estimator_.estimate(pairs_, out_); break;
      case batch_mode::loop:
        for (std::size_t i = 0; i < batch_count; ++i) out_[i] = estimator_.estimate(pairs_[i].a, pairs_[i].b);
        break;
      case batch_mode::fresh:
        for (std::size_t i = 0; i < batch_count; ++i) {
          itch5::tde::delay_estimator<double> fresh(options_);
          out_[i] = fresh.estimate(pairs_[i].a, pairs_[i].b);
        }
        break;
    }
    std::uint64_t sum = 0;
    for (const auto& r : out_) sum += static_cast<std::uint64_t>(r.lag);
    return sum;
  }
  [[nodiscard]] std::uint64_t items_per_iteration() const { return batch_count; }

 private:
  batch_mode mode_;
  itch5::tde::estimator_options options_;
  itch5::tde::delay_estimator<double> estimator_;
  std::vector<std::pair<std::vector<double>, std::vector<double>>> series_;
  std::vector<itch5::tde::series_pair<double>> pairs_;
  std::vector<itch5::tde::delay_estimate> out_;
};

}  // namespace

int main(int argc, char** argv) {
  microbench::suite s(
      "bm_tde",
      "Times one itch5::tde::delay_estimator<double> estimate against the bare FFTW transforms of the "
      "same padded length, and batched against one-by-one estimation of 80 series.");
  s.defaults().size = 4096;
  s.defaults().iterations = 100;
  s.defaults().warmup = 10;
  std::string plan = "measure";  // outlives the suite's test cases, which hold a reference
  s.options()
      .add("plan", plan, "FFTW planning rigor for every test case (planning is not timed).")
      .choices({"estimate", "measure", "patient"});
  s.options().epilog(
      "Test cases: estimate_N, pair_N (r2c + c2r), three_N (2 r2c + 1 c2r) for N = 2048, 4096, 16384, 65536 "
      "samples with max_lag N/16, all at the estimator's padded length M; batch_80, loop_80, fresh_80 for 80 "
      "series of --size samples (the summary adds ns per series).\n");
  for (std::size_t n : {2048u, 4096u, 16384u, 65536u}) {
    const std::string suffix = "_" + std::to_string(n);
    s.add<estimate_fixture>("estimate" + suffix, n, std::cref(plan));
    s.add<transforms_fixture>("pair" + suffix, n, 1, std::cref(plan));
    s.add<transforms_fixture>("three" + suffix, n, 2, std::cref(plan));
  }
  s.add<many_fixture>("batch_80", batch_mode::batch, std::cref(plan));
  s.add<many_fixture>("loop_80", batch_mode::loop, std::cref(plan));
  s.add<many_fixture>("fresh_80", batch_mode::fresh, std::cref(plan));
  return s.main(argc, argv);
}
