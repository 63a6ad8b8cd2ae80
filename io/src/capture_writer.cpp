#include <itch5/io/capture_writer.hpp>

#include <cstring>
#include <stdexcept>

namespace itch5::io {

namespace {

constexpr std::size_t link_ip_udp = 14 + 20 + 8;
constexpr std::size_t mold_header = 20;

void put_be(std::byte* p, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) p[i] = static_cast<std::byte>(v >> (8 * (n - 1 - i)));
}

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

capture_writer::capture_writer(sink out, capture_writer_options options)
    : out_(std::move(out)),
      options_(std::move(options)),
      next_seq_(options_.first_sequence),
      rng_(options_.seed) {
  if (options_.max_payload < mold_header + 2 + 64 || options_.max_payload > 65507) {
    throw std::invalid_argument("MoldUDP64 packet payload of " + std::to_string(options_.max_payload) +
                                " bytes: must be between 86 and 65507");
  }
  if (!(options_.loss >= 0 && options_.loss < 1) || !(options_.duplicates >= 0 && options_.duplicates <= 1) ||
      !(options_.reorder >= 0 && options_.reorder < 1)) {
    throw std::invalid_argument("packet loss and reordering must be in [0, 1) and duplicates in [0, 1]");
  }
  options_.session.resize(10, ' ');
  frame_.reserve(link_ip_udp + options_.max_payload);
  out_buffer_.reserve(options_.output_buffer + 16 + link_ip_udp + options_.max_payload);
  frame_.assign(link_ip_udp + mold_header, std::byte{0});
  // pcap global header, host byte order, nanosecond timestamps, Ethernet.
  struct {
    std::uint32_t magic = 0xa1b23c4d;
    std::uint16_t major = 2, minor = 4;
    std::int32_t zone = 0;
    std::uint32_t sigfigs = 0, snaplen = 65535, link = 1;
  } h;
  char header[24];
  std::memcpy(header, &h.magic, 4);
  std::memcpy(header + 4, &h.major, 2);
  std::memcpy(header + 6, &h.minor, 2);
  std::memcpy(header + 8, &h.zone, 4);
  std::memcpy(header + 12, &h.sigfigs, 4);
  std::memcpy(header + 16, &h.snaplen, 4);
  std::memcpy(header + 20, &h.link, 4);
  put(header, sizeof header);
  stats_.bytes += sizeof header;
}

bool capture_writer::chance(double p) {
  if (p <= 0) return false;
  return static_cast<double>(splitmix(rng_) >> 11) * 0x1.0p-53 < p;
}

void capture_writer::write(std::span<const std::byte> bytes) {
  std::size_t at = 0;
  if (ended_) return;
  if (!pending_.empty()) {  // complete the message split by the previous call
    while (at < bytes.size()) {
      pending_.push_back(bytes[at++]);
      if (pending_.size() >= 2) {
        const std::size_t len =
            (std::to_integer<std::size_t>(pending_[0]) << 8) | std::to_integer<std::size_t>(pending_[1]);
        if (len == 0) {
          ended_ = true;
          pending_.clear();
          return;
        }
        if (pending_.size() == 2 + len) {
          add_message(pending_.data() + 2, len);
          pending_.clear();
          break;
        }
      }
    }
  }
  while (at + 2 <= bytes.size()) {
    const std::size_t len =
        (std::to_integer<std::size_t>(bytes[at]) << 8) | std::to_integer<std::size_t>(bytes[at + 1]);
    if (len == 0) {
      ended_ = true;
      return;
    }
    if (bytes.size() - at - 2 < len) break;
    add_message(bytes.data() + at + 2, len);
    at += 2 + len;
  }
  pending_.insert(pending_.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at), bytes.end());
}

void capture_writer::add_message(const std::byte* msg, std::size_t len) {
  const bool stamped = len >= 11;  // type, stock locate, tracking number, then the 6-byte timestamp
  std::uint64_t ts = 0;
  if (stamped) {
    for (int i = 5; i < 11; ++i) ts = ts << 8 | std::to_integer<std::uint64_t>(msg[i]);
  }
  // A packet is full, or the feed would have sent it before this message existed.
  if (count_ != 0 && (frame_.size() - link_ip_udp + 2 + len > options_.max_payload ||
                      (stamped && ts > first_timestamp_ + options_.max_span_ns))) {
    flush_packet(count_);
  }
  if (stamped) {
    if (count_ == 0) first_timestamp_ = ts;
    last_timestamp_ = ts;
  } else if (count_ == 0) {
    first_timestamp_ = last_timestamp_;
  }
  std::byte prefix[2];
  put_be(prefix, len, 2);
  frame_.insert(frame_.end(), prefix, prefix + 2);
  frame_.insert(frame_.end(), msg, msg + len);
  ++count_;
  ++next_seq_;
  ++stats_.messages;
}

void capture_writer::flush_packet(std::uint16_t count_field) {
  const std::uint64_t seq = next_seq_ - count_;
  std::byte* f = frame_.data();
  // Ethernet: multicast MAC of 233.54.12.111, a locally administered source, IPv4.
  const unsigned char eth[14] = {0x01, 0x00, 0x5e, 0x36, 0x0c, 0x6f, 0x02,
                                 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00};
  std::memcpy(f, eth, sizeof eth);
  const std::size_t udp_len = frame_.size() - 14 - 20;
  std::byte* ip = f + 14;
  ip[0] = std::byte{0x45};
  ip[1] = std::byte{0};
  put_be(ip + 2, 20 + udp_len, 2);
  put_be(ip + 4, static_cast<std::uint16_t>(stats_.packets), 2);
  put_be(ip + 6, 0x4000, 2);  // don't fragment
  ip[8] = std::byte{64};
  ip[9] = std::byte{17};
  put_be(ip + 10, 0, 2);
  put_be(ip + 12, 0x0a000001, 4);  // 10.0.0.1
  put_be(ip + 16, 0xe9360c6f, 4);  // 233.54.12.111
  std::uint32_t sum = 0;           // header checksum
  for (int i = 0; i < 20; i += 2)
    sum += std::to_integer<std::uint32_t>(ip[i]) << 8 | std::to_integer<std::uint32_t>(ip[i + 1]);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >> 16);
  put_be(ip + 10, ~sum & 0xffff, 2);
  std::byte* udp = ip + 20;
  put_be(udp, 40000, 2);
  put_be(udp + 2, options_.port, 2);
  put_be(udp + 4, udp_len, 2);
  put_be(udp + 6, 0, 2);  // no checksum
  std::byte* mold = udp + 8;
  std::memcpy(mold, options_.session.data(), 10);
  put_be(mold + 10, seq, 8);
  put_be(mold + 18, count_field, 2);

  const bool end_of_session = count_field == 0xffff;
  ++stats_.packets;
  const bool lost = !end_of_session && chance(options_.loss);
  const bool twice = !lost && !end_of_session && chance(options_.duplicates);
  const std::uint64_t t = options_.time_base_ns + last_timestamp_;
  if (lost) {
    ++stats_.lost;
  } else if (held_.empty() && !end_of_session && chance(options_.reorder)) {
    held_.assign(frame_.begin(), frame_.end());  // arrives after the next packet
    ++stats_.reordered;
  } else {
    if (end_of_session && !held_.empty()) {  // nothing follows: the late packet comes before the end
      emit(t, held_);
      held_.clear();
    }
    for (int k = 0; k < (twice ? 2 : 1); ++k) emit(t, frame_);
    if (twice) ++stats_.duplicated;
    if (!held_.empty()) {
      emit(t, held_);
      held_.clear();
    }
  }
  frame_.resize(link_ip_udp + mold_header);
  count_ = 0;
}

// One pcap record: `frame` captured at `t` (UTC ns).
void capture_writer::emit(std::uint64_t t, std::span<const std::byte> frame) {
  const std::uint32_t rec[4] = {
      static_cast<std::uint32_t>(t / 1'000'000'000), static_cast<std::uint32_t>(t % 1'000'000'000),
      static_cast<std::uint32_t>(frame.size()), static_cast<std::uint32_t>(frame.size())};
  put(rec, sizeof rec);
  put(frame.data(), frame.size());
  stats_.bytes += sizeof rec + frame.size();
  if (out_buffer_.size() >= options_.output_buffer) drain();
}

void capture_writer::put(const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  out_buffer_.insert(out_buffer_.end(), p, p + size);
}

void capture_writer::drain() {
  if (out_buffer_.empty()) return;
  out_({out_buffer_.data(), out_buffer_.size()});
  out_buffer_.clear();
}

void capture_writer::finish() {
  if (!pending_.empty()) {
    throw std::runtime_error("the BinaryFILE stream ends inside a message (" +
                             std::to_string(pending_.size()) + " bytes of it)");
  }
  if (count_ != 0) flush_packet(count_);
  first_timestamp_ = last_timestamp_;
  flush_packet(0xffff);
  drain();
}

}  // namespace itch5::io
