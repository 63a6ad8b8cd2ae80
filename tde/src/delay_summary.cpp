#include <itch5/tde/report/delay_summary.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "number_text.hpp"

namespace itch5::tde {

namespace {

using detail::nan;

std::string number(double v, const char* format = "%.6g") {
  if (std::isnan(v)) return ".nan";
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  const bool negative_zero = buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1);
  return negative_zero ? buf + 1 : buf;
}

}  // namespace

double weighted_quantile(std::span<const std::pair<double, double>> sorted, double q) {
  if (sorted.empty()) return nan;
  double total = 0;
  for (const auto& [v, w] : sorted) total += w;
  if (!(total > 0)) return nan;
  // Value i sits at the middle of its weight: position (cumulative before + w_i / 2) / total. Values of zero
  // weight have no say.
  double before = 0, prev_pos = 0, prev_value = nan;
  bool have_prev = false;
  for (const auto& [v, w] : sorted) {
    if (!(w > 0)) continue;
    double pos = (before + w / 2) / total;
    if (q <= pos) {
      if (!have_prev) return v;
      return prev_value + (v - prev_value) * (q - prev_pos) / (pos - prev_pos);
    }
    before += w;
    prev_pos = pos;
    prev_value = v;
    have_prev = true;
  }
  return prev_value;
}

void delay_summary::add(signal_kind s, double delay_us, double rho, bool passed) {
  auto& p = by_signal_[static_cast<std::size_t>(s)];
  ++p.rows;
  if (passed && std::isfinite(delay_us)) {
    p.passed.emplace_back(delay_us, std::max(0.0, std::isfinite(rho) ? rho : 0.0));
  }
}

void delay_summary::add(const window_row& row) {
  add(row.signal, row.delay_us, row.estimate.rho, row.estimate.passed());
}

delay_statistics delay_summary::statistics(signal_kind s) const {
  const auto& p = by_signal_[static_cast<std::size_t>(s)];
  delay_statistics st;
  st.rows = p.rows;
  st.passed = p.passed.size();
  st.pass_fraction = p.rows > 0 ? static_cast<double>(st.passed) / static_cast<double>(p.rows) : nan;
  auto sorted = p.passed;
  std::sort(sorted.begin(), sorted.end());
  double total = 0;
  for (const auto& vw : sorted) total += vw.second;
  if (!(total > 0)) {
    for (auto& vw : sorted) vw.second = 1;  // every rho was 0: count the rows equally
  }
  st.median = weighted_quantile(sorted, 0.5);
  st.p10 = weighted_quantile(sorted, 0.10);
  st.p25 = weighted_quantile(sorted, 0.25);
  st.p75 = weighted_quantile(sorted, 0.75);
  st.p90 = weighted_quantile(sorted, 0.90);
  st.iqr = st.p75 - st.p25;
  return st;
}

std::vector<signal_kind> delay_summary::signals() const {
  std::vector<signal_kind> out;
  for (auto s : all_signal_kinds) {
    if (by_signal_[static_cast<std::size_t>(s)].rows > 0) out.push_back(s);
  }
  return out;
}

std::string delay_summary::text(std::string_view program) const {
  std::string out;
  auto sigs = signals();
  if (sigs.empty()) {
    out += std::string(program) + ": no window had changes of the chosen symbols in either file\n";
    return out;
  }
  for (auto s : sigs) {
    auto st = statistics(s);
    char buf[512];
    if (st.passed == 0) {
      std::snprintf(buf, sizeof buf, "%.*s: %.*s: 0 of %llu symbol windows passed; no delay estimate\n",
                    static_cast<int>(program.size()), program.data(), static_cast<int>(to_string(s).size()),
                    to_string(s).data(), static_cast<unsigned long long>(st.rows));
    } else {
      std::snprintf(
          buf, sizeof buf,
          "%.*s: %.*s: %llu of %llu symbol windows passed (%.1f%%); delay (B lags A if > 0), rho-weighted: "
          "median %.3f us, IQR %.3f us, p10 %.3f us, p90 %.3f us\n",
          static_cast<int>(program.size()), program.data(), static_cast<int>(to_string(s).size()),
          to_string(s).data(), static_cast<unsigned long long>(st.passed),
          static_cast<unsigned long long>(st.rows), 100 * st.pass_fraction, st.median, st.iqr, st.p10,
          st.p90);
    }
    out += buf;
  }
  return out;
}

std::string delay_summary::yaml(const analysis_options& o) const {
  std::string y;
  y +=
      "# itch5tde summary. Delays in microseconds; delay > 0 means B lags A. Quantiles are weighted by rho\n";
  y += "# over the windows that passed (no flag).\n";
  y += "options:\n";
  y += "  sampling_period_ns: " + std::to_string(o.sampling_period.count()) + "\n";
  y += "  window_ns: " + std::to_string(o.window.count()) + "\n";
  y += "  hop_ns: " + std::to_string(o.hop_ns()) + "\n";
  y += "  max_lag_ns: " + std::to_string(o.max_lag.count()) + "\n";
  if (o.from.count() != 0) y += "  from_ns: " + std::to_string(o.from.count()) + "\n";
  if (o.to != std::chrono::nanoseconds::max()) y += "  to_ns: " + std::to_string(o.to.count()) + "\n";
  y += "  smooth_ns: " + std::to_string(o.smooth_width().count()) + "\n";
  y += "  min_events: " + std::to_string(o.min_events) + "\n";
  y += "  min_rho: " + number(o.min_rho) + "\n";
  y += "  min_psr: " + number(o.min_psr) + "\n";
  y += "  max_second_ratio: " + number(o.max_second_ratio) + "\n";
  y += "  alpha: " + number(o.alpha) + "\n";
  y += "signals:";
  auto sigs = signals();
  if (sigs.empty()) y += " {}";
  y += "\n";
  for (auto s : sigs) {
    auto st = statistics(s);
    y += "  " + std::string(to_string(s)) + ":\n";
    y += "    symbol_windows: " + std::to_string(st.rows) + "\n";
    y += "    passed: " + std::to_string(st.passed) + "\n";
    y += "    pass_fraction: " + number(st.pass_fraction) + "\n";
    y += "    median_us: " + number(st.median, "%.6f") + "\n";
    y += "    iqr_us: " + number(st.iqr, "%.6f") + "\n";
    y += "    p10_us: " + number(st.p10, "%.6f") + "\n";
    y += "    p25_us: " + number(st.p25, "%.6f") + "\n";
    y += "    p75_us: " + number(st.p75, "%.6f") + "\n";
    y += "    p90_us: " + number(st.p90, "%.6f") + "\n";
  }
  return y;
}

}  // namespace itch5::tde
