// A histogram of unsigned 64-bit values with bounded relative error and bounded memory.
//
// Values below 128 have one bucket each (exact). Above, every power of two is split into 64 buckets, so a
// bucket spans at most 1/64 of its lower bound; quantiles report the bucket's midpoint, within 1/128
// (0.8%) of the true sample value, clamped to the exact minimum and maximum. Counts are 64-bit and a
// sample may carry a weight (many equal samples at once). Storage covers only the bucket range seen so
// far: at most 3,776 counters (30 KB) whatever the values, typically a few hundred.
//
// quantile(q) is the nearest-rank quantile: the smallest value v such that at least ceil(q * N) of the N
// samples are <= v (q = 0 gives the minimum). Complexity: record O(1) amortised, quantile O(buckets),
// quantiles() of increasing q's O(buckets) for all of them.
// Not thread-safe.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace itch5::stats {

class log_linear_histogram {
 public:
  static constexpr int sub_bucket_bits = 6;
  static constexpr std::uint64_t exact_below = std::uint64_t{2} << sub_bucket_bits;  // 128
  /// Buckets 0..127 are exact; then 64 per power of two for shifts 1..57 (bucket_of(UINT64_MAX) + 1).
  static constexpr std::size_t bucket_count =
      (64 - sub_bucket_bits + 1) * (std::size_t{1} << sub_bucket_bits);

  void record(std::uint64_t value, std::uint64_t weight = 1) {
    if (weight == 0) [[unlikely]]
      return;
    // The common case, a bucket inside the range already stored, in a few instructions that inline into the
    // caller (the statistics record ~10 samples per event); the rest out of line.
    const std::size_t i = bucket_of(value) - base_;  // wraps around below base_
    if (i < counts_.size()) [[likely]] {
      counts_[i] += weight;
      total_ += weight;
    } else {
      record_bucket(base_ + i, weight);
    }
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }

  /// record(value_of(x)) for every x in [first, last), each with weight 1: the same histogram as those
  /// calls, faster for a run of samples that share a histogram (the depth statistics' samples of one
  /// symbol). The counters' place, the count and the extremes stay in locals for the run: with record()
  /// per sample they are reloaded after every counter's store, which the compiler cannot prove elsewhere.
  template <class It, class ValueOf>
  void record_all(It first, It last, ValueOf value_of) {
    std::uint64_t* counts = counts_.data();
    std::size_t stored = counts_.size();
    std::size_t base = base_;
    std::uint64_t added = 0;  // to total_, for the samples counted in `counts`
    std::uint64_t lo = min_;
    std::uint64_t hi = max_;
    for (; first != last; ++first) {
      const std::uint64_t value = value_of(*first);
      const std::size_t i = bucket_of(value) - base;  // wraps around below base
      if (i < stored) [[likely]] {
        ++counts[i];
        ++added;
      } else {
        record_bucket(base + i, 1);  // counts it in total_ itself; may move the counters
        counts = counts_.data();
        stored = counts_.size();
        base = base_;
      }
      lo = std::min(lo, value);
      hi = std::max(hi, value);
    }
    total_ += added;
    min_ = lo;
    max_ = hi;
  }

  /// Starts loading the counter that record(value) would add to, if it is stored already (a caller that
  /// knows its next samples ahead hides the cache miss of a histogram spread over many lines).
  void prefetch(std::uint64_t value) const noexcept {
    const std::size_t i = bucket_of(value) - base_;
    if (i < counts_.size()) __builtin_prefetch(counts_.data() + i, 1);
  }

  [[nodiscard]] std::uint64_t count() const noexcept { return total_; }
  [[nodiscard]] std::uint64_t min() const noexcept { return total_ == 0 ? 0 : min_; }
  [[nodiscard]] std::uint64_t max() const noexcept { return max_; }

  /// Nearest-rank quantile (see the header comment); 0 for an empty histogram.
  [[nodiscard]] std::uint64_t quantile(double q) const noexcept {
    std::uint64_t v = 0;
    quantiles(std::span<const double>(&q, 1), std::span<std::uint64_t>(&v, 1));
    return v;
  }

  /// quantile(qs[i]) into out[i] for every i, in one walk over the buckets when `qs` is in increasing
  /// order (a table row's quantiles: the statistics CSVs ask ~50 per symbol), else one walk each.
  /// `out` has at least qs.size() elements.
  void quantiles(std::span<const double> qs, std::span<std::uint64_t> out) const noexcept {
    std::size_t k = 0;       // the bucket the walk is at
    std::uint64_t seen = 0;  // samples in buckets before k
    double last = 0;
    for (std::size_t i = 0; i < qs.size(); ++i) {
      const double q = qs[i];
      if (total_ == 0) {
        out[i] = 0;
        continue;
      }
      if (q <= 0) {
        out[i] = min_;
        continue;
      }
      if (q >= 1) {
        out[i] = max_;
        continue;
      }
      if (q < last) {  // out of order: walk again from the first bucket
        k = 0;
        seen = 0;
      }
      last = q;
      // rank = ceil(q * N), forgiving the representation error of q: 0.07 is stored as
      // 0.0700000000000000067, so 0.07 * 100 would otherwise give rank 8. A product within 1e-12
      // (relative) above an integer is taken as that integer.
      const double r = q * static_cast<double>(total_);
      auto rank = static_cast<std::uint64_t>(std::ceil(r - r * 1e-12));
      rank = std::clamp<std::uint64_t>(rank, 1, total_);
      // The rank's bucket: the first k whose counts up to and including it reach the rank.
      while (k < counts_.size() && seen + counts_[k] < rank) seen += counts_[k++];
      out[i] = k < counts_.size() ? std::clamp(representative(base_ + k), min_, max_) : max_;
    }
  }

  /// Adds every sample of `other`.
  void merge(const log_linear_histogram& other) {
    for (std::size_t k = 0; k < other.counts_.size(); ++k) {
      if (other.counts_[k] != 0) record_bucket(other.base_ + k, other.counts_[k]);
    }
    if (other.total_ != 0) {
      min_ = std::min(min_, other.min_);
      max_ = std::max(max_, other.max_);
    }
  }

  [[nodiscard]] std::size_t memory_bytes() const noexcept {
    return counts_.capacity() * sizeof(std::uint64_t);
  }

  /// Calls f(bucket index, count) for every bucket holding samples, in increasing index order (for
  /// serialization: stats/histogram_file.hpp).
  template <class F>
  void for_each_bucket(F&& f) const {
    for (std::size_t k = 0; k < counts_.size(); ++k) {
      if (counts_[k] != 0) f(base_ + k, counts_[k]);
    }
  }

  /// Rebuilds a histogram from its parts: adds `n` samples to bucket `i` (< bucket_count) without touching
  /// the extremes; restore_extremes() then sets them. The caller checks that min and max lie in the first
  /// and last buckets (histogram_file's reader does).
  void add_to_bucket(std::size_t i, std::uint64_t n) {
    if (n != 0) record_bucket(i, n);
  }
  void restore_extremes(std::uint64_t min, std::uint64_t max) noexcept {
    if (total_ == 0) return;
    min_ = min;
    max_ = max;
  }

  /// Same samples per bucket, same count and same extremes (storage layout aside).
  friend bool operator==(const log_linear_histogram& a, const log_linear_histogram& b) {
    if (a.total_ != b.total_ || a.min() != b.min() || a.max() != b.max()) return false;
    std::vector<std::pair<std::size_t, std::uint64_t>> x, y;
    a.for_each_bucket([&x](std::size_t i, std::uint64_t n) { x.emplace_back(i, n); });
    b.for_each_bucket([&y](std::size_t i, std::uint64_t n) { y.emplace_back(i, n); });
    return x == y;
  }

  /// Bucket index of `v` and the range [lower, upper] of values sharing it (exposed for tests).
  [[nodiscard]] static std::size_t bucket_of(std::uint64_t v) noexcept {
    if (v < exact_below) return static_cast<std::size_t>(v);
    const int shift = static_cast<int>(std::bit_width(v)) - 1 - sub_bucket_bits;  // >= 1
    return static_cast<std::size_t>((std::uint64_t{1} << sub_bucket_bits) * static_cast<unsigned>(shift) +
                                    (v >> shift));
  }
  [[nodiscard]] static std::uint64_t bucket_lower(std::size_t i) noexcept {
    if (i < exact_below) return i;
    const std::size_t shift = i / (std::size_t{1} << sub_bucket_bits) - 1;
    return (i - (std::size_t{1} << sub_bucket_bits) * shift) << shift;
  }
  [[nodiscard]] static std::uint64_t bucket_upper(std::size_t i) noexcept {
    if (i < exact_below) return i;
    const std::size_t shift = i / (std::size_t{1} << sub_bucket_bits) - 1;
    const std::uint64_t lower = bucket_lower(i);
    const std::uint64_t width = std::uint64_t{1} << shift;
    return lower > std::numeric_limits<std::uint64_t>::max() - (width - 1)
               ? std::numeric_limits<std::uint64_t>::max()
               : lower + (width - 1);
  }

 private:
  static std::uint64_t representative(std::size_t i) noexcept {
    const std::uint64_t lo = bucket_lower(i), hi = bucket_upper(i);
    return lo + (hi - lo) / 2;
  }

  static constexpr std::size_t max_buckets = bucket_count;

  // Grows the capacity geometrically, but never beyond the number of buckets that exist, so that the
  // memory bound stated above holds (plain vector growth could reach 4,096+ counters).
  void reserve_for(std::size_t n) {
    if (n > counts_.capacity()) counts_.reserve(std::min(max_buckets, std::max(n, 2 * counts_.capacity())));
  }

  [[gnu::noinline]] void record_bucket(std::size_t i, std::uint64_t n) {
    if (counts_.empty()) {
      base_ = i;
      counts_.assign(1, 0);
    } else if (i < base_) {
      reserve_for(counts_.size() + (base_ - i));
      counts_.insert(counts_.begin(), base_ - i, 0);
      base_ = i;
    } else if (i >= base_ + counts_.size()) {
      reserve_for(i - base_ + 1);
      counts_.resize(i - base_ + 1, 0);
    }
    counts_[i - base_] += n;
    total_ += n;
  }

  std::vector<std::uint64_t> counts_;
  std::size_t base_ = 0;
  std::uint64_t total_ = 0;
  std::uint64_t min_ = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_ = 0;
};

}  // namespace itch5::stats
