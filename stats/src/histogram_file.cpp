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

void merge(statistics_histograms& into, const statistics_histograms& from, const std::string& from_name) {
  if (into.meta_value("stats_events") != from.meta_value("stats_events")) {
    throw histogram_file_error(from_name + ": its statistics sample '" + from.meta_value("stats_events") +
                               "' events, the files before it '" + into.meta_value("stats_events") +
                               "' (itch5inside --stats-events): they cannot be merged");
  }
  // Keep the facts every merged file agrees on.
  std::erase_if(into.meta, [&from](const auto& kv) { return from.meta_value(kv.first) != kv.second; });
  merge(into.feed, from.feed);
  merge(into.depth, from.depth);
}

}  // namespace itch5::stats
