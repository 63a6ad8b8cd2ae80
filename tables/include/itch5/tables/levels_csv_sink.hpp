// The N-level book's rows (levels_table.hpp) as CSV, the same text as csv_table_sink<levels_table> at a
// fraction of the formatting: each symbol's levels keep their text from row to row, and a row formats only
// the levels whose price, shares or orders changed since that symbol's last row (an order event changes one
// level of one side, or shifts one side's levels below it), copying the rest.
//
//   itch5::tables::levels_row shape;  shape.levels = 10;
//   itch5::tables::levels_csv_sink csv(out_file, shape);   // writes the header line
//   options.tables.book_levels = &csv;                     // the run writes its rows, then calls finish()
//
// Why: a row of the 10-level book is 63 fields (~250 bytes), one row per change of the top levels, several
// per inside change; formatting every field of every row was half the run's time.
//
// Each level's text is formatted by csv_row_formatter (csv_row.hpp), so the text is that of the generic
// writer by construction. Memory: 2N cached levels of 80 bytes per symbol with rows (1.6 KB at N = 10),
// made when the symbol's first row comes. Not thread-safe: one thread writes (the run's books' thread, or its
// sink_thread).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <vector>

#include <itch5/io/line_writer.hpp>
#include <itch5/io/output_file.hpp>

#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/schema.hpp>
#include <itch5/tables/table_sink.hpp>

namespace itch5::tables {

class levels_csv_sink final : public table_sink<levels_table> {
 public:
  /// Writes the header of `prototype`'s N levels to `out`, which must outlive the sink.
  explicit levels_csv_sink(itch5::io::output_file& out, const levels_row& prototype = {})
      : lines_(out), levels_(std::min<std::uint32_t>(prototype.levels, max_levels)) {
    lines_.append(csv_header(schema_of<levels_table>(prototype)));
    // timestamp, locate, symbol, the levels (each with its comma), the newline; and a whole cached text's
    // width of slack for the fixed-size copies.
    bound_ = 20 + 1 + 20 + 1 + itch5::stock_symbol::width + 2 * levels_ * (1 + level_text::capacity) + 1;
  }

  void write(std::span<const levels_row> rows) override {
    for (const levels_row& r : rows) write(r);
  }
  void finish() override { lines_.flush(); }

  [[nodiscard]] std::uint64_t rows() const noexcept { return rows_; }

 private:
  // A level's three fields as text ("px,sz,ct", or ",," for no level) and the values it shows.
  struct level_text {
    static constexpr std::size_t capacity = 56;  // 10 + 1 + 20 + 1 + 10 digits and commas at most
    book_level shown{};
    std::uint32_t size = 2;
    std::array<char, capacity> chars{',', ','};
  };

  void write(const levels_row& r) {
    level_text* cache = texts_of(r.locate);
    char* const start = lines_.reserve(bound_);
    csv_row_formatter f(start);
    f(field{"timestamp", ""}, r.timestamp);
    f(field{"locate", ""}, r.locate);
    f(field{"symbol", ""}, r.symbol);
    char* p = f.end();
    for (std::uint32_t i = 0; i < levels_; ++i) {
      p = put(p, cache[2 * i], r.bid[i]);
      p = put(p, cache[2 * i + 1], r.ask[i]);
    }
    *p++ = '\n';
    lines_.commit(p);
    ++rows_;
  }

  // ',' and the text of level `l`, formatted again only when it differs from what `t` shows.
  static char* put(char* p, level_text& t, const book_level& l) noexcept {
    const bool there = l.shares != 0;
    if (!(l == t.shown) && (there || t.shown.shares != 0)) {
      csv_row_formatter f(t.chars.data());
      f(field{"px", ""}, there ? std::optional<itch5::price4>(l.price) : std::nullopt);
      f(field{"sz", ""}, there ? std::optional<std::uint64_t>(l.shares) : std::nullopt);
      f(field{"ct", ""}, there ? std::optional<std::uint32_t>(l.count) : std::nullopt);
      t.size = static_cast<std::uint32_t>(f.end() - t.chars.data());
      t.shown = there ? l : book_level{};
    }
    *p++ = ',';
    std::memcpy(p, t.chars.data(), level_text::capacity);
    return p + t.size;
  }

  level_text* texts_of(std::uint16_t locate) {
    if (locate >= texts_.size()) texts_.resize(std::size_t{locate} + 1);
    auto& t = texts_[locate];
    if (!t) t = std::make_unique<level_text[]>(2 * std::size_t{levels_});
    return t.get();
  }

  itch5::io::line_writer lines_;
  std::uint32_t levels_;
  std::size_t bound_ = 0;
  std::vector<std::unique_ptr<level_text[]>> texts_;  // by locate: bid 0, ask 0, bid 1, ask 1, ...
  std::uint64_t rows_ = 0;
};

}  // namespace itch5::tables
