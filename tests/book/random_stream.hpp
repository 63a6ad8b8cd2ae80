// Random ITCH order streams for differential tests: a few symbols (one sub-dollar, one around $1.00),
// prices random-walking with heavy-tailed distances from the inside (so window edges are crossed often),
// books that may cross, and with `anomalies` a sprinkle of unknown references, duplicates, oversized
// reductions, zero shares and bad prices. Deterministic for a seed (std::mt19937_64 and integer
// arithmetic only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <itch5/frame_writer.hpp>

#include "message_builders.hpp"

namespace testing_messages {

inline std::vector<std::byte> random_stream(std::uint64_t seed, std::size_t messages, bool anomalies) {
  std::mt19937_64 rng(seed);
  itch5::frame_writer w;
  struct live {
    std::uint64_t ref;
    std::uint16_t locate;
    std::uint32_t shares;
  };
  const std::uint16_t symbols = 6;
  std::vector<std::int64_t> centre = {5000, 9990, 1000000, 250000, 12345600, 4000000};  // $0.50 .. $1234.56
  const char* names[] = {"SUB", "ONE", "HUND", "TWEN", "BIG", "FOUR"};
  for (std::uint16_t s = 0; s < symbols; ++s) w.write(directory(static_cast<std::uint16_t>(s + 1), names[s]));
  std::vector<live> orders;
  std::uint64_t next_ref = 1;
  std::int64_t ts = 34'200'000'000'000;
  auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
  auto price_near = [&](std::uint16_t locate, bool buy) {
    std::int64_t& c = centre[locate - 1];
    c += static_cast<std::int64_t>(rng() % 5) - 2;
    const std::int64_t tick = c < 10000 ? 1 : 100;
    c = c < 10000 ? c : c / 100 * 100;
    const std::uint64_t r = rng() % 1000;
    std::int64_t d = r < 500   ? static_cast<std::int64_t>(rng() % 3)
                     : r < 900 ? static_cast<std::int64_t>(rng() % 40)
                     : r < 990 ? static_cast<std::int64_t>(rng() % 400)
                               : static_cast<std::int64_t>(rng() % 5000);
    if (rng() % 8 == 0) d = -d;  // through the inside: books may cross
    std::int64_t p = c + (buy ? -d : d) * tick;
    if (p >= 10000 && tick == 1) p = p / 100 * 100;  // stay on the grid above $1.00
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(p, 1, 2'000'000'000));
  };
  for (std::size_t i = 0; i < messages; ++i) {
    ts += static_cast<std::int64_t>(rng() % 2000);
    const std::uint64_t r = rng() % 100;
    if (orders.empty() || r < 46) {
      auto locate = static_cast<std::uint16_t>(1 + pick(symbols));
      bool buy = rng() % 2 == 0;
      auto shares = static_cast<std::uint32_t>(1 + rng() % 1000);
      std::uint32_t p = price_near(locate, buy);
      std::uint64_t ref = next_ref++;
      if (anomalies && rng() % 500 == 0 && !orders.empty())
        ref = orders[pick(orders.size())].ref;  // duplicate
      if (anomalies && rng() % 500 == 0) shares = 0;
      if (anomalies && rng() % 500 == 0) p = rng() % 2 ? 0 : 2'000'000'001u;
      w.write(add(ts, locate, ref, buy ? 'B' : 'S', shares, p, names[locate - 1]));
      if (ref == next_ref - 1 && shares != 0 && p != 0 && p <= 2'000'000'000u)
        orders.push_back({ref, locate, shares});
      continue;
    }
    const std::size_t k = pick(orders.size());
    live& o = orders[k];
    auto remove = [&] {
      o = orders.back();
      orders.pop_back();
    };
    if (anomalies && rng() % 300 == 0) {
      w.write(del(ts, o.locate, next_ref + 1'000'000));  // unknown reference
    } else if (r < 80) {
      w.write(del(ts, o.locate, o.ref));
      remove();
    } else if (r < 86) {
      std::uint32_t n = 1 + static_cast<std::uint32_t>(rng() % o.shares);
      if (anomalies && rng() % 50 == 0) n = o.shares + 10;  // more than the order has
      w.write(exec(ts, o.locate, o.ref, n));
      if (n >= o.shares)
        remove();
      else
        o.shares -= n;
    } else if (r < 90) {
      std::uint32_t n = 1 + static_cast<std::uint32_t>(rng() % o.shares);
      w.write(cancel(ts, o.locate, o.ref, n));
      if (n >= o.shares)
        remove();
      else
        o.shares -= n;
    } else {
      bool buy = rng() % 2 == 0;  // the side is the original's; the price is drawn around either side
      auto shares = static_cast<std::uint32_t>(1 + rng() % 1000);
      std::uint32_t p = price_near(o.locate, buy);
      std::uint64_t ref = next_ref++;
      w.write(replace(ts, o.locate, o.ref, ref, shares, p));
      o.ref = ref;
      o.shares = shares;
    }
  }
  auto b = w.bytes();
  return {b.begin(), b.end()};
}

}  // namespace testing_messages
