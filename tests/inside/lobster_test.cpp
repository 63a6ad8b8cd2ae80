// run_lobster (inside/lobster.hpp): a hand-made day whose rows were worked out by hand from LOBSTER's data
// structure and docs/formats.md (every event type, a replace, halts, a cross, the window, another symbol);
// a generated day against a naive reference book written here (every row equal), and replayed (each message
// row applied to the previous book row gives the next, but for levels entering from beyond N); the CSV form,
// the file names and the dates in Nasdaq's file names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/frame_writer.hpp>
#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/messages.hpp>
#include <itch5/synth/generator.hpp>

#include <itch5/inside/lobster.hpp>
#include <itch5/tables/lobster_csv.hpp>
#include <itch5/tables/lobster_table.hpp>

#include <itch5_test/reference_book.hpp>

#include "../book/message_builders.hpp"

namespace {

using namespace testing_messages;
using itch5::tables::lobster_level;
using itch5::tables::lobster_message_row;
using itch5::tables::lobster_orderbook_row;
using std::chrono::year_month_day;

constexpr std::int64_t empty_ask = 9'999'999'999;
constexpr std::int64_t empty_bid = -9'999'999'999;
constexpr std::int64_t open_ns = 34'200'000'000'000;  // 09:30

template <class Table>
struct vector_sink final : itch5::tables::table_sink<Table> {
  void write(std::span<const typename Table::row> rows) override {
    got.insert(got.end(), rows.begin(), rows.end());
  }
  void finish() override { ++finished; }
  std::vector<typename Table::row> got;
  int finished = 0;
};

struct symbol_rows {
  vector_sink<itch5::tables::lobster_message_table> messages;
  vector_sink<itch5::tables::lobster_orderbook_table> orderbook;
};

// A message row as text, for readable failures.
std::string text(const lobster_message_row& r) {
  return std::to_string(r.time.count()) + "," + std::to_string(r.event_type) + "," +
         std::to_string(r.order_id) + "," + std::to_string(r.size) + "," + std::to_string(r.price) + "," +
         std::to_string(r.direction);
}
std::string text(const lobster_orderbook_row& r) {
  std::string s;
  for (unsigned i = 0; i < r.levels; ++i) {
    const lobster_level& l = r.level[i];
    s += std::to_string(l.ask_price) + "," + std::to_string(l.ask_size) + "," + std::to_string(l.bid_price) +
         "," + std::to_string(l.bid_size) + (i + 1 < r.levels ? "," : "");
  }
  return s;
}

itch5::inside::lobster_result run(std::span<const std::byte> bytes, std::vector<std::string> symbols,
                                  std::vector<symbol_rows>& rows, unsigned levels,
                                  const std::string& book = "array") {
  rows.resize(symbols.size());
  itch5::inside::lobster_options opt;
  opt.levels = levels;
  opt.book = book;
  for (std::size_t i = 0; i < symbols.size(); ++i)
    opt.symbols.push_back({symbols[i], &rows[i].messages, &rows[i].orderbook});
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, true, 4}));
  return itch5::inside::run_lobster(reader, opt);
}

itch5::stock_trading_action halt(std::int64_t ts, std::uint16_t locate, char state, std::string_view symbol) {
  itch5::stock_trading_action m{};
  m.header = hdr(locate, ts);
  m.stock = itch5::stock_symbol::from(symbol);
  m.trading_state = state;
  return m;
}

// ---------------------------------------------------------------------------------------------------------
// The hand-made day: AAPL (locate 1, chosen) and MSFT (locate 2, not), two levels.

std::vector<std::byte> hand_made_day() {
  itch5::frame_writer w;
  w.write(system_event(1, 'O'));
  w.write(directory(1, "AAPL"));
  w.write(directory(2, "MSFT"));
  w.write(add(open_ns - 1000, 1, 1, 'B', 100, 1'000'000, "AAPL"));  // before the window: in the book, no row
  w.write(add(open_ns + 1, 1, 2, 'S', 200, 1'010'000, "AAPL"));
  w.write(add(open_ns + 2, 2, 90, 'S', 200, 500'000, "MSFT"));  // another symbol: no row
  w.write(add(open_ns + 3, 1, 3, 'B', 50, 1'000'000, "AAPL"));
  w.write(add_mpid(open_ns + 4, 1, 4, 'S', 100, 1'020'000, "AAPL"));
  w.write(cancel(open_ns + 5, 1, 2, 50));
  w.write(exec(open_ns + 6, 1, 3, 20));
  w.write(exec_price(open_ns + 7, 1, 2, 30, 1'005'000));  // printed at 1005000, rests at 1010000
  w.write(replace(open_ns + 8, 1, 4, 5, 300, 1'015'000));
  w.write(del(open_ns + 9, 1, 1));
  itch5::trade p{};
  p.header = hdr(1, open_ns + 10);
  p.side = 'B';
  p.shares = 500;
  p.stock = itch5::stock_symbol::from("AAPL");
  p.price = itch5::price4(1'012'000);
  p.match_number = 77;
  w.write(p);
  w.write(halt(open_ns + 11, 1, 'H', "AAPL"));
  w.write(halt(open_ns + 12, 1, 'Q', "AAPL"));
  itch5::cross_trade q{};
  q.header = hdr(1, open_ns + 13);
  q.shares = 1000;
  q.stock = itch5::stock_symbol::from("AAPL");
  q.cross_price = itch5::price4(1'011'000);
  q.cross_type = 'H';
  w.write(q);
  w.write(halt(open_ns + 14, 1, 'T', "AAPL"));
  w.write(add(open_ns + 15, 1, 6, 'B', 10, 990'000, "AAPL"));          // a third bid level: beyond N = 2
  w.write(add(57'600'000'000'000, 1, 7, 'B', 10, 1'000'000, "AAPL"));  // 16:00: outside the window
  w.write(system_event(57'600'000'000'001, 'C'));
  auto b = w.bytes();
  return {b.begin(), b.end()};
}

TEST(LobsterHandMade, EveryEventTypeAsWorkedOutByHand) {
  const auto day = hand_made_day();
  for (const std::string book : {"array", "map"}) {
    SCOPED_TRACE("book " + book);
    std::vector<symbol_rows> rows;
    const auto r = run(day, {"aapl"}, rows, 2, book);
    ASSERT_EQ(r.run.status, itch5::read_status::end_of_input);
    EXPECT_TRUE(r.symbols_not_seen.empty());
    const std::vector<std::string> messages = {
        "34200000000001,1,2,200,1010000,-1",    // A
        "34200000000003,1,3,50,1000000,1",      // A joins ref 1 (added before 09:30)
        "34200000000004,1,4,100,1020000,-1",    // F
        "34200000000005,2,2,50,1010000,-1",     // X
        "34200000000006,4,3,20,1000000,1",      // E
        "34200000000007,4,2,30,1010000,-1",     // C: at the resting price
        "34200000000008,3,4,100,1020000,-1",    // U: the old order deleted
        "34200000000008,1,5,300,1015000,-1",    //    the new one added
        "34200000000009,3,1,100,1000000,1",     // D
        "34200000000010,5,0,500,1012000,1",     // P
        "34200000000011,7,0,0,-1,-1",           // H halted
        "34200000000012,7,0,0,0,-1",            // H quotation only
        "34200000000013,6,-3,1000,1011000,-1",  // Q, halt/IPO cross
        "34200000000014,7,0,0,1,-1",            // H trading
        "34200000000015,1,6,10,990000,1",       // A beyond level 2
    };
    const std::string e = std::to_string(empty_ask) + ",0,";
    const std::vector<std::string> books = {
        "1010000,200,1000000,100," + e + std::to_string(empty_bid) + ",0",
        "1010000,200,1000000,150," + e + std::to_string(empty_bid) + ",0",
        "1010000,200,1000000,150,1020000,100," + std::to_string(empty_bid) + ",0",
        "1010000,150,1000000,150,1020000,100," + std::to_string(empty_bid) + ",0",
        "1010000,150,1000000,130,1020000,100," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,130,1020000,100," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,130," + e + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,130,1015000,300," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,30,1015000,300," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,30,1015000,300," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,30,1015000,300," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,30,1015000,300," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,30,1015000,300," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,30,1015000,300," + std::to_string(empty_bid) + ",0",
        "1010000,120,1000000,30,1015000,300,990000,10",
    };
    ASSERT_EQ(rows[0].messages.got.size(), messages.size());
    ASSERT_EQ(rows[0].orderbook.got.size(), books.size());
    for (std::size_t i = 0; i < messages.size(); ++i) {
      EXPECT_EQ(text(rows[0].messages.got[i]), messages[i]) << "row " << i;
      EXPECT_EQ(text(rows[0].orderbook.got[i]), books[i]) << "row " << i;
    }
    EXPECT_EQ(r.counts.at(0).messages, messages.size());
    EXPECT_EQ(rows[0].messages.finished, 1);
    EXPECT_EQ(rows[0].orderbook.finished, 1);
  }
}

TEST(LobsterHandMade, TheWindowAndASymbolNeverNamed) {
  const auto day = hand_made_day();
  std::vector<symbol_rows> rows;
  itch5::inside::lobster_options opt;
  rows.resize(2);
  opt.symbols = {{"AAPL", &rows[0].messages, &rows[0].orderbook},
                 {"ZZZZ", &rows[1].messages, &rows[1].orderbook}};
  opt.levels = 1;
  opt.from = itch5::timestamp(open_ns + 5);
  opt.to = itch5::timestamp(open_ns + 9);  // [X, U]
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(day), {1 << 16, true, 4}));
  const auto r = itch5::inside::run_lobster(reader, opt);
  EXPECT_EQ(r.symbols_not_seen, std::vector<std::string>{"ZZZZ"});
  ASSERT_EQ(rows[0].messages.got.size(), 5u);  // X, E, C, and U as two rows
  EXPECT_EQ(text(rows[0].messages.got[0]), "34200000000005,2,2,50,1010000,-1");
  EXPECT_EQ(text(rows[0].orderbook.got[0]), "1010000,150,1000000,150");  // both sides, from the book itself
  EXPECT_EQ(text(rows[0].messages.got[4]), "34200000000008,1,5,300,1015000,-1");
  EXPECT_TRUE(rows[1].messages.got.empty());
  EXPECT_EQ(rows[1].messages.finished, 1);
}

TEST(LobsterHandMade, BadOptionsAreRefused) {
  const auto day = hand_made_day();
  std::vector<symbol_rows> rows;
  EXPECT_THROW((void)run(day, {"AAPL"}, rows, 0), std::invalid_argument);
  EXPECT_THROW((void)run(day, {"AAPL"}, rows, itch5::tables::lobster_max_levels + 1), std::invalid_argument);
  EXPECT_THROW((void)run(day, {"AAPL", "aapl"}, rows, 10), std::invalid_argument);
  EXPECT_THROW((void)run(day, {}, rows, 10), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------------------
// A generated day against a naive reference, and replayed.

// The rows LOBSTER's mapping gives, from the reference book of tests/support (no code shared with book/).
struct naive_lobster {
  std::map<std::uint16_t, std::size_t> chosen;  // locate -> index
  std::map<std::string, std::size_t> names;     // symbol -> index
  std::vector<std::vector<lobster_message_row>> messages;
  std::vector<std::vector<lobster_orderbook_row>> books;
  itch5_test::reference_book ref;
  unsigned levels;
  std::int64_t from = open_ns, to = 57'600'000'000'000;

  naive_lobster(const std::vector<std::string>& symbols, unsigned n) : levels(n) {
    for (std::size_t i = 0; i < symbols.size(); ++i) names[symbols[i]] = i;
    messages.resize(symbols.size());
    books.resize(symbols.size());
  }

  lobster_orderbook_row row(std::uint16_t locate) const {
    lobster_orderbook_row r;
    r.levels = levels;
    const auto& b = ref.book(locate);
    unsigned i = 0;
    for (auto it = b.offers.begin(); it != b.offers.end() && i < levels; ++it, ++i) {
      r.level[i].ask_price = it->first;
      r.level[i].ask_size = it->second.shares;
    }
    i = 0;
    for (auto it = b.bids.begin(); it != b.bids.end() && i < levels; ++it, ++i) {
      r.level[i].bid_price = it->first;
      r.level[i].bid_size = it->second.shares;
    }
    return r;
  }
  // Index of a chosen locate with `ts` in the window, or -1.
  int out(std::uint16_t locate, itch5::timestamp ts) const {
    const auto it = chosen.find(locate);
    if (it == chosen.end() || ts.count() < from || ts.count() >= to) return -1;
    return static_cast<int>(it->second);
  }
  void emit(int i, itch5::timestamp ts, std::int64_t type, std::int64_t id, std::uint64_t size,
            std::int64_t price, std::int64_t dir, std::uint16_t locate) {
    messages[i].push_back({ts, type, id, size, price, dir});
    books[i].push_back(row(locate));
  }

  void operator()(const itch5::stock_directory& m) {
    const auto it = names.find(std::string(m.stock.str()));
    if (it != names.end()) chosen[m.header.stock_locate] = it->second;
  }
  template <class A>
  void added(const A& m) {
    ref.add(m.order_ref, {m.header.stock_locate, m.side, m.price.units(), m.shares});
    if (int i = out(m.header.stock_locate, m.header.timestamp); i >= 0)
      emit(i, m.header.timestamp, 1, static_cast<std::int64_t>(m.order_ref), m.shares, m.price.units(),
           m.side == 'B' ? 1 : -1, m.header.stock_locate);
  }
  void operator()(const itch5::add_order& m) { added(m); }
  void operator()(const itch5::add_order_mpid& m) { added(m); }
  void reduced(const itch5::message_header& h, std::uint64_t ref_no, std::uint32_t shares,
               std::int64_t type) {
    const auto o = *ref.find(ref_no);
    ref.reduce(ref_no, shares);
    if (int i = out(o.locate, h.timestamp); i >= 0)
      emit(i, h.timestamp, type, static_cast<std::int64_t>(ref_no), shares, o.price, o.side == 'B' ? 1 : -1,
           o.locate);
  }
  void operator()(const itch5::order_executed& m) { reduced(m.header, m.order_ref, m.executed_shares, 4); }
  void operator()(const itch5::order_executed_with_price& m) {
    reduced(m.header, m.order_ref, m.executed_shares, 4);
  }
  void operator()(const itch5::order_cancel& m) { reduced(m.header, m.order_ref, m.cancelled_shares, 2); }
  void operator()(const itch5::order_delete& m) {
    reduced(m.header, m.order_ref, ref.find(m.order_ref)->shares, 3);
  }
  void operator()(const itch5::order_replace& m) {
    const auto o = *ref.find(m.original_order_ref);
    reduced(m.header, m.original_order_ref, o.shares, 3);
    ref.add(m.new_order_ref, {o.locate, o.side, m.price.units(), m.shares});
    if (int i = out(o.locate, m.header.timestamp); i >= 0)
      emit(i, m.header.timestamp, 1, static_cast<std::int64_t>(m.new_order_ref), m.shares, m.price.units(),
           o.side == 'B' ? 1 : -1, o.locate);
  }
  void operator()(const itch5::trade& m) {
    if (int i = out(m.header.stock_locate, m.header.timestamp); i >= 0)
      emit(i, m.header.timestamp, 5, static_cast<std::int64_t>(m.order_ref), m.shares, m.price.units(),
           m.side == 'S' ? -1 : 1, m.header.stock_locate);
  }
  void operator()(const itch5::stock_trading_action& m) {
    if (int i = out(m.header.stock_locate, m.header.timestamp); i >= 0) {
      const std::int64_t p = m.trading_state == 'Q' ? 0 : (m.trading_state == 'T' ? 1 : -1);
      emit(i, m.header.timestamp, 7, 0, 0, p, -1, m.header.stock_locate);
    }
  }
  template <class M>
  void operator()(const M&) {}
};

std::vector<std::byte> generated_day() {
  itch5::synth::generator_config cfg;
  cfg.messages = 100'000;
  cfg.seed = 5;
  std::vector<std::byte> bytes;
  const itch5::synth::generator::sink to = [&](std::span<const std::byte> b) {
    bytes.insert(bytes.end(), b.begin(), b.end());
  };
  (void)itch5::synth::generator(cfg).run(to);
  return bytes;
}

// Applies a message row to a side's levels (price -> shares) as LOBSTER's readers do.
void apply(const lobster_message_row& m, std::map<std::int64_t, std::uint64_t>& asks,
           std::map<std::int64_t, std::uint64_t, std::greater<>>& bids) {
  const auto change = [&](auto& side) {
    if (m.event_type == 1) {
      side[m.price] += m.size;
    } else if (m.event_type >= 2 && m.event_type <= 4) {
      const auto it = side.find(m.price);
      if (it == side.end()) return;  // beyond the N levels shown
      it->second -= std::min(it->second, m.size);
      if (it->second == 0) side.erase(it);
    }
  };
  if (m.direction == 1) {
    change(bids);
  } else {
    change(asks);
  }
}

TEST(LobsterGenerated, EqualsTheNaiveReferenceAndReplays) {
  const auto day = generated_day();
  const std::vector<std::string> symbols = {"SPY", "QQQ", "AAPL"};
  for (const unsigned levels : {1u, 10u}) {
    SCOPED_TRACE("levels " + std::to_string(levels));
    naive_lobster naive(symbols, levels);
    itch5::message_reader reader(
        itch5::io::make_block_source(itch5::io::memory_input(day), {1 << 16, true, 4}));
    std::span<const std::byte> msg;
    while (reader.next(msg) == itch5::read_status::message) itch5::dispatch(msg, naive);
    std::vector<symbol_rows> rows;
    const auto r = run(day, symbols, rows, levels);
    ASSERT_EQ(r.run.status, itch5::read_status::end_of_input);
    ASSERT_EQ(r.run.anomalies.total(), 0u);
    for (std::size_t s = 0; s < symbols.size(); ++s) {
      SCOPED_TRACE(symbols[s]);
      const auto& got = rows[s];
      ASSERT_GT(got.messages.got.size(), 1000u);
      ASSERT_EQ(got.messages.got.size(), naive.messages[s].size());
      ASSERT_EQ(got.orderbook.got.size(), naive.books[s].size());
      std::size_t entering = 0;
      for (std::size_t i = 0; i < got.messages.got.size(); ++i) {
        ASSERT_EQ(text(got.messages.got[i]), text(naive.messages[s][i])) << "row " << i;
        ASSERT_EQ(text(got.orderbook.got[i]), text(naive.books[s][i])) << "row " << i;
        if (i == 0) continue;
        // Replay: the previous book row with this message applied gives this book row, within the levels
        // both show; a level this row shows and the applied one lacks must be worse than every level the
        // applied one has on that side (it entered from beyond N after a removal).
        const lobster_orderbook_row& prev = got.orderbook.got[i - 1];
        const lobster_orderbook_row& next = got.orderbook.got[i];
        std::map<std::int64_t, std::uint64_t> asks;
        std::map<std::int64_t, std::uint64_t, std::greater<>> bids;
        for (unsigned l = 0; l < levels; ++l) {
          if (prev.level[l].ask_size != 0) asks[prev.level[l].ask_price] = prev.level[l].ask_size;
          if (prev.level[l].bid_size != 0) bids[prev.level[l].bid_price] = prev.level[l].bid_size;
        }
        apply(got.messages.got[i], asks, bids);
        auto a = asks.begin();
        auto b = bids.begin();
        for (unsigned l = 0; l < levels; ++l) {
          const lobster_level& n = next.level[l];
          if (a != asks.end()) {
            ASSERT_EQ(n.ask_price, a->first) << "row " << i << " ask level " << l;
            ASSERT_EQ(n.ask_size, a->second) << "row " << i << " ask level " << l;
            ++a;
          } else if (n.ask_size != 0) {
            ASSERT_TRUE(asks.empty() || n.ask_price > asks.rbegin()->first) << "row " << i;
            ++entering;
          }
          if (b != bids.end()) {
            ASSERT_EQ(n.bid_price, b->first) << "row " << i << " bid level " << l;
            ASSERT_EQ(n.bid_size, b->second) << "row " << i << " bid level " << l;
            ++b;
          } else if (n.bid_size != 0) {
            ASSERT_TRUE(bids.empty() || n.bid_price < bids.rbegin()->first) << "row " << i;
            ++entering;
          }
        }
      }
      // Levels entering from beyond N happen (removals at the N shown levels of a deeper book).
      EXPECT_GT(entering, 0u);
      // The orderbook CSV (which formats only the levels that changed) is each row formatted on its own.
      const std::string path = ::testing::TempDir() + "lobster_generated_orderbook.csv";
      {
        itch5::io::output_file f(path);
        lobster_orderbook_row shape;
        shape.levels = levels;
        itch5::tables::lobster_csv_sink<itch5::tables::lobster_orderbook_table> csv(f, shape);
        csv.write(got.orderbook.got);
        csv.finish();
        f.commit();
      }
      std::string expected;
      for (const auto& row : got.orderbook.got) {
        char line[4096];
        itch5::tables::lobster_csv_formatter fmt(line);
        itch5::tables::lobster_orderbook_table::visit(fmt, row);
        expected.append(line, fmt.finish());
      }
      std::ifstream written(path);
      std::stringstream text_written;
      text_written << written.rdbuf();
      EXPECT_TRUE(text_written.str() == expected)
          << "the orderbook CSV differs from the rows formatted one by one";
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// CSV, file names, dates.

TEST(LobsterCsv, NoHeaderAndTimesInSecondsWithNineDecimals) {
  char buf[64];
  EXPECT_EQ(std::string(buf, itch5::tables::format_lobster_time(buf, 34'200'000'241'945)), "34200.000241945");
  EXPECT_EQ(std::string(buf, itch5::tables::format_lobster_time(buf, 0)), "0.000000000");
  EXPECT_EQ(std::string(buf, itch5::tables::format_lobster_time(buf, 57'599'999'999'999)), "57599.999999999");
  const std::string path = ::testing::TempDir() + "lobster_csv_test.csv";
  {
    itch5::io::output_file f(path);
    itch5::tables::lobster_orderbook_row shape;
    shape.levels = 2;
    itch5::tables::lobster_csv_sink<itch5::tables::lobster_orderbook_table> book(f, shape);
    lobster_orderbook_row r = shape;
    r.level[0] = {1010000, 120, 1000000, 30};
    book.write(std::span<const lobster_orderbook_row>(&r, 1));
    book.finish();
    f.commit();
  }
  std::FILE* in = std::fopen(path.c_str(), "r");
  ASSERT_NE(in, nullptr);
  char line[256] = {};
  ASSERT_NE(std::fgets(line, sizeof line, in), nullptr);
  std::fclose(in);
  EXPECT_EQ(std::string(line), "1010000,120,1000000,30,9999999999,0,-9999999999,0\n");
  // The message table's columns, as docs/formats.md lists them.
  const auto cols = itch5::tables::schema_of<itch5::tables::lobster_message_table>();
  ASSERT_EQ(cols.size(), 6u);
  EXPECT_EQ(cols[0].name, "time");
  EXPECT_EQ(cols[5].name, "direction");
  lobster_orderbook_row three;
  three.levels = 3;
  const auto book_cols = itch5::tables::schema_of<itch5::tables::lobster_orderbook_table>(three);
  ASSERT_EQ(book_cols.size(), 12u);
  EXPECT_EQ(book_cols[0].name, "ask_price_01");
  EXPECT_EQ(book_cols[11].name, "bid_size_03");
}

TEST(LobsterCsv, DocsListTheColumns) {
  std::ifstream in(std::string(ITCH5_DATA_DIR) + "/../docs/formats.md");
  std::stringstream docs;
  docs << in.rdbuf();
  const std::string md = docs.str();
  lobster_orderbook_row one;
  one.levels = 1;
  const std::string messages =
      itch5::tables::markdown_columns(itch5::tables::schema_of<itch5::tables::lobster_message_table>());
  const std::string book =
      itch5::tables::markdown_columns(itch5::tables::schema_of<itch5::tables::lobster_orderbook_table>(one));
  EXPECT_NE(md.find(messages), std::string::npos) << "docs/formats.md, LOBSTER files, should list:\n"
                                                  << messages;
  EXPECT_NE(md.find(book), std::string::npos) << "docs/formats.md, LOBSTER files, should list:\n" << book;
}

TEST(LobsterNames, FileNamesAsLobsterWritesThem) {
  const year_month_day d{std::chrono::year(2012), std::chrono::month(6), std::chrono::day(21)};
  EXPECT_EQ(itch5::inside::lobster_file_name("AAPL", d, itch5::inside::lobster_default_from,
                                             itch5::inside::lobster_default_to, "message", 10),
            "AAPL_2012-06-21_34200000_57600000_message_10.csv");
  EXPECT_EQ(itch5::inside::lobster_file_name("MSFT", d, std::chrono::hours(10),
                                             std::chrono::minutes(630) + std::chrono::microseconds(1500),
                                             "orderbook", 1),
            "MSFT_2012-06-21_36000000_37800001_orderbook_1.csv");
}

TEST(LobsterNames, DatesFromNasdaqFileNames) {
  const auto ymd = [](int y, unsigned m, unsigned d) {
    return year_month_day{std::chrono::year(y), std::chrono::month(m), std::chrono::day(d)};
  };
  using itch5::inside::date_from_file_name;
  EXPECT_EQ(date_from_file_name("01302019.NASDAQ_ITCH50.gz"), ymd(2019, 1, 30));
  EXPECT_EQ(date_from_file_name("/data/itch/12302019.NASDAQ_ITCH50"), ymd(2019, 12, 30));
  EXPECT_EQ(date_from_file_name("03272019.BX_ITCH_50.gz"), ymd(2019, 3, 27));
  EXPECT_EQ(date_from_file_name("08302019.PSX_ITCH_50.gz"), ymd(2019, 8, 30));
  EXPECT_EQ(date_from_file_name("S013019-v50.txt.gz"), ymd(2019, 1, 30));
  EXPECT_EQ(date_from_file_name("dir.v2/S022920-v50.txt"), ymd(2020, 2, 29));  // a leap day
  EXPECT_EQ(date_from_file_name("S022919-v50.txt"), std::nullopt);             // not one
  EXPECT_EQ(date_from_file_name("13302019.NASDAQ_ITCH50.gz"), std::nullopt);   // month 13
  EXPECT_EQ(date_from_file_name("01322019.NASDAQ_ITCH50.gz"), std::nullopt);   // day 32
  EXPECT_EQ(date_from_file_name("01302019.csv"), std::nullopt);
  EXPECT_EQ(date_from_file_name("day.itch"), std::nullopt);
  EXPECT_EQ(date_from_file_name("S0130-v50.txt"), std::nullopt);
  EXPECT_EQ(date_from_file_name("01302019.NASDAQ_ITCH50.gz/other"),
            std::nullopt);  // the directory is not read
  EXPECT_EQ(itch5::inside::parse_iso_date("2019-01-30"), ymd(2019, 1, 30));
  EXPECT_EQ(itch5::inside::parse_iso_date("2019-02-29"), std::nullopt);
  EXPECT_EQ(itch5::inside::parse_iso_date("2019-1-30"), std::nullopt);
  EXPECT_EQ(itch5::inside::parse_iso_date("30.01.2019"), std::nullopt);
}

}  // namespace
