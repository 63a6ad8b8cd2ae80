#include <itch5/synth/generator_config.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace itch5::synth {

namespace {
constexpr std::uint64_t min_trading_messages = 100;
constexpr std::chrono::nanoseconds max_trading_span = std::chrono::hours(13);  // from 09:30, ends by 22:30
}  // namespace

std::uint32_t generator_config::default_symbols(std::uint64_t messages) noexcept {
  double n = 0.7 * std::sqrt(static_cast<double>(messages));  // sqrt is correctly rounded: same everywhere
  return static_cast<std::uint32_t>(std::clamp(n + 0.5, 10.0, 10'000.0));
}

std::chrono::nanoseconds generator_config::default_mean_gap(std::uint64_t messages) noexcept {
  constexpr std::int64_t session = std::chrono::nanoseconds(std::chrono::minutes(390)).count();  // 6.5 h
  std::int64_t per = messages == 0
                         ? session
                         : session / static_cast<std::int64_t>(std::min<std::uint64_t>(messages, session));
  return std::chrono::nanoseconds(std::clamp<std::int64_t>(per, 1'000, 150'000));
}

std::chrono::nanoseconds generator_config::shaped_mean_gap(std::uint64_t trading) noexcept {
  constexpr std::int64_t span = std::chrono::nanoseconds(std::chrono::hours(16)).count();  // 04:00-20:00
  const std::int64_t per = static_cast<std::int64_t>(
      0.98 * static_cast<double>(span) / static_cast<double>(std::max<std::uint64_t>(trading, 1)));
  return std::chrono::nanoseconds(std::max<std::int64_t>(per / 1'000 * 1'000, 1'000));  // whole microseconds
}

std::uint64_t generator_config::fixed_messages(std::uint32_t symbols) noexcept {
  return 6 + 2 * std::uint64_t{symbols} + (std::uint64_t{symbols} + 49) / 50;
}

std::string_view to_string(reference_pattern p) noexcept {
  switch (p) {
    case reference_pattern::gapped: return "gapped";
    case reference_pattern::random: return "random";
    case reference_pattern::reuse: return "reuse";
    default: return "sequential";
  }
}

reference_pattern parse_reference_pattern(std::string_view name) {
  for (auto p : {reference_pattern::sequential, reference_pattern::gapped, reference_pattern::random,
                 reference_pattern::reuse}) {
    if (to_string(p) == name) return p;
  }
  throw std::invalid_argument("references: expected sequential, gapped, random or reuse, got '" +
                              std::string(name) + "'");
}

generator_config generator_config::resolve() const {
  generator_config c = *this;
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (c.symbols == 0) c.symbols = default_symbols(c.messages);
  if (c.symbols > 65535)
    fail("symbols: at most 65535 (stock locates are 16 bits), got " + std::to_string(c.symbols));
  std::uint64_t fixed = fixed_messages(c.symbols);
  if (c.messages < fixed + min_trading_messages) {
    fail("messages: " + std::to_string(c.messages) + " is too few for " + std::to_string(c.symbols) +
         " symbols: the system events and directory take " + std::to_string(fixed) + "; need at least " +
         std::to_string(fixed + min_trading_messages) + " (or fewer symbols)");
  }
  if (!c.compress) c.mean_gap = shaped_mean_gap(c.messages - fixed);
  if (c.mean_gap.count() == 0) c.mean_gap = default_mean_gap(c.messages);
  if (c.mean_gap < std::chrono::microseconds(1)) fail("mean-gap: must be at least 1us");
  double span = static_cast<double>(c.mean_gap.count()) * static_cast<double>(c.messages - fixed);
  if (c.compress && span > static_cast<double>(max_trading_span.count())) {
    fail("mean-gap: " + std::to_string(c.messages - fixed) + " trading messages at " +
         std::to_string(c.mean_gap.count()) +
         " ns apart would run past 22:30; use a smaller --mean-gap (at most " +
         std::to_string(max_trading_span.count() / static_cast<std::int64_t>(c.messages - fixed)) + " ns)");
  }
  if (!(c.zipf >= 0 && c.zipf <= 5)) fail("zipf: must be in [0, 5]");
  if (!(c.hot_share >= 0 && c.hot_share <= 0.99)) fail("hot-share: must be in [0, 0.99]");
  if (!(c.depth_scale >= 1 && c.depth_scale <= 1000)) fail("depth-scale: must be in [1, 1000]");
  if (!(c.sub_dollar_fraction >= 0 && c.sub_dollar_fraction <= 1))
    fail("sub-dollar-fraction: must be in [0, 1]");
  if (!(c.live_fraction >= 0 && c.live_fraction <= 0.2)) fail("live-fraction: must be in [0, 0.2]");
  if (c.delay < std::chrono::nanoseconds(0) || c.delay > std::chrono::hours(1))
    fail("delay: must be in [0, 1h]");
  if (c.jitter < std::chrono::nanoseconds(0) || c.jitter > std::chrono::seconds(1))
    fail("jitter: must be in [0, 1s]");
  if (!(c.drop >= 0 && c.drop < 1)) fail("drop: must be in [0, 1)");
  return c;
}

}  // namespace itch5::synth
