#include <itch5/stats/statistics_tables.hpp>

#include <array>
#include <charconv>
#include <unordered_map>

namespace itch5::stats {
namespace {

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
constexpr std::array<quantile_column, 8> latency_columns = {{{"min", 0.0},
                                                             {"p25", 0.25},
                                                             {"p50", 0.50},
                                                             {"p75", 0.75},
                                                             {"p90", 0.90},
                                                             {"p99", 0.99},
                                                             {"p999", 0.999},
                                                             {"max", 1.0}}};
// The depth CSV's groups share the rate columns' quantiles.
constexpr const auto& depth_columns = rate_columns;

template <std::size_t N>
void header_group(std::string& out, const std::array<quantile_column, N>& cols, const char* name) {
  for (const auto& c : cols) {
    out += ',';
    out += c.prefix;
    out += name;
  }
}

// The columns' quantiles of `h`, in one walk over its buckets (each group's q's increase).
template <std::size_t N>
void value_group(std::string& out, const std::array<quantile_column, N>& cols,
                 const log_linear_histogram& h) {
  std::array<double, N> qs;
  for (std::size_t i = 0; i < N; ++i) qs[i] = cols[i].q;
  std::array<std::uint64_t, N> values;
  h.quantiles(qs, values);
  for (const std::uint64_t v : values) {
    char buf[24];
    out += ',';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
  }
}

void feed_row(std::string& out, const feed_series& s, bool latency) {
  out += s.name;
  out += ',';
  out += std::to_string(s.samples);
  value_group(out, rate_columns, s.per_sec);
  value_group(out, rate_columns, s.per_msec);
  value_group(out, rate_columns, s.per_usec);
  value_group(out, arrival_columns, s.arrival);
  value_group(out, processing_columns, s.processing);
  if (latency) value_group(out, latency_columns, s.latency);
  out += '\n';
}

void depth_row(std::string& out, const depth_series& s) {
  out += s.name;
  out += ',';
  out += std::to_string(s.event.count());
  value_group(out, depth_columns, s.event);
  value_group(out, depth_columns, s.book);
  out += '\n';
}

template <class Table>
void merge_table(Table& into, const Table& from) {
  std::unordered_map<std::string, std::size_t> index;
  std::size_t k = 0;
  // Repeats already in `into` are folded into their first occurrence.
  for (std::size_t i = 0; i < into.symbols.size(); ++i) {
    auto [it, fresh] = index.try_emplace(into.symbols[i].name, k);
    if (fresh) {
      if (k != i) into.symbols[k] = std::move(into.symbols[i]);
      ++k;
    } else {
      into.symbols[it->second].merge(into.symbols[i]);
    }
  }
  into.symbols.resize(k);
  for (const auto& s : from.symbols) {
    auto [it, fresh] = index.try_emplace(s.name, into.symbols.size());
    if (fresh) {
      into.symbols.push_back(s);
    } else {
      into.symbols[it->second].merge(s);
    }
  }
  into.aggregate.merge(from.aggregate);
}

}  // namespace

void feed_series::merge(const feed_series& other) {
  samples += other.samples;
  per_sec.merge(other.per_sec);
  per_msec.merge(other.per_msec);
  per_usec.merge(other.per_usec);
  arrival.merge(other.arrival);
  processing.merge(other.processing);
  latency.merge(other.latency);
}

void depth_series::merge(const depth_series& other) {
  event.merge(other.event);
  book.merge(other.book);
}

std::string feed_csv_header(bool latency) {
  std::string h = "Name,NSamples";
  header_group(h, rate_columns, "RatePerSec");
  header_group(h, rate_columns, "RatePerMSec");
  header_group(h, rate_columns, "RatePerUSec");
  header_group(h, arrival_columns, "Arrival");
  header_group(h, processing_columns, "Processing");
  if (latency) header_group(h, latency_columns, "Latency");
  h += '\n';
  return h;
}

std::string depth_csv_header() {
  std::string h = "Name,NSamples";
  header_group(h, depth_columns, "EventDepth");
  header_group(h, depth_columns, "BookDepth");
  h += '\n';
  return h;
}

std::string feed_csv(const feed_table& t) {
  std::string out = feed_csv_header(t.latency);
  for (const auto& s : t.symbols) {
    if (s.samples > 0) feed_row(out, s, t.latency);
  }
  feed_row(out, t.aggregate, t.latency);
  return out;
}

std::string depth_csv(const depth_table& t) {
  std::string out = depth_csv_header();
  for (const auto& s : t.symbols) {
    if (s.event.count() > 0) depth_row(out, s);
  }
  depth_row(out, t.aggregate);
  return out;
}

void merge(feed_table& into, const feed_table& from) {
  into.latency = into.latency || from.latency;
  merge_table(into, from);
}
void merge(depth_table& into, const depth_table& from) { merge_table(into, from); }

}  // namespace itch5::stats
