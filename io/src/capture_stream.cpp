// The capture reader of capture.hpp: libpcap over a FILE* made from the byte stream, frame parsing,
// MoldUDP64 sequencing. See the header for the rules.
#include <pcap/pcap.h>
#include <stdio.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

#include <itch5/io/capture.hpp>

namespace itch5::io {

namespace {

std::uint16_t be16(const unsigned char* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }
std::uint64_t be64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return __builtin_bswap64(v);
}

constexpr std::size_t mold_header = 20;
constexpr std::uint16_t mold_end_of_session = 0xffff;

void bump(std::atomic<std::uint64_t>& a, std::uint64_t n = 1) {
  a.store(a.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

std::string range_text(std::uint64_t first, std::uint64_t last) {
  return first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

class capture_stream final : public byte_stream {
 public:
  capture_stream(std::unique_ptr<byte_stream> inner, const capture_options& options)
      : inner_(std::move(inner)), options_(options), in_(std::size_t{1} << 16) {
    stats_ = options_.stats != nullptr ? options_.stats : &own_stats_;
    out_.reserve(std::size_t{1} << 18);
    cookie_io_functions_t io{};
    io.read = &capture_stream::cookie_read;
    io.seek = &capture_stream::cookie_tell;
    file_ = fopencookie(this, "r", io);
    if (file_ == nullptr) throw capture_error("cannot open the capture: fopencookie failed", 0, 0);
    setvbuf(file_, nullptr, _IOFBF, std::size_t{1} << 16);
    char err[PCAP_ERRBUF_SIZE] = "";
    pcap_ = pcap_fopen_offline_with_tstamp_precision(file_, PCAP_TSTAMP_PRECISION_NANO, err);
    if (pcap_ == nullptr) {
      fclose(file_);
      rethrow_inner();
      throw capture_error(
          std::string("not a readable pcap or pcapng capture: file header at byte offset 0: ") + err, 0, 0);
    }
    // pcap_close() now closes file_.
    pcapng_ = pcap_major_version(pcap_) != 2;  // libpcap reports pcapng sections as version 1.0
    link_ = pcap_datalink(pcap_);
    switch (link_) {
      case DLT_EN10MB:
      case DLT_LINUX_SLL:
      case DLT_LINUX_SLL2:
      case DLT_RAW:
      case DLT_IPV4:
      case DLT_IPV6:
      case DLT_NULL: break;
      default: {
        const char* name = pcap_datalink_val_to_name(link_);
        std::string what = "unknown link type " + std::to_string(link_) +
                           (name != nullptr ? std::string(" (") + name + ")" : "") +
                           ": only Ethernet, Linux cooked, raw IP and loopback captures can be read";
        const std::uint64_t at = link_type_offset();
        pcap_close(pcap_);
        throw capture_error(
            "capture header at byte offset " + std::to_string(at) + " (before packet #1): " + what, at, 1);
      }
    }
    if (!options_.filter.empty()) {
      if (pcap_compile(pcap_, &program_, options_.filter.c_str(), 1, PCAP_NETMASK_UNKNOWN) != 0) {
        std::string what = "--filter '" + options_.filter + "': " + pcap_geterr(pcap_);
        pcap_close(pcap_);
        throw capture_error(what, 0, 0);
      }
      filtering_ = true;
    }
    stats_->is_capture.store(true, std::memory_order_relaxed);
  }

  ~capture_stream() override {
    if (filtering_) pcap_freecode(&program_);
    pcap_close(pcap_);
  }
  capture_stream(const capture_stream&) = delete;
  capture_stream& operator=(const capture_stream&) = delete;

  std::size_t read(std::byte* dst, std::size_t n) override {
    if (deferred_) std::rethrow_exception(std::exchange(deferred_, nullptr));
    std::size_t produced = 0;
    struct flush_on_return {
      capture_stream* self;
      ~flush_on_return() {
        if (self->options_.latencies != nullptr && !self->latencies_.empty())
          self->options_.latencies->push(self->latencies_);
      }
    } flush{this};
    while (produced < n) {
      if (out_pos_ < out_.size()) {
        const std::size_t k = std::min(n - produced, out_.size() - out_pos_);
        std::memcpy(dst + produced, out_.data() + out_pos_, k);
        out_pos_ += k;
        produced += k;
        continue;
      }
      if (options_.live && produced > 0) break;  // hand a live packet's messages on now
      out_.clear();
      out_pos_ = 0;
      if (finished_) break;
      try {
        next_packet();
      } catch (...) {
        finished_ = true;  // an error leaves out_ empty: the bytes produced so far go first, then the error
        if (produced == 0) throw;
        deferred_ = std::current_exception();
        break;
      }
    }
    return produced;
  }

  [[nodiscard]] std::uint64_t consumed() const noexcept override { return inner_->consumed(); }
  [[nodiscard]] std::uint64_t total() const noexcept override { return inner_->total(); }
  [[nodiscard]] bool compressed() const noexcept override { return inner_->compressed(); }
  [[nodiscard]] bool borrows_memory() const noexcept override { return inner_->borrows_memory(); }

 private:
  struct held_packet {
    std::uint64_t count;
    std::uint64_t packet;
    std::uint64_t arrival;          // ns since local midnight (when stamping)
    std::vector<std::byte> blocks;  // count x (length + message)
  };

  // ---- bytes for libpcap -------------------------------------------------------------------------------
  static ssize_t cookie_read(void* cookie, char* buf, size_t size) {
    auto* self = static_cast<capture_stream*>(cookie);
    try {
      std::size_t done = 0;
      while (done < size) {
        if (self->in_pos_ == self->in_len_) {
          if (self->in_eof_ || (self->options_.live && done > 0)) break;
          self->in_pos_ = 0;
          self->in_len_ =
              self->inner_->read(reinterpret_cast<std::byte*>(self->in_.data()), self->in_.size());
          if (self->in_len_ == 0) {
            self->in_eof_ = true;
            break;
          }
        }
        const std::size_t k = std::min(size - done, self->in_len_ - self->in_pos_);
        std::memcpy(buf + done, self->in_.data() + self->in_pos_, k);
        self->in_pos_ += k;
        done += k;
      }
      self->offset_ += done;
      return static_cast<ssize_t>(done);
    } catch (...) {
      self->inner_error_ = std::current_exception();
      return -1;
    }
  }

  // Only ftello(): the position of the next byte handed to stdio. (ftello subtracts what stdio holds.)
  static int cookie_tell(void* cookie, off64_t* offset, int whence) {
    if (whence != SEEK_CUR || *offset != 0) return -1;
    *offset = static_cast<off64_t>(static_cast<capture_stream*>(cookie)->offset_);
    return 0;
  }

  // Where libpcap is in the (decompressed) capture.
  [[nodiscard]] std::uint64_t position() const noexcept {
    const off64_t p = ftello64(file_);
    return p < 0 ? offset_ : static_cast<std::uint64_t>(p);
  }

  void rethrow_inner() {
    if (inner_error_) std::rethrow_exception(std::exchange(inner_error_, nullptr));
  }

  // The byte offset of the link-layer frame of the current record (exact for pcap; for pcapng exact when
  // the record's block directly follows the previous one, the common case).
  [[nodiscard]] std::uint64_t link_offset() const noexcept { return record_offset_ + (pcapng_ ? 28 : 16); }

  // Where the capture's link type is written: pcap global header offset 20; pcapng, offset 8 of the
  // interface description block after the section header (found in the first bytes read, when still held).
  [[nodiscard]] std::uint64_t link_type_offset() const noexcept {
    if (!pcapng_) return 20;
    if (offset_ != in_pos_ || in_len_ < 12) return 0;
    std::uint32_t shb_len;
    std::memcpy(&shb_len, in_.data() + 4, 4);
    if (in_[8] == 0x1a) shb_len = __builtin_bswap32(shb_len);  // byte-order magic 1a2b3c4d written big-endian
    return std::uint64_t{shb_len} + 8;
  }

  [[noreturn]] void fail(const std::string& what, std::uint64_t offset) const {
    throw capture_error(
        "packet #" + std::to_string(packet_) + " at byte offset " + std::to_string(offset) + ": " + what,
        offset, packet_);
  }

  // ---- one record ----------------------------------------------------------------------------------------
  // Reads records until one produces output or the capture ends (then finished_).
  void next_packet() {
    while (out_.empty()) {
      record_offset_ = position();
      pcap_pkthdr* hdr = nullptr;
      const u_char* data = nullptr;
      const int rc = pcap_next_ex(pcap_, &hdr, &data);
      if (rc == PCAP_ERROR_BREAK) {  // end of the capture
        rethrow_inner();
        flush_all();
        finished_ = true;
        if (stats_->messages.load(std::memory_order_relaxed) == 0 && out_.empty()) {
          if (filtering_ && matched_ == 0) {
            throw empty_capture_error("no packet of the capture matches the filter (--filter/--port: '" +
                                          options_.filter + "'): " + std::to_string(packet_) +
                                          " packets read, none matched",
                                      position(), packet_);
          }
          throw empty_capture_error("no MoldUDP64 message in the capture: " + stats_->describe() +
                                        (filtering_ ? " (--filter/--port: '" + options_.filter + "')" : ""),
                                    position(), packet_);
        }
        return;
      }
      ++packet_;
      if (rc != 1) {
        rethrow_inner();
        fail(std::string("truncated or corrupt capture record: ") + pcap_geterr(pcap_), record_offset_);
      }
      bump(stats_->packets);
      if (filtering_) {
        if (pcap_offline_filter(&program_, hdr, data) == 0) {
          bump(stats_->skipped);
          continue;
        }
        ++matched_;
      }
      if (options_.stamp_arrival || options_.latencies != nullptr) {
        const auto sec = static_cast<std::uint64_t>(hdr->ts.tv_sec);
        const auto ns =
            static_cast<std::uint64_t>(hdr->ts.tv_usec);  // nanoseconds: opened with PRECISION_NANO
        arrival_ = clock_.since_first_midnight(sec * 1'000'000'000ull + ns);
      }
      frame(reinterpret_cast<const unsigned char*>(data), hdr->caplen, hdr->len);
    }
  }

  void skip() { bump(stats_->skipped); }

  void frame(const unsigned char* p, std::size_t caplen, std::size_t len) {
    std::size_t off = 0;
    unsigned proto = 0;  // EtherType of the network layer
    switch (link_) {
      case DLT_EN10MB: {
        if (caplen < 14) return skip();
        proto = be16(p + 12);
        off = 14;
        while (proto == 0x8100 || proto == 0x88a8 || proto == 0x9100) {
          if (caplen < off + 4) return skip();
          proto = be16(p + off + 2);
          off += 4;
        }
        break;
      }
      case DLT_LINUX_SLL:
        if (caplen < 16) return skip();
        proto = be16(p + 14);
        off = 16;
        break;
      case DLT_LINUX_SLL2:
        if (caplen < 20) return skip();
        proto = be16(p);
        off = 20;
        break;
      case DLT_NULL: {
        if (caplen < 4) return skip();
        std::uint32_t family;
        std::memcpy(&family, p, 4);
        if (family > 0xffff) family = __builtin_bswap32(family);  // written by a host of the other byte order
        proto = family == 2 ? 0x0800 : (family == 24 || family == 28 || family == 30) ? 0x86dd : 0;
        off = 4;
        break;
      }
      default:  // raw IP
        if (caplen < 1) return skip();
        proto = (p[0] >> 4) == 4 ? 0x0800 : (p[0] >> 4) == 6 ? 0x86dd : 0;
        break;
    }
    std::size_t udp = 0;
    if (proto == 0x0800) {
      if (caplen < off + 20 || (p[off] >> 4) != 4) return skip();
      const std::size_t ihl = std::size_t{p[off] & 0x0fu} * 4;
      if (ihl < 20 || caplen < off + ihl) return skip();
      if (p[off + 9] != 17) return skip();                   // not UDP
      if ((be16(p + off + 6) & 0x3fff) != 0) return skip();  // a fragment
      udp = off + ihl;
    } else if (proto == 0x86dd) {
      if (caplen < off + 40 || (p[off] >> 4) != 6) return skip();
      if (p[off + 6] != 17) return skip();  // not UDP (extension headers are not followed)
      udp = off + 40;
    } else {
      return skip();
    }
    if (caplen < udp + 8) return skip();
    if (caplen < len) {
      fail("captured " + std::to_string(caplen) + " of the packet's " + std::to_string(len) +
               " bytes (snap length " + std::to_string(pcap_snapshot(pcap_)) +
               "): the datagram is cut short; capture with a larger snap length (tcpdump -s 0)",
           link_offset());
    }
    const std::size_t udp_len = be16(p + udp + 4);
    if (udp_len < 8) return skip();
    if (udp + udp_len > caplen) {
      fail("UDP length " + std::to_string(udp_len) + " runs past the " + std::to_string(caplen - udp) +
               " bytes of the datagram",
           link_offset() + udp + 4);
    }
    mold(p + udp + 8, udp_len - 8, link_offset() + udp + 8);
  }

  // ---- MoldUDP64 -----------------------------------------------------------------------------------------
  void mold(const unsigned char* p, std::size_t n, std::uint64_t at) {
    if (n < mold_header) return skip();  // too short to be MoldUDP64
    if (!started_) {
      std::memcpy(session_, p, 10);
      started_ = true;
      expected_ = be64(p + 10);
    } else if (std::memcmp(session_, p, 10) != 0) {
      return skip();
    }
    bump(stats_->mold_packets);
    const std::uint64_t seq = be64(p + 10);
    const std::uint16_t count = be16(p + 18);
    if (count == 0 || count == mold_end_of_session) {
      bump(count == 0 ? stats_->heartbeats : stats_->end_of_session);
      if (seq > expected_) hold(seq, 0, {});
      return;
    }
    // Every block must fit the datagram.
    std::size_t pos = mold_header;
    for (std::uint16_t i = 0; i < count; ++i) {
      if (n - pos < 2) {
        fail("MoldUDP64 message count " + std::to_string(count) + " overruns the " + std::to_string(n) +
                 "-byte datagram: message " + std::to_string(i + 1) + "'s length prefix is past its end",
             at + pos);
      }
      const std::size_t len = be16(p + pos);
      if (len == 0) fail("MoldUDP64 message " + std::to_string(i + 1) + " has length 0", at + pos);
      if (n - pos - 2 < len) {
        fail("MoldUDP64 message " + std::to_string(i + 1) + " of length " + std::to_string(len) +
                 " overruns the " + std::to_string(n) + "-byte datagram by " +
                 std::to_string(len - (n - pos - 2)) + " bytes",
             at + pos);
      }
      pos += 2 + len;
    }
    const std::span<const std::byte> blocks(reinterpret_cast<const std::byte*>(p + mold_header),
                                            pos - mold_header);
    if (seq > expected_) {
      hold(seq, count, blocks);
      return;
    }
    if (seq + count <= expected_) {
      bump(reported_missing(seq, count) ? stats_->too_late : stats_->duplicates);
      return;
    }
    if (!held_.empty()) bump(stats_->reordered);  // late: packets after it came first
    deliver(seq, count, blocks, arrival_);
    drain();
  }

  // Hands on the messages of a packet from expected_ on (seq <= expected_ < seq + count).
  void deliver(std::uint64_t seq, std::uint64_t count, std::span<const std::byte> blocks,
               std::uint64_t arrival) {
    std::size_t pos = 0;
    for (std::uint64_t s = seq; s < expected_; ++s) pos += 2 + block_length(blocks, pos);
    const std::size_t start = out_.size();
    out_.insert(out_.end(), blocks.begin() + static_cast<std::ptrdiff_t>(pos), blocks.end());
    if (options_.latencies != nullptr) {
      // Each message's feed latency, from its exchange timestamp (before any stamping below).
      for (std::size_t at = start; at < out_.size();) {
        const std::size_t len = block_length(out_, at);
        std::int64_t latency = latency_queue::none;
        if (len >= 11) {
          std::uint64_t exchange = 0;
          for (int i = 0; i < 6; ++i)
            exchange = exchange << 8 | std::to_integer<std::uint64_t>(out_[at + 2 + 5 + i]);
          latency = static_cast<std::int64_t>(arrival) - static_cast<std::int64_t>(exchange);
        }
        latencies_.push_back(latency);
        at += 2 + len;
      }
    }
    if (options_.stamp_arrival) {
      // Every message's 6-byte timestamp (after type, stock locate and tracking number) := arrival.
      std::byte stamp[6];
      for (int i = 0; i < 6; ++i) stamp[i] = static_cast<std::byte>(arrival >> (8 * (5 - i)));
      for (std::size_t at = start; at < out_.size();) {
        const std::size_t len = block_length(out_, at);
        if (len >= 11) std::memcpy(out_.data() + at + 2 + 5, stamp, 6);
        at += 2 + len;
      }
    }
    bump(stats_->messages, seq + count - expected_);
    expected_ = seq + count;
  }

  static std::size_t block_length(std::span<const std::byte> b, std::size_t at) {
    return std::to_integer<std::size_t>(b[at]) << 8 | std::to_integer<std::size_t>(b[at + 1]);
  }

  // Hands on the held packets that have become next in line.
  void drain() {
    while (!held_.empty() && held_.begin()->first <= expected_) {
      auto node = held_.extract(held_.begin());
      const std::uint64_t seq = node.key();
      held_packet& h = node.mapped();
      if (h.count == 0) continue;  // a heartbeat that is no longer ahead
      if (seq + h.count <= expected_) {
        bump(stats_->duplicates);
        continue;
      }
      deliver(seq, h.count, h.blocks, h.arrival);
    }
  }

  void hold(std::uint64_t seq, std::uint64_t count, std::span<const std::byte> blocks) {
    auto it = held_.find(seq);
    if (it != held_.end()) {
      if (count <= it->second.count) {
        if (count != 0) bump(stats_->duplicates);
        return;
      }
      it->second.count = count;
      it->second.arrival = arrival_;
      it->second.blocks.assign(blocks.begin(), blocks.end());
    } else {
      held_.emplace(
          seq, held_packet{count, packet_, arrival_, std::vector<std::byte>(blocks.begin(), blocks.end())});
    }
    while (held_.size() > options_.reorder_window) skip_to_first_held();
  }

  // Gives up waiting for the messages before the first held packet: reports them as a gap.
  void skip_to_first_held() {
    const std::uint64_t first = held_.begin()->first;
    if (first > expected_) {
      gap(expected_, first - 1, held_.begin()->second.packet);
      expected_ = first;
    }
    drain();
  }

  void flush_all() {
    while (!held_.empty()) skip_to_first_held();
  }

  // Whether sequence numbers seq..seq+count-1 (all below expected_) overlap a range reported as a gap: then
  // the packet is late, not a duplicate. Its overlap is taken out of the ranges, so that a second copy of
  // it is a duplicate. Per packet behind expected_ only; gaps are few.
  bool reported_missing(std::uint64_t seq, std::uint64_t count) {
    const std::uint64_t last = seq + count - 1;
    auto it = missing_.upper_bound(last);  // the first range starting after the packet
    bool overlap = false;
    while (it != missing_.begin()) {
      --it;
      const std::uint64_t first = it->first, end = it->second;  // end: the range's last number
      if (end < seq) break;
      overlap = true;
      it = missing_.erase(it);
      if (first < seq) missing_.emplace(first, seq - 1);
      if (end > last) missing_.emplace(last + 1, end);
      it = missing_.lower_bound(first);
    }
    return overlap;
  }

  void gap(std::uint64_t first, std::uint64_t last, std::uint64_t packet) {
    missing_.emplace(first, last);
    bump(stats_->gaps);
    bump(stats_->missing, last - first + 1);
    if (!options_.report) return;
    if (reports_ < options_.max_gap_reports) {
      options_.report("gap: sequence numbers " + range_text(first, last) + " (" +
                      std::to_string(last - first + 1) + (last == first ? " message" : " messages") +
                      ") missing before packet #" + std::to_string(packet));
    } else if (reports_ == options_.max_gap_reports) {
      options_.report("more gaps: not reported one by one (see the summary)");
    }
    ++reports_;
  }

  std::unique_ptr<byte_stream> inner_;
  capture_options options_;
  capture_stats own_stats_;
  capture_stats* stats_;

  std::vector<char> in_;  // bytes read from inner_ for libpcap
  std::size_t in_pos_ = 0, in_len_ = 0;
  bool in_eof_ = false;
  std::uint64_t offset_ = 0;  // bytes handed to libpcap so far
  std::exception_ptr inner_error_;

  FILE* file_ = nullptr;
  pcap_t* pcap_ = nullptr;
  bool pcapng_ = false;
  int link_ = 0;
  bpf_program program_{};
  bool filtering_ = false;
  std::uint64_t matched_ = 0;  // packets the filter let through

  std::uint64_t packet_ = 0;   // records read
  std::uint64_t arrival_ = 0;  // the current packet's arrival, ns since local midnight (when stamping)
  arrival_clock clock_{options_.zone};  // arrival_ from the record's UTC time
  std::uint64_t record_offset_ = 0;     // where the current record starts
  bool started_ = false;
  char session_[10] = {};
  std::uint64_t expected_ = 0;  // next sequence number to hand on
  std::map<std::uint64_t, held_packet> held_;
  std::map<std::uint64_t, std::uint64_t> missing_;  // ranges reported as gaps and not seen since: first, last
  std::size_t reports_ = 0;

  std::vector<std::byte> out_;           // BinaryFILE bytes ready for read()
  std::vector<std::int64_t> latencies_;  // of the messages put in out_, not yet pushed to options_.latencies
  std::size_t out_pos_ = 0;
  bool finished_ = false;
  std::exception_ptr deferred_;
};

}  // namespace

void latency_queue::push(std::vector<std::int64_t>& batch) {
  if (batch.empty()) return;
  std::vector<std::int64_t> b;
  b.swap(batch);
  const std::lock_guard lock(mutex_);
  batches_.push_back(std::move(b));
}

std::int64_t latency_queue::pop_slow() {
  {
    const std::lock_guard lock(mutex_);
    if (batches_.empty()) return none;
    current_.swap(batches_.front());
    batches_.pop_front();
  }
  pos_ = 0;
  return current_.empty() ? none : current_[pos_++];
}

namespace {

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

std::int64_t year_of_days(std::int64_t z) {  // civil_from_days, the year only
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  return static_cast<std::int64_t>(yoe) + era * 400 + (mp >= 10 ? 1 : 0);
}

// The day (days since the epoch) of the n-th Sunday of a month.
std::int64_t nth_sunday(std::int64_t y, unsigned m, unsigned n) {
  const std::int64_t first = days_from_civil(y, m, 1);
  const std::int64_t weekday = ((first % 7) + 7 + 4) % 7;  // 1970-01-01 was a Thursday (4); Sunday = 0
  return first + (7 - weekday) % 7 + 7 * (n - 1);
}

}  // namespace

namespace {

constexpr const char* zone_forms =
    "America/New_York, UTC, a fixed offset from UTC as +HH:MM or -HH:MM, or a zone name of the tz database "
    "such as Europe/London";

// Big-endian signed integers of a TZif file.
std::int64_t tzif_int(std::string_view bytes, std::size_t at, std::size_t size) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < size; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  if (size < 8 && (v >> (8 * size - 1)) != 0) v |= ~std::uint64_t{0} << (8 * size);  // sign-extended
  return static_cast<std::int64_t>(v);
}

// A name that can only mean a file under the database's directory: no absolute path, no "..".
bool plausible_zone_name(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.size() > 255) return false;
  for (char c : name) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' ||
                    c == '_' || c == '-' || c == '+' || c == '.';
    if (!ok) return false;
  }
  return name.find("..") == std::string::npos;
}

}  // namespace

time_zone time_zone::from_tzif(std::string_view bytes, const std::string& name) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument("time zone '" + name + "': " + why);
  };
  constexpr std::size_t header = 44;
  if (bytes.size() < header || bytes.substr(0, 4) != "TZif") throw bad("not a TZif file of the tz database");
  struct counts {
    std::size_t isut, isstd, leap, time, type, chars;
  };
  auto read_counts = [&](std::size_t at) {
    if (bytes.size() < at + header || bytes.substr(at, 4) != "TZif") throw bad("truncated TZif file");
    auto n = [&](std::size_t i) { return static_cast<std::size_t>(tzif_int(bytes, at + 20 + 4 * i, 4)); };
    return counts{n(0), n(1), n(2), n(3), n(4), n(5)};
  };
  auto block_size = [](const counts& c, std::size_t time_size) {
    return c.time * time_size + c.time + c.type * 6 + c.chars + c.leap * (time_size + 4) + c.isstd + c.isut;
  };
  counts c = read_counts(0);
  std::size_t at = header, time_size = 4;
  if (bytes[4] >= '2') {  // the 64-bit block after the 32-bit one
    at = header + block_size(c, 4);
    c = read_counts(at);
    at += header;
    time_size = 8;
  }
  if (c.type == 0 || c.type > 256 || c.time > 100000 || c.chars > 100000 || c.leap > 100000 ||
      c.isstd > 256 || c.isut > 256 || bytes.size() < at + block_size(c, time_size))
    throw bad("truncated or corrupt TZif file");
  const std::size_t index_at = at + c.time * time_size, types_at = index_at + c.time;
  auto offset_of_type = [&](std::size_t t) {
    if (t >= c.type) throw bad("corrupt TZif file (a transition to an unknown local time type)");
    return static_cast<std::int32_t>(tzif_int(bytes, types_at + 6 * t, 4));
  };
  time_zone z{false, 0, {}, {}};
  z.offsets.push_back(offset_of_type(0));  // before the first transition (RFC 8536, 3.2)
  for (std::size_t i = 0; i < c.time; ++i) {
    z.transitions.push_back(tzif_int(bytes, at + i * time_size, time_size));
    z.offsets.push_back(offset_of_type(static_cast<unsigned char>(bytes[index_at + i])));
  }
  if (!std::is_sorted(z.transitions.begin(), z.transitions.end())) throw bad("corrupt TZif file");
  if (z.transitions.empty()) {
    z.fixed_offset_seconds = z.offsets.front();
    z.offsets.clear();
  }
  return z;
}

time_zone time_zone::parse(const std::string& name) {
  if (name == "America/New_York") return {};
  if (name == "UTC") return {false, 0, {}, {}};
  if (name.size() == 6 && (name[0] == '+' || name[0] == '-') && name[3] == ':') {
    auto digit = [&](std::size_t i) { return name[i] >= '0' && name[i] <= '9'; };
    if (digit(1) && digit(2) && digit(4) && digit(5)) {
      const int h = (name[1] - '0') * 10 + (name[2] - '0');
      const int m = (name[4] - '0') * 10 + (name[5] - '0');
      if (h <= 14 && m < 60) return {false, (name[0] == '-' ? -1 : 1) * (h * 3600 + m * 60), {}, {}};
    }
    throw std::invalid_argument(
        "time zone '" + name + "': an offset from UTC is +HH:MM or -HH:MM, hours 00 to 14, minutes 00 to 59");
  }
  if (!plausible_zone_name(name))
    throw std::invalid_argument("time zone '" + name + "': expected " + std::string(zone_forms));
  const char* dir = std::getenv("TZDIR");
  const std::string path =
      std::string(dir != nullptr && *dir != '\0' ? dir : "/usr/share/zoneinfo") + "/" + name;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    throw std::invalid_argument("time zone '" + name + "' is not in the tz database (" + path + ": " +
                                std::strerror(errno) + "); expected " + zone_forms);
  }
  std::string bytes;
  char buf[4096];
  for (std::size_t n; bytes.size() < (std::size_t{1} << 20) && (n = std::fread(buf, 1, sizeof buf, f)) > 0;)
    bytes.append(buf, n);
  std::fclose(f);
  return from_tzif(bytes, name);
}

std::int64_t time_zone::offset_at(std::int64_t utc_seconds) const noexcept {
  if (!transitions.empty()) {
    const auto after = std::upper_bound(transitions.begin(), transitions.end(), utc_seconds);
    return offsets[static_cast<std::size_t>(after - transitions.begin())];
  }
  if (!new_york) return fixed_offset_seconds;
  const std::int64_t days = (utc_seconds >= 0 ? utc_seconds : utc_seconds - 86399) / 86400;
  const std::int64_t y = year_of_days(days);
  // 02:00 local: 07:00 UTC in March (EST), 06:00 UTC in November (EDT).
  const std::int64_t start = nth_sunday(y, 3, 2) * 86400 + 7 * 3600;
  const std::int64_t end = nth_sunday(y, 11, 1) * 86400 + 6 * 3600;
  return utc_seconds >= start && utc_seconds < end ? -4 * 3600 : -5 * 3600;
}

std::int64_t time_zone::local_ns(std::uint64_t utc_ns) const noexcept {
  const auto t = static_cast<std::int64_t>(utc_ns);
  return t + offset_at(t / 1'000'000'000) * 1'000'000'000;
}

std::uint64_t time_zone::time_of_day_ns(std::uint64_t utc_ns) const noexcept {
  constexpr std::int64_t day_ns = 86'400'000'000'000;
  const std::int64_t local = local_ns(utc_ns);
  return static_cast<std::uint64_t>(((local % day_ns) + day_ns) % day_ns);
}

std::string capture_stats::describe() const {
  auto n = [](const std::atomic<std::uint64_t>& a) {
    return std::to_string(a.load(std::memory_order_relaxed));
  };
  std::string s = n(packets) + " packets read, " + n(skipped) + " skipped, " + n(duplicates) +
                  " duplicates, " + n(gaps) + " gaps (" + n(missing) + " messages missing)";
  if (reordered.load(std::memory_order_relaxed) != 0)
    s += ", " + n(reordered) + " late packets put back in order";
  if (too_late.load(std::memory_order_relaxed) != 0)
    s += ", " + n(too_late) + " packets too late (after their gap was reported)";
  s += ", " + n(heartbeats) + " heartbeats";
  if (end_of_session.load(std::memory_order_relaxed) != 0) s += ", end of session";
  return s;
}

bool looks_like_capture(std::span<const std::byte> head) noexcept {
  if (head.size() < 4) return false;
  std::uint32_t m;
  std::memcpy(&m, head.data(), 4);
  for (std::uint32_t magic : {0xa1b2c3d4u, 0xa1b23c4du, 0xa1b2cd34u}) {
    if (m == magic || m == __builtin_bswap32(magic)) return true;
  }
  return m == 0x0a0d0d0au;  // pcapng section header block (a palindrome)
}

std::unique_ptr<byte_stream> capture_input(std::unique_ptr<byte_stream> capture,
                                           const capture_options& options) {
  return std::make_unique<capture_stream>(std::move(capture), options);
}

}  // namespace itch5::io
