#include <itch5/synth/generator.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <functional>
#include <queue>
#include <span>
#include <vector>

#include <itch5/detail/endian.hpp>
#include <itch5/frame_writer.hpp>
#include <itch5/messages.hpp>
#include <itch5/synth/detail/det_math.hpp>
#include <itch5/synth/gap_model.hpp>
#include <itch5/synth/quantile_curve.hpp>
#include <itch5/synth/rng.hpp>
#include <itch5/synth/symbol_universe.hpp>
#include <itch5/tick.hpp>

#include "book_side.hpp"
#include "order_pool.hpp"

namespace itch5::synth {
namespace {

using namespace std::chrono_literals;
using detail::book_side;
using detail::no_order;
using detail::order_pool;
using detail::order_slot;

// Kinds of trading messages, each with an exact budget for the run.
enum kind : std::uint8_t {
  k_add,         // A
  k_add_mpid,    // F
  k_delete,      // D
  k_replace,     // U
  k_exec,        // E
  k_exec_price,  // C
  k_cancel,      // X
  k_trade,       // P
  k_noii,        // I
  k_mpp,         // L
  kind_count
};

constexpr bool needs_order(int k) noexcept { return k >= k_delete && k <= k_cancel; }

// Shares of the trading messages (of the trading part, i.e. after the directory); adds take the rest.
constexpr double share_delete = 0.43;
constexpr double share_replace = 0.09;
constexpr double share_exec = 0.018;
constexpr double share_exec_price = 0.002;
constexpr double share_cancel = 0.01;
constexpr double share_trade = 0.006;
constexpr double share_noii = 0.0015;
constexpr double share_mpp = 0.0002;
constexpr double mpid_share_of_adds = 0.04;
constexpr double pre_market_share = 0.4;  // orders live at the open, as a share of those live at the end

// Measured distance of book events from the inside, in price levels (489 M events of real days): p50 1,
// p75 6, p90 14, p99 203, p99.9 ~2000. Below p50, depth 0 (at or better than the best) takes the first
// 30% and the interpolation to 1 the rest; above p99.9 the tail runs to 10,000 levels.
quantile_curve make_depth_curve() {
  return {{0.0, 0}, {0.30, 0}, {0.50, 1}, {0.75, 6}, {0.90, 14}, {0.99, 203}, {0.999, 2000}, {1.0, 10000}};
}

constexpr std::array<std::array<char, 4>, 12> mpids = {{{'N', 'I', 'T', 'E'},
                                                        {'G', 'S', 'C', 'O'},
                                                        {'M', 'S', 'C', 'O'},
                                                        {'U', 'B', 'S', 'S'},
                                                        {'C', 'D', 'R', 'G'},
                                                        {'V', 'I', 'R', 'T'},
                                                        {'J', 'P', 'M', 'S'},
                                                        {'S', 'U', 'S', 'Q'},
                                                        {'C', 'I', 'T', 'D'},
                                                        {'J', 'A', 'N', 'E'},
                                                        {'T', 'M', 'B', 'R'},
                                                        {'X', 'T', 'X', 'M'}}};

constexpr std::int32_t max_tick = static_cast<std::int32_t>(tick_index(max_price4));
constexpr std::int32_t min_fair = 200;  // the reference bid stays at or above $0.0200
constexpr std::int32_t max_fair = max_tick - 20'000;
constexpr std::size_t flush_bytes = std::size_t{1} << 20;
constexpr timestamp open_messages = 3h;
constexpr timestamp open_system = 4h;
constexpr timestamp open_market = 9h + 30min;
constexpr timestamp close_market = 16h;
constexpr timestamp close_system = 20h;
constexpr timestamp close_messages = 20h + 5min;
constexpr timestamp last_trading =
    23h + 50min;  // trading timestamps are clamped here (never reached by default)

// The shape of a real day's activity (generator_config::compress false): from 04:00, intensity in
// messages per unit of time relative to each other, constant within a segment that ends at `end`. Sparse
// pre-market with a rise from 08:00, the regular session's U (the open and the last half hour busiest,
// lunch quietest), a post-market hour after the close, then a quiet evening: about 6% of the trading
// messages before 09:30, 91% in the regular session and 3% after 16:00.
struct shape_segment {
  timestamp end;
  double intensity;
};
constexpr shape_segment day_shape[] = {
    {7h, 0.3}, {8h, 1},   {9h + 30min, 3},   {10h, 30}, {11h, 18}, {12h, 12},       {13h, 9},
    {14h, 9},  {15h, 12}, {15h + 30min, 16}, {16h, 30}, {17h, 2},  {20h - 1s, 0.3},
};
constexpr timestamp last_shaped = 20h - 1s;

// Maps the activity clock (the sum of the gap model's gaps, nanoseconds) onto the day's shape: equal
// stretches of activity get equal numbers of messages, so a segment of intensity x gets x times the
// messages per second. Piecewise linear; the segment moves forward only (the clock never goes back).
class shape_clock {
 public:
  explicit shape_clock(double activity_span) {
    double total = 0;
    timestamp start = open_system;
    for (const shape_segment& s : day_shape) {
      total += s.intensity * static_cast<double>((s.end - start).count());
      start = s.end;
    }
    start = open_system;
    double at = 0;
    for (std::size_t i = 0; i < std::size(day_shape); ++i) {
      const double length = static_cast<double>((day_shape[i].end - start).count());
      const double activity = activity_span * day_shape[i].intensity * length / total;
      segments_[i] = {static_cast<double>(start.count()), at, activity > 0 ? length / activity : 0};
      at += activity;
      start = day_shape[i].end;
    }
  }

  [[nodiscard]] timestamp at(double activity) noexcept {
    while (next_ < std::size(day_shape) && activity >= segments_[next_].activity_start) ++next_;
    const segment& s = segments_[next_ - 1];
    const double t = s.clock_start + (activity - s.activity_start) * s.clock_per_activity;
    return std::min(timestamp(static_cast<std::int64_t>(t)), last_shaped);
  }

 private:
  struct segment {
    double clock_start;
    double activity_start;
    double clock_per_activity;
  };
  std::array<segment, std::size(day_shape)> segments_{};
  std::size_t next_ = 1;
};

struct symbol_state {
  book_side bid;
  book_side ask;
  std::int32_t fair = 0;             // reference bid tick index (the reference offer is one tick above)
  std::uint32_t live = 0;            // live orders
  std::uint64_t step_threshold = 0;  // the reference moves one tick when rng.next() < this
  double activity_share = 0;         // the symbol's share of the day's messages (Zipf weight / total)
  stock_symbol name;
  std::uint16_t locate = 0;
};

// Hands out order reference numbers in the configured pattern, from a random stream of its own so that the
// rest of the day is the same bytes whatever the pattern.
class reference_numbers {
 public:
  reference_numbers(reference_pattern pattern, const rng& stream) : pattern_(pattern), rng_(stream) {}

  std::uint64_t next() {
    switch (pattern_) {
      case reference_pattern::gapped: return counter_ += 1 + rng_.below(std::uint64_t{1} << 16);
      case reference_pattern::random: {
        std::uint64_t r = 0;
        while (r == 0) r = scramble(counter_++);  // 0 means "no order" in trade messages
        return r;
      }
      case reference_pattern::reuse:
        if (free_.size() >= reuse_after) {
          const std::uint64_t r = free_.front();
          free_.pop_front();
          return r;
        }
        return counter_++;
      default: return counter_++;
    }
  }

  /// `ref` died (deleted, fully executed or replaced): the reuse pattern may hand it out again.
  void release(std::uint64_t ref) {
    if (pattern_ == reference_pattern::reuse) free_.push_back(ref);
  }

 private:
  static constexpr std::size_t reuse_after = 1024;

  // A bijection of 64-bit integers (splitmix64's finaliser): distinct inputs give distinct outputs.
  static std::uint64_t scramble(std::uint64_t x) noexcept {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }

  reference_pattern pattern_;
  rng rng_;
  std::uint64_t counter_ = 1;
  std::deque<std::uint64_t> free_;
};

class day {
 public:
  day(const generator_config& c, const generator::sink& out, const generator::sink* delayed,
      const generator::progress& on_progress)
      : cfg_(c),
        out_(out),
        delayed_(delayed),
        on_progress_(on_progress),
        rng_(c.seed),
        copy_rng_(rng_.fork(2)),
        refs_(c.references, rng_.fork(3)),
        gaps_(c.mean_gap),
        gap_rng_(rng_.fork(4)),
        shape_(c.compress ? 1.0 : activity_span(c, gaps_, gap_rng_)) {
    rng setup_rng = rng_.fork(1);
    universe_ =
        std::make_unique<symbol_universe>(c.symbols, c.zipf, c.sub_dollar_fraction, setup_rng, c.hot_share);
    trading_ = c.messages - generator_config::fixed_messages(c.symbols);
    set_budgets();
    syms_.resize(c.symbols);
    double total_weight = 0;
    for (const symbol_info& s : universe_->symbols()) total_weight += s.weight;
    for (std::uint32_t i = 0; i < c.symbols; ++i) {
      const symbol_info& info = (*universe_)[i];
      symbol_state& st = syms_[i];
      st.name = info.name();
      st.locate = static_cast<std::uint16_t>(i + 1);
      st.fair = std::clamp(static_cast<std::int32_t>(info.start_tick), min_fair, max_fair);
      // A daily volatility of ~2% of the price (at least 10 ticks) spread over the symbol's expected events,
      // but at most one step per 64 events, so that deep books can follow (small runs compress a day).
      std::uint32_t units = tick_price(static_cast<std::uint32_t>(st.fair)).units();
      double ticks = units < one_dollar ? units : units / 100.0;
      double sigma = std::max(10.0, 0.02 * ticks);
      st.activity_share = info.weight / total_weight;
      double events = std::max(1.0, static_cast<double>(trading_) * st.activity_share);
      double p = std::min(1.0 / 64, sigma * sigma / events);
      st.step_threshold = static_cast<std::uint64_t>(std::ldexp(p, 64));
    }
    stats_.symbols = c.symbols;
  }

  generator_stats run() {
    write_opening();
    write_trading();
    write_closing();
    flush(true);
    stats_.live_end = pool_.live();
    return std::move(stats_);
  }

 private:
  // ---- budgets -------------------------------------------------------------------------------------------
  void set_budgets() {
    auto part = [&](double share) {
      return static_cast<std::uint64_t>(std::llround(share * static_cast<double>(trading_)));
    };
    budget_[k_delete] = part(share_delete);
    budget_[k_replace] = part(share_replace);
    budget_[k_exec] = part(share_exec);
    budget_[k_exec_price] = part(share_exec_price);
    budget_[k_cancel] = part(share_cancel);
    budget_[k_trade] = part(share_trade);
    budget_[k_noii] = part(share_noii);
    budget_[k_mpp] = part(share_mpp);
    std::uint64_t others = 0;
    for (int k = k_delete; k < kind_count; ++k) others += budget_[k];
    std::uint64_t adds = trading_ - others;
    budget_[k_add_mpid] =
        static_cast<std::uint64_t>(std::llround(mpid_share_of_adds * static_cast<double>(adds)));
    budget_[k_add] = adds - budget_[k_add_mpid];
    remaining_ = trading_;
    // Executions that take the whole order: as many as leave live_fraction of the trading messages live.
    double executions = static_cast<double>(budget_[k_exec] + budget_[k_exec_price]);
    double surplus = static_cast<double>(adds) - static_cast<double>(budget_[k_delete]) -
                     cfg_.live_fraction * static_cast<double>(trading_);
    full_execution_ = executions > 0 ? std::clamp(surplus / executions, 0.0, 1.0) : 0.0;
  }

  int draw_kind() noexcept {
    std::uint64_t u = rng_.below(remaining_);
    int k = 0;
    while (u >= budget_[k]) u -= budget_[k++];
    return k;
  }

  void consume(int k) noexcept {
    --budget_[k];
    --remaining_;
  }

  // ---- output --------------------------------------------------------------------------------------------
  template <class M>
  void emit(M m, bool in_copy = true) {
    m.header.timestamp = now_;
    main_.write(m);
    ++stats_.counts[static_cast<unsigned char>(M::type)];
    ++stats_.messages;
    if (stats_.messages > 1) {
      ++stats_.gaps;
      if (now_ - last_main_ < timestamp(gap_model::burst_limit_ns)) ++stats_.gaps_under_300ns;
    }
    last_main_ = now_;
    if (delayed_ != nullptr && in_copy) {
      std::int64_t j =
          cfg_.jitter.count() > 0 ? copy_rng_.between(-cfg_.jitter.count(), cfg_.jitter.count()) : 0;
      jittered_.push(now_ + cfg_.delay + timestamp(j));
      pending_copy& p = pending_.emplace_back();
      static_assert(M::size <= pending_copy::max_size);
      encode(m, p.body.data());
      p.size = static_cast<std::uint8_t>(M::size);
      ++stats_.delayed_counts[static_cast<unsigned char>(M::type)];
      ++stats_.delayed_messages;
      // No later message can draw a time below now + delay - jitter (the clock never goes back).
      release_copy(now_ + cfg_.delay - cfg_.jitter);
    }
    if (main_.size() >= flush_bytes || copy_.size() >= flush_bytes) flush(false);
    if ((stats_.messages & 0xffff) == 0 && on_progress_) on_progress_(stats_.messages);
  }

  // Gives the pending copy messages, oldest first, the smallest jittered times up to `until`, and moves
  // them to the copy's output buffer. The times come out of the heap sorted, so the copy's timestamps are
  // non-decreasing; the k-th message gets the k-th smallest jittered time, which lies within
  // delay +- jitter of its own timestamp, and the times as a whole are the drawn ones, so the mean shift
  // is the delay. (Raising each time to the previous one instead biased the mean delay upwards once the
  // jitter exceeded the gaps: by 3.5 us at 10 us jitter and 12 us at 20 us, with a 2-5 us mean gap.)
  void release_copy(timestamp until) {
    while (!jittered_.empty() && jittered_.top() <= until) {
      pending_copy& p = pending_.front();
      timestamp t = std::min(jittered_.top(), one_day - 1ns);
      jittered_.pop();
      itch5::detail::store_be48(p.body.data() + 5, static_cast<std::uint64_t>(t.count()));
      copy_.write_raw(p.size, std::span<const std::byte>(p.body.data(), p.size));
      pending_.pop_front();
    }
  }

  void flush(bool all) {
    if (all || main_.size() >= flush_bytes) {
      stats_.bytes += main_.size();
      if (main_.size() > 0) out_(main_.bytes());
      main_.clear();
    }
    if (delayed_ != nullptr && all) release_copy(timestamp::max());
    if (delayed_ != nullptr && (all || copy_.size() >= flush_bytes)) {
      stats_.delayed_bytes += copy_.size();
      if (copy_.size() > 0) (*delayed_)(copy_.bytes());
      copy_.clear();
    }
  }

  // Clock steps between directory messages: 1-20 us.
  void small_step() { now_ += timestamp(rng_.between(1'000, 20'000)); }

  static message_header header(std::uint16_t locate) {
    message_header h;
    h.stock_locate = locate;
    return h;
  }

  // ---- opening and closing -------------------------------------------------------------------------------
  void write_opening() {
    now_ = open_messages;
    emit(system_event{header(0), 'O'});
    now_ = open_system;
    emit(system_event{header(0), 'S'});
    for (std::uint32_t i = 0; i < syms_.size(); ++i) {
      small_step();
      stock_directory r = (*universe_)[i].directory;
      r.header = header(syms_[i].locate);
      emit(r);
    }
    for (const symbol_state& st : syms_) {
      small_step();
      emit(stock_trading_action{header(st.locate), st.name, 'T', ' ', {' ', ' ', ' ', ' '}});
    }
    // A few Reg SHO restrictions: one symbol drawn in each block of 50.
    for (std::size_t first = 0; first < syms_.size(); first += 50) {
      std::size_t block = std::min<std::size_t>(50, syms_.size() - first);
      const symbol_state& st = syms_[first + rng_.below(block)];
      small_step();
      emit(reg_sho_restriction{header(st.locate), st.name, rng_.chance(0.7) ? '1' : '2'});
    }
    write_pre_market();
    if (cfg_.compress) {
      now_ = open_market;
      emit(system_event{header(0), 'Q'});
      opened_ = true;
    }
  }

  // Books are not empty at the open: pre-market adds (a share of the add budget) spread over 04:00-09:30
  // build the opening books.
  void write_pre_market() {
    auto adds =
        static_cast<std::uint64_t>(pre_market_share * cfg_.live_fraction * static_cast<double>(trading_));
    adds = std::min(adds, budget_[k_add] + budget_[k_add_mpid]);
    if (adds == 0) return;
    timestamp step = (open_market - now_ - 1s) / static_cast<std::int64_t>(adds);
    bool first = true;
    for (std::uint64_t i = 0; i < adds; ++i) {
      int k = rng_.below(budget_[k_add] + budget_[k_add_mpid]) < budget_[k_add] ? k_add : k_add_mpid;
      consume(k);
      if (cfg_.compress) {
        now_ += step;  // spread evenly over 04:00-09:30
      } else {
        advance_clock(first);  // the first messages of the day's shape: early pre-market
      }
      add(k == k_add_mpid, universe_->sample(rng_));
    }
  }

  void write_closing() {
    if (!opened_) {  // a shaped day too small to reach 09:30
      now_ = std::max(open_market, now_ + 1ms);
      emit(system_event{header(0), 'Q'});
    }
    if (!closed_) {
      now_ = std::max(close_market, now_ + 1ms);
      emit(system_event{header(0), 'M'});
    }
    now_ = std::max(close_system, now_ + 1ms);
    emit(system_event{header(0), 'E'});
    now_ = std::max(close_messages, now_ + 1ms);
    emit(system_event{header(0), 'C'});
  }

  // ---- trading -------------------------------------------------------------------------------------------
  // Live orders symbol s should have now: its share of the activity times the live-order path of the day
  // (the opening book, growing linearly to live_fraction of the trading messages at the end).
  double live_target(std::uint32_t s) const noexcept {
    double progress = 1 - static_cast<double>(remaining_) / static_cast<double>(trading_);
    double day_live = cfg_.live_fraction * static_cast<double>(trading_) *
                      (pre_market_share + (1 - pre_market_share) * progress);
    return syms_[s].activity_share * day_live;
  }

  // The kind of the next event of symbol s: drawn in proportion to the remaining budgets, with the
  // removal kinds weighted by how far the symbol's live orders are above (> 1) or below (< 1) its target,
  // and excluded when it has none. Each book thus follows its own share of the day's live orders: without
  // this, quiet symbols, whose books are often empty and cannot take their share of removals, would
  // accumulate the day's surplus of orders and the busy books would drain. The budgets stay exact.
  // Returns kind_count when symbol s can take none of the remaining kinds.
  int draw_kind_for(std::uint32_t s) noexcept {
    const symbol_state& st = syms_[s];
    constexpr double c = 4;  // damps the ratio for books of a few orders
    double factor = st.live == 0 ? 0.0 : std::clamp((st.live + c) / (live_target(s) + c), 0.25, 4.0);
    std::array<double, kind_count> w;
    double total = 0;
    for (int k = 0; k < kind_count; ++k) {
      w[k] = static_cast<double>(budget_[k]) * (needs_order(k) ? factor : 1.0);
      total += w[k];
    }
    if (!(total > 0)) return kind_count;
    double u = rng_.uniform() * total;
    int k = 0;
    while (k < kind_count - 1 && (u >= w[k] || w[k] == 0)) u -= w[k++];
    while (w[k] == 0) --k;  // rounding ran past the last weighted kind; total > 0, so one exists below
    return k;
  }

  void write_trading() {
    bool first = true;
    int misses = 0;
    while (remaining_ > 0) {
      std::uint32_t s = universe_->sample(rng_);
      int k = draw_kind_for(s);
      if (k == kind_count) {
        // Only removals are left and this symbol has no order: another symbol. In a tiny run where no
        // order is live at all, the event becomes an add.
        if (++misses < 1000) continue;
        misses = 0;
        k = draw_kind();
        if (pool_.live() == 0) {
          consume(k);
          ++stats_.substitutions;
          advance_clock(first);
          add(false, s);
          continue;
        }
        s = busiest_with_orders();
      }
      misses = 0;
      consume(k);
      advance_clock(first);
      switch (k) {
        case k_add: add(false, s); break;
        case k_add_mpid: add(true, s); break;
        case k_delete: remove(false, s); break;
        case k_cancel: remove(true, s); break;
        case k_replace: replace(s); break;
        case k_exec: execute(false, s); break;
        case k_exec_price: execute(true, s); break;
        case k_trade: hidden_trade(s); break;
        case k_noii: imbalance(s); break;
        case k_mpp: participant(s); break;
        default: break;
      }
    }
    stats_.last_trading = now_;
  }

  // The activity clock's span of a shaped day: its gaps summed in advance (one draw per trading message,
  // from a copy of the stream advance_clock draws them from), plus one mean gap, so that the day's last
  // message lands just before the end of the shape whatever the sum of its gaps.
  static double activity_span(const generator_config& c, const gap_model& gaps, rng r) {
    const std::uint64_t n = c.messages - generator_config::fixed_messages(c.symbols);
    double total = static_cast<double>(c.mean_gap.count());
    for (std::uint64_t i = 0; i < n; ++i) total += static_cast<double>(gaps.next(r));
    return total;
  }

  void advance_clock(bool& first) {
    const std::int64_t gap = gaps_.next(cfg_.compress ? rng_ : gap_rng_);
    if (cfg_.compress) {
      now_ = std::min(now_ + timestamp(gap), last_trading);
    } else {
      // The gap on the activity clock, mapped onto the day's shape; a burst (under 300 ns) stays a burst,
      // and other gaps stay above it, so the burst share is the gap model's in every segment.
      activity_ += static_cast<double>(gap);
      const timestamp mapped = shape_.at(activity_);
      const timestamp next = gap < gap_model::burst_limit_ns
                                 ? now_ + timestamp(gap)
                                 : std::max(mapped, now_ + timestamp(gap_model::burst_limit_ns));
      // The session's system events where the clock crosses 09:30 and 16:00.
      if (!opened_ && next >= open_market) {
        now_ = std::max(now_, open_market);
        emit(system_event{header(0), 'Q'});
        opened_ = true;
      }
      if (!closed_ && next >= close_market) {
        now_ = std::max(now_, close_market);
        emit(system_event{header(0), 'M'});
        closed_ = true;
      }
      now_ = std::min(std::max(next, now_), last_shaped);
    }
    if (first) {
      stats_.first_trading = now_;
      first = false;
    }
  }

  // Moves the symbol's reference price (a random walk, one tick at a time).
  void step_fair(symbol_state& st) noexcept {
    std::uint64_t r = rng_.next();
    if (r < st.step_threshold) st.fair = std::clamp(st.fair + ((r & 1) != 0 ? 1 : -1), min_fair, max_fair);
  }

  // +1 when the reference is above the middle of the book, -1 below, 0 within a tick or one side empty.
  static int pressure(const symbol_state& st) noexcept {
    if (st.bid.empty() || st.ask.empty()) return 0;
    std::int64_t mid2 = std::int64_t{st.bid.best_key()} - st.ask.best_key();  // bid + ask tick indices
    std::int64_t fair2 = 2 * std::int64_t{st.fair} + 1;
    return fair2 > mid2 + 1 ? 1 : (fair2 < mid2 - 1 ? -1 : 0);
  }

  // Probability that an order leaving the book of `st` (non-empty) is an offer: the offers' share of the
  // live orders, which keeps the two sides balanced, tilted by `tilt` towards the side the reference price
  // pushes against; 0 or 1 when a side is empty.
  static double removal_ask_share(const symbol_state& st, double tilt) noexcept {
    if (st.bid.empty()) return 1;
    if (st.ask.empty()) return 0;
    double share =
        static_cast<double>(st.ask.orders()) / static_cast<double>(st.ask.orders() + st.bid.orders());
    return std::clamp(share + tilt * pressure(st), 0.02, 0.98);
  }

  // Key of a new order on side `buy` at `depth` levels behind the best (0: join or improve by one tick);
  // `measured` receives the depth the books will see.
  std::int32_t place(const symbol_state& st, bool buy, std::uint32_t depth, int push,
                     std::uint32_t& measured) {
    const book_side& side = buy ? st.bid : st.ask;
    const book_side& other = buy ? st.ask : st.bid;
    // The other side's best as a key of its own side; when empty, the reference price stands in.
    std::int32_t other_best = !other.empty() ? other.best_key() : (buy ? -(st.fair + 1) : st.fair);
    std::int32_t key;
    if (!side.empty()) {
      std::int32_t best = side.best_key();
      if (depth == 0) {
        // Join the best, or improve it when at least two ticks separate the sides (preferably towards the
        // reference price), by up to half the spread: wide spreads close fast, as they do in busy books.
        // On the side the reference price moves away from, orders queue one level behind instead: nobody
        // joins the best there, so it drains and the inside follows the reference.
        std::int64_t spread = -(std::int64_t{best} + other_best);
        int toward = buy ? push : -push;
        key = best;
        measured = 0;
        if (toward < 0) {
          key = best - 1;
          measured = 1;
        } else if (spread >= 2 && rng_.chance(toward > 0 ? 0.8 : 0.5)) {
          key += static_cast<std::int32_t>(rng_.between(1, std::max<std::int64_t>(1, spread / 2)));
        }
      } else {
        key = best - static_cast<std::int32_t>(depth);
        measured = depth;
      }
    } else {
      // Empty side: start one tick inside the other side, or at the reference price.
      std::int32_t anchor = buy ? std::min(st.fair, -other_best - 1) : -std::max(st.fair + 1, other_best + 1);
      key = anchor - static_cast<std::int32_t>(depth);
      measured = 0;
    }
    std::int32_t floor = buy ? 1 : -max_tick;  // bids at $0.0001 or more, offers within Price(4)
    if (key < floor) {
      if (measured > 0) measured -= static_cast<std::uint32_t>(floor - key);
      key = floor;
    }
    return key;
  }

  static price4 key_price(bool buy, std::int32_t key) noexcept {
    return tick_price(static_cast<std::uint32_t>(buy ? key : -key));
  }

  // The distance from the inside, in levels, of a new order (or a replacement's new price): the measured
  // curve, times --depth-scale (1: the same draws and bytes as without the setting). Removals keep the
  // measured curve, so with a larger scale the deep orders outlive the near ones and books grow deep.
  std::uint32_t sample_depth() noexcept {
    const std::uint32_t d = depth_.sample(rng_);
    if (cfg_.depth_scale == 1) return d;
    return static_cast<std::uint32_t>(std::min(1e6, static_cast<double>(d) * cfg_.depth_scale));
  }

  void record_depth(std::uint32_t d) noexcept {
    ++stats_.depth_histogram[std::min<std::size_t>(d, generator_stats::depth_buckets)];
  }

  // Order sizes: 55% round lots (1 + a geometric number of extra lots, P(k extra) = e^-k (1 - 1/e), at
  // most 15), 30% odd lots of 1-99 shares, 15% mixed lots of 100-3,000 shares.
  std::uint32_t draw_shares() noexcept {
    double u = rng_.uniform();
    if (u < 0.55) {
      double v = rng_.uniform();
      std::uint32_t k = 0;
      while (k < 15 && v >= lot_cdf_[k]) ++k;
      return 100 * (1 + k);
    }
    if (u < 0.85) return static_cast<std::uint32_t>(rng_.between(1, 99));
    return static_cast<std::uint32_t>(rng_.between(100, 3000));
  }

  void note_live() noexcept { stats_.live_peak = std::max(stats_.live_peak, pool_.live()); }

  void add(bool mpid, std::uint32_t s) {
    symbol_state& st = syms_[s];
    step_fair(st);
    int push = pressure(st);
    bool buy = rng_.chance(0.5 + 0.05 * push);
    std::uint32_t measured = 0;
    std::int32_t key = place(st, buy, sample_depth(), push, measured);
    record_depth(measured);

    std::uint32_t i = pool_.allocate();
    order_slot& o = pool_[i];
    o.ref = refs_.next();
    o.shares = draw_shares();
    o.dropped = delayed_ != nullptr && copy_rng_.chance(cfg_.drop) ? 1 : 0;
    (buy ? st.bid : st.ask).push(key, i, pool_);
    ++st.live;
    ++stats_.new_orders;
    stats_.dropped_orders += o.dropped;
    note_live();
    price4 price = key_price(buy, key);
    char side = buy ? 'B' : 'S';
    if (mpid) {
      emit(add_order_mpid{header(st.locate), o.ref, side, o.shares, st.name, price,
                          mpids[rng_.below(mpids.size())]},
           o.dropped == 0);
    } else {
      emit(add_order{header(st.locate), o.ref, side, o.shares, st.name, price}, o.dropped == 0);
    }
  }

  // The busiest symbol that has live orders. Precondition: pool_.live() > 0.
  std::uint32_t busiest_with_orders() const noexcept {
    for (std::uint32_t s : universe_->by_rank()) {
      if (syms_[s].live > 0) return s;
    }
    return 0;  // unreachable while live orders exist
  }

  struct pick {
    symbol_state* st;
    bool buy;
    std::size_t level;
    std::uint32_t order;
    std::uint32_t depth;  // levels between the order's price and its side's best
  };

  // An order of symbol `s` (which has live orders) chosen by depth: a target depth from the curve, then the
  // nearest populated level at or beyond it (the deepest level when the book does not reach that far),
  // then the newest order there (60%) or the oldest.
  pick pick_by_depth(std::uint32_t s) {
    symbol_state& st = syms_[s];
    step_fair(st);
    bool buy = !rng_.chance(removal_ask_share(st, 0.1));  // remove offers when the price should rise
    book_side& side = buy ? st.bid : st.ask;
    std::int32_t best = side.best_key();
    std::size_t li = side.at_or_beyond(best - static_cast<std::int32_t>(depth_.sample(rng_)));
    const detail::level& l = side.at(li);
    return {&st, buy, li, rng_.chance(0.6) ? l.tail : l.head, static_cast<std::uint32_t>(best - l.key)};
  }

  void drop_order(pick& p) {
    refs_.release(pool_[p.order].ref);
    (p.buy ? p.st->bid : p.st->ask).unlink(p.level, p.order, pool_);
    pool_.release(p.order);
    --p.st->live;
  }

  void remove(bool partial, std::uint32_t s) {
    pick p = pick_by_depth(s);
    record_depth(p.depth);
    order_slot& o = pool_[p.order];
    bool in_copy = o.dropped == 0;
    if (partial && o.shares >= 2) {
      auto n = static_cast<std::uint32_t>(rng_.between(1, o.shares - 1));
      o.shares -= n;
      emit(order_cancel{header(p.st->locate), o.ref, n}, in_copy);
      return;
    }
    if (partial) ++stats_.substitutions;  // a one-share order cannot be partly cancelled: delete it
    emit(order_delete{header(p.st->locate), o.ref}, in_copy);
    drop_order(p);
  }

  void replace(std::uint32_t s) {
    pick p = pick_by_depth(s);
    symbol_state& st = *p.st;
    std::uint32_t measured = 0;
    // The new price is placed against the book as it is before the event (the original still in it).
    std::int32_t key = place(st, p.buy, sample_depth(), pressure(st), measured);
    record_depth(measured);  // the books measure U at its new price

    order_slot& old = pool_[p.order];
    std::uint64_t old_ref = old.ref;
    std::uint32_t dropped = old.dropped;
    std::uint32_t shares = rng_.chance(0.5) ? old.shares : draw_shares();
    drop_order(p);
    std::uint32_t i = pool_.allocate();
    order_slot& o = pool_[i];
    o.ref = refs_.next();
    o.shares = shares;
    o.dropped = dropped;
    (p.buy ? st.bid : st.ask).push(key, i, pool_);
    ++st.live;
    note_live();
    emit(order_replace{header(st.locate), old_ref, o.ref, shares, key_price(p.buy, key)}, dropped == 0);
  }

  void execute(bool with_price, std::uint32_t s) {
    symbol_state& st = syms_[s];
    step_fair(st);
    bool buy = !rng_.chance(removal_ask_share(st, 0.35));  // buyers lift offers when the price should rise
    book_side& side = buy ? st.bid : st.ask;
    std::size_t li = side.best_index();
    const detail::level& l = side.at(li);
    std::uint32_t i = l.head;  // oldest first
    order_slot& o = pool_[i];
    record_depth(0);
    bool full = o.shares < 2 || rng_.chance(full_execution_);
    std::uint32_t n = full ? o.shares : static_cast<std::uint32_t>(rng_.between(1, o.shares - 1));
    std::uint64_t match = next_match_++;
    bool in_copy = o.dropped == 0;
    price4 price = key_price(buy, l.key);
    if (with_price) {
      emit(order_executed_with_price{header(st.locate), o.ref, n, match, rng_.chance(0.8) ? 'Y' : 'N', price},
           in_copy);
    } else {
      emit(order_executed{header(st.locate), o.ref, n, match}, in_copy);
    }
    if (full) {
      pick p{&st, buy, li, i, 0};
      drop_order(p);
    } else {
      o.shares -= n;
    }
  }

  // A price between the best bid and offer (or the reference when a side is empty).
  price4 inside_price(const symbol_state& st) noexcept {
    if (st.bid.empty() || st.ask.empty()) return tick_price(static_cast<std::uint32_t>(st.fair));
    return tick_price(static_cast<std::uint32_t>(rng_.between(st.bid.best_key(), -st.ask.best_key())));
  }

  void hidden_trade(std::uint32_t s) {
    symbol_state& st = syms_[s];
    step_fair(st);
    emit(trade{header(st.locate), 0, 'B', static_cast<std::uint32_t>(rng_.between(1, 500)), st.name,
               inside_price(st), next_match_++});
  }

  void imbalance(std::uint32_t s) {
    symbol_state& st = syms_[s];
    price4 ref = inside_price(st);
    auto near = [&](std::int64_t spread) {
      std::int64_t t = static_cast<std::int64_t>(tick_index(ref)) + rng_.between(-spread, spread);
      return tick_price(static_cast<std::uint32_t>(std::max<std::int64_t>(1, t)));
    };
    static constexpr char directions[] = {'B', 'S', 'N', 'O'};
    bool opening = remaining_ * 2 > trading_;  // first half of the day: opening cross, then closing
    emit(noii{header(st.locate), static_cast<std::uint64_t>(rng_.between(0, 500'000)),
              static_cast<std::uint64_t>(rng_.between(0, 100'000)), directions[rng_.below(4)], st.name,
              near(20), near(10), ref, opening ? 'O' : 'C', 'L'});
  }

  void participant(std::uint32_t s) {
    const symbol_state& st = syms_[s];
    emit(market_participant_position{header(st.locate), mpids[rng_.below(mpids.size())], st.name,
                                     rng_.chance(0.2) ? 'Y' : 'N', 'N', 'A'});
  }

  const generator_config& cfg_;
  const generator::sink& out_;
  const generator::sink* delayed_;
  const generator::progress& on_progress_;
  rng rng_;
  rng copy_rng_;
  reference_numbers refs_;
  gap_model gaps_;
  rng gap_rng_;  // the gaps of a shaped day (activity_span draws them once in advance)
  shape_clock shape_;
  double activity_ = 0;  // the activity clock of the day's shape (nanoseconds of gap model time)
  bool opened_ = false;  // S Q written
  bool closed_ = false;  // S M written
  quantile_curve depth_ = make_depth_curve();
  std::array<double, 15> lot_cdf_ = [] {
    std::array<double, 15> c{};
    for (std::size_t k = 0; k < c.size(); ++k) c[k] = 1 - detail::det_exp(-static_cast<double>(k + 1));
    return c;
  }();
  std::unique_ptr<symbol_universe> universe_;
  std::vector<symbol_state> syms_;
  order_pool pool_;
  frame_writer main_;
  frame_writer copy_;
  generator_stats stats_;
  std::array<std::uint64_t, kind_count> budget_{};
  std::uint64_t remaining_ = 0;
  std::uint64_t trading_ = 0;
  double full_execution_ = 0;
  std::uint64_t next_match_ = 1;
  timestamp now_{0};
  timestamp last_main_{0};
  // The delayed copy's messages waiting for their time: encoded with a placeholder timestamp, in stream
  // order, and the jittered times drawn for them, smallest first. Both hold the messages of the last
  // 2 * jitter of the clock.
  struct pending_copy {
    static constexpr std::size_t max_size = 64;  // the largest ITCH 5.0 message has 50 bytes
    std::array<std::byte, max_size> body;
    std::uint8_t size;
  };
  std::deque<pending_copy> pending_;
  std::priority_queue<timestamp, std::vector<timestamp>, std::greater<>> jittered_;
};

}  // namespace

generator::generator(const generator_config& config) : config_(config.resolve()) {}

generator_stats generator::run(const sink& out, const sink* delayed, const progress& on_progress) const {
  day d(config_, out, delayed, on_progress);
  return d.run();
}

}  // namespace itch5::synth
