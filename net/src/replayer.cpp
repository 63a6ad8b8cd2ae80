#include <itch5/net/replayer.hpp>

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace itch5::net {

namespace {

std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t be(const std::byte* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = v << 8 | std::to_integer<std::uint64_t>(p[i]);
  return v;
}

void put_be(std::byte* p, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i, v >>= 8) p[i] = std::byte{static_cast<unsigned char>(v & 0xff)};
}

constexpr std::uint64_t spin_ns = 100'000;

}  // namespace

replayer::replayer(udp_sender& a, udp_sender* b, replay_options options)
    : a_(&a), b_(b), options_(std::move(options)), rng_(options_.seed) {}

std::uint64_t replayer::now_ns() noexcept {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000u + static_cast<std::uint64_t>(t.tv_nsec);
}

bool replayer::chance(double p) {
  if (p <= 0) return false;
  return static_cast<double>(splitmix(rng_) >> 11) * 0x1.0p-53 < p;
}

void replayer::put(udp_sender& feed, std::span<const std::byte> mold) {
  feed.send(mold);
  ++stats_.sent;
  last_send_ns_ = now_ns();
}

void replayer::heartbeat() {
  std::byte hb[20];
  std::memcpy(hb, session_, 10);
  put_be(hb + 10, next_seq_, 8);
  put_be(hb + 18, 0, 2);
  put(*a_, hb);
  ++stats_.heartbeats;
  if (b_ != nullptr) {
    put(*b_, hb);
    ++stats_.heartbeats;
  }
}

void replayer::flush_b(std::uint64_t until) {
  while (!pending_b_.empty() && pending_b_.front().due <= until) {
    put(*b_, pending_b_.front().bytes);
    spare_.push_back(std::move(pending_b_.front().bytes));
    pending_b_.pop_front();
  }
}

// Waits for `due` (CLOCK_REALTIME ns): sleeps to within spin_ns, then spins; sends feed B's delayed copies
// and heartbeats when their time comes. False when cancelled.
bool replayer::wait_until(std::uint64_t due) {
  for (;;) {
    const std::uint64_t now = now_ns();
    if (b_ != nullptr) flush_b(now);
    if (now >= due) return true;
    if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) return false;
    const auto hb = static_cast<std::uint64_t>(options_.heartbeat.count());
    if (hb > 0 && started_ && now >= last_send_ns_ + hb) heartbeat();
    std::uint64_t wake = due;
    if (hb > 0 && started_) wake = std::min(wake, last_send_ns_ + hb);
    if (b_ != nullptr && !pending_b_.empty()) wake = std::min(wake, pending_b_.front().due);
    wake = std::min(wake, now + 50'000'000);  // look at the cancel flag now and then
    if (wake > now + spin_ns) {
      const std::uint64_t until = wake - spin_ns;
      timespec t{static_cast<time_t>(until / 1'000'000'000u), static_cast<long>(until % 1'000'000'000u)};
      clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &t, nullptr);
    }
  }
}

bool replayer::send(std::span<const std::byte> mold, std::uint64_t feed_ns) {
  if (mold.size() < 20) return true;
  const std::uint64_t seq = be(mold.data() + 10, 8);
  const auto count = static_cast<std::uint16_t>(be(mold.data() + 18, 2));
  const std::uint64_t messages = count == 0xffff ? 0 : count;
  if (!started_) {
    std::memcpy(session_, mold.data(), 10);
    start_ns_ = now_ns();
    first_feed_ns_ = feed_ns;
    prev_feed_ns_ = feed_ns;
    started_ = true;
    last_send_ns_ = start_ns_;
  }
  std::uint64_t due = 0;
  if (options_.rate > 0) {
    due = start_ns_ +
          static_cast<std::uint64_t>(static_cast<double>(stats_.messages + messages) * 1e9 / options_.rate);
  } else if (options_.speed > 0) {
    const auto max_feed_gap =
        static_cast<std::uint64_t>(static_cast<double>(options_.max_wait.count()) * options_.speed);
    if (max_feed_gap > 0 && feed_ns > prev_feed_ns_ + max_feed_gap)
      cut_ns_ += feed_ns - prev_feed_ns_ - max_feed_gap;
    prev_feed_ns_ = std::max(prev_feed_ns_, feed_ns);
    const std::uint64_t since = feed_ns > first_feed_ns_ + cut_ns_ ? feed_ns - first_feed_ns_ - cut_ns_ : 0;
    due = start_ns_ + static_cast<std::uint64_t>(static_cast<double>(since) / options_.speed);
  } else {
    due = now_ns();
  }
  if (!wait_until(due)) return false;
  if (count == 0xffff) {  // the end of session, after the last packet's copies
    next_seq_ = seq;
    finish();
    return true;
  }
  ++stats_.packets;
  stats_.messages += messages;
  next_seq_ = seq + messages;
  const bool twice = chance(options_.duplicates);
  const std::uint64_t sent_at = now_ns();
  if (stats_.first_sent_ns == 0) stats_.first_sent_ns = sent_at;
  stats_.max_late_ns = std::max(stats_.max_late_ns, sent_at > due ? sent_at - due : 0);
  if (chance(options_.loss_a)) {
    ++stats_.lost_a;
  } else {
    for (int k = 0; k < (twice ? 2 : 1); ++k) put(*a_, mold);
    if (options_.schedule_log) {
      char line[96];
      const int n =
          std::snprintf(line, sizeof line, "%llu %u %llu %llu\n", static_cast<unsigned long long>(seq),
                        static_cast<unsigned>(messages), static_cast<unsigned long long>(due),
                        static_cast<unsigned long long>(sent_at));
      options_.schedule_log(std::string_view(line, static_cast<std::size_t>(n)));
    }
  }
  if (twice) ++stats_.duplicated;
  if (b_ != nullptr) {
    if (chance(options_.loss_b)) {
      ++stats_.lost_b;
    } else {
      for (int k = 0; k < (twice ? 2 : 1); ++k) {
        std::vector<std::byte> copy;
        if (!spare_.empty()) {
          copy = std::move(spare_.back());
          spare_.pop_back();
        }
        copy.assign(mold.begin(), mold.end());
        pending_b_.push_back({due + static_cast<std::uint64_t>(options_.b_delay.count()), std::move(copy)});
      }
      flush_b(now_ns());
    }
  }
  stats_.last_sent_ns = last_send_ns_;
  return true;
}

void replayer::finish() {
  if (b_ != nullptr) {
    while (!pending_b_.empty()) {
      if (!wait_until(pending_b_.front().due)) break;
    }
  }
  std::byte end[20];
  std::memcpy(end, session_, 10);
  put_be(end + 10, next_seq_, 8);
  put_be(end + 18, 0xffff, 2);
  put(*a_, end);
  if (b_ != nullptr) put(*b_, end);
  stats_.last_sent_ns = last_send_ns_;
}

}  // namespace itch5::net
