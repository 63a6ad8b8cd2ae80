#include <itch5/net/live_capture.hpp>

#include <poll.h>

#include <algorithm>
#include <cstring>

namespace itch5::net {

namespace {

std::uint16_t be16(const std::byte* p) {
  return static_cast<std::uint16_t>(std::to_integer<unsigned>(p[0]) << 8 | std::to_integer<unsigned>(p[1]));
}

std::uint64_t steady_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

// Why `d` is not a MoldUDP64 packet, or "" when it is one.
std::string malformed(std::span<const std::byte> d) {
  if (d.size() < 20)
    return "only " + std::to_string(d.size()) + " bytes, shorter than the 20-byte MoldUDP64 header";
  const std::uint16_t count = be16(d.data() + 18);
  if (count == 0 || count == 0xffff) return "";
  std::size_t pos = 20;
  for (unsigned i = 0; i < count; ++i) {
    if (d.size() - pos < 2)
      return "message count " + std::to_string(count) + " overruns the " + std::to_string(d.size()) +
             "-byte datagram at message " + std::to_string(i + 1);
    const std::size_t len = be16(d.data() + pos);
    if (len == 0) return "message " + std::to_string(i + 1) + " has length 0";
    if (d.size() - pos - 2 < len)
      return "message " + std::to_string(i + 1) + " of length " + std::to_string(len) + " overruns the " +
             std::to_string(d.size()) + "-byte datagram";
    pos += 2 + len;
  }
  return "";
}

class live_stream final : public io::byte_stream {
 public:
  explicit live_stream(const live_options& options) : options_(options) {
    stats_ = options_.stats != nullptr ? options_.stats : &own_stats_;
    for (const auto& e : options_.listen)
      receivers_.push_back(std::make_unique<udp_receiver>(endpoint::parse(e), options_.receiver));
    ended_feed_.assign(receivers_.size(), false);
    got_.assign(receivers_.size(), 0);
    next_.assign(receivers_.size(), 0);
    polls_.resize(receivers_.size());
    for (std::size_t i = 0; i < receivers_.size(); ++i) polls_[i] = {receivers_[i]->fd(), POLLIN, 0};
    // pcap global header: nanosecond magic (host order), 2.4, snap length, LINKTYPE_RAW (101).
    const std::uint32_t magic = 0xa1b23c4d;
    const std::uint16_t version[2] = {2, 4};
    const std::uint32_t rest[4] = {0, 0, 262144, 101};
    put(&magic, 4);
    put(version, 4);
    put(rest, 16);
    emit_tee();
    last_datagram_ = steady_ns();
  }

  std::size_t read(std::byte* dst, std::size_t n) override {
    while (pos_ == out_.size()) {
      out_.clear();
      pos_ = 0;
      if (done_) return 0;
      receive();
      emit_tee();
    }
    const std::size_t k = std::min(n, out_.size() - pos_);
    std::memcpy(dst, out_.data() + pos_, k);
    pos_ += k;
    consumed_ += k;
    return k;
  }
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return consumed_; }
  [[nodiscard]] std::uint64_t total() const noexcept override { return 0; }

 private:
  void put(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  void emit_tee() {
    if (options_.tee && out_.size() > teed_) {
      options_.tee({reinterpret_cast<const char*>(out_.data()) + teed_, out_.size() - teed_});
    }
    teed_ = out_.size();
    if (out_.empty()) teed_ = 0;
  }

  void stop(const char* why) {
    done_ = true;
    stats_->ended = why;
  }

  // Waits (at most 50 ms at a time, to look at the cancel flag and the clocks) and receives what came.
  // With busy_poll it does not wait: read() calls it again until something came.
  void receive() {
    teed_ = 0;
    const std::uint64_t now = steady_ns();
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed))
      return stop("interrupted");
    std::uint64_t wait = 50'000'000;
    if (options_.idle.count() > 0) {
      const auto deadline = last_datagram_ + static_cast<std::uint64_t>(options_.idle.count());
      if (now >= deadline) return stop("idle");
      wait = std::min(wait, deadline - now);
    }
    if (first_end_) {
      const auto deadline = last_datagram_ + static_cast<std::uint64_t>(options_.linger.count());
      if (now >= deadline) return stop("end of session");
      wait = std::min(wait, deadline - now);
    }
    // Datagrams of a feed's last batch not yet taken: merge on without waiting.
    bool pending = false;
    for (std::size_t f = 0; f < receivers_.size(); ++f) pending = pending || next_[f] < got_[f];
    if (!pending && !options_.busy_poll) {
      const int ready = ::poll(polls_.data(), polls_.size(), static_cast<int>((wait + 999'999) / 1'000'000));
      if (ready <= 0) return;
    }
    // The feeds' datagrams in order of arrival, as a capture of both feeds would hold them: a k-way merge
    // of the batches in which a feed whose batch runs out is received from again before the merge goes
    // on. Taking whole batches of each feed in turn would not do: a backlog (a busy or descheduled
    // listener) puts feed A's batch of 64 many packets ahead of B's when A lost some, and gaps would be
    // declared that B's copies fill a moment later.
    for (std::size_t f = 0; f < receivers_.size(); ++f) {
      if (next_[f] == got_[f]) {
        got_[f] = receivers_[f]->receive();  // without blocking: 0 when nothing is waiting
        next_[f] = 0;
      }
    }
    for (;;) {
      std::size_t pick = receivers_.size();
      for (std::size_t f = 0; f < receivers_.size(); ++f) {
        if (next_[f] < got_[f] &&
            (pick == receivers_.size() ||
             receivers_[f]->arrival_ns(next_[f]) < receivers_[pick]->arrival_ns(next_[pick])))
          pick = f;
      }
      if (pick == receivers_.size()) break;
      take(pick, *receivers_[pick], next_[pick]++);
      // Its batch ran out: the next call receives more of it before any other feed's later datagram.
      if (next_[pick] == got_[pick] && receivers_.size() > 1) break;
    }
    stats_->truncated.store(truncated_total(), std::memory_order_relaxed);
    if (std::all_of(ended_feed_.begin(), ended_feed_.end(), [](bool e) { return e; })) stop("end of session");
  }

  std::uint64_t truncated_total() const {
    std::uint64_t t = 0;
    for (const auto& r : receivers_) t += r->truncated();
    return t;
  }

  void take(std::size_t feed, const udp_receiver& r, std::size_t i) {
    const auto d = r.datagram(i);
    stats_->datagrams.fetch_add(1, std::memory_order_relaxed);
    last_datagram_ = steady_ns();
    std::string why = malformed(d);
    if (why.empty() && d.size() >= 65536 - 28) why = "longer than the receive buffer (cut short)";
    if (!why.empty()) {
      const auto k = stats_->malformed.fetch_add(1, std::memory_order_relaxed) + 1;
      if (options_.report && k <= options_.max_reports) {
        options_.report(r.name() + ": malformed datagram #" + std::to_string(stats_->datagrams.load()) +
                        " skipped: " + why);
      } else if (options_.report && k == options_.max_reports + 1) {
        options_.report("further malformed datagrams are counted, not reported");
      }
      return;
    }
    if (be16(d.data() + 18) == 0xffff) {
      ended_feed_[feed] = true;
      first_end_ = true;
    }
    // pcap record: ts (s, ns), lengths; then IPv4 (20) and UDP (8) headers, then the datagram.
    const std::uint64_t t = r.arrival_ns(i);
    const auto total = static_cast<std::uint32_t>(28 + d.size());
    const std::uint32_t rec[4] = {static_cast<std::uint32_t>(t / 1'000'000'000u),
                                  static_cast<std::uint32_t>(t % 1'000'000'000u), total, total};
    put(rec, sizeof rec);
    const std::uint16_t port = local_port(feed);
    const unsigned char ip[28] = {
        0x45, 0, static_cast<unsigned char>(total >> 8), static_cast<unsigned char>(total & 0xff), 0, 0, 0x40,
        0, 64, 17, 0, 0,
        // source 10.0.0.<feed + 1>, destination 127.0.0.1
        10, 0, 0, static_cast<unsigned char>(feed + 1), 127, 0, 0, 1,
        // UDP: source port 40000, destination the receiving port, length
        0x9c, 0x40, static_cast<unsigned char>(port >> 8), static_cast<unsigned char>(port & 0xff),
        static_cast<unsigned char>((total - 20) >> 8), static_cast<unsigned char>((total - 20) & 0xff), 0, 0};
    put(ip, sizeof ip);
    put(d.data(), d.size());
  }

  std::uint16_t local_port(std::size_t feed) {
    if (ports_.empty())
      for (const auto& r : receivers_) ports_.push_back(r->local().port());
    return ports_[feed];
  }

  live_options options_;
  live_stats own_stats_;
  live_stats* stats_;
  std::vector<std::unique_ptr<udp_receiver>> receivers_;
  std::vector<pollfd> polls_;
  std::vector<bool> ended_feed_;
  std::vector<std::size_t> got_;   // datagrams of each feed's last batch
  std::vector<std::size_t> next_;  // the next of them to take
  std::vector<std::uint16_t> ports_;
  bool first_end_ = false;
  bool done_ = false;
  std::uint64_t last_datagram_ = 0;
  std::vector<std::byte> out_;
  std::size_t pos_ = 0;
  std::size_t teed_ = 0;
  std::uint64_t consumed_ = 0;
};

}  // namespace

std::unique_ptr<io::byte_stream> live_input(const live_options& options) {
  if (options.listen.empty()) throw endpoint_error("--listen: no endpoint given");
  return std::make_unique<live_stream>(options);
}

std::unique_ptr<io::byte_stream> live_capture(const live_options& options, io::capture_options capture) {
  capture.live = true;
  return io::capture_input(live_input(options), capture);
}

}  // namespace itch5::net
