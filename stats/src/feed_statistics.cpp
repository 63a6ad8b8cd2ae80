#include <stats/feed_statistics.hpp>

#include <array>
#include <charconv>

namespace stats {
namespace {

using namespace std::chrono_literals;

struct quantile_column {
  const char* prefix;
  double q;
};

constexpr std::array<quantile_column, 9> rate_columns = {{{"min", 0.0},
                                                          {"p25", 0.25},
                                                          {"p50", 0.50},
                                                          {"p75", 0.75},
                                                          {"p90", 0.90},
                                                          {"p99", 0.99},
                                                          {"p999", 0.999},
                                                          {"p9999", 0.9999},
                                                          {"max", 1.0}}};
constexpr std::array<quantile_column, 12> arrival_columns = {{{"min", 0.0},
                                                              {"p0001", 0.0001},
                                                              {"p001", 0.001},
                                                              {"p01", 0.01},
                                                              {"p05", 0.05},
                                                              {"p10", 0.10},
                                                              {"p25", 0.25},
                                                              {"p50", 0.50},
                                                              {"p75", 0.75},
                                                              {"p90", 0.90},
                                                              {"p99", 0.99},
                                                              {"max", 1.0}}};
constexpr std::array<quantile_column, 10> processing_columns = {{{"min", 0.0},
                                                                 {"p10", 0.10},
                                                                 {"p25", 0.25},
                                                                 {"p50", 0.50},
                                                                 {"p75", 0.75},
                                                                 {"p90", 0.90},
                                                                 {"p99", 0.99},
                                                                 {"p999", 0.999},
                                                                 {"p9999", 0.9999},
                                                                 {"max", 1.0}}};

template <std::size_t N>
void header_group(std::string& out, const std::array<quantile_column, N>& cols, const char* name) {
  for (const auto& c : cols) {
    out += ',';
    out += c.prefix;
    out += name;
  }
}

template <std::size_t N>
void value_group(std::string& out, const std::array<quantile_column, N>& cols, const log_linear_histogram& h) {
  for (const auto& c : cols) {
    char buf[24];
    out += ',';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, h.quantile(c.q)).ptr);
  }
}

}  // namespace

struct feed_statistics::series {
  event_rate_estimator per_sec{1s, 1ms};
  event_rate_estimator per_msec{1ms, 1us};
  event_rate_estimator per_usec{1us, 1ns};
  log_linear_histogram arrival;
  log_linear_histogram processing;
  std::chrono::nanoseconds last{0};
  std::uint64_t samples = 0;

  void record(std::chrono::nanoseconds ts, std::chrono::nanoseconds took) {
    if (samples > 0) arrival.record(ts > last ? static_cast<std::uint64_t>((ts - last).count()) : 0);
    if (ts > last || samples == 0) last = ts;
    per_sec.record(ts);
    per_msec.record(ts);
    per_usec.record(ts);
    processing.record(took.count() > 0 ? static_cast<std::uint64_t>(took.count()) : 0);
    ++samples;
  }

  void row(std::string& out, const std::string& name) {
    per_sec.finish();
    per_msec.finish();
    per_usec.finish();
    out += name;
    out += ',';
    out += std::to_string(samples);
    value_group(out, rate_columns, per_sec.histogram());
    value_group(out, rate_columns, per_msec.histogram());
    value_group(out, rate_columns, per_usec.histogram());
    value_group(out, arrival_columns, arrival);
    value_group(out, processing_columns, processing);
    out += '\n';
  }
};

feed_statistics::feed_statistics() : aggregate_(std::make_unique<series>()) {}
feed_statistics::~feed_statistics() = default;

void feed_statistics::record(std::uint16_t locate, std::chrono::nanoseconds ts, std::chrono::nanoseconds processing) {
  if (locate >= by_locate_.size()) by_locate_.resize(std::size_t{locate} + 1);
  auto& s = by_locate_[locate];
  if (!s) s = std::make_unique<series>();
  s->record(ts, processing);
  aggregate_->record(ts, processing);
}

std::string feed_statistics::csv_header() {
  std::string h = "Name,NSamples";
  header_group(h, rate_columns, "RatePerSec");
  header_group(h, rate_columns, "RatePerMSec");
  header_group(h, rate_columns, "RatePerUSec");
  header_group(h, arrival_columns, "Arrival");
  header_group(h, processing_columns, "Processing");
  h += '\n';
  return h;
}

std::string feed_statistics::finish_csv(const std::function<std::string(std::uint16_t)>& name_of) {
  std::string out = csv_header();
  for (std::size_t locate = 0; locate < by_locate_.size(); ++locate) {
    if (by_locate_[locate] && by_locate_[locate]->samples > 0) {
      by_locate_[locate]->row(out, name_of(static_cast<std::uint16_t>(locate)));
    }
  }
  aggregate_->row(out, "__aggregate__");
  return out;
}

std::uint64_t feed_statistics::samples(std::uint16_t locate) const noexcept {
  return locate < by_locate_.size() && by_locate_[locate] ? by_locate_[locate]->samples : 0;
}

std::uint64_t feed_statistics::total_samples() const noexcept { return aggregate_->samples; }

}  // namespace stats
