// itch5inside, run as a program: exact inside lines for a hand-made stream (expected lines written by hand
// from the format rules of docs/formats.md), identical output for every book type and for raw, gzip and
// standard input, the artificial sample against a naive reference written here, statistics and depth
// CSVs, the symbol filter, YAML configuration, outputs that are never half-written, bad input and usage
// errors.
#include <itch5/frame_writer.hpp>
#include <itch5/inside_line.hpp>
#include <itch5/messages.hpp>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include <itch5_test/csv_headers.hpp>

#include "../book/message_builders.hpp"

namespace {

using namespace testing_messages;
using itch5_test::depth_csv_header;
using itch5_test::stats_csv_header;

namespace fs = std::filesystem;

const std::string tool = std::string(ITCH5_TOOLS_DIR) + "/itch5inside";
const std::string data_dir = ITCH5_DATA_DIR;

// ---------------------------------------------------------------------------------------------------------
// Files and processes.

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_bytes(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string to_string(std::span<const std::byte> b) {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

void gzip_file(const fs::path& p, std::string_view bytes) {
  gzFile f = gzopen(p.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())), static_cast<int>(bytes.size()));
  ASSERT_EQ(gzclose(f), Z_OK);
}

// Decompresses a whole gzip file; fails the test if it is not valid gzip.
std::string gunzip_file(const fs::path& p) {
  const std::string raw = slurp(p);
  EXPECT_GE(raw.size(), 18u);
  EXPECT_EQ(raw.substr(0, 2), std::string("\x1f\x8b"));
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  std::string out;
  char buf[1 << 14];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  EXPECT_EQ(rc, Z_STREAM_END) << p << " is not a complete gzip stream";
  EXPECT_EQ(z.avail_in, 0u) << "bytes after the gzip trailer";
  inflateEnd(&z);
  return out;
}

std::string unzstd_file(const fs::path& p) {
  const std::string raw = slurp(p);
  EXPECT_GE(raw.size(), 4u);
  EXPECT_EQ(raw.substr(0, 4), std::string("\x28\xb5\x2f\xfd")) << p << " starts with the zstd magic";
  ZSTD_DStream* d = ZSTD_createDStream();
  ZSTD_inBuffer in{raw.data(), raw.size(), 0};
  std::string out;
  char buf[1 << 14];
  std::size_t rc = 1;
  while (in.pos < in.size && !ZSTD_isError(rc)) {
    ZSTD_outBuffer o{buf, sizeof buf, 0};
    rc = ZSTD_decompressStream(d, &o, &in);
    out.append(buf, o.pos);
  }
  ZSTD_freeDStream(d);
  EXPECT_EQ(rc, 0u) << p << " is not a complete zstd frame";
  return out;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

struct result {
  int code = -1;
  std::string out;
  std::string err;
};

class Itch5Inside : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "itch5inside_test.XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  [[nodiscard]] fs::path path(const std::string& name) const { return dir_ / name; }

  // Runs `[PIPE_FROM |] itch5inside ARGS [STDIN_REDIRECT]` through the shell in the temporary directory,
  // capturing stdout and stderr.
  result run(const std::string& args, const std::string& stdin_redirect = "",
             const std::string& pipe_from = "") {
    const fs::path out = path("stdout.txt"), err = path("stderr.txt");
    std::string cmd = "cd " + quote(dir_.string()) + " && ";
    if (!pipe_from.empty()) cmd += pipe_from + " | ";
    cmd += quote(tool) + " " + args + " " + stdin_redirect + " > " + quote(out.string()) + " 2> " +
           quote(err.string());
    const int status = std::system(cmd.c_str());
    result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    fs::remove(out);
    fs::remove(err);
    return r;
  }

  // Names of the files in the temporary directory.
  [[nodiscard]] std::vector<std::string> files() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(dir_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }

  fs::path dir_;
};

// ---------------------------------------------------------------------------------------------------------
// Message builders.

itch5::stock_trading_action halt(std::int64_t ts, std::uint16_t locate, std::string_view symbol) {
  itch5::stock_trading_action m{};
  m.header = hdr(locate, ts);
  m.stock = itch5::stock_symbol::from(symbol);
  m.trading_state = 'H';
  return m;
}

itch5::trade trade(std::int64_t ts, std::uint16_t locate, std::string_view symbol) {
  itch5::trade m{};
  m.header = hdr(locate, ts);
  m.order_ref = 0;
  m.side = 'B';
  m.shares = 100;
  m.stock = itch5::stock_symbol::from(symbol);
  m.price = itch5::price4(100100);
  m.match_number = 77;
  return m;
}

// ---------------------------------------------------------------------------------------------------------
// The hand-made stream. Two symbols: AAA (locate 1, above $1, cent ticks) and BB (locate 2, sub-dollar).
// The comments give the book after each message and the line it must produce, by hand from the rules:
// `<ts> <locate> <symbol> <bid px> <bid qty> <offer px> <offer qty>`, empty bid `0 0`, empty offer
// `2000000000 0`, one line per change of best bid or offer price or size.
struct hand_stream {
  std::string bytes;
  std::vector<std::size_t> frame_end;  // end offset of each framed message
};

hand_stream make_hand_stream() {
  itch5::frame_writer w;
  hand_stream s;
  auto mark = [&] { s.frame_end.push_back(w.size()); };
  w.write(system_event(1000, 'O')), mark();                     // #1
  w.write(directory(1, "AAA", 1100)), mark();                   // #2
  w.write(directory(2, "BB", 1200)), mark();                    // #3
  w.write(add(2000, 1, 1, 'B', 100, 100000, "AAA")), mark();    // #4  bid 10.00x100
  w.write(add(3000, 1, 2, 'S', 200, 100200, "AAA")), mark();    // #5  offer 10.02x200
  w.write(add(4000, 1, 3, 'B', 50, 99900, "AAA")), mark();      // #6  below the bid: no line
  w.write(add(4500, 1, 8, 'B', 10, 99500, "AAA")), mark();      // #7  below: no line
  w.write(add(5000, 2, 4, 'S', 300, 5000, "BB")), mark();       // #8  BB offer 0.50x300
  w.write(add(6000, 1, 5, 'B', 25, 100000, "AAA")), mark();     // #9  bid 10.00x125
  w.write(exec(7000, 1, 5, 25)), mark();                        // #10 bid 10.00x100
  w.write(cancel(8000, 1, 2, 50)), mark();                      // #11 offer 10.02x150
  w.write(replace(9000, 1, 3, 6, 50, 100100)), mark();          // #12 9.99 -> 10.01: new best bid
  w.write(halt(9500, 1, "AAA")), mark();                        // #13 a halt does not stop updates
  w.write(del(10000, 1, 6)), mark();                            // #14 bid back to 10.00x100
  w.write(exec_price(11000, 1, 1, 100, 100050)), mark();        // #15 bid level emptied: 9.95x10
  w.write(trade(12000, 1, "AAA")), mark();                      // #16 no book change
  w.write(del(13000, 2, 4)), mark();                            // #17 BB empty
  w.write(add_mpid(14000, 2, 7, 'B', 10, 4999, "BB")), mark();  // #18 BB bid 0.4999x10
  w.write(cancel(15000, 1, 2, 150)), mark();                    // #19 offer emptied
  w.write(replace(16000, 1, 8, 9, 10, 99500)), mark();          // #20 same price and size: no line
  w.write(replace(17000, 1, 9, 10, 20, 99500)), mark();         // #21 size 10 -> 20
  w.write(system_event(18000, 'C')), mark();                    // #22
  s.bytes = to_string(w.bytes());
  return s;
}

const std::vector<std::string> hand_lines = {
    "2000 1 AAA 100000 100 2000000000 0\n",  // #4
    "3000 1 AAA 100000 100 100200 200\n",    // #5
    "5000 2 BB 0 0 5000 300\n",              // #8
    "6000 1 AAA 100000 125 100200 200\n",    // #9
    "7000 1 AAA 100000 100 100200 200\n",    // #10
    "8000 1 AAA 100000 100 100200 150\n",    // #11
    "9000 1 AAA 100100 50 100200 150\n",     // #12
    "10000 1 AAA 100000 100 100200 150\n",   // #14
    "11000 1 AAA 99500 10 100200 150\n",     // #15
    "13000 2 BB 0 0 2000000000 0\n",         // #17
    "14000 2 BB 4999 10 2000000000 0\n",     // #18
    "15000 1 AAA 99500 10 2000000000 0\n",   // #19
    "17000 1 AAA 99500 20 2000000000 0\n",   // #21
};

std::string join(const std::vector<std::string>& lines, std::string_view only_symbol = "") {
  std::string s;
  for (const auto& l : lines) {
    if (only_symbol.empty() || l.find(" " + std::string(only_symbol) + " ") != std::string::npos) s += l;
  }
  return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

// CSV rows (without the header) as name -> column -> value.
std::map<std::string, std::map<std::string, std::string>> parse_csv(
    const std::string& csv, std::vector<std::string>* order = nullptr) {
  std::map<std::string, std::map<std::string, std::string>> rows;
  const auto lines = split(csv, '\n');
  if (lines.empty()) return rows;
  const auto columns = split(lines[0], ',');
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = split(lines[i], ',');
    EXPECT_EQ(cells.size(), columns.size()) << lines[i];
    auto& row = rows[cells.at(0)];
    for (std::size_t c = 0; c < columns.size() && c < cells.size(); ++c) row[columns[c]] = cells[c];
    if (order) order->push_back(cells.at(0));
  }
  return rows;
}

// Every line has the 7 fields of the format and ends with a newline.
void expect_complete_lines(const std::string& text) {
  if (text.empty()) return;
  EXPECT_EQ(text.back(), '\n');
  static const std::regex line(R"(\d+ \d+ \S+ \d+ \d+ \d+ \d+)");
  for (const auto& l : split(text, '\n')) EXPECT_TRUE(std::regex_match(l, line)) << "'" << l << "'";
}

// ---------------------------------------------------------------------------------------------------------
// Inside lines.

TEST_F(Itch5Inside, HandMadeStreamExactLinesForEveryBook) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  for (const char* book : {"array", "map"}) {
    SCOPED_TRACE(book);
    const result r = run(std::string("-q --book ") + book + " in.itch");
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, join(hand_lines));
    EXPECT_EQ(r.err, "");
  }
  // The smallest array window gives the same lines.
  const result r = run("-q --book array --window-levels 64 in.itch");
  EXPECT_EQ(r.out, join(hand_lines));
  // Without -q the summary goes to stderr, never to stdout.
  const result loud = run("in.itch");
  EXPECT_EQ(loud.code, 0);
  EXPECT_EQ(loud.out, join(hand_lines));
  EXPECT_NE(loud.err.find("inside changes: 13"), std::string::npos) << loud.err;
  EXPECT_EQ(loud.err.find('\r'), std::string::npos) << "no progress line when stderr is not a terminal";
}

// The runner formats its lines itself (cached per symbol, for speed): every line it writes, on the line
// thread (-q) or inline (--stats), is what itch5::format_inside_line() writes for the fields parsed back
// from it, so the two formats are one.
TEST_F(Itch5Inside, LinesAreThoseOfFormatInsideLine) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  for (const std::string& args :
       {std::string("-q in.itch"), "-q " + quote(data_dir + "/synthetic-200k.itch.gz"),
        "-q --stats s.csv " + quote(data_dir + "/synthetic-200k.itch.gz")}) {
    SCOPED_TRACE(args);
    const result r = run(args);
    ASSERT_EQ(r.code, 0) << r.err;
    std::size_t lines = 0, empty_sides = 0;
    for (const auto& l : split(r.out, '\n')) {
      itch5::inside_line parsed;
      ASSERT_EQ(itch5::parse_inside_line(l, parsed), "") << l;
      char buf[itch5::max_inside_line];
      ASSERT_EQ(std::string(buf, itch5::format_inside_line(buf, parsed)), l + "\n");
      ++lines;
      empty_sides += !parsed.has_bid() + !parsed.has_offer();
    }
    EXPECT_GE(lines, 13u);
    EXPECT_GT(empty_sides, 0u) << "the empty sides' constants are checked too";
  }
}

TEST_F(Itch5Inside, RawGzipAndStandardInputGiveIdenticalOutput) {
  const std::string bytes = make_hand_stream().bytes;
  write_bytes(path("in.itch"), bytes);
  gzip_file(path("in.itch.gz"), bytes);
  gzip_file(path("in.bin"), bytes);  // gzip detected from its bytes, not its name
  const std::string expected = join(hand_lines);
  for (const auto& [args, redirect, pipe] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"-q in.itch", "", ""},
           {"-q in.itch.gz", "", ""},
           {"-q in.bin", "", ""},
           {"-q -", "< in.itch", ""},
           {"-q -", "< in.itch.gz", ""},
           {"-q -", "", "cat in.itch"},
           {"-q -", "", "cat in.itch.gz"},
           {"-q --no-read-ahead in.itch.gz", "", ""},
           {"-q --block-size 4096 -", "", "cat in.itch.gz"}}) {
    SCOPED_TRACE(args + " " + redirect + " " + pipe);
    const result r = run(args, redirect, pipe);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, expected);
  }
}

TEST_F(Itch5Inside, ShippedSamplesRawAndGzipAgree) {
  const std::string raw = data_dir + "/artificial-3stocks.itch";
  const result a = run("-q " + quote(raw));
  const result b = run("-q " + quote(raw + ".gz"));
  const result c = run("-q -", "< " + quote(raw + ".gz"));
  EXPECT_EQ(a.code, 0);
  EXPECT_EQ(b.code, 0);
  EXPECT_EQ(c.code, 0);
  EXPECT_FALSE(a.out.empty());
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.out, c.out);
  // The real sample has directory messages only: no book, no line.
  const result real = run("-q --stats s.csv " + quote(data_dir + "/real-2019-first1000.itch"));
  EXPECT_EQ(real.code, 0) << real.err;
  EXPECT_EQ(real.out, "");
  // No sample at all: only the __aggregate__ row, with 0 samples.
  std::vector<std::string> order;
  auto rows = parse_csv(slurp(path("s.csv")), &order);
  EXPECT_EQ(order, std::vector<std::string>{"__aggregate__"});
  EXPECT_EQ(rows["__aggregate__"]["NSamples"], "0");
}

// ---------------------------------------------------------------------------------------------------------
// The artificial sample against a naive reference: std::map books, an unordered_map of orders, fields read
// straight from the bytes. Inconsistent messages are handled as anomaly_counts.hpp documents: unknown
// references skipped, oversized reductions remove the order, duplicates skipped, a crossed book counted
// when it becomes crossed.
//
// Why not the shared reference book (itch5_test/reference_book.hpp, behind tests/book/naive_reference.hpp):
// this one is deliberately independent of the library as a whole. It does its own framing and reads every
// field at its offset from the spec, so a decoder or framing bug that the tool and a decode()-based reference
// would share still shows up here as a difference. Keep it byte-level.
struct naive_reference {
  struct order {
    std::uint16_t locate;
    char side;
    std::uint32_t price;
    std::uint32_t shares;
  };
  struct book {
    std::string symbol;
    std::map<std::uint32_t, std::uint64_t> bids, offers;
    std::uint64_t last[4] = {0, 0, 0, 0};
    bool crossed = false;
  };
  std::unordered_map<std::uint64_t, order> orders;
  std::map<std::uint16_t, book> books;
  std::uint64_t unknown_order = 0, crossed_book = 0, other_anomalies = 0;
  std::string lines;
  std::map<std::string, std::uint64_t> lines_per_symbol;

  static std::uint64_t be(const unsigned char* p, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | p[i];
    return v;
  }
  static std::string symbol_at(const unsigned char* p) {
    std::string s(reinterpret_cast<const char*>(p), 8);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }

  void level(book& b, char side, std::uint32_t price, std::int64_t delta) {
    auto& m = side == 'B' ? b.bids : b.offers;
    auto& v = m[price];
    v = static_cast<std::uint64_t>(static_cast<std::int64_t>(v) + delta);
    if (v == 0) m.erase(price);
  }

  void changed(std::uint16_t locate, std::uint64_t ts) {
    book& b = books[locate];
    std::uint64_t now[4] = {0, 0, 0, 0};
    if (!b.bids.empty()) now[0] = b.bids.rbegin()->first, now[1] = b.bids.rbegin()->second;
    if (!b.offers.empty()) now[2] = b.offers.begin()->first, now[3] = b.offers.begin()->second;
    if (std::equal(now, now + 4, b.last)) return;
    std::copy(now, now + 4, b.last);
    const bool crossed = now[1] != 0 && now[3] != 0 && now[0] >= now[2];
    if (crossed && !b.crossed) ++crossed_book;
    b.crossed = crossed;
    lines += std::to_string(ts) + " " + std::to_string(locate) + " " + b.symbol + " " +
             std::to_string(now[1] ? now[0] : 0) + " " + std::to_string(now[1]) + " " +
             std::to_string(now[3] ? now[2] : 2000000000) + " " + std::to_string(now[3]) + "\n";
    ++lines_per_symbol[b.symbol];
  }

  void run(const std::string& bytes) {
    std::size_t at = 0;
    while (at + 2 <= bytes.size()) {
      const auto* p = reinterpret_cast<const unsigned char*>(bytes.data()) + at;
      const std::size_t len = be(p, 2);
      ASSERT_LE(at + 2 + len, bytes.size());
      message(p + 2);
      at += 2 + len;
    }
    ASSERT_EQ(at, bytes.size());
  }

  void message(const unsigned char* m) {
    const char type = static_cast<char>(m[0]);
    const auto locate = static_cast<std::uint16_t>(be(m + 1, 2));
    const std::uint64_t ts = be(m + 5, 6);
    switch (type) {
      case 'R': books[locate].symbol = symbol_at(m + 11); break;
      case 'A':
      case 'F': {
        const std::uint64_t ref = be(m + 11, 8);
        const char side = static_cast<char>(m[19]);
        const auto shares = static_cast<std::uint32_t>(be(m + 20, 4));
        const auto price = static_cast<std::uint32_t>(be(m + 32, 4));
        if ((side != 'B' && side != 'S') || shares == 0 || price == 0 || price > 2000000000 ||
            orders.count(ref)) {
          ++other_anomalies;
          return;
        }
        book& b = books[locate];
        if (b.symbol.empty()) b.symbol = symbol_at(m + 24);
        orders[ref] = {locate, side, price, shares};
        level(b, side, price, shares);
        changed(locate, ts);
        break;
      }
      case 'E':
      case 'C':
      case 'X':
      case 'D': {
        const std::uint64_t ref = be(m + 11, 8);
        auto it = orders.find(ref);
        if (it == orders.end()) {
          ++unknown_order;
          return;
        }
        order& o = it->second;
        std::uint32_t shares = type == 'D' ? o.shares : static_cast<std::uint32_t>(be(m + 19, 4));
        if (shares == 0) {
          ++other_anomalies;
          return;
        }
        if (shares > o.shares) {
          ++other_anomalies;
          shares = o.shares;
        }
        const order copy = o;
        level(books[o.locate], o.side, o.price, -static_cast<std::int64_t>(shares));
        o.shares -= shares;
        if (o.shares == 0) orders.erase(it);
        changed(copy.locate, ts);
        break;
      }
      case 'U': {
        const std::uint64_t original = be(m + 11, 8), ref = be(m + 19, 8);
        const auto shares = static_cast<std::uint32_t>(be(m + 27, 4));
        const auto price = static_cast<std::uint32_t>(be(m + 31, 4));
        auto it = orders.find(original);
        if (it == orders.end()) {
          ++unknown_order;
          return;
        }
        const order o = it->second;
        orders.erase(it);
        level(books[o.locate], o.side, o.price, -static_cast<std::int64_t>(o.shares));
        if (shares == 0 || price == 0 || price > 2000000000 || orders.count(ref)) {
          ++other_anomalies;
        } else {
          orders[ref] = {o.locate, o.side, price, shares};
          level(books[o.locate], o.side, price, shares);
        }
        changed(o.locate, ts);
        break;
      }
      default: break;
    }
  }
};

std::uint64_t summary_count(const std::string& err, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(err, m, std::regex(key + "=(\\d+)"))) return 0;
  return std::stoull(m[1]);
}

TEST_F(Itch5Inside, ArtificialSampleRunsToTheEndWithAnomaliesCounted) {
  const std::string file = data_dir + "/artificial-3stocks.itch";
  naive_reference ref;
  ref.run(slurp(file));
  ASSERT_FALSE(::testing::Test::HasFailure());
  // The data README: about 117 messages refer to unknown orders and some books cross.
  EXPECT_GE(ref.unknown_order, 100u);
  EXPECT_LE(ref.unknown_order, 130u);
  EXPECT_GT(ref.crossed_book, 0u);

  for (const char* args : {"--book array", "--book map", "--book array --window-levels 64"}) {
    SCOPED_TRACE(args);
    const result r = run(std::string(args) + " " + quote(file));
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, ref.lines);
    expect_complete_lines(r.out);
    EXPECT_EQ(summary_count(r.err, "unknown_order"), ref.unknown_order) << r.err;
    EXPECT_EQ(summary_count(r.err, "crossed_book"), ref.crossed_book) << r.err;
    EXPECT_NE(r.err.find("12012 messages"), std::string::npos) << r.err;  // read to the end
  }
  // --quiet: no summary.
  const result q = run("--quiet " + quote(file));
  EXPECT_EQ(q.code, 0);
  EXPECT_EQ(q.err, "");
  EXPECT_EQ(q.out, ref.lines);

  // Statistics: one row per symbol with inside changes, in stock locate order, then __aggregate__.
  const result st = run("-q --stats s.csv " + quote(file));
  ASSERT_EQ(st.code, 0) << st.err;
  std::vector<std::string> order, expected_order;
  auto rows = parse_csv(slurp(path("s.csv")), &order);
  std::uint64_t total = 0;
  for (const auto& [locate, b] : ref.books) {
    auto it = ref.lines_per_symbol.find(b.symbol);
    if (it == ref.lines_per_symbol.end()) continue;
    expected_order.push_back(b.symbol);
    EXPECT_EQ(rows[b.symbol]["NSamples"], std::to_string(it->second)) << b.symbol;
    total += it->second;
  }
  expected_order.push_back("__aggregate__");
  EXPECT_EQ(order, expected_order);
  EXPECT_EQ(rows["__aggregate__"]["NSamples"], std::to_string(total));
}

// ---------------------------------------------------------------------------------------------------------
// Statistics and depth CSVs.

TEST_F(Itch5Inside, StatsFileHeaderAndRows) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const result r = run("-q --stats stats.csv in.itch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, join(hand_lines));
  const std::string csv = slurp(path("stats.csv"));
  ASSERT_EQ(csv.substr(0, stats_csv_header.size()), stats_csv_header);
  std::vector<std::string> order;
  auto rows = parse_csv(csv, &order);
  EXPECT_EQ(order, (std::vector<std::string>{"AAA", "BB", "__aggregate__"}));
  // Inside changes: AAA 10, BB 3.
  EXPECT_EQ(rows["AAA"]["NSamples"], "10");
  EXPECT_EQ(rows["BB"]["NSamples"], "3");
  EXPECT_EQ(rows["__aggregate__"]["NSamples"], "13");
  // AAA changes at 2, 3, 6, 7, 8, 9, 10, 11, 15, 17 us: RatePerSec has one sample (all in the first ms),
  // RatePerMSec one per us from 2 to 17: 1 2 2 2 3 4 5 6 7 8 8 8 8 9 9 10 -> p25 rank 4 -> 2, p50 rank 8 ->
  // 6, p75 rank 12 -> 8, p90 rank 15 -> 9, p99 rank 16 -> 10. Arrival gaps 1000..4000 ns.
  auto& aaa = rows["AAA"];
  EXPECT_EQ(aaa["minRatePerSec"], "10");
  EXPECT_EQ(aaa["maxRatePerSec"], "10");
  EXPECT_EQ(aaa["minRatePerMSec"], "1");
  EXPECT_EQ(aaa["p25RatePerMSec"], "2");
  EXPECT_EQ(aaa["p50RatePerMSec"], "6");
  EXPECT_EQ(aaa["p75RatePerMSec"], "8");
  EXPECT_EQ(aaa["p90RatePerMSec"], "9");
  EXPECT_EQ(aaa["p99RatePerMSec"], "10");
  EXPECT_EQ(aaa["maxRatePerMSec"], "10");
  EXPECT_EQ(aaa["minRatePerUSec"], "0");
  EXPECT_EQ(aaa["maxRatePerUSec"], "1");
  EXPECT_EQ(aaa["minArrival"], "1000");
  EXPECT_EQ(aaa["maxArrival"], "4000");
  EXPECT_LE(std::stoull(aaa["minProcessing"]), std::stoull(aaa["maxProcessing"]));

  // All book events instead of inside changes: AAA 13 events, BB 3.
  const result all = run("-q --stats stats-all.csv --stats-events all in.itch");
  ASSERT_EQ(all.code, 0) << all.err;
  rows = parse_csv(slurp(path("stats-all.csv")));
  EXPECT_EQ(rows["AAA"]["NSamples"], "13");
  EXPECT_EQ(rows["BB"]["NSamples"], "3");
  EXPECT_EQ(rows["__aggregate__"]["NSamples"], "16");
}

TEST_F(Itch5Inside, StatsOnStandardOutputWithLinesInAFile) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const result r = run("-q --stats - -o lines.txt in.itch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(slurp(path("lines.txt")), join(hand_lines));
  ASSERT_EQ(r.out.substr(0, stats_csv_header.size()), stats_csv_header);
  std::vector<std::string> order;
  parse_csv(r.out, &order);
  EXPECT_EQ(order, (std::vector<std::string>{"AAA", "BB", "__aggregate__"}));
}

TEST_F(Itch5Inside, TwoOutputsOnStandardOutputIsAUsageError) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  for (const char* args : {"--stats - in.itch", "--depth - in.itch", "-o - --stats - in.itch",
                           "-o lines.txt --stats - --depth - in.itch"}) {
    SCOPED_TRACE(args);
    const result r = run(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("standard output"), std::string::npos) << r.err;
  }
  EXPECT_EQ(files(), std::vector<std::string>{"in.itch"});  // nothing written
}

TEST_F(Itch5Inside, DepthFileExact) {
  // Event depth: levels between the event's price and its side's best before it (0 at or better, or on an
  // empty side). Book depth: levels between best and worst of its side after it. Cent ticks above $1:
  // 10.00 and 9.99 are 1 level apart, 10.00 and 9.95 five, 10.01 and 9.95 six.
  //   AAA (13 events):   #4 (0,0) #5 (0,0) #6 9.99 (1,1) #7 9.95 (5,5) #9 (0,5) #10 (0,5) #11 (0,0)
  //                      #12 10.01 (0,6) #14 (0,5) #15 (0,0) #19 (0,0) #20 (0,0) #21 (0,0)
  //     event depth 0 x11, 1, 5: p25 r4 0, p50 r7 0, p75 r10 0, p90 r12 1, p99 r13 5.
  //     book depth 0 x7, 1, 5 x4, 6: p25 r4 0, p50 r7 0, p75 r10 5, p90 r12 5, p99 r13 6.
  //   BB (3 events): all 0.
  //   aggregate (16): event 0 x14, 1, 5: p75 r12 0, p90 r15 1, p99 r16 5;
  //                   book 0 x10, 1, 5 x4, 6: p50 r8 0, p75 r12 5, p90 r15 5, p99 r16 6.
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const std::string expected = depth_csv_header +
                               "AAA,13,0,0,0,0,1,5,5,5,5,0,0,0,5,5,6,6,6,6\n"
                               "BB,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
                               "__aggregate__,16,0,0,0,0,1,5,5,5,5,0,0,0,5,5,6,6,6,6\n";
  for (const char* book : {"array", "map"}) {
    SCOPED_TRACE(book);
    const result r = run(std::string("-q --depth depth.csv --book ") + book + " in.itch");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, join(hand_lines));
    EXPECT_EQ(slurp(path("depth.csv")), expected);
  }
  // Both CSVs at once, depth on standard output.
  const result r = run("-q --depth - --stats s.csv -o lines.txt in.itch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  EXPECT_EQ(slurp(path("lines.txt")), join(hand_lines));
  EXPECT_EQ(slurp(path("s.csv")).substr(0, stats_csv_header.size()), stats_csv_header);
}

TEST_F(Itch5Inside, SymbolsRestrictLinesAndStatistics) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const result r = run("-q --symbols BB --stats s.csv --depth d.csv in.itch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, join(hand_lines, "BB"));
  std::vector<std::string> order;
  auto rows = parse_csv(slurp(path("s.csv")), &order);
  EXPECT_EQ(order, (std::vector<std::string>{"BB", "__aggregate__"}));
  EXPECT_EQ(rows["__aggregate__"]["NSamples"], "3");
  EXPECT_EQ(slurp(path("d.csv")), depth_csv_header + "BB,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n" +
                                      "__aggregate__,3,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n");
  // Several symbols, and a symbol that does not exist.
  EXPECT_EQ(run("-q --symbols AAA,BB in.itch").out, join(hand_lines));
  EXPECT_EQ(run("-q --symbols AAA in.itch").out, join(hand_lines, "AAA"));
  EXPECT_EQ(run("-q --symbols NOPE in.itch").out, "");
}

// ---------------------------------------------------------------------------------------------------------
// YAML configuration.

TEST_F(Itch5Inside, ConfigFileSetsOptionsAndFlagsOverrideIt) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  write_bytes(path("cfg.yaml"), "# itch5inside options\nbook: map\nsymbols: [BB]\nquiet: true\n");
  const result from_file = run("--config cfg.yaml in.itch");
  EXPECT_EQ(from_file.code, 0) << from_file.err;
  EXPECT_EQ(from_file.out, join(hand_lines, "BB"));
  EXPECT_EQ(from_file.err, "");  // quiet from the file

  // A flag overrides the file, before or after --config.
  EXPECT_EQ(run("--config cfg.yaml --symbols AAA in.itch").out, join(hand_lines, "AAA"));
  EXPECT_EQ(run("--symbols AAA --config cfg.yaml in.itch").out, join(hand_lines, "AAA"));
  const result loud = run("--config cfg.yaml --no-quiet in.itch");
  EXPECT_NE(loud.err.find("book map"), std::string::npos) << loud.err;

  // --print-config shows the effective values.
  const result p = run("--config cfg.yaml --book array --print-config");
  ASSERT_EQ(p.code, 0) << p.err;
  const YAML::Node y = YAML::Load(p.out);
  EXPECT_EQ(y["book"].as<std::string>(), "array");  // the flag
  ASSERT_TRUE(y["symbols"].IsSequence()) << p.out;
  ASSERT_EQ(y["symbols"].size(), 1u);
  EXPECT_EQ(y["symbols"][0].as<std::string>(), "BB");       // the file
  EXPECT_TRUE(y["quiet"].as<bool>());                       // the file
  EXPECT_EQ(y["output"].as<std::string>(), "-");            // the default
  EXPECT_EQ(y["window-levels"].as<std::uint64_t>(), 256u);  // the documented default
  EXPECT_EQ(y["stats-events"].as<std::string>(), "inside");

  // What --print-config prints is a valid --config file with the same effect.
  write_bytes(path("printed.yaml"), p.out);
  const result again = run("--config printed.yaml --print-config");
  EXPECT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.out, p.out);
  EXPECT_EQ(run("--config printed.yaml in.itch").out, join(hand_lines, "BB"));

  // The input is the YAML key input, and --print-config shows it: the printed file runs the same.
  const result with_input = run("--config cfg.yaml in.itch --print-config");
  ASSERT_EQ(with_input.code, 0) << with_input.err;
  EXPECT_EQ(YAML::Load(with_input.out)["input"].as<std::string>(), "in.itch");
  write_bytes(path("with-input.yaml"), with_input.out);
  const result from_yaml = run("--config with-input.yaml");
  EXPECT_EQ(from_yaml.code, 0) << from_yaml.err;
  EXPECT_EQ(from_yaml.out, join(hand_lines, "BB"));
}

TEST_F(Itch5Inside, ConfigFileErrorsNameTheKey) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  struct bad {
    std::string yaml;
    std::string key;
  };
  for (const bad& b : {bad{"gzip-level: 42\n", "gzip-level"}, bad{"book: tree\n", "book"},
                       bad{"window-levels: lots\n", "window-levels"}, bad{"quiet: maybe\n", "quiet"},
                       bad{"stats-events: some\n", "stats-events"}, bad{"colour: red\n", "colour"},
                       bad{"book: [array, map]\n", "book"}}) {
    SCOPED_TRACE(b.yaml);
    write_bytes(path("bad.yaml"), b.yaml);
    const result r = run("--config bad.yaml in.itch");
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("'" + b.key + "'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("bad.yaml"), std::string::npos) << r.err;
  }
  // Unknown keys are errors, not silently ignored.
  write_bytes(path("bad.yaml"), "colour: red\n");
  EXPECT_NE(run("--config bad.yaml in.itch").err.find("unknown"), std::string::npos);
  // Not YAML at all, and a missing config file.
  write_bytes(path("bad.yaml"), "book: [unclosed\n");
  EXPECT_EQ(run("--config bad.yaml in.itch").code, 2);
  const result missing = run("--config nowhere.yaml in.itch");
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("nowhere.yaml"), std::string::npos) << missing.err;
}

// ---------------------------------------------------------------------------------------------------------
// Outputs.

TEST_F(Itch5Inside, OutputFileIsCompleteAndNoTemporaryIsLeft) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const result r = run("-q -o lines.txt in.itch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(slurp(path("lines.txt")), join(hand_lines));
  EXPECT_EQ(files(), (std::vector<std::string>{"in.itch", "lines.txt"}));
  // An existing file is replaced.
  write_bytes(path("lines.txt"), "old contents\n");
  ASSERT_EQ(run("-q --output lines.txt in.itch").code, 0);
  EXPECT_EQ(slurp(path("lines.txt")), join(hand_lines));
}

TEST_F(Itch5Inside, GzipOutputIsValidGzipWithTheSameLines) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const result r = run("-q -o lines.txt.gz in.itch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(gunzip_file(path("lines.txt.gz")), join(hand_lines));
  EXPECT_EQ(files(), (std::vector<std::string>{"in.itch", "lines.txt.gz"}));
  // Larger output through the compressor: the artificial sample, at the fastest and smallest levels.
  const std::string file = quote(data_dir + "/artificial-3stocks.itch");
  const std::string plain = run("-q " + file).out;
  // 1-3 ISA-L's igzip where the build has it, 4-9 zlib.
  for (const char* level : {"1", "3", "4", "9"}) {
    ASSERT_EQ(run(std::string("-q --gzip-level ") + level + " -o big.gz " + file).code, 0);
    EXPECT_EQ(gunzip_file(path("big.gz")), plain) << "level " << level;
  }
  // zstd, for a name ending in .zst, at its fastest and a slow level.
  for (const char* level : {"1", "12"}) {
    ASSERT_EQ(run(std::string("-q --zstd-level ") + level + " -o big.zst " + file).code, 0);
    EXPECT_EQ(unzstd_file(path("big.zst")), plain) << "level " << level;
  }
  // Statistics can be compressed too.
  ASSERT_EQ(run("-q --stats s.csv.gz -o lines.txt in.itch").code, 0);
  EXPECT_EQ(gunzip_file(path("s.csv.gz")).substr(0, stats_csv_header.size()), stats_csv_header);
}

// ---------------------------------------------------------------------------------------------------------
// Bad input.

TEST_F(Itch5Inside, TruncatedInputKeepsCompleteLinesAndReportsWhere) {
  // Cut message #12 (the replace at byte offset 382: 14 + 2 x 41 + 6 x 38 + 33 + 25) in its middle. The
  // lines of messages #1..#11 (the first six) must come out, complete.
  const hand_stream s = make_hand_stream();
  ASSERT_EQ(s.frame_end[10], 382u);
  const std::string cut = s.bytes.substr(0, 382 + 20);
  write_bytes(path("cut.itch"), cut);
  const std::vector<std::string> before(hand_lines.begin(), hand_lines.begin() + 6);

  const result r = run("-q cut.itch");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, join(before));
  expect_complete_lines(r.out);
  EXPECT_NE(r.err.find("cut.itch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("offset 382"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("message #12"), std::string::npos) << r.err;

  // With -o FILE: the lines are kept in FILE.partial and FILE does not exist; statistics likewise.
  const result o = run("-q -o lines.txt --stats stats.csv cut.itch");
  EXPECT_EQ(o.code, 1);
  EXPECT_EQ(o.out, "");
  EXPECT_FALSE(fs::exists(path("lines.txt")));
  EXPECT_FALSE(fs::exists(path("stats.csv")));
  EXPECT_EQ(slurp(path("lines.txt.partial")), join(before));
  EXPECT_TRUE(fs::exists(path("stats.csv.partial")));
  EXPECT_NE(o.err.find("lines.txt.partial"), std::string::npos) << o.err;
  EXPECT_EQ(files(), (std::vector<std::string>{"cut.itch", "lines.txt.partial", "stats.csv.partial"}));

  // The same through gzip and standard input; and a compressed .gz output keeps a valid partial file.
  gzip_file(path("cut.itch.gz"), cut);
  const result gz = run("-q -", "< cut.itch.gz");
  EXPECT_EQ(gz.code, 1);
  EXPECT_EQ(gz.out, join(before));
  EXPECT_NE(gz.err.find("offset 382"), std::string::npos) << gz.err;
  const result ogz = run("-q -o lines.gz cut.itch.gz");
  EXPECT_EQ(ogz.code, 1);
  EXPECT_FALSE(fs::exists(path("lines.gz")));
  EXPECT_EQ(gunzip_file(path("lines.gz.partial")), join(before));

  // Cuts in every message (inside its length prefix and in the middle of its body) and between messages:
  // exit 1 unless the cut falls between messages, and the lines are always exactly those of the whole
  // messages before the cut.
  std::vector<std::size_t> cuts;
  for (std::size_t m = 0; m < s.frame_end.size(); ++m) {
    const std::size_t start = m == 0 ? 0 : s.frame_end[m - 1];
    cuts.push_back(start + 1);
    cuts.push_back(start + 2 + (s.frame_end[m] - start - 2) / 2);
    cuts.push_back(s.frame_end[m]);
  }
  for (std::size_t n : cuts) {
    const std::size_t whole = static_cast<std::size_t>(
        std::upper_bound(s.frame_end.begin(), s.frame_end.end(), n) - s.frame_end.begin());
    const bool clean = whole > 0 && s.frame_end[whole - 1] == n;
    write_bytes(path("cut.itch"), s.bytes.substr(0, n));
    const result c = run("-q cut.itch");
    SCOPED_TRACE(n);
    EXPECT_EQ(c.code, clean ? 0 : 1) << c.err;
    std::size_t lines_before = 0;
    const std::size_t line_msgs[] = {4, 5, 8, 9, 10, 11, 12, 14, 15, 17, 18, 19, 21};  // message numbers
    for (std::size_t m : line_msgs) lines_before += m <= whole ? 1 : 0;
    EXPECT_EQ(c.out,
              join(std::vector<std::string>(hand_lines.begin(),
                                            hand_lines.begin() + static_cast<std::ptrdiff_t>(lines_before))));
    if (!clean) {
      EXPECT_NE(c.err.find("message #" + std::to_string(whole + 1)), std::string::npos) << c.err;
    }
  }
}

TEST_F(Itch5Inside, CorruptGzipIsAnError) {
  const std::string bytes = make_hand_stream().bytes;
  gzip_file(path("in.gz"), bytes);
  const std::string gz = slurp(path("in.gz"));
  write_bytes(path("cut.gz"), gz.substr(0, gz.size() / 2));
  const result r = run("-q -o lines.txt cut.gz");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("cut.gz"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("lines.txt")));
  if (fs::exists(path("lines.txt.partial"))) expect_complete_lines(slurp(path("lines.txt.partial")));
}

TEST_F(Itch5Inside, TextEmptyAndMissingFiles) {
  write_bytes(path("notes.txt"), "This is a text file, not market data.\nSecond line.\n");
  const result text = run("-q -o lines.txt notes.txt");
  EXPECT_EQ(text.code, 1);
  EXPECT_NE(text.err.find("notes.txt"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("not ITCH"), std::string::npos) << text.err;
  EXPECT_FALSE(fs::exists(path("lines.txt")));

  write_bytes(path("empty.itch"), "");
  const result empty = run("-q empty.itch");
  EXPECT_EQ(empty.code, 1);
  EXPECT_NE(empty.err.find("empty.itch"), std::string::npos) << empty.err;
  EXPECT_NE(empty.err.find("empty"), std::string::npos) << empty.err;
  const result empty_stdin = run("-q -", "< empty.itch");
  EXPECT_EQ(empty_stdin.code, 1);
  EXPECT_NE(empty_stdin.err.find("empty"), std::string::npos) << empty_stdin.err;

  const result missing = run("-q -o missing.txt does-not-exist.itch");
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("does-not-exist.itch"), std::string::npos) << missing.err;
  EXPECT_EQ(missing.out, "");
  for (const auto& f : files()) EXPECT_EQ(f.find("missing.txt"), std::string::npos) << f;  // nothing created

  // An output that cannot be created is named too.
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const result no_dir = run("-q -o no-such-dir/lines.txt in.itch");
  EXPECT_EQ(no_dir.code, 1);
  EXPECT_NE(no_dir.err.find("no-such-dir/lines.txt"), std::string::npos) << no_dir.err;
}

// ---------------------------------------------------------------------------------------------------------
// Command line.

TEST_F(Itch5Inside, HelpMentionsEveryFlag) {
  const result r = run("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.err, "");
  for (const char* flag : {"-o,",       "--output",     "--book",         "--window-levels",
                           "--symbols", "--stats ",     "--stats-events", "--depth",
                           "-q,",       "--quiet",      "--read-ahead",   "--threads",
                           "--slowest", "--block-size", "--gzip-level",   "--zstd-level",
                           "--inflate", "--config",     "--print-config", "--help",
                           "INPUT"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
  // --help states the quantiles' bound (within 1/128, 0.8%, of a true sample value).
  EXPECT_NE(r.out.find("0.8%"), std::string::npos);
  EXPECT_NE(r.out.find("128"), std::string::npos);
  EXPECT_EQ(run("-h").out, r.out);
}

TEST_F(Itch5Inside, UsageErrors) {
  write_bytes(path("in.itch"), make_hand_stream().bytes);
  const result unknown = run("--frobnicate in.itch");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("--frobnicate"), std::string::npos) << unknown.err;
  EXPECT_EQ(run("").code, 2);                             // no INPUT
  EXPECT_EQ(run("in.itch in.itch").code, 2);              // two inputs
  EXPECT_EQ(run("--book tree in.itch").code, 2);          // not a book type
  EXPECT_EQ(run("--window-levels 1 in.itch").code, 2);    // out of range
  EXPECT_EQ(run("--stats-events some in.itch").code, 2);  // not a choice
  EXPECT_EQ(run("in.itch --symbols").code, 2);            // missing value
  const result bad_book = run("--book tree in.itch");
  EXPECT_NE(bad_book.err.find("--book"), std::string::npos) << bad_book.err;
  EXPECT_EQ(bad_book.out, "");
  EXPECT_EQ(run("--threads 0 in.itch").code, 2);                       // out of range
  const result slow_threads = run("--slowest 3 --threads 2 in.itch");  // no per-message times
  EXPECT_EQ(slow_threads.code, 2);
  EXPECT_NE(slow_threads.err.find("--slowest"), std::string::npos) << slow_threads.err;
}

// --slowest N: N lines "message type microseconds" on stderr, also with -q; each names a real message of
// the input (its number and its type byte), slowest first; stdout is the lines of a run without it.
TEST_F(Itch5Inside, SlowestNamesMessagesOfTheInput) {
  const hand_stream s = make_hand_stream();
  write_bytes(path("in.itch"), s.bytes);
  const std::size_t n = s.frame_end.size();
  const result r = run("-q --slowest " + std::to_string(n + 5) + " in.itch");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, join(hand_lines));
  std::istringstream in(r.err);
  std::string header;
  std::getline(in, header);
  EXPECT_NE(header.find("the " + std::to_string(n) + " slowest messages"), std::string::npos) << header;
  std::vector<std::uint64_t> numbers;
  double previous = 1e300;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::uint64_t number = 0;
    char type = 0;
    double us = -1;
    ASSERT_TRUE(fields >> number >> type >> us) << line;
    ASSERT_GE(number, 1u);
    ASSERT_LE(number, n);
    const std::size_t start = number == 1 ? 0 : s.frame_end[number - 2];
    EXPECT_EQ(type, s.bytes[start + 2]) << line;  // after the 2-byte length prefix
    EXPECT_GE(us, 0.0);
    EXPECT_LE(us, previous) << "not slowest first";
    previous = us;
    numbers.push_back(number);
  }
  std::sort(numbers.begin(), numbers.end());
  std::vector<std::uint64_t> every(n);
  for (std::size_t i = 0; i < n; ++i) every[i] = i + 1;
  EXPECT_EQ(numbers, every);  // fewer messages than asked for: each once

  const result three = run("-q --slowest 3 in.itch");
  EXPECT_EQ(std::count(three.err.begin(), three.err.end(), '\n'), 4) << three.err;
}

// ---------------------------------------------------------------------------------------------------------
// Book threads.

// The summary without its measured lines (the time and speed, the peak memory).
std::string summary_counts(const std::string& err) {
  std::istringstream in(err);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.find(" msg/s)") != std::string::npos) continue;
    const std::size_t peak = line.find(", peak memory:");
    out += (peak == std::string::npos ? line : line.substr(0, peak)) + "\n";
  }
  return out;
}

// A CSV without its Processing columns (measured times).
std::string without_processing(const std::string& csv) {
  std::istringstream in(csv);
  std::string out;
  std::vector<bool> keep;
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> cells = split(line, ',');
    if (keep.empty()) {
      for (const auto& c : cells) keep.push_back(c.find("Processing") == std::string::npos);
    }
    for (std::size_t i = 0; i < cells.size() && i < keep.size(); ++i) {
      if (keep[i]) out += cells[i] + ",";
    }
    out += "\n";
  }
  return out;
}

TEST_F(Itch5Inside, BookThreadsWriteWhatOneThreadWrites) {
  const std::string file = data_dir + "/synthetic-200k.itch.gz";
  const std::string outputs = " --stats s.csv --depth d.csv --histograms h.bin ";
  const result one = run("--threads 1" + outputs + quote(file));
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_GT(std::count(one.out.begin(), one.out.end(), '\n'), 10000);
  const std::string stats = slurp(path("s.csv")), depth = slurp(path("d.csv"));
  for (const char* threads : {"2", "3"}) {
    SCOPED_TRACE(threads);
    const result r = run(std::string("--threads ") + threads + outputs + quote(file));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.out == one.out) << "the lines differ";
    EXPECT_EQ(summary_counts(r.err), summary_counts(one.err));
    EXPECT_EQ(without_processing(slurp(path("s.csv"))), without_processing(stats));
    EXPECT_EQ(slurp(path("d.csv")), depth);
    EXPECT_TRUE(fs::exists(path("h.bin")));
  }
  // With the symbol filter and a time range.
  const std::string filtered = " -q --symbols " + split(split(one.out, '\n')[0], ' ')[2] + ",NOSUCH --from " +
                               split(split(one.out, '\n')[1000], ' ')[0] + " --to 12:00 " + quote(file);
  const result f1 = run("--threads 1" + filtered);
  const result f2 = run("--threads 2" + filtered);
  EXPECT_EQ(f1.code, 0) << f1.err;
  EXPECT_FALSE(f1.out.empty());
  EXPECT_EQ(f2.code, f1.code);
  EXPECT_TRUE(f2.out == f1.out) << "the filtered lines differ";
  EXPECT_EQ(f2.err, f1.err);  // the warning about NOSUCH
}

TEST_F(Itch5Inside, BookThreadsOnACaptureGiveTheSameLatencyColumns) {
  // A generated day as a pcap capture with lost packets: statistics carry each sample's feed latency,
  // which the merge takes by message index.
  const std::string synth = std::string(ITCH5_TOOLS_DIR) + "/itch5synth";
  const std::string make =
      "cd " + quote(dir_.string()) + " && " + quote(synth) +
      " --messages 100k --seed 5 --pcap cap.pcap --pcap-loss 0.001 -o day.itch 2> /dev/null";
  ASSERT_EQ(std::system(make.c_str()), 0);
  const result one = run("--threads 1 --stats s.csv --depth d.csv cap.pcap");
  ASSERT_EQ(one.code, 0) << one.err;
  const std::string stats = slurp(path("s.csv")), depth = slurp(path("d.csv"));
  ASSERT_NE(stats.find("p50Latency"), std::string::npos);
  const result two = run("--threads 2 --stats s.csv --depth d.csv cap.pcap");
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_TRUE(two.out == one.out) << "the lines differ";
  EXPECT_EQ(summary_counts(two.err), summary_counts(one.err));
  EXPECT_EQ(without_processing(slurp(path("s.csv"))), without_processing(stats));
  EXPECT_EQ(slurp(path("d.csv")), depth);
}

TEST_F(Itch5Inside, BookThreadsStopAtAReadErrorLikeOneThread) {
  const std::string day = gunzip_file(data_dir + "/synthetic-200k.itch.gz");
  write_bytes(path("cut.itch"), std::string_view(day).substr(0, day.size() / 2 + 7));
  const result one = run("-q --threads 1 cut.itch");
  const result two = run("-q --threads 2 cut.itch");
  EXPECT_EQ(one.code, 1);
  EXPECT_EQ(two.code, 1);
  EXPECT_FALSE(one.out.empty());
  EXPECT_TRUE(two.out == one.out) << "the lines before the error differ";
  EXPECT_NE(one.err.find("cut.itch"), std::string::npos) << one.err;
  EXPECT_EQ(two.err, one.err);
}

}  // namespace
