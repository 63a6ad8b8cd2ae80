#include <itch5/stats/histogram_file.hpp>

#include <algorithm>

namespace itch5::stats {
namespace {

constexpr std::string_view end_mark = "HEND";
// Names are ITCH symbols (8 characters) or '?'; meta values are short. Anything longer is corruption.
constexpr std::uint64_t max_string = 4096;

void put(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void put(std::string& out, std::string_view s) {
  put(out, std::uint64_t{s.size()});
  out += s;
}

void put(std::string& out, const log_linear_histogram& h) {
  put(out, h.count());
  if (h.count() == 0) return;
  put(out, h.min());
  put(out, h.max());
  // Runs of adjacent non-empty buckets.
  std::vector<std::pair<std::size_t, std::vector<std::uint64_t>>> runs;
  h.for_each_bucket([&runs](std::size_t i, std::uint64_t n) {
    if (runs.empty() || runs.back().first + runs.back().second.size() != i) runs.push_back({i, {}});
    runs.back().second.push_back(n);
  });
  put(out, std::uint64_t{runs.size()});
  std::size_t end = 0;
  for (const auto& [first, counts] : runs) {
    put(out, std::uint64_t{first - end});
    put(out, std::uint64_t{counts.size()});
    for (std::uint64_t n : counts) put(out, n);
    end = first + counts.size();
  }
}

void put(std::string& out, const feed_series& s, bool named) {
  if (named) put(out, s.name);
  put(out, s.samples);
  for (const auto* h : {&s.per_sec, &s.per_msec, &s.per_usec, &s.arrival, &s.processing}) put(out, *h);
}

void put(std::string& out, const depth_series& s, bool named) {
  if (named) put(out, s.name);
  put(out, s.event);
  put(out, s.book);
}

class parser {
 public:
  parser(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw histogram_file_error(name_ + ": byte " + std::to_string(at) + ": " + what);
  }

  [[nodiscard]] std::size_t offset() const noexcept { return at_; }

  std::uint64_t varint(const char* what) {
    const std::size_t start = at_;
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (at_ >= bytes_.size()) fail(start, std::string("truncated: the file ends inside ") + what);
      const auto b = static_cast<unsigned char>(bytes_[at_++]);
      if (shift == 63 && (b & 0x7e) != 0)
        fail(start, std::string("corrupt: ") + what + " does not fit 64 bits");
      v |= std::uint64_t{b & 0x7fu} << shift;
      if ((b & 0x80) == 0) return v;
      if (shift == 63) fail(start, std::string("corrupt: ") + what + " does not fit 64 bits");
    }
  }

  std::string_view raw(std::size_t n, const char* what) {
    if (bytes_.size() - at_ < n) fail(at_, std::string("truncated: the file ends inside ") + what);
    std::string_view s = bytes_.substr(at_, n);
    at_ += n;
    return s;
  }

  std::string string(const char* what) {
    const std::size_t start = at_;
    const std::uint64_t n = varint(what);
    if (n > max_string) fail(start, std::string("corrupt: ") + what + " of " + std::to_string(n) + " bytes");
    return std::string(raw(static_cast<std::size_t>(n), what));
  }

  log_linear_histogram histogram(const std::string& series, const char* kind) {
    const std::string what = "the " + std::string(kind) + " histogram of " + series;
    const std::size_t start = at_;
    log_linear_histogram h;
    const std::uint64_t count = varint(what.c_str());
    if (count == 0) return h;
    const std::uint64_t min = varint(what.c_str());
    const std::uint64_t max = varint(what.c_str());
    if (min > max) fail(start, "corrupt: " + what + " has min > max");
    const std::size_t runs_at = at_;
    const std::uint64_t runs = varint(what.c_str());
    if (runs == 0 || runs > log_linear_histogram::bucket_count)
      fail(runs_at, "corrupt: " + what + ": bad run count");
    std::uint64_t end = 0, total = 0, first = 0, last = 0;
    for (std::uint64_t r = 0; r < runs; ++r) {
      const std::size_t run_at = at_;
      const std::uint64_t gap = varint(what.c_str());
      const std::uint64_t length = varint(what.c_str());
      if ((r > 0 && gap == 0) || length == 0 || gap > log_linear_histogram::bucket_count ||
          length > log_linear_histogram::bucket_count ||
          end + gap + length > log_linear_histogram::bucket_count) {
        fail(run_at, "corrupt: " + what + ": bucket run out of range");
      }
      const std::uint64_t index = end + gap;
      if (r == 0) first = index;
      for (std::uint64_t k = 0; k < length; ++k) {
        const std::size_t n_at = at_;
        const std::uint64_t n = varint(what.c_str());
        if (n == 0 || n > count - total) fail(n_at, "corrupt: " + what + ": bucket counts do not add up");
        h.add_to_bucket(static_cast<std::size_t>(index + k), n);
        total += n;
      }
      end = index + length;
      last = end - 1;
    }
    if (total != count) fail(start, "corrupt: " + what + ": bucket counts do not add up to its count");
    if (log_linear_histogram::bucket_of(min) != first || log_linear_histogram::bucket_of(max) != last) {
      fail(start, "corrupt: " + what + ": min or max outside its first or last bucket");
    }
    h.restore_extremes(min, max);
    return h;
  }

  feed_series feed(std::string name) {
    feed_series s;
    s.name = std::move(name);
    const std::size_t start = at_;
    s.samples = varint(("the sample count of " + s.name).c_str());
    s.per_sec = histogram(s.name, "RatePerSec");
    s.per_msec = histogram(s.name, "RatePerMSec");
    s.per_usec = histogram(s.name, "RatePerUSec");
    s.arrival = histogram(s.name, "Arrival");
    s.processing = histogram(s.name, "Processing");
    // Every sample has a processing time; a sample count that disagrees is corruption.
    if (s.processing.count() != s.samples || s.samples == 0) {
      fail(start, "corrupt: the statistics of " + s.name + ": sample count " + std::to_string(s.samples) +
                      " but " + std::to_string(s.processing.count()) + " processing samples");
    }
    return s;
  }

  depth_series depth(std::string name) {
    depth_series s;
    s.name = std::move(name);
    const std::size_t start = at_;
    s.event = histogram(s.name, "EventDepth");
    s.book = histogram(s.name, "BookDepth");
    if (s.event.count() != s.book.count() || s.event.count() == 0) {
      fail(start, "corrupt: the depth of " + s.name + ": EventDepth and BookDepth counts differ or are 0");
    }
    return s;
  }

  std::uint64_t series_count(const char* what) {
    const std::size_t start = at_;
    const std::uint64_t n = varint(what);
    // Each series takes at least a few bytes: a count beyond the bytes left is corruption, not a reason to
    // reserve memory.
    if (n > bytes_.size() - at_) {
      fail(start, std::string("truncated or corrupt: ") + what + " " + std::to_string(n) +
                      ", more than the " + std::to_string(bytes_.size() - at_) + " bytes left");
    }
    return n;
  }

  [[nodiscard]] bool at_end() const noexcept { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  const std::string& name_;
  std::size_t at_ = 0;
};

}  // namespace

std::string statistics_histograms::meta_value(std::string_view key) const {
  for (const auto& [k, v] : meta) {
    if (k == key) return v;
  }
  return {};
}

std::string encode_histograms(const statistics_histograms& h) {
  std::string out(histogram_file_magic);
  put(out, histogram_file_version);
  put(out, std::uint64_t{h.meta.size()});
  for (const auto& [k, v] : h.meta) {
    put(out, k);
    put(out, v);
  }
  auto sampled = [](const auto& symbols, auto has) {
    std::uint64_t n = 0;
    for (const auto& s : symbols) n += has(s) ? 1 : 0;
    return n;
  };
  auto feed_has = [](const feed_series& s) { return s.samples > 0; };
  auto depth_has = [](const depth_series& s) { return s.event.count() > 0; };
  put(out, sampled(h.feed.symbols, feed_has));
  for (const auto& s : h.feed.symbols) {
    if (feed_has(s)) put(out, s, true);
  }
  put(out, h.feed.aggregate, false);
  put(out, sampled(h.depth.symbols, depth_has));
  for (const auto& s : h.depth.symbols) {
    if (depth_has(s)) put(out, s, true);
  }
  put(out, h.depth.aggregate, false);
  out += end_mark;
  return out;
}

statistics_histograms decode_histograms(std::string_view bytes, const std::string& name) {
  parser p(bytes, name);
  if (bytes.substr(0, histogram_file_magic.size()) != histogram_file_magic) {
    p.fail(0, "not a histogram file (it does not start with " + std::string(histogram_file_magic) +
                  "; itch5inside --histograms writes them)");
  }
  (void)p.raw(histogram_file_magic.size(), "the magic");
  const std::size_t version_at = p.offset();
  const std::uint64_t version = p.varint("the version");
  if (version != histogram_file_version) {
    p.fail(version_at, "histogram file version " + std::to_string(version) +
                           " is not supported (this build reads " + "version " +
                           std::to_string(histogram_file_version) + ")");
  }
  statistics_histograms h;
  const std::uint64_t nmeta = p.series_count("meta count");
  for (std::uint64_t i = 0; i < nmeta; ++i) {
    std::string k = p.string("a meta key");
    std::string v = p.string("a meta value");
    h.meta.emplace_back(std::move(k), std::move(v));
  }
  const std::uint64_t nfeed = p.series_count("statistics series count");
  for (std::uint64_t i = 0; i < nfeed; ++i) h.feed.symbols.push_back(p.feed(p.string("a symbol name")));
  {
    // An aggregate with no samples (a run without sampled events) is valid: it prints zeros.
    const std::size_t start = p.offset();
    feed_series a;
    a.name = aggregate_name;
    a.samples = p.varint("the sample count of __aggregate__");
    a.per_sec = p.histogram(a.name, "RatePerSec");
    a.per_msec = p.histogram(a.name, "RatePerMSec");
    a.per_usec = p.histogram(a.name, "RatePerUSec");
    a.arrival = p.histogram(a.name, "Arrival");
    a.processing = p.histogram(a.name, "Processing");
    if (a.processing.count() != a.samples) p.fail(start, "corrupt: __aggregate__ sample counts disagree");
    h.feed.aggregate = std::move(a);
  }
  const std::uint64_t ndepth = p.series_count("depth series count");
  for (std::uint64_t i = 0; i < ndepth; ++i) h.depth.symbols.push_back(p.depth(p.string("a symbol name")));
  {
    const std::size_t start = p.offset();
    depth_series a;
    a.name = aggregate_name;
    a.event = p.histogram(a.name, "EventDepth");
    a.book = p.histogram(a.name, "BookDepth");
    if (a.event.count() != a.book.count()) p.fail(start, "corrupt: __aggregate__ depth counts differ");
    h.depth.aggregate = std::move(a);
  }
  const std::size_t end_at = p.offset();
  if (p.raw(std::min(end_mark.size(), bytes.size() - end_at), "the end mark") != end_mark) {
    p.fail(end_at, bytes.size() - end_at < end_mark.size() ? "truncated: the end mark HEND is missing"
                                                           : "corrupt: the end mark HEND is missing");
  }
  if (!p.at_end()) p.fail(p.offset(), "corrupt: bytes after the end mark");
  return h;
}

std::string format_time_ranges(const std::vector<feed_time_range>& ranges) {
  std::string out;
  for (const auto& r : ranges) {
    if (!out.empty()) out += ',';
    out += std::to_string(r.from) + '-' + (r.to ? std::to_string(*r.to) : std::string("end"));
  }
  return out;
}

namespace {

std::optional<std::uint64_t> parse_ns(std::string_view s) {
  if (s.empty() || s.size() > 19) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

// HH:MM[:SS[.fraction]] as itch5inside's time_range text prints it (format_time_of_day).
std::optional<std::uint64_t> parse_clock(std::string_view s) {
  std::uint64_t fields[3] = {0, 0, 0};
  int n = 0;
  std::uint64_t fraction = 0;
  std::size_t i = 0;
  while (n < 3) {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start || i - start > 2) return std::nullopt;
    fields[n++] = *parse_ns(s.substr(start, i - start));
    if (i == s.size() || s[i] != ':') break;
    ++i;
  }
  if (n < 2) return std::nullopt;
  if (i < s.size() && s[i] == '.' && n == 3) {
    const std::size_t start = ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start || i - start > 9) return std::nullopt;
    std::string digits(s.substr(start, i - start));
    digits.resize(9, '0');
    fraction = *parse_ns(digits);
  }
  if (i != s.size()) return std::nullopt;
  return ((fields[0] * 60 + fields[1]) * 60 + fields[2]) * 1'000'000'000 + fraction;
}

std::string describe(const std::optional<std::vector<feed_time_range>>& ranges, const std::string& text) {
  if (!ranges) return "'" + text + "'";
  return format_time_ranges(*ranges) + " ns";
}

bool overlap(const std::vector<feed_time_range>& a, const std::vector<feed_time_range>& b) {
  for (const auto& x : a) {
    for (const auto& y : b) {
      const bool x_before_y = x.to && *x.to <= y.from;
      const bool y_before_x = y.to && *y.to <= x.from;
      if (!x_before_y && !y_before_x) return true;
    }
  }
  return false;
}

std::vector<feed_time_range> normalised(std::vector<feed_time_range> v) {
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.from < b.from; });
  std::vector<feed_time_range> out;
  for (const auto& r : v) {
    if (!out.empty() && out.back().to && *out.back().to >= r.from) {
      if (!r.to || *r.to > *out.back().to) out.back().to = r.to;
    } else if (out.empty() || out.back().to) {
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace

std::optional<std::vector<feed_time_range>> time_ranges_of(const statistics_histograms& h) {
  const std::string ranges = h.meta_value("time_ranges");
  if (!ranges.empty()) {
    std::vector<feed_time_range> out;
    std::string_view rest = ranges;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      const std::size_t dash = item.find('-');
      if (dash == std::string_view::npos) return std::nullopt;
      const auto from = parse_ns(item.substr(0, dash));
      const std::string_view to_text = item.substr(dash + 1);
      const auto to = to_text == "end" ? std::optional<std::uint64_t>{} : parse_ns(to_text);
      if (!from || (to_text != "end" && (!to || *to <= *from))) return std::nullopt;
      out.push_back({*from, to});
    }
    return normalised(std::move(out));
  }
  // Files written before time_ranges: the human-readable time_range.
  const std::string text = h.meta_value("time_range");
  if (text.empty() || text == "whole day" || text == "the whole input")
    return std::vector<feed_time_range>{{0, std::nullopt}};
  const std::size_t sep = text.find(" to ");
  if (sep == std::string::npos) return std::nullopt;
  const std::string_view a = std::string_view(text).substr(0, sep);
  const std::string_view b = std::string_view(text).substr(sep + 4);
  const auto from = a == "the start" ? std::optional<std::uint64_t>{0} : parse_clock(a);
  const auto to = b == "the end" ? std::optional<std::uint64_t>{} : parse_clock(b);
  if (!from || (b != "the end" && (!to || *to <= *from))) return std::nullopt;
  return std::vector<feed_time_range>{{*from, to}};
}

void merge(statistics_histograms& into, const statistics_histograms& from, const std::string& from_name,
           const std::string& into_name) {
  if (into.meta_value("stats_events") != from.meta_value("stats_events")) {
    throw histogram_file_error(from_name + ": its statistics sample '" + from.meta_value("stats_events") +
                               "' events, " + into_name + " '" + into.meta_value("stats_events") +
                               "' (itch5inside --stats-events): they cannot be merged");
  }
  const auto into_ranges = time_ranges_of(into);
  const auto from_ranges = time_ranges_of(from);
  std::optional<std::vector<feed_time_range>> merged_ranges = into_ranges;
  const bool same_text = into.meta_value("time_range") == from.meta_value("time_range") &&
                         into.meta_value("time_ranges") == from.meta_value("time_ranges");
  if (into_ranges && from_ranges) {
    if (*into_ranges != *from_ranges) {
      if (overlap(*into_ranges, *from_ranges)) {
        throw histogram_file_error(
            from_name + ": its time range " + describe(from_ranges, from.meta_value("time_range")) + " and " +
            into_name + "'s " + describe(into_ranges, into.meta_value("time_range")) +
            " overlap without being the same (itch5inside --from/--to/--session): they cannot be merged "
            "(merge files of one range, or the disjoint parts of a day)");
      }
      auto both = *into_ranges;
      both.insert(both.end(), from_ranges->begin(), from_ranges->end());
      merged_ranges = normalised(std::move(both));
    }
  } else if (!same_text) {
    throw histogram_file_error(from_name + ": its time range " +
                               describe(from_ranges, from.meta_value("time_range")) + " and " + into_name +
                               "'s " + describe(into_ranges, into.meta_value("time_range")) +
                               " cannot be compared: they cannot be merged");
  }
  // Keep the facts every merged file agrees on; the time ranges are the union.
  std::erase_if(into.meta, [&from](const auto& kv) { return from.meta_value(kv.first) != kv.second; });
  if (merged_ranges) {
    std::erase_if(into.meta, [](const auto& kv) { return kv.first == "time_ranges"; });
    into.meta.emplace_back("time_ranges", format_time_ranges(*merged_ranges));
  }
  merge(into.feed, from.feed);
  merge(into.depth, from.depth);
}

}  // namespace itch5::stats
