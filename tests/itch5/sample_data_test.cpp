// The shipped samples (data/, described in data's upstream README): the real 2019 excerpt and the
// artificial three-stock file, raw and gzip, decoded end to end with message_reader + dispatch_unchecked.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/message_reader.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5::read_status;

struct census {
  std::map<char, std::uint64_t> counts;
  std::uint64_t total = 0;
  std::vector<itch5::stock_directory> directory;
  std::vector<itch5::system_event> events;
  read_status status = read_status::message;
  std::uint64_t framed = 0;
  std::uint64_t unknown = 0;
};

census take_census(const std::string& path, itch5_test::source_config cfg = {std::size_t{1} << 20, true}) {
  itch5::io::block_options o;
  o.block_size = cfg.block_size;
  o.threaded = cfg.threaded;
  itch5::message_reader reader(itch5::io::make_block_source(itch5::io::open_input(path), o));
  census c;
  auto handler = [&](const auto& m) {
    using M = std::decay_t<decltype(m)>;
    ++c.counts[M::type];
    ++c.total;
    if constexpr (std::is_same_v<M, itch5::stock_directory>) c.directory.push_back(m);
    if constexpr (std::is_same_v<M, itch5::system_event>) c.events.push_back(m);
  };
  std::span<const std::byte> msg;
  while (reader.next(msg) == read_status::message) {
    EXPECT_EQ(itch5::dispatch_unchecked(msg.data(), handler), itch5::dispatch_result::delivered);
  }
  c.status = reader.status();
  if (c.status == read_status::error) ADD_FAILURE() << reader.error().describe(path);
  c.framed = reader.messages();
  c.unknown = reader.unknown_total();
  return c;
}

TEST(RealSample, CountsAndAaplAtLocate13) {
  auto c = take_census(itch5_test::data_path("real-2019-first1000.itch"));
  EXPECT_EQ(c.status, read_status::end_of_input);
  EXPECT_EQ(c.counts, (std::map<char, std::uint64_t>{{'S', 1}, {'R', 993}, {'H', 3}, {'Y', 3}}));
  EXPECT_EQ(c.total, 1000u);
  EXPECT_EQ(c.framed, 1000u);
  EXPECT_EQ(c.unknown, 0u);

  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0].event_code, 'O');  // start of messages

  ASSERT_EQ(c.directory.size(), 993u);
  for (std::size_t i = 0; i < c.directory.size(); ++i) {
    EXPECT_EQ(c.directory[i].header.stock_locate, i + 1) << "locates run 1..993";
  }
  EXPECT_EQ(c.directory[0].stock.str(), "A");
  EXPECT_EQ(c.directory[1].stock.str(), "AA");
  EXPECT_EQ(c.directory[12].header.stock_locate, 13);
  EXPECT_EQ(c.directory[12].stock.str(), "AAPL");
  EXPECT_EQ(c.directory[12].round_lot_size, 100u);
}

const std::map<char, std::uint64_t> artificial_counts{{'P', 5000}, {'A', 4997}, {'D', 1745}, {'E', 198},
                                                      {'X', 45},   {'U', 12},   {'S', 6},    {'R', 3},
                                                      {'H', 3},    {'F', 3}};

TEST(ArtificialSample, RawCountsMatchReadme) {
  auto c = take_census(itch5_test::data_path("artificial-3stocks.itch"));
  EXPECT_EQ(c.status, read_status::end_of_input);
  EXPECT_EQ(c.counts, artificial_counts);
  EXPECT_EQ(c.total, 12'012u);
  ASSERT_EQ(c.directory.size(), 3u);
  EXPECT_EQ(c.directory[0].stock.str(), "ALC");
  EXPECT_EQ(c.directory[1].stock.str(), "BOB");
  EXPECT_EQ(c.directory[2].stock.str(), "CHAR");
}

TEST(ArtificialSample, GzipCountsMatchReadme) {
  auto c = take_census(itch5_test::data_path("artificial-3stocks.itch.gz"));
  EXPECT_EQ(c.status, read_status::end_of_input);
  EXPECT_EQ(c.counts, artificial_counts);
  EXPECT_EQ(c.total, 12'012u);
}

TEST(ArtificialSample, SmallBlocksGiveTheSameMessagesAsLargeOnes) {
  const auto path = itch5_test::data_path("artificial-3stocks.itch");
  const auto expected = itch5_test::reference_frames(itch5_test::read_file(path));
  ASSERT_EQ(expected.size(), 12'012u);
  for (itch5_test::source_config cfg :
       {itch5_test::source_config{std::size_t{1} << 20, true},
        itch5_test::source_config{std::size_t{1} << 20, false}, itch5_test::source_config{3, false},
        itch5_test::source_config{7, true}, itch5_test::source_config{4093, true}}) {
    SCOPED_TRACE(testing::PrintToString(cfg));
    auto r = itch5_test::read_path(path, cfg);
    EXPECT_EQ(r.status, read_status::end_of_input);
    EXPECT_TRUE(r.messages == expected) << "message sequence differs";
    EXPECT_EQ(r.messages.size(), expected.size());
  }
}

}  // namespace
