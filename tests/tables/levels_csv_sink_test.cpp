// levels_csv_sink (each symbol's level texts kept from row to row) writes the text of the generic
// csv_table_sink<levels_table> for the same rows: random books of a few symbols whose levels change, shift,
// empty and refill, at N = 1, 3, 10 and 50, rows of different symbols interleaved.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include <itch5/io/output_file.hpp>
#include <itch5/tables/levels_csv_sink.hpp>
#include <itch5/tables/table_sink.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5::tables::book_level;
using itch5::tables::levels_row;
using itch5::tables::max_levels;

// Rows of random books: each row is one symbol's book after a change of one of its sides (a level's
// shares or orders, a new level shifting those below it down, a level leaving and those below moving up).
std::vector<levels_row> random_rows(std::uint32_t n, std::size_t count, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  constexpr int symbols = 5;
  std::vector<levels_row> books(symbols);
  for (int s = 0; s < symbols; ++s) {
    books[static_cast<std::size_t>(s)].locate = static_cast<std::uint16_t>(3 * s + 1);
    books[static_cast<std::size_t>(s)].symbol =
        itch5::stock_symbol::from(std::string("SYM") + static_cast<char>('A' + s));
    books[static_cast<std::size_t>(s)].levels = n;
  }
  std::vector<levels_row> rows;
  std::int64_t t = 34'200'000'000'000;
  for (std::size_t k = 0; k < count; ++k) {
    levels_row& b = books[rng() % symbols];
    auto& side = rng() % 2 == 0 ? b.bid : b.ask;
    const std::uint32_t depth = [&] {
      std::uint32_t d = 0;
      while (d < n && side[d].shares != 0) ++d;
      return d;
    }();
    const std::uint32_t at = static_cast<std::uint32_t>(rng() % (depth + 1));
    const int what = static_cast<int>(rng() % 4);
    if (what == 0 && depth > 0 && at < depth) {  // a level leaves: those below move up
      for (std::uint32_t i = at; i + 1 < n; ++i) side[i] = side[i + 1];
      side[n - 1] = book_level{};
      if (rng() % 3 == 0)
        side[n - 1].price = itch5::price4(static_cast<std::uint32_t>(rng() % 99999));  // stale
    } else if (what == 1) {  // a new level: those below move down
      for (std::uint32_t i = n - 1; i > at; --i) side[i] = side[i - 1];
      side[at] = {itch5::price4(static_cast<std::uint32_t>(rng() % 2'000'000'000)),
                  static_cast<std::uint32_t>(1 + rng() % 40), 1 + rng() % 1'000'000'000'000};
    } else if (at < depth) {  // shares or orders of a level
      side[at].shares = 1 + rng() % (what == 2 ? 1000 : 1'000'000);
      side[at].count = static_cast<std::uint32_t>(1 + rng() % 5);
    }
    t += static_cast<std::int64_t>(rng() % 5'000'000'000);
    b.timestamp = itch5::timestamp(t);
    rows.push_back(b);
  }
  return rows;
}

void write_all(itch5::tables::table_sink<itch5::tables::levels_table>& sink,
               const std::vector<levels_row>& rows) {
  for (std::size_t at = 0; at < rows.size(); at += 37)  // batches of several sizes, as the engine's
    sink.write(std::span(rows).subspan(at, std::min<std::size_t>(37, rows.size() - at)));
  sink.finish();
}

TEST(LevelsCsvSink, WritesTheTextOfTheGenericWriter) {
  for (const std::uint32_t n : {1u, 3u, 10u, max_levels}) {
    const auto rows = random_rows(n, 20'000, n);
    levels_row shape;
    shape.levels = n;
    itch5_test::temp_dir dir;
    {
      itch5::io::output_file generic_out(dir.file("generic.csv"));
      itch5::tables::csv_table_sink<itch5::tables::levels_table> generic(generic_out, shape);
      write_all(generic, rows);
      generic_out.commit();
      itch5::io::output_file cached_out(dir.file("cached.csv"));
      itch5::tables::levels_csv_sink cached(cached_out, shape);
      write_all(cached, rows);
      EXPECT_EQ(cached.rows(), rows.size());
      cached_out.commit();
    }
    const std::string want = itch5_test::read_text(dir.file("generic.csv"));
    const std::string got = itch5_test::read_text(dir.file("cached.csv"));
    ASSERT_GT(want.size(), rows.size() * (n == 1 ? 20 : 60)) << n;
    ASSERT_TRUE(got == want) << "N = " << n;
  }
}

}  // namespace
