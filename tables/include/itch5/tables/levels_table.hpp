// The book N levels deep, market by price (itch5inside --book-levels, --levels N, --every): per row a
// symbol's N best price levels on each side, each as price, total shares and number of orders, in the
// column naming of Databento's MBP tables (bid_px_00, bid_sz_00, bid_ct_00, ask_px_00, ...).
//
// Columns: timestamp, locate, symbol, then level 00 (bid_px_00, bid_sz_00, bid_ct_00, ask_px_00, ask_sz_00,
// ask_ct_00), then level 01 the same way, up to level N-1: 3 + 6N columns. Level 00 is the best price of its
// side. Prices in $0.0001 (integer units, as the inside file). A side with fewer than N levels leaves the
// three columns of each missing level empty (null in Arrow), so an empty side is all empty fields.
//
// The row carries its N (`levels`, not a column), so schema_of(prototype) gives the header of a run's N:
//   itch5::tables::levels_row proto;  proto.levels = 10;
//   itch5::tables::csv_table_sink<itch5::tables::levels_table> csv(out, proto);
// A row is ~1.6 KB whatever its N (room for max_levels): batch rows by bytes, not by a fixed count.
// Plain data; visiting a row is O(N).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include <itch5/price.hpp>
#include <itch5/stock_symbol.hpp>
#include <itch5/timestamp.hpp>

#include <itch5/tables/column.hpp>

namespace itch5::tables {

/// The most levels per side a levels_table row holds (--levels 1 to max_levels).
inline constexpr unsigned max_levels = 50;

/// One price level of one side of a row; no level (the side has fewer) when shares is 0.
struct book_level {
  itch5::price4 price{};
  std::uint32_t count = 0;   ///< orders resting at the price
  std::uint64_t shares = 0;  ///< total shares resting at the price; 0: no level

  friend constexpr bool operator==(const book_level&, const book_level&) = default;
};

struct levels_row {
  itch5::timestamp timestamp{};
  std::uint16_t locate = 0;
  itch5::stock_symbol symbol{};
  /// N: the levels per side this row has columns for, 1 to max_levels (shapes the columns; not a column).
  std::uint32_t levels = 10;
  std::array<book_level, max_levels> bid{};  ///< best (highest) first; [levels, max_levels) unused
  std::array<book_level, max_levels> ask{};  ///< best (lowest) first
};

struct levels_table {
  static constexpr std::string_view name = "levels";
  using row = levels_row;

  template <class V>
  static void visit(V& v, const row& r) {
    v({"timestamp", "ns since midnight: the message's (a change row) or the grid time (--every)"},
      r.timestamp);
    v({"locate", "stock locate"}, r.locate);
    v({"symbol", "the stock's symbol"}, r.symbol);
    const int n = static_cast<int>(std::min<std::uint32_t>(r.levels, max_levels));
    for (int i = 0; i < n; ++i) {
      level(v, r.bid[static_cast<std::size_t>(i)], i, bid_fields);
      level(v, r.ask[static_cast<std::size_t>(i)], i, ask_fields);
    }
  }

 private:
  struct side_fields {
    std::string_view px, px_meaning, sz, sz_meaning, ct, ct_meaning;
  };
  static constexpr side_fields bid_fields{
      "bid_px_", "bid price of level ii (00: the best), $0.0001; empty when the bid side has fewer levels",
      "bid_sz_", "shares resting at bid level ii; empty when there is no such level",
      "bid_ct_", "orders resting at bid level ii; empty when there is no such level"};
  static constexpr side_fields ask_fields{
      "ask_px_",
      "ask (offer) price of level ii (00: the best), $0.0001; empty when the ask side has fewer levels",
      "ask_sz_",
      "shares resting at ask level ii; empty when there is no such level",
      "ask_ct_",
      "orders resting at ask level ii; empty when there is no such level"};

  template <class V>
  static void level(V& v, const book_level& l, int i, const side_fields& f) {
    const bool there = l.shares != 0;
    v({f.px, f.px_meaning, i}, there ? std::optional<itch5::price4>(l.price) : std::nullopt);
    v({f.sz, f.sz_meaning, i}, there ? std::optional<std::uint64_t>(l.shares) : std::nullopt);
    v({f.ct, f.ct_meaning, i}, there ? std::optional<std::uint32_t>(l.count) : std::nullopt);
  }
};

}  // namespace itch5::tables
