#include <tde/csv_writer.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace tde {

namespace {

constexpr std::size_t flush_at = std::size_t{1} << 18;

void append_number(std::string& out, double v, const char* format) {
  if (std::isnan(v)) {
    out += "nan";
  } else if (std::isinf(v)) {
    out += v > 0 ? "inf" : "-inf";
  } else {
    char buf[64];
    int n = std::snprintf(buf, sizeof buf, format, v);
    // A value that rounds to zero prints without a sign ("-0.0000" reads as a direction).
    const char* text = buf;
    if (buf[0] == '-' && std::strspn(buf + 1, "0.") == static_cast<std::size_t>(n - 1)) {
      ++text;
      --n;
    }
    out.append(text, static_cast<std::size_t>(n));
  }
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

csv_writer::csv_writer(itch5::io::output_file& out, const analysis_options& o, std::size_t fft_length)
    : out_(out) {
  buf_.reserve(flush_at + 1024);
  buf_ +=
      "# itch5tde: delay > 0 means B lags A (B's changes come later than A's). lag_samples is the integer "
      "correlation peak, delay_us the sub-sample delay x sampling period.\n";
  buf_ += "# sampling_period_ns=" + std::to_string(o.sampling_period.count()) +
          " window_ns=" + std::to_string(o.window.count()) + " hop_ns=" + std::to_string(o.hop_ns()) +
          " max_lag_ns=" + std::to_string(o.max_lag.count()) +
          " smooth_ns=" + std::to_string(o.smooth_width().count()) + " samples=" + std::to_string(o.samples()) +
          " fft_length=" + std::to_string(fft_length) + " upsample=" + std::to_string(o.upsample) +
          " min_events=" + std::to_string(o.min_events) + " alpha=" + number_text(o.alpha);
  if (o.from.count() != 0) buf_ += " from_ns=" + std::to_string(o.from.count());
  if (o.to != std::chrono::nanoseconds::max()) buf_ += " to_ns=" + std::to_string(o.to.count());
  buf_ += '\n';
  buf_ += columns;
  buf_ += '\n';
}

void csv_writer::write(const window_row& row) {
  buf_ += std::to_string(row.window_start);
  buf_ += ',';
  buf_ += row.symbol;
  buf_ += ',';
  buf_ += to_string(row.signal);
  buf_ += ',';
  buf_ += std::to_string(row.events_a);
  buf_ += ',';
  buf_ += std::to_string(row.events_b);
  buf_ += ',';
  if (std::isnan(row.estimate.delay)) {
    buf_ += "nan";
  } else {
    buf_ += std::to_string(row.estimate.lag);
  }
  buf_ += ',';
  append_number(buf_, row.delay_us, "%.4f");
  buf_ += ',';
  append_number(buf_, row.estimate.rho, "%.4f");
  buf_ += ',';
  append_number(buf_, row.estimate.psr, "%.2f");
  buf_ += ',';
  append_number(buf_, row.estimate.second_ratio, "%.3f");
  buf_ += ',';
  append_number(buf_, row.estimate.z, "%.2f");
  buf_ += ',';
  append_number(buf_, row.estimate.p_value, "%.3g");
  buf_ += ',';
  row.estimate.flags.append_to(buf_);
  buf_ += '\n';
  if (buf_.size() >= flush_at) flush();
}

void csv_writer::flush() {
  if (buf_.empty()) return;
  out_.write(buf_);
  buf_.clear();
}

}  // namespace tde
