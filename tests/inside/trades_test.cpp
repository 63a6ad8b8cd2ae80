// The trades and trade statistics tables of run_inside (inside/src/trades_output.hpp) against references of
// their own: hand-written rows for a hand-made stream (every kind, anomalies, filters), and on generated
// days a naive tracker of orders (the tests' shared reference_book under the engine's rules, book_rules.hpp:
// each E's price is the price its order was added or replaced at; on a generated day no message breaks a
// rule, so executed shares never exceed what the order had) and P/Q/B rows read off the messages; the
// statistics against a brute-force sum over the trades rows.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/frame_writer.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/synth/generator.hpp>

#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>

#include <itch5/inside/run_inside.hpp>

#include <itch5_test/book_rules.hpp>
#include <itch5_test/reference_book.hpp>

#include "../book/message_builders.hpp"

namespace {

using namespace testing_messages;
using itch5::tables::letter;
using itch5::tables::trade_row;
using itch5::tables::trade_stats_row;

template <class Table>
struct vector_sink final : itch5::tables::table_sink<Table> {
  std::vector<typename Table::row> rows;
  int finished = 0;
  void write(std::span<const typename Table::row> r) override { rows.insert(rows.end(), r.begin(), r.end()); }
  void finish() override { ++finished; }
};

struct null_lines final : itch5::inside::line_sink {
  void write(std::string_view) override {}
};

template <class Table>
std::string csv(const typename Table::row& r) {
  std::vector<char> buf(itch5::tables::csv_row_bound<Table>(r));
  return {buf.data(), itch5::tables::format_csv_row<Table>(buf.data(), r)};
}

struct run_output {
  std::vector<trade_row> trades;
  std::vector<trade_stats_row> stats;
};

run_output run(std::span<const std::byte> bytes, itch5::inside::inside_options opt = {},
               const std::string& book = "array") {
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, true, 4}));
  vector_sink<itch5::tables::trades_table> trades;
  vector_sink<itch5::tables::trade_stats_table> stats;
  opt.book = book;
  opt.tables.trades = &trades;
  opt.tables.trade_stats = &stats;
  null_lines lines;
  const itch5::inside::inside_result r = itch5::inside::run_inside(reader, opt, lines);
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  EXPECT_EQ(trades.finished, 1);
  EXPECT_EQ(stats.finished, 1);
  return {trades.rows, stats.rows};
}

itch5::trade hidden(std::int64_t ts, std::uint16_t locate, std::string_view symbol, std::uint64_t ref,
                    std::uint32_t shares, std::uint32_t price, std::uint64_t match) {
  itch5::trade m{};
  m.header = hdr(locate, ts);
  m.order_ref = ref;
  m.side = 'B';
  m.shares = shares;
  m.stock = itch5::stock_symbol::from(symbol);
  m.price = itch5::price4(price);
  m.match_number = match;
  return m;
}

itch5::cross_trade cross(std::int64_t ts, std::uint16_t locate, std::string_view symbol, std::uint64_t shares,
                         std::uint32_t price, std::uint64_t match, char type) {
  itch5::cross_trade m{};
  m.header = hdr(locate, ts);
  m.shares = shares;
  m.stock = itch5::stock_symbol::from(symbol);
  m.cross_price = itch5::price4(price);
  m.match_number = match;
  m.cross_type = type;
  return m;
}

itch5::broken_trade broken(std::int64_t ts, std::uint16_t locate, std::uint64_t match) {
  itch5::broken_trade m{};
  m.header = hdr(locate, ts);
  m.match_number = match;
  return m;
}

template <class M>
M matched(M m, std::uint64_t match) {
  m.match_number = match;
  return m;
}

// A hand-made day: two symbols, every kind of print, an execution of an unknown order, an oversized one,
// an execution of a replaced order, a non-printable C, crosses with and without shares, breaks.
std::vector<std::byte> hand_made_day() {
  itch5::frame_writer w;
  w.write(directory(1, "AAPL"));
  w.write(directory(2, "MSFT"));
  w.write(add(100, 1, 11, 'S', 300, 1'500'000, "AAPL"));
  w.write(add(110, 2, 21, 'B', 500, 3'000'000, "MSFT"));
  w.write(matched(exec(200, 1, 11, 100), 1));                   // AAPL E at the resting 150.00, sell side
  w.write(matched(exec_price(210, 2, 21, 200, 3'000'100), 2));  // MSFT C printable at 300.01
  auto np = matched(exec_price(220, 2, 21, 100, 3'000'200), 3);
  np.printable = 'N';
  w.write(np);                                              // MSFT C non-printable
  w.write(matched(exec(230, 1, 99, 50), 4));                // unknown order: no row
  w.write(replace(240, 1, 11, 12, 400, 1'499'900));         // AAPL 11 -> 12 at 149.99, 400 shares
  w.write(matched(exec(250, 1, 12, 600), 5));               // more than it has: 400 leave the book
  w.write(hidden(260, 1, "AAPL", 0, 70, 1'499'950, 6));     // P, reference 0
  w.write(hidden(270, 2, "MSFT", 77, 30, 3'000'050, 7));    // P with a reference
  w.write(cross(280, 1, "AAPL", 1000, 1'500'100, 8, 'C'));  // closing cross
  w.write(cross(290, 2, "MSFT", 0, 3'000'000, 9, 'O'));     // a cross of 0 shares
  w.write(broken(300, 1, 5));                               // breaks AAPL's match 5
  w.write(broken(310, 3, 6));                               // a locate without a book
  const auto b = w.bytes();
  return {b.begin(), b.end()};
}

trade_row row(std::int64_t ts, std::uint16_t locate, std::string_view symbol, char kind,
              std::optional<std::uint32_t> price, std::optional<std::uint64_t> shares, char side,
              std::uint64_t match, std::optional<std::uint64_t> ref, std::optional<bool> printable,
              char cross_type) {
  trade_row r;
  r.timestamp = itch5::timestamp(ts);
  r.locate = locate;
  r.symbol = itch5::stock_symbol::from(symbol);
  r.kind = letter{kind};
  if (price) r.price = itch5::price4(*price);
  r.shares = shares;
  if (side != 0) r.side = letter{side};
  r.match_number = match;
  r.order_ref = ref;
  r.printable = printable;
  if (cross_type != 0) r.cross_type = letter{cross_type};
  return r;
}

const std::vector<trade_row>& hand_made_rows() {
  static const std::vector<trade_row> rows = {
      row(200, 1, "AAPL", 'E', 1'500'000, 100, 'S', 1, 11, std::nullopt, 0),
      row(210, 2, "MSFT", 'C', 3'000'100, 200, 'B', 2, 21, true, 0),
      row(220, 2, "MSFT", 'C', 3'000'200, 100, 'B', 3, 21, false, 0),
      row(250, 1, "AAPL", 'E', 1'499'900, 400, 'S', 5, 12, std::nullopt, 0),
      row(260, 1, "AAPL", 'P', 1'499'950, 70, 'B', 6, std::nullopt, std::nullopt, 0),
      row(270, 2, "MSFT", 'P', 3'000'050, 30, 'B', 7, 77, std::nullopt, 0),
      row(280, 1, "AAPL", 'Q', 1'500'100, 1000, 0, 8, std::nullopt, std::nullopt, 'C'),
      row(290, 2, "MSFT", 'Q', 3'000'000, 0, 0, 9, std::nullopt, std::nullopt, 'O'),
      row(300, 1, "AAPL", 'B', std::nullopt, std::nullopt, 0, 5, std::nullopt, std::nullopt, 0),
      row(310, 3, "", 'B', std::nullopt, std::nullopt, 0, 6, std::nullopt, std::nullopt, 0),
  };
  return rows;
}

void expect_rows(const std::vector<trade_row>& got, const std::vector<trade_row>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(csv<itch5::tables::trades_table>(got[i]), csv<itch5::tables::trades_table>(expected[i]))
        << "row " << i;
    EXPECT_TRUE(got[i] == expected[i]) << "row " << i;
  }
}

TEST(Trades, HandMadeDayGivesTheHandWrittenRowsWithEveryBook) {
  const auto bytes = hand_made_day();
  for (const std::string book : {"array", "map"}) {
    SCOPED_TRACE(book);
    expect_rows(run(bytes, {}, book).trades, hand_made_rows());
  }
}

TEST(Trades, CsvOfHandMadeRows) {
  const auto& rows = hand_made_rows();
  EXPECT_EQ(itch5::tables::csv_header(itch5::tables::schema_of<itch5::tables::trades_table>()),
            "timestamp,locate,symbol,kind,price,shares,side,match_number,order_ref,printable,cross_type\n");
  EXPECT_EQ(csv<itch5::tables::trades_table>(rows[0]), "200,1,AAPL,E,1500000,100,S,1,11,,\n");
  EXPECT_EQ(csv<itch5::tables::trades_table>(rows[2]), "220,2,MSFT,C,3000200,100,B,3,21,0,\n");
  EXPECT_EQ(csv<itch5::tables::trades_table>(rows[6]), "280,1,AAPL,Q,1500100,1000,,8,,,C\n");
  EXPECT_EQ(csv<itch5::tables::trades_table>(rows[9]), "310,3,,B,,,,6,,,\n");
}

TEST(Trades, HandMadeDayStatisticsByHand) {
  const run_output out = run(hand_made_day());
  ASSERT_EQ(out.stats.size(), 3u);
  // AAPL: E 100 @ 150.0000, E 400 @ 149.9900, P 70 @ 149.9950, Q 1000 @ 150.0100; one break.
  trade_stats_row aapl;
  aapl.timestamp = itch5::timestamp(300);
  aapl.locate = 1;
  aapl.symbol = itch5::stock_symbol::from("AAPL");
  aapl.trades = 4;
  aapl.volume = 1570;
  aapl.notional = 100ull * 1'500'000 + 400ull * 1'499'900 + 70ull * 1'499'950 + 1000ull * 1'500'100;
  // 2,355,056,500 / 1570 = 1,500,035.98...: rounded half up to 1,500,036.
  aapl.vwap = itch5::price4(1'500'036);
  aapl.first_price = itch5::price4(1'500'000);
  aapl.last_price = itch5::price4(1'500'100);
  aapl.high_price = itch5::price4(1'500'100);
  aapl.low_price = itch5::price4(1'499'900);
  aapl.cross_volume = 1000;
  aapl.breaks = 1;
  EXPECT_EQ(aapl.notional, 2'355'056'500u);
  EXPECT_EQ(csv<itch5::tables::trade_stats_table>(out.stats[0]), csv<itch5::tables::trade_stats_table>(aapl));
  // MSFT: C 200 @ 300.0100 and P 30 @ 300.0050 count; the non-printable C and the 0-share cross do not.
  trade_stats_row msft;
  msft.timestamp = itch5::timestamp(290);
  msft.locate = 2;
  msft.symbol = itch5::stock_symbol::from("MSFT");
  msft.trades = 2;
  msft.volume = 230;
  msft.notional = 200ull * 3'000'100 + 30ull * 3'000'050;  // 690,021,500 / 230 = 3,000,093.47...
  msft.vwap = itch5::price4(3'000'093);
  msft.first_price = itch5::price4(3'000'100);
  msft.last_price = itch5::price4(3'000'050);
  msft.high_price = itch5::price4(3'000'100);
  msft.low_price = itch5::price4(3'000'050);
  msft.non_printable_trades = 1;
  msft.non_printable_volume = 100;
  EXPECT_EQ(csv<itch5::tables::trade_stats_table>(out.stats[1]), csv<itch5::tables::trade_stats_table>(msft));
  // Locate 3: a break only, no prints.
  EXPECT_EQ(csv<itch5::tables::trade_stats_table>(out.stats[2]), "310,3,,0,0,0,,,,,,0,0,0,1\n");
}

TEST(Trades, SymbolsAndTimeRangeSelectRows) {
  const auto bytes = hand_made_day();
  itch5::inside::inside_options opt;
  opt.symbols = {"msft"};
  std::vector<trade_row> expected;
  for (const auto& r : hand_made_rows())
    if (r.locate == 2) expected.push_back(r);
  expect_rows(run(bytes, opt).trades, expected);

  opt = {};
  opt.from = itch5::timestamp(220);
  opt.to = itch5::timestamp(290);
  expected.clear();
  for (const auto& r : hand_made_rows())
    if (r.timestamp.count() >= 220 && r.timestamp.count() < 290) expected.push_back(r);
  const run_output out = run(bytes, opt);
  expect_rows(out.trades, expected);
  // The statistics follow the same rows: MSFT's printable C at 210 is outside.
  ASSERT_EQ(out.stats.size(), 2u);
  EXPECT_EQ(out.stats[1].trades, 1u);
  EXPECT_EQ(out.stats[1].non_printable_trades, 1u);
}

// The naive reference: the shared reference book of the tests (itch5_test/reference_book.hpp) changed by the
// engine's rules for inconsistent input (itch5_test/book_rules.hpp), an E or C row for each execution it
// applies (at the order's price for E, its own for C; the order's side and locate; the shares taken off the
// order), P/Q/B rows read off the messages. Strict (for generated days): every book message must break no
// rule.
class naive_trades {
 public:
  explicit naive_trades(bool strict) : strict_(strict) {}

  std::vector<trade_row> rows;
  std::unordered_map<std::uint64_t, std::uint64_t> added, executed, removed_otherwise;

  template <class M>
  void operator()(const M&) {}
  void operator()(const itch5::stock_directory& m) { symbols_[m.header.stock_locate] = m.stock; }
  void operator()(const itch5::add_order& m) {
    if (apply(m).added) added[m.order_ref] += m.shares;
  }
  void operator()(const itch5::add_order_mpid& m) {
    if (apply(m).added) added[m.order_ref] += m.shares;
  }
  void operator()(const itch5::order_executed& m) {
    execute(m.header, m.order_ref, apply(m), m.match_number, std::nullopt, std::nullopt);
  }
  void operator()(const itch5::order_executed_with_price& m) {
    execute(m.header, m.order_ref, apply(m), m.match_number, m.execution_price, m.printable == 'Y');
  }
  void operator()(const itch5::order_cancel& m) {
    if (const itch5_test::book_change c = apply(m); c.applied) removed_otherwise[m.order_ref] += c.shares;
  }
  void operator()(const itch5::order_delete& m) {
    if (const itch5_test::book_change c = apply(m); c.applied) removed_otherwise[m.order_ref] += c.shares;
  }
  void operator()(const itch5::order_replace& m) {
    const itch5_test::book_change c = apply(m);
    if (c.applied) removed_otherwise[m.original_order_ref] += c.shares;
    if (c.added) added[m.new_order_ref] += m.shares;
  }
  void operator()(const itch5::trade& m) {
    rows.push_back(row(m.header.timestamp.count(), m.header.stock_locate, std::string(m.stock.str()), 'P',
                       m.price.units(), m.shares, m.side, m.match_number,
                       m.order_ref == 0 ? std::nullopt : std::optional<std::uint64_t>(m.order_ref),
                       std::nullopt, 0));
  }
  void operator()(const itch5::cross_trade& m) {
    rows.push_back(row(m.header.timestamp.count(), m.header.stock_locate, std::string(m.stock.str()), 'Q',
                       m.cross_price.units(), m.shares, 0, m.match_number, std::nullopt, std::nullopt,
                       m.cross_type));
  }
  void operator()(const itch5::broken_trade& m) {
    rows.push_back(row(m.header.timestamp.count(), m.header.stock_locate,
                       std::string(symbols_[m.header.stock_locate].str()), 'B', std::nullopt, std::nullopt, 0,
                       m.match_number, std::nullopt, std::nullopt, 0));
  }

  /// Shares still on the book per order at the end.
  [[nodiscard]] std::uint64_t live(std::uint64_t ref) const {
    const itch5_test::reference_book::order* o = book_.find(ref);
    return o == nullptr ? 0 : o->shares;
  }

 private:
  template <class M>
  itch5_test::book_change apply(const M& m) {
    const itch5_test::book_change c = itch5_test::apply_book_message(book_, m);
    if (strict_) {
      EXPECT_TRUE(c.anomaly == itch5_test::book_anomaly::none)
          << M::name << " at " << m.header.timestamp.count() << ": " << itch5_test::to_string(c.anomaly);
    }
    return c;
  }
  void execute(const itch5::message_header& h, std::uint64_t ref, const itch5_test::book_change& c,
               std::uint64_t match, std::optional<itch5::price4> price, std::optional<bool> printable) {
    if (!c.applied) return;
    const itch5_test::reference_book::order& o = c.order;
    rows.push_back(row(h.timestamp.count(), o.locate, std::string(symbols_[o.locate].str()),
                       printable ? 'C' : 'E', price.value_or(itch5::price4(o.price)).units(), c.shares,
                       o.side, match, ref, printable, 0));
    executed[ref] += c.shares;
  }

  bool strict_;
  itch5_test::reference_book book_;
  std::map<std::uint16_t, itch5::stock_symbol> symbols_;
};

std::vector<std::byte> generated_day(std::uint64_t seed, std::uint64_t messages) {
  itch5::synth::generator_config cfg;
  cfg.messages = messages;
  cfg.seed = seed;
  const itch5::synth::generator gen(cfg);
  std::vector<std::byte> bytes;
  (void)gen.run([&](std::span<const std::byte> b) { bytes.insert(bytes.end(), b.begin(), b.end()); });
  return bytes;
}

naive_trades naive_run(std::span<const std::byte> bytes, bool strict = true) {
  naive_trades n(strict);
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, false, 4}));
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) itch5::dispatch(msg, n);
  return n;
}

// The statistics by brute force over the trades rows: a map per symbol, plain loops.
std::vector<trade_stats_row> brute_force_stats(const std::vector<trade_row>& rows) {
  std::map<std::uint16_t, std::vector<const trade_row*>> by_locate;
  for (const auto& r : rows) by_locate[r.locate].push_back(&r);
  std::vector<trade_stats_row> out;
  for (const auto& [locate, list] : by_locate) {
    trade_stats_row s;
    s.locate = locate;
    s.timestamp = list.back()->timestamp;
    std::vector<const trade_row*> counted;
    for (const trade_row* r : list) {
      if (r->kind.code != 'B') s.symbol = r->symbol;
      if (r->kind.code == 'B') {
        ++s.breaks;
        continue;
      }
      if (r->kind.code == 'C' && !*r->printable) {
        ++s.non_printable_trades;
        s.non_printable_volume += *r->shares;
        continue;
      }
      if (r->kind.code == 'Q') s.cross_volume += *r->shares;
      if (*r->shares > 0) counted.push_back(r);
    }
    if (list.front()->kind.code == 'B' && s.symbol == itch5::stock_symbol{}) s.symbol = list.front()->symbol;
    s.trades = counted.size();
    for (const trade_row* r : counted) {
      s.volume += *r->shares;
      s.notional += *r->shares * r->price->units();
      if (!s.high_price || *r->price > *s.high_price) s.high_price = r->price;
      if (!s.low_price || *r->price < *s.low_price) s.low_price = r->price;
    }
    if (!counted.empty()) {
      s.first_price = counted.front()->price;
      s.last_price = counted.back()->price;
      // Rounded half up: the remainder compared with half the volume.
      std::uint64_t q = s.notional / s.volume;
      if ((s.notional % s.volume) * 2 >= s.volume) ++q;
      s.vwap = itch5::price4(static_cast<std::uint32_t>(q));
    }
    out.push_back(s);
  }
  return out;
}

// The reference, under the rules for inconsistent input, agrees with the hand on the hand-made day (its
// unknown and oversized executions included).
TEST(Trades, NaiveReferenceGivesTheHandWrittenRows) {
  expect_rows(naive_run(hand_made_day(), false).rows, hand_made_rows());
}

TEST(Trades, GeneratedDaysMatchTheNaiveReference) {
  for (const std::uint64_t seed : {1u, 2u}) {
    SCOPED_TRACE(seed);
    const auto bytes = generated_day(seed, 200'000);
    const naive_trades n = naive_run(bytes);
    ASSERT_GT(n.rows.size(), 1000u);
    const run_output out = run(bytes);
    expect_rows(out.trades, n.rows);
    // Every order's shares: added = executed (the rows) + cancelled, deleted or replaced + still live.
    std::unordered_map<std::uint64_t, std::uint64_t> executed_by_rows;
    for (const auto& r : out.trades)
      if (r.kind.code == 'E' || r.kind.code == 'C') executed_by_rows[*r.order_ref] += *r.shares;
    EXPECT_EQ(executed_by_rows, n.executed);
    for (const auto& [ref, shares] : n.added) {
      const auto at = [ref = ref](const auto& m) {
        auto it = m.find(ref);
        return it == m.end() ? std::uint64_t{0} : it->second;
      };
      ASSERT_EQ(shares, at(executed_by_rows) + at(n.removed_otherwise) + n.live(ref)) << "order " << ref;
    }
    const std::vector<trade_stats_row> expected = brute_force_stats(out.trades);
    ASSERT_EQ(out.stats.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(csv<itch5::tables::trade_stats_table>(out.stats[i]),
                csv<itch5::tables::trade_stats_table>(expected[i]));
    }
  }
}

TEST(Trades, GeneratedDayWithFiltersKeepsTheSelectedRowsOnly) {
  const auto bytes = generated_day(3, 200'000);
  const naive_trades n = naive_run(bytes);
  itch5::inside::inside_options opt;
  opt.symbols = {"SPY", "AAPL"};
  opt.from = itch5::timestamp(34'200'000'000'000);  // 09:30 to 12:00
  opt.to = itch5::timestamp(43'200'000'000'000);
  std::vector<trade_row> expected;
  for (const auto& r : n.rows) {
    const std::string s(r.symbol.str());
    if ((s == "SPY" || s == "AAPL") && r.timestamp >= opt.from && r.timestamp < opt.to) expected.push_back(r);
  }
  ASSERT_GT(expected.size(), 50u);
  const run_output out = run(bytes, opt);
  expect_rows(out.trades, expected);
  EXPECT_EQ(out.stats.size(), 2u);
}

// table_outputs skips the book events that no part on reads (trades: executions only); with the N-level book
// on too, which reads every event, each table is what its own run gives.
TEST(Trades, WithTheLevelsTableEachTableIsAsAlone) {
  const auto bytes = generated_day(4, 100'000);
  const auto levels_rows = [&](bool with_trades) {
    itch5::message_reader reader(
        itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, true, 4}));
    itch5::inside::inside_options opt;
    vector_sink<itch5::tables::levels_table> levels;
    vector_sink<itch5::tables::trades_table> trades;
    opt.tables.book_levels = &levels;
    opt.tables.levels = 3;
    if (with_trades) opt.tables.trades = &trades;
    null_lines lines;
    (void)itch5::inside::run_inside(reader, opt, lines);
    std::vector<std::string> text;
    for (const auto& r : levels.rows) text.push_back(csv<itch5::tables::levels_table>(r));
    return std::pair(text, trades.rows);
  };
  const auto [alone, no_trades] = levels_rows(false);
  const auto [together, trades] = levels_rows(true);
  ASSERT_GT(alone.size(), 1000u);
  EXPECT_TRUE(no_trades.empty());
  EXPECT_EQ(together, alone);
  const run_output trades_alone = run(bytes);
  ASSERT_GT(trades_alone.trades.size(), 100u);
  expect_rows(trades, trades_alone.trades);
}

TEST(Trades, StatisticsOnlyAndTradesOnly) {
  const auto bytes = hand_made_day();
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, true, 4}));
  vector_sink<itch5::tables::trade_stats_table> stats;
  itch5::inside::inside_options opt;
  opt.tables.trade_stats = &stats;
  null_lines lines;
  (void)itch5::inside::run_inside(reader, opt, lines);
  EXPECT_EQ(stats.finished, 1);
  ASSERT_EQ(stats.rows.size(), 3u);
  EXPECT_EQ(stats.rows[0].trades, 4u);

  itch5::message_reader again(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, true, 4}));
  vector_sink<itch5::tables::trades_table> trades;
  opt.tables = {};
  opt.tables.trades = &trades;
  (void)itch5::inside::run_inside(again, opt, lines);
  expect_rows(trades.rows, hand_made_rows());
}

}  // namespace
