#include <microbench/summary.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace microbench {

std::int64_t nearest_rank(std::span<const std::int64_t> sorted, std::uint64_t num,
                          std::uint64_t den) noexcept {
  const std::uint64_t n = sorted.size();
  // k = ceil(num * n / den) without overflow: with n = q * den + r, num * n / den = num * q + num * r / den,
  // where num * q <= n and num * r < den * den <= 2^64 (den <= 2^32 by precondition).
  const std::uint64_t q = n / den, r = n % den;
  auto k = num * q + (num * r + den - 1) / den;
  if (k == 0) k = 1;  // q = 0 (or a tiny q): the minimum
  if (k > n) k = n;
  return sorted[k - 1];
}

summary summary::of(std::span<const std::int64_t> samples) {
  summary s;
  if (samples.empty()) return s;
  std::vector<std::int64_t> v(samples.begin(), samples.end());
  std::sort(v.begin(), v.end());
  s.n = v.size();
  s.min = v.front();
  s.p25 = nearest_rank(v, 25, 100);
  s.p50 = nearest_rank(v, 50, 100);
  s.p75 = nearest_rank(v, 75, 100);
  s.p90 = nearest_rank(v, 90, 100);
  s.p99 = nearest_rank(v, 99, 100);
  s.p999 = nearest_rank(v, 999, 1000);
  s.max = v.back();
  return s;
}

std::string summary::line(std::string_view name, std::uint64_t items_per_iteration,
                          std::string_view unit) const {
  std::string out(name);
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      ": N %llu | ns/%.*s min %lld p25 %lld p50 %lld p75 %lld p90 %lld p99 %lld p99.9 %lld max %lld",
      static_cast<unsigned long long>(n), static_cast<int>(unit.size()), unit.data(),
      static_cast<long long>(min), static_cast<long long>(p25), static_cast<long long>(p50),
      static_cast<long long>(p75), static_cast<long long>(p90), static_cast<long long>(p99),
      static_cast<long long>(p999), static_cast<long long>(max));
  out += buf;
  if (items_per_iteration > 0 && n > 0) {
    const auto items = static_cast<double>(items_per_iteration);
    const double p50_per_item = static_cast<double>(p50) / items;
    const double min_per_item = static_cast<double>(min) / items;
    const double rate = p50 > 0 ? 1e9 / p50_per_item : 0.0;
    std::snprintf(buf, sizeof buf, " | %llu items/iter: p50 %.3f ns/item %.3g items/s, min %.3f ns/item",
                  static_cast<unsigned long long>(items_per_iteration), p50_per_item, rate, min_per_item);
    out += buf;
  }
  return out;
}

}  // namespace microbench
