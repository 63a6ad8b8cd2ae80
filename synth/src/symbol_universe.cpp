#include <itch5/synth/symbol_universe.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include <itch5/synth/detail/det_math.hpp>
#include <itch5/tick.hpp>

#include "real_symbols.hpp"

namespace itch5::synth {
namespace {

struct category {
  char code;
  double share;
  bool nasdaq;
};

// Market categories of the directory, with rough shares of a real day's symbol list.
constexpr category categories[] = {
    {'Q', 0.22, true},  {'G', 0.14, true},  {'S', 0.20, true},  {'N', 0.25, false},
    {'P', 0.15, false}, {'Z', 0.03, false}, {'A', 0.01, false},
};

char pick_category(rng& r, bool& nasdaq) {
  double u = r.uniform();
  for (const category& c : categories) {
    if (u < c.share) {
      nasdaq = c.nasdaq;
      return c.code;
    }
    u -= c.share;
  }
  nasdaq = false;
  return 'N';
}

std::size_t pick_length(rng& r, bool nasdaq) {
  double u = r.uniform();
  if (nasdaq) return u < 0.85 ? 4 : 5;
  if (u < 0.02) return 1;
  if (u < 0.15) return 2;
  if (u < 0.75) return 3;
  return 4;
}

// Log-uniform in [lo, hi).
double log_uniform(rng& r, double lo, double hi) {
  double a = detail::det_log(lo), b = detail::det_log(hi);
  return detail::det_exp(a + r.uniform() * (b - a));
}

}  // namespace

symbol_universe::symbol_universe(std::uint32_t count, double zipf, double sub_dollar_fraction, rng& r,
                                 double hot_share) {
  if (count < 1 || count > 65535) throw std::invalid_argument("the number of symbols must be in [1, 65535]");
  if (!(zipf >= 0 && zipf <= 5)) throw std::invalid_argument("the Zipf exponent must be in [0, 5]");
  if (!(sub_dollar_fraction >= 0 && sub_dollar_fraction <= 1)) {
    throw std::invalid_argument("the sub-dollar fraction must be in [0, 1]");
  }
  if (!(hot_share >= 0 && hot_share < 1)) throw std::invalid_argument("the hot share must be in [0, 1)");

  // Activity ranks first: rank r (0-based) is the r-th symbol made here. The busiest take the real
  // names, busiest first (detail::real_symbols), with their market and issue attributes; beyond those,
  // made-up names of real shapes, unique (a collision, or a real name, just redraws).
  std::unordered_set<std::string> taken;
  taken.reserve(count + detail::real_symbol_count);
  for (std::size_t i = 0; i < detail::real_symbol_count; ++i) taken.insert(detail::real_symbols[i].name);
  symbols_.resize(count);
  for (std::uint32_t rank = 0; rank < count; ++rank) {
    symbol_info& s = symbols_[rank];
    s.rank = rank + 1;
    stock_directory& d = s.directory;
    bool nasdaq = false;
    bool etp = false;
    std::string name;
    if (rank < detail::real_symbol_count) {
      const detail::real_symbol& real = detail::real_symbols[rank];
      name = real.name;
      d.market_category = real.market_category;
      nasdaq = real.market_category == 'Q' || real.market_category == 'G' || real.market_category == 'S';
      etp = real.etp;
      d.issue_classification = real.issue_classification;
      d.issue_subtype = {real.issue_subtype[0], real.issue_subtype[1]};
    } else {
      d.market_category = pick_category(r, nasdaq);
      do {
        std::size_t len = pick_length(r, nasdaq);
        if (len == 1) len = 3;  // the 1-letter names are the real ones' (or none are left)
        name.assign(len, 'A');
        for (char& c : name) c = static_cast<char>('A' + r.below(26));
      } while (!taken.insert(name).second);
      etp = d.market_category == 'P' || (!nasdaq && r.chance(0.05));
      d.issue_classification = etp ? 'Q' : (r.chance(0.9) ? 'C' : (r.chance(0.5) ? 'A' : 'O'));
      d.issue_subtype = etp ? std::array<char, 2>{'I', ' '} : std::array<char, 2>{'Z', ' '};
    }
    d.stock = stock_symbol::from(name);
    d.financial_status = nasdaq ? 'N' : ' ';
    d.round_lot_size = 100;
    d.round_lots_only = 'N';
    d.authenticity = 'P';
    d.short_sale_threshold = 'N';
    d.ipo_flag = nasdaq ? 'N' : ' ';
    // Tier 1 of the LULD plan covers the S&P 500 / Russell 1000 names: the busiest ones here.
    d.luld_reference_price_tier = rank < 1000 ? '1' : '2';
    d.etp_flag = etp ? 'Y' : 'N';
    d.etp_leverage_factor = 0;
    d.inverse_indicator = 'N';

    // Starting price as a tick index.
    if (r.chance(sub_dollar_fraction)) {
      s.start_tick = static_cast<std::uint32_t>(log_uniform(r, 2000, 10000));  // $0.20 .. $0.9999
    } else {
      double cents = r.chance(0.01) ? log_uniform(r, 100000, 500000) : log_uniform(r, 100, 100000);
      s.start_tick = tick_index(price4(static_cast<std::uint32_t>(cents) * 100));
    }
    s.weight = detail::det_exp(-zipf * detail::det_log(rank + 1.0));
  }
  // Stock locates in alphabetical order, as in a real directory.
  std::sort(symbols_.begin(), symbols_.end(),
            [](const symbol_info& a, const symbol_info& b) { return a.name().raw() < b.name().raw(); });
  by_rank_.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) by_rank_[symbols_[i].rank - 1] = i;
  std::vector<double> weights(count);
  for (std::uint32_t i = 0; i < count; ++i) weights[i] = symbols_[i].weight;
  if (hot_share > 0 && count > 1) {
    // The busiest symbol gets hot_share of the total: w1 = h / (1 - h) * (sum of the others' weights).
    double others = 0;
    for (std::uint32_t rank = 1; rank < count; ++rank) others += symbols_[by_rank_[rank]].weight;
    symbol_info& hot = symbols_[by_rank_[0]];
    hot.weight = hot_share / (1 - hot_share) * others;
    weights[by_rank_[0]] = hot.weight;
  }
  activity_ = alias_table(weights);
}

}  // namespace itch5::synth
