// The N-level book table (--book-levels): its rows against a naive full-depth reference book (the tests'
// shared reference_book: a std::map per side, price -> shares and orders, the top N recomputed whole after
// every applied message), on
// hand-made streams checked by hand, random hostile streams and generated days, for every book family; with
// N = 1 the rows are the inside file's changes; with a grid (every) the rows are the reference's books
// sampled at the grid times.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/frame_writer.hpp>
#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/synth/generator.hpp>

#include <itch5/book/book_types.hpp>
#include <itch5/inside/run_inside.hpp>
#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/schema.hpp>

#include <itch5_test/book_rules.hpp>
#include <itch5_test/reference_book.hpp>
#include <itch5_test/support.hpp>

#include "../book/message_builders.hpp"
#include "../book/random_stream.hpp"

namespace {

using itch5::tables::book_level;
using itch5::tables::levels_row;
using itch5::tables::levels_table;

// A row as the test compares it: its values, only the N levels of its shape.
struct plain_row {
  std::int64_t timestamp = 0;
  std::uint16_t locate = 0;
  std::string symbol;
  std::vector<book_level> bid, ask;  // N each, {0, 0, 0} for no level
  friend bool operator==(const plain_row&, const plain_row&) = default;
};

std::ostream& operator<<(std::ostream& os, const plain_row& r) {
  os << r.timestamp << " " << r.locate << " " << r.symbol << " bid";
  for (const auto& l : r.bid) os << " " << l.price.units() << "x" << l.shares << "/" << l.count;
  os << " ask";
  for (const auto& l : r.ask) os << " " << l.price.units() << "x" << l.shares << "/" << l.count;
  return os;
}

plain_row plain(const levels_row& r) {
  plain_row p{r.timestamp.count(), r.locate, std::string(r.symbol.str()), {}, {}};
  p.bid.assign(r.bid.begin(), r.bid.begin() + r.levels);
  p.ask.assign(r.ask.begin(), r.ask.begin() + r.levels);
  return p;
}

class rows_sink final : public itch5::tables::table_sink<levels_table> {
 public:
  void write(std::span<const levels_row> rows) override {
    EXPECT_FALSE(finished);
    for (const auto& r : rows) got.push_back(plain(r));
  }
  void finish() override { finished = true; }
  std::vector<plain_row> got;
  bool finished = false;
};

class lines_sink final : public itch5::inside::line_sink {
 public:
  void write(std::string_view lines) override { text.append(lines); }
  std::string text;
};

struct run_options {
  unsigned levels = 10;
  std::int64_t every = 0;
  std::int64_t from = 0;
  std::int64_t to = std::numeric_limits<std::int64_t>::max();
  std::vector<std::string> symbols;
};

struct run_output {
  std::vector<plain_row> rows;
  std::string lines;
};

run_output run_levels(std::span<const std::byte> bytes, const run_options& o,
                      const std::string& book = "array", const itch5::book::book_config& config = {}) {
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, true, 4}));
  itch5::inside::inside_options opt;
  opt.book = book;
  opt.books = config;
  opt.symbols = o.symbols;
  opt.from = itch5::timestamp(o.from);
  opt.to = itch5::timestamp(o.to);
  rows_sink rows;
  opt.tables.book_levels = &rows;
  opt.tables.levels = o.levels;
  opt.tables.every = itch5::timestamp(o.every);
  lines_sink lines;
  const itch5::inside::inside_result r = itch5::inside::run_inside(reader, opt, lines);
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  EXPECT_TRUE(rows.finished);
  return {std::move(rows.got), std::move(lines.text)};
}

// The reference: the shared reference book of the tests (itch5_test/reference_book.hpp: orders by
// reference number, and per locate a std::map per side of price -> shares and orders), changed by each
// message as the engine's rules for inconsistent input say (itch5_test/book_rules.hpp). After each applied
// message of a wanted locate, the locate's top N of both sides is computed from the maps whole and compared
// with its previous one.
class reference {
 public:
  explicit reference(const run_options& o) : o_(o) {}

  void operator()(const itch5::stock_directory& m) {
    symbols_[m.header.stock_locate] = std::string(m.stock.str());
  }
  void operator()(const itch5::add_order& m) { add(m); }
  void operator()(const itch5::add_order_mpid& m) { add(m); }
  /// E/C/X/D/U, and any other message (which changes nothing).
  template <class M>
  void operator()(const M& m) {
    const itch5_test::book_change c = itch5_test::apply_book_message(book_, m);
    if (c.applied) applied(m.header, c.locate);
  }

  /// The rows expected, in order.
  std::vector<plain_row> rows;

 private:
  bool wanted(std::uint16_t locate) const {
    if (o_.symbols.empty()) return true;
    const auto it = symbols_.find(locate);
    if (it == symbols_.end()) return false;
    for (const auto& s : o_.symbols)
      if (s == it->second) return true;
    return false;
  }

  // An add with valid fields names its locate when no directory message did.
  template <class A>
  void add(const A& m) {
    const itch5_test::book_change c = itch5_test::apply_book_message(book_, m);
    if (!itch5_test::add_fields_valid(c)) return;
    if (symbols_.count(m.header.stock_locate) == 0)
      symbols_[m.header.stock_locate] = std::string(m.stock.str());
    if (c.applied) applied(m.header, m.header.stock_locate);
  }

  template <class Side>
  std::vector<book_level> top(const Side& side) const {
    std::vector<book_level> v(o_.levels);
    std::size_t i = 0;
    for (auto it = side.begin(); it != side.end() && i < o_.levels; ++it, ++i)
      v[i] = {itch5::price4(it->first), it->second.orders, it->second.shares};
    return v;
  }

  plain_row snapshot(std::int64_t ts, std::uint16_t locate) {
    const itch5_test::reference_book::levels& b = book_.book(locate);
    return {ts, locate, symbols_[locate], top(b.bids), top(b.offers)};
  }

  // After an applied message of `locate`: the grid rows it passes (every), then its change row.
  void applied(const itch5::message_header& h, std::uint16_t locate) {
    if (!wanted(locate)) return;
    const std::int64_t ts = h.timestamp.count();
    if (o_.every > 0) {
      // The grid times up to ts, with the books as they were before this message: the message is undone
      // for the snapshot by taking the locate's previous top N.
      if (!next_grid_) next_grid_ = (std::max<std::int64_t>(o_.from, 0) + o_.every - 1) / o_.every * o_.every;
      while (*next_grid_ <= ts && *next_grid_ < o_.to) {
        for (const std::uint16_t l : followed_) {
          plain_row r = last_.at(l);
          r.timestamp = *next_grid_;
          r.symbol = symbols_[l];
          rows.push_back(r);
        }
        *next_grid_ += o_.every;
      }
    }
    followed_.insert(locate);
    const plain_row now = snapshot(ts, locate);
    auto [it, first] = last_.try_emplace(locate, now);
    const bool changed = first ? (now.bid != top(itch5_test::reference_book::levels{}.bids) ||
                                  now.ask != top(itch5_test::reference_book::levels{}.offers))
                               : (now.bid != it->second.bid || now.ask != it->second.ask);
    it->second = now;
    if (changed && o_.every == 0 && ts >= o_.from && ts < o_.to) rows.push_back(now);
  }

  run_options o_;
  itch5_test::reference_book book_;
  std::unordered_map<std::uint16_t, std::string> symbols_;
  std::map<std::uint16_t, plain_row> last_;  // per locate followed: its last top N
  std::set<std::uint16_t> followed_;
  std::optional<std::int64_t> next_grid_;
};

std::vector<plain_row> reference_rows(std::span<const std::byte> bytes, const run_options& o) {
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(bytes), {1 << 16, false, 3}));
  reference ref(o);
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) itch5::dispatch_unchecked(msg.data(), ref);
  return std::move(ref.rows);
}

void expect_same_rows(const std::vector<plain_row>& got, const std::vector<plain_row>& expected,
                      const std::string& what) {
  const std::size_t n = std::min(got.size(), expected.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!(got[i] == expected[i])) {
      ADD_FAILURE() << what << ": row " << i << " differs\n  got      " << got[i] << "\n  expected "
                    << expected[i];
      return;
    }
  }
  EXPECT_EQ(got.size(), expected.size()) << what << ": row counts differ";
}

std::vector<std::byte> generated_day(std::uint64_t seed, std::uint64_t messages) {
  itch5::synth::generator_config cfg;
  cfg.messages = messages;
  cfg.seed = seed;
  const itch5::synth::generator gen(cfg);
  std::vector<std::byte> day;
  const itch5::synth::generator::sink to = [&](std::span<const std::byte> b) {
    day.insert(day.end(), b.begin(), b.end());
  };
  (void)gen.run(to);
  return day;
}

// --- hand-made streams, rows checked by hand ---

book_level lv(std::uint32_t px, std::uint64_t sz, std::uint32_t ct) { return {itch5::price4(px), ct, sz}; }
const book_level no_level{};

TEST(Levels, HandMadeStreamRowsCheckedByHand) {
  using namespace testing_messages;
  itch5::frame_writer w;
  w.write(directory(1, "AAA"));
  w.write(add(100, 1, 1, 'B', 100, 100000, "AAA"));  // row: bid 10.0000 x100/1
  w.write(add(200, 1, 2, 'B', 50, 100000, "AAA"));   // row: bid 10.0000 x150/2
  w.write(add(300, 1, 3, 'B', 70, 99900, "AAA"));    // row: second bid level
  w.write(add(400, 1, 4, 'B', 10, 99800, "AAA"));    // third bid level: deeper than N = 2, no row
  w.write(add(500, 1, 5, 'S', 30, 100100, "AAA"));   // row: ask
  w.write(exec(600, 1, 2, 20));                      // row: bid 10.0000 x130/2
  w.write(replace(700, 1, 5, 6, 30, 100100));        // the same order again: no row
  w.write(cancel(800, 1, 4, 5));                     // behind the top 2: no row
  w.write(del(900, 1, 3));                           // row: 9.9800 x5/1 comes up to level 01
  w.write(replace(1000, 1, 1, 7, 100, 99800));       // row: 10.0000 x30/1, 9.9800 x105/2
  w.write(exec(1100, 1, 2, 30));                     // row: order 2 gone, 9.9800 is the best
  const auto b = w.bytes();
  const std::vector<std::byte> bytes(b.begin(), b.end());
  run_options o;
  o.levels = 2;
  const std::vector<plain_row> expected = {
      {100, 1, "AAA", {lv(100000, 100, 1), no_level}, {no_level, no_level}},
      {200, 1, "AAA", {lv(100000, 150, 2), no_level}, {no_level, no_level}},
      {300, 1, "AAA", {lv(100000, 150, 2), lv(99900, 70, 1)}, {no_level, no_level}},
      {500, 1, "AAA", {lv(100000, 150, 2), lv(99900, 70, 1)}, {lv(100100, 30, 1), no_level}},
      {600, 1, "AAA", {lv(100000, 130, 2), lv(99900, 70, 1)}, {lv(100100, 30, 1), no_level}},
      {900, 1, "AAA", {lv(100000, 130, 2), lv(99800, 5, 1)}, {lv(100100, 30, 1), no_level}},
      {1000, 1, "AAA", {lv(100000, 30, 1), lv(99800, 105, 2)}, {lv(100100, 30, 1), no_level}},
      {1100, 1, "AAA", {lv(99800, 105, 2), no_level}, {lv(100100, 30, 1), no_level}},
  };
  for (const std::string& book : itch5::book::book_type_names()) {
    expect_same_rows(run_levels(bytes, o, book).rows, expected, book);
  }
  expect_same_rows(reference_rows(bytes, o), expected, "reference");  // the reference agrees with the hand
}

TEST(Levels, HandMadeGridRowsCheckedByHand) {
  using namespace testing_messages;
  itch5::frame_writer w;
  w.write(directory(1, "AAA"));
  w.write(directory(2, "BBB"));
  w.write(add(1500, 2, 1, 'S', 10, 200000, "BBB"));
  w.write(add(2000, 1, 2, 'B', 100, 100000, "AAA"));  // at a grid time: the row at 2000 is before it
  w.write(add(4500, 1, 3, 'B', 5, 100000, "AAA"));    // rows at 3000 and 4000 first
  w.write(del(9999, 2, 1));                           // past --to (5000): no row at 5000
  const auto b = w.bytes();
  const std::vector<std::byte> bytes(b.begin(), b.end());
  run_options o;
  o.levels = 1;
  o.every = 1000;
  o.from = 1800;  // grid times 2000, 3000, 4000 (to 5000 excluded)
  o.to = 5000;
  const std::vector<plain_row> expected = {
      {2000, 2, "BBB", {no_level}, {lv(200000, 10, 1)}}, {3000, 1, "AAA", {lv(100000, 100, 1)}, {no_level}},
      {3000, 2, "BBB", {no_level}, {lv(200000, 10, 1)}}, {4000, 1, "AAA", {lv(100000, 100, 1)}, {no_level}},
      {4000, 2, "BBB", {no_level}, {lv(200000, 10, 1)}},
  };
  for (const std::string& book : itch5::book::book_type_names()) {
    expect_same_rows(run_levels(bytes, o, book).rows, expected, book);
  }
  expect_same_rows(reference_rows(bytes, o), expected, "reference");
}

// --- against the reference ---

TEST(Levels, RandomStreamsMatchTheReferenceAtEveryRow) {
  for (const std::uint64_t seed : {1u, 2u}) {
    for (const bool anomalies : {false, true}) {
      const auto bytes = testing_messages::random_stream(seed, 50'000, anomalies);
      for (const unsigned n : {1u, 3u, 10u, 50u}) {
        run_options o;
        o.levels = n;
        const std::vector<plain_row> expected = reference_rows(bytes, o);
        ASSERT_GT(expected.size(), 250u) << "seed " << seed << " N " << n;
        for (const std::string& book : itch5::book::book_type_names()) {
          expect_same_rows(run_levels(bytes, o, book, itch5::book::book_config{64}).rows, expected,
                           "seed " + std::to_string(seed) + (anomalies ? " hostile" : "") + " N " +
                               std::to_string(n) + " book " + book);
        }
      }
    }
  }
}

TEST(Levels, TimeRangeAndSymbolsApplyToTheRows) {
  const auto bytes = testing_messages::random_stream(7, 40'000, false);
  run_options o;
  o.levels = 3;
  o.from = 34'200'000'000'000 + 5'000'000;  // the stream starts at 09:30 and lasts ~40 ms
  o.to = 34'200'000'000'000 + 25'000'000;
  o.symbols = {"ONE", "BIG"};
  const std::vector<plain_row> expected = reference_rows(bytes, o);
  ASSERT_GT(expected.size(), 100u);
  expect_same_rows(run_levels(bytes, o).rows, expected, "from/to/symbols");
}

TEST(Levels, GeneratedDaysMatchTheReferenceAtEveryRow) {
  for (const std::uint64_t seed : {1u, 5u}) {
    const auto bytes = generated_day(seed, 60'000);
    for (const unsigned n : {1u, 10u, 50u}) {
      run_options o;
      o.levels = n;
      const std::vector<plain_row> expected = reference_rows(bytes, o);
      ASSERT_GT(expected.size(), 2'000u);
      expect_same_rows(run_levels(bytes, o).rows, expected,
                       "seed " + std::to_string(seed) + " N " + std::to_string(n));
    }
  }
}

TEST(Levels, GridRowsAreTheReferenceSampledAtGridTimes) {
  const auto random = testing_messages::random_stream(11, 40'000, true);
  const auto day = generated_day(2, 100'000);
  struct grid_case {
    const std::vector<std::byte>* bytes;
    std::int64_t every, from, to;
    unsigned levels;
  };
  const std::int64_t nine_thirty = 34'200'000'000'000;
  for (const grid_case& c : {grid_case{&random, 1'000'000, 0, std::numeric_limits<std::int64_t>::max(), 5},
                             grid_case{&random, 77'777, nine_thirty + 3'000'001, nine_thirty + 9'000'000, 2},
                             grid_case{&random, 1'000, nine_thirty + 1'000'000, nine_thirty + 4'000'000, 10},
                             grid_case{&day, 60'000'000'000, 0, std::numeric_limits<std::int64_t>::max(), 10},
                             grid_case{&day, 1'000'000'000, 36'000'000'000'000, 36'300'000'000'000, 3}}) {
    run_options o;
    o.every = c.every;
    o.from = c.from;
    o.to = c.to;
    o.levels = c.levels;
    const std::vector<plain_row> expected = reference_rows(*c.bytes, o);
    ASSERT_GT(expected.size(), 100u) << "every " << c.every;
    expect_same_rows(run_levels(*c.bytes, o).rows, expected, "every " + std::to_string(c.every));
  }
}

// --- N = 1 is the inside file ---

TEST(Levels, OneLevelRowsAreTheInsideFilesChanges) {
  const std::vector<std::byte> bytes =
      itch5_test::inflate_prefix(itch5_test::read_file(itch5_test::data_path("synthetic-200k.itch.gz")));
  run_options o;
  o.levels = 1;
  const run_output out = run_levels(bytes, o);
  std::istringstream lines(out.lines);
  std::size_t i = 0;
  std::int64_t ts;
  std::uint32_t locate, bid_px, ask_px;
  std::uint64_t bid_sz, ask_sz;
  std::string symbol;
  while (lines >> ts >> locate >> symbol >> bid_px >> bid_sz >> ask_px >> ask_sz) {
    ASSERT_LT(i, out.rows.size()) << "more inside lines than rows";
    const plain_row& r = out.rows[i++];
    const std::string line = std::to_string(ts) + " " + std::to_string(locate) + " " + symbol + " " +
                             std::to_string(bid_px) + " " + std::to_string(bid_sz) + " " +
                             std::to_string(ask_px) + " " + std::to_string(ask_sz);
    ASSERT_EQ(r.timestamp, ts) << line;
    ASSERT_EQ(r.locate, locate) << line;
    ASSERT_EQ(r.symbol, symbol) << line;
    ASSERT_EQ(r.bid[0].shares == 0 ? 0u : r.bid[0].price.units(), bid_px) << line;
    ASSERT_EQ(r.bid[0].shares, bid_sz) << line;
    ASSERT_EQ(r.ask[0].shares == 0 ? 2'000'000'000u : r.ask[0].price.units(), ask_px) << line;
    ASSERT_EQ(r.ask[0].shares, ask_sz) << line;
    ASSERT_EQ(r.bid[0].shares == 0, r.bid[0].count == 0) << line;
    ASSERT_EQ(r.ask[0].shares == 0, r.ask[0].count == 0) << line;
  }
  EXPECT_GT(i, 10'000u);
  EXPECT_EQ(i, out.rows.size()) << "as many rows as inside lines";
}

// --- the table's shape ---

TEST(Levels, ColumnsFollowTheRowsN) {
  levels_row two;
  two.levels = 2;
  EXPECT_EQ(itch5::tables::csv_header(itch5::tables::schema_of<levels_table>(two)),
            "timestamp,locate,symbol,bid_px_00,bid_sz_00,bid_ct_00,ask_px_00,ask_sz_00,ask_ct_00,"
            "bid_px_01,bid_sz_01,bid_ct_01,ask_px_01,ask_sz_01,ask_ct_01\n");
  levels_row fifty;
  fifty.levels = itch5::tables::max_levels;
  const auto cols = itch5::tables::schema_of<levels_table>(fifty);
  ASSERT_EQ(cols.size(), 3u + 6u * 50u);
  EXPECT_EQ(cols.back().name, "ask_ct_49");
  EXPECT_TRUE(cols.back().nullable);
  EXPECT_EQ(cols[3].type, itch5::tables::column_type::price4);

  two.timestamp = itch5::timestamp(34'200'000'000'000);
  two.locate = 7;
  two.symbol = itch5::stock_symbol::from("AAPL");
  two.bid[0] = lv(1'234'500, 300, 2);
  two.ask[0] = lv(1'234'600, 100, 1);
  two.ask[1] = lv(1'234'700, 4'000'000'000'000ull, 4'000'000'000u);
  std::vector<char> buf(itch5::tables::csv_row_bound<levels_table>(two));
  const char* end = itch5::tables::format_csv_row<levels_table>(buf.data(), two);
  EXPECT_EQ(std::string(static_cast<const char*>(buf.data()), end),
            "34200000000000,7,AAPL,1234500,300,2,1234600,100,1,,,,1234700,4000000000000,4000000000\n");
}

TEST(Levels, OptionsOutOfRangeAreRefused) {
  const auto bytes = testing_messages::random_stream(1, 100, false);
  for (const unsigned n : {0u, 51u}) {
    run_options o;
    o.levels = n;
    EXPECT_THROW(run_levels(bytes, o), std::invalid_argument) << n;
  }
  run_options o;
  o.every = 86'400'000'000'001;
  EXPECT_THROW(run_levels(bytes, o), std::invalid_argument);
}

}  // namespace
