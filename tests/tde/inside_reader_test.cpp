// Reading inside-change files: the line format, gzip input, and errors that name the file and the line.
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/io/output_file.hpp>
#include <itch5/tde/windows/inside_reader.hpp>

namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("tde_inside_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// Writes `text` to a file; a name ending in .gz is gzip-compressed (by itch5::io::output_file).
std::string write_file(const std::string& name, const std::string& text) {
  std::string path = temp_path(name);
  itch5::io::output_file out(path);
  out.write(text);
  out.commit();
  return path;
}

struct owned_change {
  std::int64_t timestamp;
  unsigned locate;
  std::string symbol;
  std::int64_t bid_price, bid_qty, offer_price, offer_qty;
  bool operator==(const owned_change&) const = default;
};

std::vector<owned_change> read_all(const std::string& path) {
  itch5::tde::inside_reader reader(path);
  std::vector<owned_change> out;
  itch5::inside_line c;
  while (reader.next(c)) {
    out.push_back(
        {c.timestamp, c.locate, std::string(c.symbol), c.bid_price, c.bid_qty, c.offer_price, c.offer_qty});
  }
  return out;
}

// The message of the inside_format_error reading `text` throws.
std::string error_reading(const std::string& text, std::uint64_t* line = nullptr) {
  std::string path = write_file("bad.txt", text);
  try {
    (void)read_all(path);
  } catch (const itch5::tde::inside_format_error& e) {
    std::filesystem::remove(path);
    if (line != nullptr) *line = e.line();
    EXPECT_EQ(e.file(), path);
    std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ":" + std::to_string(e.line()) + ": ", 0), 0u) << msg;
    return msg;
  }
  std::filesystem::remove(path);
  ADD_FAILURE() << "no error for: " << text;
  return {};
}

const std::string sample =
    "34200000012345 13 AAPL 1902500 300 1902600 100\n"
    "34200000012345 14 MSFT 0 0 2000000000 0\n"
    "34200000099999 13 AAPL 1902500 200 1902600 100\n";

const std::vector<owned_change> sample_changes = {
    {34200000012345, 13, "AAPL", 1902500, 300, 1902600, 100},
    {34200000012345, 14, "MSFT", 0, 0, 2000000000, 0},
    {34200000099999, 13, "AAPL", 1902500, 200, 1902600, 100},
};

TEST(inside_reader, reads_every_field) {
  std::string path = write_file("plain.txt", sample);
  EXPECT_EQ(read_all(path), sample_changes);
  std::filesystem::remove(path);
}

TEST(inside_reader, reads_gzip_input) {
  std::string path = write_file("sample.txt.gz", sample);
  {
    std::ifstream raw(path, std::ios::binary);
    ASSERT_EQ(raw.get(), 0x1f) << "the test file must really be gzip";
  }
  EXPECT_EQ(read_all(path), sample_changes);
  std::filesystem::remove(path);
}

TEST(inside_reader, empty_sides_comments_blank_lines_crlf_and_a_missing_final_newline) {
  std::string path = write_file("mixed.txt",
                                "# itch5inside output\r\n"
                                "\n"
                                "34200000012345 14 MSFT 0 0 2000000000 0\r\n"
                                "   \n"
                                "34200000012346\t14  MSFT 3000000 5 2000000000 0");
  itch5::tde::inside_reader reader(path);
  itch5::inside_line c;
  ASSERT_TRUE(reader.next(c));
  EXPECT_FALSE(c.has_bid());
  EXPECT_FALSE(c.has_offer());
  EXPECT_EQ(reader.line_number(), 3u);
  ASSERT_TRUE(reader.next(c));
  EXPECT_EQ(c.symbol, "MSFT");
  EXPECT_TRUE(c.has_bid());
  EXPECT_FALSE(c.has_offer());
  EXPECT_EQ(c.offer_qty, 0);
  EXPECT_EQ(reader.line_number(), 5u);
  EXPECT_FALSE(reader.next(c));
  EXPECT_EQ(reader.changes(), 2u);
  std::filesystem::remove(path);
}

TEST(inside_reader, at_end_reads_ahead_without_losing_the_change) {
  std::string path = write_file("ahead.txt", "# header\n" + sample);
  itch5::tde::inside_reader reader(path);
  EXPECT_FALSE(reader.at_end());
  EXPECT_FALSE(reader.at_end()) << "asking twice reads nothing more";
  EXPECT_EQ(reader.line_number(), 2u);
  std::vector<owned_change> got;
  itch5::inside_line c;
  while (true) {
    if (got.size() == 1) {
      EXPECT_FALSE(reader.at_end());
    }
    if (!reader.next(c)) break;
    got.push_back(
        {c.timestamp, c.locate, std::string(c.symbol), c.bid_price, c.bid_qty, c.offer_price, c.offer_qty});
  }
  EXPECT_EQ(got, sample_changes);
  EXPECT_TRUE(reader.at_end());
  EXPECT_FALSE(reader.next(c));
  std::filesystem::remove(path);

  for (const std::string text : {"", "# only a comment\n\n   \n"}) {
    path = write_file("nothing.txt.gz", text);
    itch5::tde::inside_reader none(path);
    EXPECT_TRUE(none.at_end()) << text;
    EXPECT_EQ(none.line_number(), text.empty() ? 0u : 3u);
    EXPECT_EQ(none.changes(), 0u);
    EXPECT_FALSE(none.next(c));
    std::filesystem::remove(path);
  }
}

TEST(absent_symbols, reads_until_every_symbol_has_appeared) {
  std::string path = write_file("symbols.txt",
                                "34200000000001 1 AAA 1 1 2 1\n"
                                "34200000000002 2 BBB 1 1 2 1\n"
                                "# a comment\n"
                                "34200000000003 3 CCC 1 1 2 1\n"
                                "34200000000004 1 AAA 1 2 2 1\n");
  {
    itch5::tde::inside_reader reader(path);
    EXPECT_TRUE(itch5::tde::absent_symbols(reader, {"BBB", "AAA", "BBB"}).empty());
    EXPECT_EQ(reader.line_number(), 2u) << "stops at the first change of the last symbol to appear";
  }
  {
    itch5::tde::inside_reader reader(path);
    EXPECT_EQ(itch5::tde::absent_symbols(reader, {"ZZZ", "CCC", "aaa", "ZZZ", "AAA"}),
              (std::vector<std::string>{"ZZZ", "aaa"}));
    EXPECT_EQ(reader.line_number(), 5u) << "to the end when one is absent";
  }
  {
    itch5::tde::inside_reader reader(path);
    EXPECT_TRUE(itch5::tde::absent_symbols(reader, {}).empty());
    EXPECT_EQ(reader.line_number(), 0u) << "nothing to look for, nothing read";
  }
  EXPECT_EQ(itch5::tde::absent_symbols_text({"NOPE"}, "b.txt"), "NOPE does not appear in b.txt");
  EXPECT_EQ(itch5::tde::absent_symbols_text({"NOPE", "ZZZ"}, "b.txt"), "NOPE, ZZZ do not appear in b.txt");
  EXPECT_EQ(itch5::tde::absent_symbols_text({}, "b.txt"), "");
  std::filesystem::remove(path);
}

TEST(inside_reader, many_lines_across_buffer_refills) {
  std::string text;
  const int lines = 60000;  // ~2.8 MB: several 1 MiB refills with lines split across them
  for (int i = 0; i < lines; ++i) {
    text += std::to_string(34200000000000LL + i) + " 7 SYM" + std::to_string(i % 10) + " " +
            std::to_string(100 + i) + " " + std::to_string(i % 500 + 1) + " " + std::to_string(200 + i) +
            " 9\n";
  }
  std::string path = write_file("many.txt.gz", text);
  itch5::tde::inside_reader reader(path);
  itch5::inside_line c;
  int n = 0;
  while (reader.next(c)) {
    ASSERT_EQ(c.timestamp, 34200000000000LL + n);
    ASSERT_EQ(c.bid_price, 100 + n);
    ASSERT_EQ(c.symbol, "SYM" + std::to_string(n % 10));
    ++n;
  }
  EXPECT_EQ(n, lines);
  std::filesystem::remove(path);
}

TEST(inside_reader, malformed_lines_are_reported_with_file_and_line_number) {
  const std::string good = "34200000000000 1 AAPL 1 1 2 1\n";
  std::uint64_t line = 0;
  EXPECT_NE(error_reading(good + good + "34200000000001 1 AAPL 1 1 2\n", &line).find("fewer than 7 fields"),
            std::string::npos);
  EXPECT_EQ(line, 3u);
  EXPECT_NE(error_reading(good + "34200000000001 1 AAPL 1 1 2 1 9\n", &line).find("more than 7 fields"),
            std::string::npos);
  EXPECT_EQ(line, 2u);
  EXPECT_NE(error_reading("x4200000000000 1 AAPL 1 1 2 1\n", &line).find("timestamp"), std::string::npos);
  EXPECT_EQ(line, 1u);
  EXPECT_NE(error_reading(good + "34200000000001 70000 AAPL 1 1 2 1\n").find("stock locate"),
            std::string::npos);
  EXPECT_NE(error_reading(good + "34200000000001 1 AAPLAAPLX 1 1 2 1\n").find("symbol"), std::string::npos);
  EXPECT_NE(error_reading(good + "34200000000001 1 AAPL -1 1 2 1\n").find("bid px"), std::string::npos);
  EXPECT_NE(error_reading(good + "34200000000001 1 AAPL 1 1.5 2 1\n").find("bid qty"), std::string::npos);
  EXPECT_NE(error_reading(good + "34200000000001 1 AAPL 1 1 2x 1\n").find("offer px"), std::string::npos);
  EXPECT_NE(error_reading(good + "34200000000001 1 AAPL 1 1 2 +1\n").find("offer qty"), std::string::npos);
  EXPECT_NE(error_reading(good + "34200000000001 1 AAPL 1 1 2 99999999999999999999\n").find("offer qty"),
            std::string::npos);
  EXPECT_NE(error_reading(good + std::string(5000, '1') + "\n").find("longer than"), std::string::npos);
}

TEST(inside_reader, binary_input_is_reported_as_binary_not_as_a_bad_field) {
  const std::string binary =
      "binary data, not an inside-change line (an ITCH file? itch5inside turns one into "
      "inside changes)";
  // ITCH files given by mistake, raw and gzip-compressed.
  for (const char* name : {"real-2019-first1000.itch", "synthetic-200k.itch.gz", "artificial-3stocks.itch"}) {
    const std::string itch = std::string(ITCH5_DATA_DIR) + "/" + name;
    try {
      (void)read_all(itch);
      ADD_FAILURE() << "no error reading " << itch;
    } catch (const itch5::tde::inside_format_error& e) {
      EXPECT_EQ(std::string(e.what()), itch + ":1: " + binary);
    }
  }
  const std::string good = "34200000000000 1 AAPL 1 1 2 1\n";
  std::uint64_t line = 0;
  // A frame header (length 46, type S) then bytes that are not text, on the second line.
  EXPECT_NE(error_reading(good + std::string("\x00\x2e"
                                             "S\x01\x02 7 x\n",
                                             10),
                          &line)
                .find(binary),
            std::string::npos);
  EXPECT_EQ(line, 2u);
  // Binary without a newline in the first 4096 bytes: binary, not "longer than 4096 bytes".
  EXPECT_NE(error_reading(good + std::string(5000, '\x01'), &line).find(binary), std::string::npos);
  EXPECT_EQ(line, 2u);
  EXPECT_NE(error_reading(good + std::string(5000, '\x01') + "\n", &line).find(binary), std::string::npos);
  // Text that is merely malformed keeps its precise reason.
  EXPECT_EQ(error_reading(good + std::string(5000, 'x') + "\n").find(binary), std::string::npos);
}

// A line found too long before its end is read (no newline within the buffer's first 4096 bytes of it):
// the error and line_number() name the same line.
TEST(inside_reader, an_over_long_last_line_is_reported_with_its_line_number) {
  const std::string path = write_file("long.txt", "34200000000000 1 AAPL 1 1 2 1\n" + std::string(5000, '1'));
  itch5::tde::inside_reader reader(path);
  itch5::inside_line c;
  ASSERT_TRUE(reader.next(c));
  try {
    (void)reader.next(c);
    ADD_FAILURE() << "no error";
  } catch (const itch5::tde::inside_format_error& e) {
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(reader.line_number(), 2u);
    EXPECT_NE(std::string(e.what()).find("longer than"), std::string::npos) << e.what();
  }
  std::filesystem::remove(path);
}

// itch5inside writes a feed's timestamp going backwards as it came (an anomaly it counts): such a line is
// read at the time of the line before, counted, and reported with its line number.
TEST(inside_reader, timestamps_going_backwards_are_clamped_and_counted) {
  const std::string path = write_file("backwards.txt",
                                      "34200000000005 1 AAPL 1 1 2 1\n"
                                      "34200000000005 1 AAPL 1 2 2 1\n"
                                      "34200000000004 1 AAPL 1 3 2 1\n"
                                      "34200000000001 1 AAPL 1 4 2 1\n"
                                      "34200000000007 1 AAPL 1 5 2 1\n");
  itch5::tde::inside_reader reader(path);
  std::vector<std::int64_t> times;
  itch5::inside_line c;
  while (reader.next(c)) times.push_back(c.timestamp);
  EXPECT_EQ(times, (std::vector<std::int64_t>{34200000000005, 34200000000005, 34200000000005, 34200000000005,
                                              34200000000007}));
  EXPECT_EQ(reader.changes(), 5u);
  EXPECT_EQ(reader.backwards(), 2u);
  EXPECT_EQ(reader.first_backwards_line(), 3u);
  EXPECT_EQ(itch5::tde::backwards_text(reader),
            path +
                ": 2 lines have a timestamp earlier than the line before (first at line 3); taken at the "
                "time of the line before");
  std::filesystem::remove(path);
}

TEST(inside_reader, a_missing_file_is_an_input_error_naming_it) {
  const std::string path = temp_path("does-not-exist.txt");
  try {
    itch5::tde::inside_reader reader(path);
    FAIL() << "opened a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

}  // namespace
