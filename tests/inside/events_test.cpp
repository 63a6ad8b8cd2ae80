// The market-state event tables through the whole run (run_inside: reader, engine, observer, the events
// part): a hand-made stream with every kind (R S H Y J V W K I N h O L), built byte by byte by the test
// support's builder (not the library's encoder), and each table's CSV checked field by field against the
// values put into those bytes; the meanings are typed here from the ITCH 5.0 specification. Then --symbols,
// the time range, kinds left off, and the real 2019 directory slice (one row per R message).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>

#include <itch5/inside/run_inside.hpp>
#include <itch5/tables/csv_row.hpp>
#include <itch5/tables/event_sinks.hpp>

#include <itch5_test/support.hpp>

namespace {

using itch5_test::builder;
using itch5_test::bytes;
using rows = std::vector<std::vector<std::string>>;

class null_lines final : public itch5::inside::line_sink {
 public:
  void write(std::string_view) override {}
};

// A table's rows as CSV lines in a string (the library's row formatter), and whether finish() came.
template <class T>
class string_csv_sink final : public itch5::tables::table_sink<T> {
 public:
  void write(std::span<const typename T::row> rs) override {
    for (const auto& r : rs) {
      std::vector<char> buf(itch5::tables::csv_row_bound<T>(r));
      text.append(buf.data(), itch5::tables::format_csv_row<T>(buf.data(), r));
    }
  }
  void finish() override { finished = true; }
  std::string text;
  bool finished = false;
};

// CSV fields of each line, quotes undone (RFC 4180), written here independently of the formatter.
rows parse_csv(const std::string& text) {
  rows out;
  std::vector<std::string> fields;
  std::string f;
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        f += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        f += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(f);
      f.clear();
    } else if (c == '\n') {
      fields.push_back(f);
      f.clear();
      out.push_back(fields);
      fields.clear();
    } else {
      f += c;
    }
  }
  EXPECT_TRUE(f.empty() && fields.empty()) << "a last line without its newline";
  return out;
}

// Every kind's sink, and the event_sinks pointing at them.
struct all_sinks {
  std::tuple<string_csv_sink<itch5::tables::events::stock_directory_table>,
             string_csv_sink<itch5::tables::events::system_events_table>,
             string_csv_sink<itch5::tables::events::trading_actions_table>,
             string_csv_sink<itch5::tables::events::reg_sho_table>,
             string_csv_sink<itch5::tables::events::luld_collars_table>,
             string_csv_sink<itch5::tables::events::mwcb_levels_table>,
             string_csv_sink<itch5::tables::events::mwcb_status_table>,
             string_csv_sink<itch5::tables::events::ipo_quoting_table>,
             string_csv_sink<itch5::tables::events::noii_table>,
             string_csv_sink<itch5::tables::events::rpii_table>,
             string_csv_sink<itch5::tables::events::operational_halts_table>,
             string_csv_sink<itch5::tables::events::dlcr_table>,
             string_csv_sink<itch5::tables::events::participant_positions_table>>
      each;
  itch5::tables::event_sinks sinks;

  // Every kind on, or only those named.
  explicit all_sinks(const std::vector<std::string_view>& only = {}) {
    itch5::tables::for_each_event_table([&]<class T>(std::type_identity<T>, auto member) {
      bool on = only.empty();
      for (auto k : only) on = on || k == T::name;
      if (on) sinks.*member = &std::get<string_csv_sink<T>>(each);
    });
  }
  template <class T>
  rows of() {
    return parse_csv(std::get<string_csv_sink<T>>(each).text);
  }
};

// The stream: two symbols (AAPL at locate 1, QQQ at locate 2), one or two messages of every kind, the
// market-wide ones at locate 0. Timestamps rise by one second from 03:00.
constexpr std::uint64_t t0 = 10'800'000'000'000;
constexpr std::uint64_t sec = 1'000'000'000;

bytes event_stream() {
  builder b;
  auto frame = [&](const builder& m) { b.frame(m.get()); };
  std::uint64_t t = t0;
  frame(builder().header('S', 0, 0, t).ch('O'));
  frame(builder()
            .header('R', 1, 0, t += sec)
            .alpha("AAPL", 8)
            .ch('Q')
            .ch('N')
            .u32(100)
            .ch('N')
            .ch('C')
            .alpha("Z", 2)
            .ch('P')
            .ch('N')
            .ch(' ')
            .ch('1')
            .ch('N')
            .u32(0)
            .ch('N'));
  frame(builder()
            .header('R', 2, 0, t += sec)
            .alpha("QQQ", 8)
            .ch('P')
            .ch('K')
            .u32(50)
            .ch('Y')
            .ch('Q')
            .alpha("IX", 2)
            .ch('T')
            .ch('Y')
            .ch('Y')
            .ch('2')
            .ch('Y')
            .u32(3)
            .ch('Y'));
  frame(builder().header('H', 1, 0, t += sec).alpha("AAPL", 8).ch('H').ch(' ').alpha("LUDP", 4));
  frame(builder().header('H', 2, 0, t += sec).alpha("QQQ", 8).ch('T').ch(' ').alpha("", 4));
  frame(builder().header('Y', 2, 0, t += sec).alpha("QQQ", 8).ch('1'));
  frame(builder().header('L', 1, 0, t += sec).alpha("GSCO", 4).alpha("AAPL", 8).ch('Y').ch('N').ch('A'));
  frame(builder()
            .header('V', 0, 0, t += sec)
            .u64(123'456'789'012'345'678ull)
            .u64(200'000'000'000ull)
            .u64(18'446'744'073'709'551'615ull));
  frame(builder().header('W', 0, 0, t += sec).ch('2'));
  frame(builder().header('K', 2, 0, t += sec).alpha("QQQ", 8).u32(34'200).ch('A').u32(250'000));
  frame(builder()
            .header('J', 1, 0, t += sec)
            .alpha("AAPL", 8)
            .u32(1'500'000)
            .u32(1'650'000)
            .u32(1'350'000)
            .u32(2));
  frame(builder().header('h', 1, 0, t += sec).alpha("AAPL", 8).ch('B').ch('H'));
  frame(builder()
            .header('I', 1, 0, t += sec)
            .u64(1'000'000)
            .u64(2'500)
            .ch('B')
            .alpha("AAPL", 8)
            .u32(1'501'000)
            .u32(1'500'500)
            .u32(1'500'000)
            .ch('C')
            .ch(' '));
  frame(builder().header('N', 2, 0, t += sec).alpha("QQQ", 8).ch('A'));
  frame(builder()
            .header('O', 1, 0, t += sec)
            .alpha("AAPL", 8)
            .ch('Y')
            .u32(1'000'000)
            .u32(9'000'000)
            .u32(1'700'000)
            .u64(34'260'000'000'000)
            .u32(1'600'000)
            .u32(1'800'000));
  frame(builder().header('S', 0, 0, t += sec).ch('C'));
  return b.get();
}

std::string ts(int seconds_after_t0) {
  return std::to_string(t0 + static_cast<std::uint64_t>(seconds_after_t0) * sec);
}

itch5::inside::inside_result run(const bytes& data, const itch5::tables::event_sinks& sinks,
                                 itch5::inside::inside_options opt = {}) {
  itch5::message_reader reader(
      itch5::io::make_block_source(itch5::io::memory_input(data), {1 << 16, true, 4}));
  opt.tables.events = &sinks;
  null_lines lines;
  itch5::inside::inside_result r = itch5::inside::run_inside(reader, opt, lines);
  EXPECT_EQ(r.status, itch5::read_status::end_of_input);
  return r;
}

using namespace itch5::tables::events;

TEST(EventTables, EveryKindFieldByFieldAsBuilt) {
  all_sinks s;
  run(event_stream(), s.sinks);
  itch5::tables::for_each_event_table([&]<class T>(std::type_identity<T>, auto) {
    EXPECT_TRUE(std::get<string_csv_sink<T>>(s.each).finished) << T::name;
  });
  EXPECT_EQ(s.of<system_events_table>(),
            (rows{{ts(0), "0", "O", "start of messages"}, {ts(15), "0", "C", "end of messages"}}));
  EXPECT_EQ(s.of<stock_directory_table>(), (rows{{ts(1),
                                                  "1",
                                                  "AAPL",
                                                  "Q",
                                                  "Nasdaq Global Select Market",
                                                  "N",
                                                  "normal: not deficient, delinquent or bankrupt",
                                                  "100",
                                                  "N",
                                                  "odd and mixed lots allowed",
                                                  "C",
                                                  "common stock",
                                                  "Z",
                                                  "not applicable",
                                                  "P",
                                                  "live/production",
                                                  "N",
                                                  "not restricted",
                                                  "",
                                                  "not available",
                                                  "1",
                                                  "Tier 1 NMS stocks and select ETPs",
                                                  "N",
                                                  "not an exchange traded product",
                                                  "0",
                                                  "N",
                                                  "not an inverse ETP"},
                                                 {ts(2),
                                                  "2",
                                                  "QQQ",
                                                  "P",
                                                  "NYSE Arca",
                                                  "K",
                                                  "deficient, delinquent and bankrupt",
                                                  "50",
                                                  "Y",
                                                  "only round lots accepted",
                                                  "Q",
                                                  "other securities",
                                                  "IX",
                                                  "index-linked exchangeable notes",
                                                  "T",
                                                  "test",
                                                  "Y",
                                                  "restricted",
                                                  "Y",
                                                  "set up as a new IPO security",
                                                  "2",
                                                  "Tier 2 NMS stocks",
                                                  "Y",
                                                  "exchange traded product",
                                                  "3",
                                                  "Y",
                                                  "inverse ETP"}}));
  EXPECT_EQ(s.of<trading_actions_table>(),
            (rows{{ts(3), "1", "AAPL", "H", "halted across all U.S. equity markets", "LUDP",
                   "volatility trading pause"},
                  {ts(4), "2", "QQQ", "T", "trading on Nasdaq", "", "reason not available"}}));
  EXPECT_EQ(
      s.of<reg_sho_table>(),
      (rows{{ts(5), "2", "QQQ", "1", "short sale price test restriction in effect (intra-day price drop)"}}));
  EXPECT_EQ(s.of<participant_positions_table>(),
            (rows{{ts(6), "1", "AAPL", "GSCO", "Y", "primary market maker", "N", "normal", "A", "active"}}));
  EXPECT_EQ(s.of<mwcb_levels_table>(),
            (rows{{ts(7), "0", "123456789012345678", "200000000000", "18446744073709551615"}}));
  EXPECT_EQ(s.of<mwcb_status_table>(), (rows{{ts(8), "0", "2", "level 2"}}));
  EXPECT_EQ(
      s.of<ipo_quoting_table>(),
      (rows{{ts(9), "2", "QQQ", "34200000000000", "A", "anticipated quotation release time", "250000"}}));
  EXPECT_EQ(s.of<luld_collars_table>(), (rows{{ts(10), "1", "AAPL", "1500000", "1650000", "1350000", "2"}}));
  EXPECT_EQ(s.of<operational_halts_table>(),
            (rows{{ts(11), "1", "AAPL", "B", "BX", "H", "operationally halted on the market"}}));
  EXPECT_EQ(s.of<noii_table>(),
            (rows{{ts(12), "1", "AAPL", "1000000", "2500", "B", "buy imbalance", "1501000", "1500500",
                   "1500000", "C", "Nasdaq closing cross", "", "cannot be calculated"}}));
  EXPECT_EQ(s.of<rpii_table>(), (rows{{ts(13), "2", "QQQ", "A", "RPI orders available on both sides"}}));
  EXPECT_EQ(s.of<dlcr_table>(),
            (rows{{ts(14), "1", "AAPL", "Y", "eligible to be released for trading", "1000000", "9000000",
                   "1700000", "34260000000000", "1600000", "1800000"}}));
}

// --symbols: the rows of the chosen symbols, and the market's (locate 0) whatever it says.
TEST(EventTables, SymbolsKeepTheirRowsAndTheMarketsRows) {
  all_sinks s;
  itch5::inside::inside_options opt;
  opt.symbols = {"qqq"};
  run(event_stream(), s.sinks, opt);
  EXPECT_EQ(s.of<system_events_table>().size(), 2u);
  EXPECT_EQ(s.of<mwcb_levels_table>().size(), 1u);
  EXPECT_EQ(s.of<mwcb_status_table>().size(), 1u);
  ASSERT_EQ(s.of<stock_directory_table>().size(), 1u);
  EXPECT_EQ(s.of<stock_directory_table>()[0][2], "QQQ");
  ASSERT_EQ(s.of<trading_actions_table>().size(), 1u);
  EXPECT_EQ(s.of<trading_actions_table>()[0][2], "QQQ");
  EXPECT_EQ(s.of<reg_sho_table>().size(), 1u);
  EXPECT_EQ(s.of<ipo_quoting_table>().size(), 1u);
  EXPECT_EQ(s.of<rpii_table>().size(), 1u);
  EXPECT_TRUE(s.of<noii_table>().empty());  // AAPL's
  EXPECT_TRUE(s.of<dlcr_table>().empty());
  EXPECT_TRUE(s.of<participant_positions_table>().empty());
  EXPECT_TRUE(s.of<luld_collars_table>().empty());
  EXPECT_TRUE(s.of<operational_halts_table>().empty());
}

// --from/--to: only the rows of messages in [from, to), the market's too.
TEST(EventTables, TheTimeRangeKeepsItsRowsOnly) {
  all_sinks s;
  itch5::inside::inside_options opt;
  opt.from = itch5::timestamp(static_cast<std::int64_t>(t0 + 3 * sec));
  opt.to = itch5::timestamp(static_cast<std::int64_t>(t0 + 9 * sec));  // K at 9 s is out
  run(event_stream(), s.sinks, opt);
  EXPECT_TRUE(s.of<system_events_table>().empty());
  EXPECT_TRUE(s.of<stock_directory_table>().empty());
  EXPECT_EQ(s.of<trading_actions_table>().size(), 2u);
  EXPECT_EQ(s.of<reg_sho_table>().size(), 1u);
  EXPECT_EQ(s.of<participant_positions_table>().size(), 1u);
  EXPECT_EQ(s.of<mwcb_levels_table>().size(), 1u);
  EXPECT_EQ(s.of<mwcb_status_table>().size(), 1u);
  EXPECT_TRUE(s.of<ipo_quoting_table>().empty());
  EXPECT_TRUE(s.of<noii_table>().empty());
}

// Kinds left off get nothing (their sinks are never called); the others are unchanged.
TEST(EventTables, KindsLeftOffGetNothing) {
  all_sinks s({"noii", "mwcb_status"});
  run(event_stream(), s.sinks);
  EXPECT_EQ(s.of<noii_table>().size(), 1u);
  EXPECT_EQ(s.of<mwcb_status_table>().size(), 1u);
  EXPECT_TRUE(std::get<string_csv_sink<noii_table>>(s.each).finished);
  EXPECT_TRUE(s.of<stock_directory_table>().empty());
  EXPECT_FALSE(std::get<string_csv_sink<stock_directory_table>>(s.each).finished);
  EXPECT_FALSE(std::get<string_csv_sink<system_events_table>>(s.each).finished);
}

// The real 2019 directory slice: one row per R message (counted from the frames here), locates and
// symbols as the bytes have them.
TEST(EventTables, RealDirectorySliceHasARowPerDirectoryMessage) {
  const bytes data = itch5_test::read_file(itch5_test::data_path("real-2019-first1000.itch"));
  std::vector<std::pair<std::string, std::string>> expected;  // locate, symbol of each R frame
  for (const bytes& f : itch5_test::reference_frames(data)) {
    if (static_cast<char>(f[0]) != 'R') continue;
    const unsigned locate = (std::to_integer<unsigned>(f[1]) << 8) | std::to_integer<unsigned>(f[2]);
    std::string sym;
    for (std::size_t i = 11; i < 19 && static_cast<char>(f[i]) != ' '; ++i) sym += static_cast<char>(f[i]);
    expected.emplace_back(std::to_string(locate), sym);
  }
  ASSERT_EQ(expected.size(), 993u);
  all_sinks s({"stock_directory", "trading_actions", "reg_sho"});
  run(data, s.sinks);
  const rows dir = s.of<stock_directory_table>();
  ASSERT_EQ(dir.size(), expected.size());
  for (std::size_t i = 0; i < dir.size(); ++i) {
    EXPECT_EQ(dir[i][1], expected[i].first) << "row " << i;
    EXPECT_EQ(dir[i][2], expected[i].second) << "row " << i;
    EXPECT_EQ(dir[i].size(), 27u);
  }
  EXPECT_EQ(dir[12][2], "AAPL");  // locate 13 (data/README.md)
  EXPECT_EQ(s.of<trading_actions_table>().size(), 3u);
  EXPECT_EQ(s.of<reg_sho_table>().size(), 3u);
}

}  // namespace
