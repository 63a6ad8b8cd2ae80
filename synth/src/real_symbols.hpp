// Real ticker symbols, busiest first, with their directory attributes (real_symbols.cpp says where they
// come from). symbol_universe names the busiest symbols of a synthetic day with them.
#pragma once

#include <cstddef>

namespace itch5::synth::detail {

struct real_symbol {
  const char* name;
  char market_category;       ///< Q, G, S Nasdaq; N NYSE; P NYSE Arca; Z Cboe BZX; A NYSE American
  char issue_classification;  ///< C common stock, Q exchange-traded product, A ADR, ...
  char issue_subtype[2];
  bool etp;
};

extern const real_symbol real_symbols[];
extern const std::size_t real_symbol_count;

}  // namespace itch5::synth::detail
