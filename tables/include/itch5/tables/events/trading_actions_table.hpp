// The trading_actions table: one row per ITCH 'H' message, Stock Trading Action: a symbol halted, paused, in
// a quotation-only period or trading, and why.
//
// Columns: timestamp, locate, symbol, trading_state, trading_state_meaning, reason, reason_meaning. Codes are
// a letter column (empty for the specification's space, "not available") followed by a `_meaning` text column
// saying what the code means (the lists below). Row built by from() from the decoded message, O(columns);
// constant data and plain rows: safe from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

#include <itch5/tables/column.hpp>
#include <itch5/tables/events/codes.hpp>

namespace itch5::tables::events {

inline constexpr std::array<code_meaning, 4> trading_states{{
    {'H', "halted across all U.S. equity markets"},
    {'P', "paused across all U.S. equity markets (Nasdaq-listed only)"},
    {'Q', "quotation only period of a cross-market halt or pause"},
    {'T', "trading on Nasdaq"},
}};

inline constexpr std::array<word_meaning, 34> halt_reasons{{
    {"T1", "halt: news pending"},
    {"T2", "halt: news disseminated"},
    {"T3", "news and resumption times"},
    {"T5", "single stock trading pause in effect"},
    {"T6", "regulatory halt: extraordinary market activity"},
    {"T7", "single stock trading pause / quotation-only period"},
    {"T8", "halt: ETF"},
    {"T12", "trading halted: information requested by Nasdaq"},
    {"H4", "halt: non-compliance"},
    {"H9", "halt: filings not current"},
    {"H10", "halt: SEC trading suspension"},
    {"H11", "halt: regulatory concern"},
    {"O1", "operations halt: contact market operations"},
    {"IPO1", "IPO issue not yet trading"},
    {"M1", "corporate action"},
    {"M2", "quotation not available"},
    {"LUDP", "volatility trading pause"},
    {"LUDS", "volatility trading pause: straddle condition"},
    {"MWC0", "market-wide circuit breaker halt: carried over from the previous day"},
    {"MWC1", "market-wide circuit breaker halt: level 1"},
    {"MWC2", "market-wide circuit breaker halt: level 2"},
    {"MWC3", "market-wide circuit breaker halt: level 3"},
    {"MWCQ", "market-wide circuit breaker resumption"},
    {"R4", "qualifications issues reviewed/resolved; quotations/trading to resume"},
    {"R9", "filing requirements satisfied/resolved; quotations/trading to resume"},
    {"C3", "issuer news not forthcoming; quotations/trading to resume"},
    {"C4", "qualifications halt ended; maintenance requirements met; resume"},
    {"C9", "qualifications halt concluded; filings met; quotations/trades to resume"},
    {"C11", "trade halt concluded by other regulatory authority; quotations/trades resume"},
    {"R1", "new issue available"},
    {"R2", "issue available"},
    {"IPOQ", "IPO security released for quotation"},
    {"IPOE", "IPO security: positioning window extension"},
    {"", "reason not available"},
}};

struct trading_actions_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  letter trading_state{};
  text trading_state_meaning{};
  itch5::stock_symbol reason{};
  text reason_meaning{};
};

struct trading_actions_table {
  static constexpr std::string_view name =
      "trading_actions";  ///< also the kind's name for --event-kinds and its file
  using row = trading_actions_row;
  using message = itch5::stock_trading_action;  ///< the 'H' message

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight (the message's timestamp)"}, r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the message's stock symbol"}, r.symbol);
    v({"trading_state", "H halted, P paused, Q quotation only, T trading"}, r.trading_state);
    v({"trading_state_meaning",
       "what trading_state means, in words (empty for a code the specification does not define)"},
      r.trading_state_meaning);
    v({"reason",
       "the trading action reason code, up to 4 characters (T1, LUDP, IPO1, ...; empty: none given)"},
      r.reason);
    v({"reason_meaning", "what reason means, in words (empty for a code the specification does not define)"},
      r.reason_meaning);
  }

  /// The row of message `m`.
  static row from(const message& m) noexcept {
    row r;
    r.timestamp = m.header.timestamp;
    r.locate = m.header.stock_locate;
    r.symbol = m.stock;
    r.trading_state = code_letter(m.trading_state);
    r.trading_state_meaning = meaning_of(trading_states, m.trading_state);
    r.reason = code_word(m.reason);
    r.reason_meaning = meaning_of(halt_reasons, std::string_view(m.reason.data(), m.reason.size()));
    return r;
  }
};

}  // namespace itch5::tables::events
