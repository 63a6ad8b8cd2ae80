#include <itch5/tde/report/csv_writer.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "number_text.hpp"

namespace itch5::tde {

namespace {

using detail::append_csv_number;

void append_integer(std::string& out, std::int64_t v) {
  char buf[24];
  const int n = std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  out.append(buf, static_cast<std::size_t>(n));
}

struct csv_column {
  const char* name;
  void (*append)(std::string& out, const window_row& row);
};

// The CSV's columns, in order: the one place that lists them (docs/formats.md, "TDE CSV", follows it).
constexpr std::array csv_columns{
    csv_column{"window_start_ns",
               [](std::string& o, const window_row& r) { append_integer(o, r.window_start); }},
    csv_column{"symbol", [](std::string& o, const window_row& r) { o += r.symbol; }},
    csv_column{"signal", [](std::string& o, const window_row& r) { o += to_string(r.signal); }},
    csv_column{"events_a",
               [](std::string& o, const window_row& r) {
                 append_integer(o, static_cast<std::int64_t>(r.events_a));
               }},
    csv_column{"events_b",
               [](std::string& o, const window_row& r) {
                 append_integer(o, static_cast<std::int64_t>(r.events_b));
               }},
    // No estimate (flag flat): empty, like every missing value.
    csv_column{"lag_samples",
               [](std::string& o, const window_row& r) {
                 if (!std::isnan(r.estimate.delay)) append_integer(o, r.estimate.lag);
               }},
    csv_column{"delay_us",
               [](std::string& o, const window_row& r) { append_csv_number(o, r.delay_us, "%.4f"); }},
    csv_column{"rho",
               [](std::string& o, const window_row& r) { append_csv_number(o, r.estimate.rho, "%.4f"); }},
    csv_column{"psr",
               [](std::string& o, const window_row& r) { append_csv_number(o, r.estimate.psr, "%.2f"); }},
    csv_column{
        "second_ratio",
        [](std::string& o, const window_row& r) { append_csv_number(o, r.estimate.second_ratio, "%.3f"); }},
    csv_column{"z", [](std::string& o, const window_row& r) { append_csv_number(o, r.estimate.z, "%.2f"); }},
    csv_column{"p_value",
               [](std::string& o, const window_row& r) { append_csv_number(o, r.estimate.p_value, "%.3g"); }},
    csv_column{"flags", [](std::string& o, const window_row& r) { r.estimate.flags.append_to(o); }},
};

std::string number(double v) {
  if (std::isnan(v)) return ".nan";
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

csv_writer::csv_writer(itch5::io::output_file& out) : lines_(out) { lines_.append(header() + '\n'); }

std::vector<std::string_view> csv_writer::column_names() {
  std::vector<std::string_view> names;
  for (const auto& c : csv_columns) names.emplace_back(c.name);
  return names;
}

std::string csv_writer::header() {
  std::string h;
  for (const auto& c : csv_columns) {
    if (!h.empty()) h += ',';
    h += c.name;
  }
  return h;
}

void csv_writer::write(const window_row& row) {
  row_.clear();
  bool first = true;
  for (const auto& c : csv_columns) {
    if (!first) row_ += ',';
    first = false;
    c.append(row_, row);
  }
  row_ += '\n';
  lines_.append(row_);
}

void csv_writer::flush() { lines_.flush(); }

std::string yaml_quoted(std::string_view text) {
  std::string q = "\"";
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      q += '\\';
      q += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      q += buf;
    } else {
      q += c;
    }
  }
  q += '"';
  return q;
}

std::string default_metadata_path(const std::string& csv_path) {
  if (csv_path.empty() || csv_path == "-") return {};
  return csv_path + ".yaml";
}

std::string metadata_yaml(const analysis_options& o, const csv_metadata& m) {
  std::string y;
  y += "# Metadata of an itch5tde CSV (docs/formats.md, \"TDE CSV metadata\").\n";
  y += "program: " + m.program + "\n";
  y += "version: " + yaml_quoted(m.version) + "\n";
  y += "git_commit: " + yaml_quoted(m.git_commit) + "\n";
  y += "csv: " + yaml_quoted(m.csv) + "\n";
  y += "input_a: " + yaml_quoted(m.input_a) + "\n";
  y += "input_b: " + yaml_quoted(m.input_b) + "\n";
  y += "sign_convention: \"delay > 0 means B lags A (B's changes come later than A's)\"\n";
  y += "columns: [";
  bool first = true;
  for (const auto& c : csv_columns) {
    y += first ? "" : ", ";
    y += c.name;
    first = false;
  }
  y += "]\n";
  y += "missing_value: \"\"  # an empty field\n";
  y += "options:\n";
  y += "  symbols: [";
  for (std::size_t i = 0; i < o.symbols.size(); ++i) y += (i ? ", " : "") + yaml_quoted(o.symbols[i].label());
  y += "]  # empty: every symbol seen in either file\n";
  y += "  signals: [";
  for (std::size_t i = 0; i < o.signals.size(); ++i) {
    y += (i ? ", " : "") + std::string(to_string(o.signals[i]));
  }
  y += "]\n";
  y += "  sampling_period_ns: " + std::to_string(o.sampling_period.count()) + "\n";
  y += "  window_ns: " + std::to_string(o.window.count()) + "\n";
  y += "  hop_ns: " + std::to_string(o.hop_ns()) + "\n";
  y += "  max_lag_ns: " + std::to_string(o.max_lag.count()) + "\n";
  if (o.from.count() != 0) y += "  from_ns: " + std::to_string(o.from.count()) + "\n";
  if (o.to != std::chrono::nanoseconds::max()) y += "  to_ns: " + std::to_string(o.to.count()) + "\n";
  y += "  smooth_ns: " + std::to_string(o.smooth_width().count()) + "\n";
  y += "  samples: " + std::to_string(o.samples()) + "\n";
  y += "  fft_length: " + std::to_string(m.fft_length) + "\n";
  y += "  upsample: " + std::to_string(o.upsample) + "\n";
  y += "  min_events: " + std::to_string(o.min_events) + "\n";
  y += "  min_rho: " + number(o.min_rho) + "\n";
  y += "  min_psr: " + number(o.min_psr) + "\n";
  y += "  max_second_ratio: " + number(o.max_second_ratio) + "\n";
  y += "  alpha: " + number(o.alpha) + "  # not_significant above this p_value\n";
  y += "  precision: " + m.precision + "\n";
  return y;
}

}  // namespace itch5::tde
