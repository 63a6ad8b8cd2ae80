// The stock_directory table: one row per ITCH 'R' message, Stock Directory: one per symbol at the start of
// the day, assigning its stock locate; every field of the message.
//
// Columns: timestamp, locate, symbol, market_category, market_category_meaning, financial_status,
// financial_status_meaning, round_lot_size, round_lots_only, round_lots_only_meaning, issue_classification,
// issue_classification_meaning, issue_subtype, issue_subtype_meaning, authenticity, authenticity_meaning,
// short_sale_threshold, short_sale_threshold_meaning, ipo_flag, ipo_flag_meaning, luld_reference_price_tier,
// luld_reference_price_tier_meaning, etp_flag, etp_flag_meaning, etp_leverage_factor, inverse_indicator,
// inverse_indicator_meaning. Codes are a letter column (empty for the specification's space, "not available")
// followed by a `_meaning` text column saying what the code means (the lists below). Row built by from() from
// the decoded message, O(columns); constant data and plain rows: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

inline constexpr std::array<code_meaning, 9> market_categories{{
    {'Q', "Nasdaq Global Select Market"},
    {'G', "Nasdaq Global Market"},
    {'S', "Nasdaq Capital Market"},
    {'N', "NYSE"},
    {'A', "NYSE American"},
    {'P', "NYSE Arca"},
    {'Z', "Cboe BZX (BATS Z)"},
    {'V', "Investors' Exchange (IEX)"},
    {' ', "not available"},
}};

inline constexpr std::array<code_meaning, 11> financial_statuses{{
    {'D', "deficient"},
    {'E', "delinquent"},
    {'Q', "bankrupt"},
    {'S', "suspended"},
    {'G', "deficient and bankrupt"},
    {'H', "deficient and delinquent"},
    {'J', "delinquent and bankrupt"},
    {'K', "deficient, delinquent and bankrupt"},
    {'C', "creations and/or redemptions suspended (exchange traded product)"},
    {'N', "normal: not deficient, delinquent or bankrupt"},
    {' ', "not available"},
}};

inline constexpr std::array<code_meaning, 2> round_lots_only_codes{{
    {'Y', "only round lots accepted"},
    {'N', "odd and mixed lots allowed"},
}};

inline constexpr std::array<code_meaning, 16> issue_classifications{{
    {'A', "American Depositary Share"},
    {'B', "bond"},
    {'C', "common stock"},
    {'F', "depository receipt"},
    {'I', "144A"},
    {'L', "limited partnership"},
    {'N', "notes"},
    {'O', "ordinary share"},
    {'P', "preferred stock"},
    {'Q', "other securities"},
    {'R', "right"},
    {'S', "shares of beneficial interest"},
    {'T', "convertible debenture"},
    {'U', "unit"},
    {'V', "units/beneficial interest"},
    {'W', "warrant"},
}};

inline constexpr std::array<word_meaning, 58> issue_subtypes{{
    {"A", "preferred trust securities"},
    {"AI", "Alpha Index ETNs"},
    {"B", "index based derivative"},
    {"C", "common shares"},
    {"CB", "commodity based trust shares"},
    {"CF", "commodity futures trust shares"},
    {"CL", "commodity-linked securities"},
    {"CM", "commodity index trust shares"},
    {"CO", "collateralized mortgage obligation"},
    {"CT", "currency trust shares"},
    {"CU", "commodity-currency-linked securities"},
    {"CW", "currency warrants"},
    {"D", "global depositary shares"},
    {"E", "ETF: portfolio depositary receipt"},
    {"EG", "equity gold shares"},
    {"EI", "ETN: equity index-linked securities"},
    {"EM", "NextShares exchange traded managed fund"},
    {"EN", "exchange traded notes"},
    {"EU", "equity units"},
    {"F", "HOLDRS"},
    {"FI", "ETN: fixed income-linked securities"},
    {"FL", "ETN: futures-linked securities"},
    {"G", "global shares"},
    {"I", "ETF: index fund shares"},
    {"IR", "interest rate"},
    {"IW", "index warrant"},
    {"IX", "index-linked exchangeable notes"},
    {"J", "corporate backed trust security"},
    {"L", "contingent litigation right"},
    {"LL", "limited liability company (LLC)"},
    {"M", "equity-based derivative"},
    {"MF", "managed fund shares"},
    {"ML", "ETN: multi-factor index-linked securities"},
    {"MT", "managed trust securities"},
    {"N", "NY registry shares"},
    {"O", "open ended mutual fund"},
    {"P", "privately held security"},
    {"PP", "poison pill"},
    {"PU", "partnership units"},
    {"Q", "closed-end funds"},
    {"R", "Reg-S"},
    {"RC", "commodity-redeemable commodity-linked securities"},
    {"RF", "ETN: redeemable futures-linked securities"},
    {"RT", "REIT"},
    {"RU", "commodity-redeemable currency-linked securities"},
    {"S", "SEED"},
    {"SC", "spot rate closing"},
    {"SI", "spot rate intraday"},
    {"T", "tracking stock"},
    {"TC", "trust certificates"},
    {"TU", "trust units"},
    {"U", "Portal"},
    {"V", "contingent value right"},
    {"W", "trust issued receipts"},
    {"WC", "world currency option"},
    {"X", "trust"},
    {"Y", "other"},
    {"Z", "not applicable"},
}};

inline constexpr std::array<code_meaning, 2> authenticity_codes{{
    {'P', "live/production"},
    {'T', "test"},
}};

inline constexpr std::array<code_meaning, 3> short_sale_threshold_codes{{
    {'Y', "restricted"},
    {'N', "not restricted"},
    {' ', "not available"},
}};

inline constexpr std::array<code_meaning, 3> ipo_flag_codes{{
    {'Y', "set up as a new IPO security"},
    {'N', "not a new IPO security"},
    {' ', "not available"},
}};

inline constexpr std::array<code_meaning, 3> luld_tiers{{
    {'1', "Tier 1 NMS stocks and select ETPs"},
    {'2', "Tier 2 NMS stocks"},
    {' ', "not available"},
}};

inline constexpr std::array<code_meaning, 3> etp_flag_codes{{
    {'Y', "exchange traded product"},
    {'N', "not an exchange traded product"},
    {' ', "not available"},
}};

inline constexpr std::array<code_meaning, 2> inverse_indicator_codes{{
    {'Y', "inverse ETP"},
    {'N', "not an inverse ETP"},
}};

struct stock_directory_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter market_category{};
  text market_category_meaning{};
  letter financial_status{};
  text financial_status_meaning{};
  std::uint32_t round_lot_size{};
  letter round_lots_only{};
  text round_lots_only_meaning{};
  letter issue_classification{};
  text issue_classification_meaning{};
  itch5::stock_symbol issue_subtype{};
  text issue_subtype_meaning{};
  letter authenticity{};
  text authenticity_meaning{};
  letter short_sale_threshold{};
  text short_sale_threshold_meaning{};
  letter ipo_flag{};
  text ipo_flag_meaning{};
  letter luld_reference_price_tier{};
  text luld_reference_price_tier_meaning{};
  letter etp_flag{};
  text etp_flag_meaning{};
  std::uint32_t etp_leverage_factor{};
  letter inverse_indicator{};
  text inverse_indicator_meaning{};
};

struct stock_directory_table {
  static constexpr std::string_view name =
      "stock_directory";  ///< also the kind's name for --event-kinds and its file
  using row = stock_directory_row;
  using message = itch5::stock_directory;  ///< the 'R' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"market_category", "listing market (Q, G, S, N, A, P, Z, V; empty: not available)"},
      r.market_category);
    v({"market_category_meaning",
       "what market_category means, in words (empty for a code the specification does not define)"},
      r.market_category_meaning);
    v({"financial_status",
       "financial status indicator of Nasdaq-listed issues (D, E, Q, S, G, H, J, K, C, N; empty: not "
       "available)"},
      r.financial_status);
    v({"financial_status_meaning",
       "what financial_status means, in words (empty for a code the specification does not define)"},
      r.financial_status_meaning);
    v({"round_lot_size", "shares in a round lot"}, r.round_lot_size);
    v({"round_lots_only", "Y: only round lots accepted, N: odd and mixed lots allowed"}, r.round_lots_only);
    v({"round_lots_only_meaning",
       "what round_lots_only means, in words (empty for a code the specification does not define)"},
      r.round_lots_only_meaning);
    v({"issue_classification", "issue classification (A, B, C, F, I, L, N, O, P, Q, R, S, T, U, V, W)"},
      r.issue_classification);
    v({"issue_classification_meaning",
       "what issue_classification means, in words (empty for a code the specification does not define)"},
      r.issue_classification_meaning);
    v({"issue_subtype", "issue sub-type, one or two characters (A, AI, B, C, CB, ...)"}, r.issue_subtype);
    v({"issue_subtype_meaning",
       "what issue_subtype means, in words (empty for a code the specification does not define)"},
      r.issue_subtype_meaning);
    v({"authenticity", "P: live/production, T: test"}, r.authenticity);
    v({"authenticity_meaning",
       "what authenticity means, in words (empty for a code the specification does not define)"},
      r.authenticity_meaning);
    v({"short_sale_threshold",
       "Reg SHO short sale threshold security: Y restricted, N not restricted (empty: not available)"},
      r.short_sale_threshold);
    v({"short_sale_threshold_meaning",
       "what short_sale_threshold means, in words (empty for a code the specification does not define)"},
      r.short_sale_threshold_meaning);
    v({"ipo_flag", "Y: set up as a new IPO security, N: not (empty: not available)"}, r.ipo_flag);
    v({"ipo_flag_meaning",
       "what ipo_flag means, in words (empty for a code the specification does not define)"},
      r.ipo_flag_meaning);
    v({"luld_reference_price_tier", "LULD reference price tier: 1 or 2 (empty: not available)"},
      r.luld_reference_price_tier);
    v({"luld_reference_price_tier_meaning",
       "what luld_reference_price_tier means, in words (empty for a code the specification does not define)"},
      r.luld_reference_price_tier_meaning);
    v({"etp_flag", "Y: exchange traded product, N: not (empty: not available)"}, r.etp_flag);
    v({"etp_flag_meaning",
       "what etp_flag means, in words (empty for a code the specification does not define)"},
      r.etp_flag_meaning);
    v({"etp_leverage_factor", "the ETP's leverage factor (0 for other issues)"}, r.etp_leverage_factor);
    v({"inverse_indicator", "Y: inverse ETP, N: not"}, r.inverse_indicator);
    v({"inverse_indicator_meaning",
       "what inverse_indicator means, in words (empty for a code the specification does not define)"},
      r.inverse_indicator_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.market_category = code_letter(m.market_category);
    r.market_category_meaning = meaning_of(market_categories, m.market_category);
    r.financial_status = code_letter(m.financial_status);
    r.financial_status_meaning = meaning_of(financial_statuses, m.financial_status);
    r.round_lot_size = m.round_lot_size;
    r.round_lots_only = code_letter(m.round_lots_only);
    r.round_lots_only_meaning = meaning_of(round_lots_only_codes, m.round_lots_only);
    r.issue_classification = code_letter(m.issue_classification);
    r.issue_classification_meaning = meaning_of(issue_classifications, m.issue_classification);
    r.issue_subtype = code_word(m.issue_subtype);
    r.issue_subtype_meaning =
        meaning_of(issue_subtypes, std::string_view(m.issue_subtype.data(), m.issue_subtype.size()));
    r.authenticity = code_letter(m.authenticity);
    r.authenticity_meaning = meaning_of(authenticity_codes, m.authenticity);
    r.short_sale_threshold = code_letter(m.short_sale_threshold);
    r.short_sale_threshold_meaning = meaning_of(short_sale_threshold_codes, m.short_sale_threshold);
    r.ipo_flag = code_letter(m.ipo_flag);
    r.ipo_flag_meaning = meaning_of(ipo_flag_codes, m.ipo_flag);
    r.luld_reference_price_tier = code_letter(m.luld_reference_price_tier);
    r.luld_reference_price_tier_meaning = meaning_of(luld_tiers, m.luld_reference_price_tier);
    r.etp_flag = code_letter(m.etp_flag);
    r.etp_flag_meaning = meaning_of(etp_flag_codes, m.etp_flag);
    r.etp_leverage_factor = m.etp_leverage_factor;
    r.inverse_indicator = code_letter(m.inverse_indicator);
    r.inverse_indicator_meaning = meaning_of(inverse_indicator_codes, m.inverse_indicator);
    return r;
  }
};

}  // namespace itch5::tables::events
