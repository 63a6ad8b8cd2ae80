// itch5::inside::slowest_messages: keeps the N slowest of what it is offered, slowest first, the earlier of
// equals.
#include <itch5/inside/slowest_messages.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

namespace itch5::inside {
void PrintTo(const slow_message& m, std::ostream* os) {
  *os << "#" << m.message << " " << m.type << " " << m.took.count() << " ns";
}
}  // namespace itch5::inside

namespace {

using std::chrono::nanoseconds;

// What the N slowest are by definition: a stable sort of all offers by time, slowest first, cut at N.
std::vector<itch5::inside::slow_message> expected_slowest(std::vector<itch5::inside::slow_message> all,
                                                          std::size_t keep) {
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.took > b.took; });
  all.resize(std::min(keep, all.size()));
  return all;
}

TEST(SlowestMessages, KeepsTheSlowestInOrderAndTheEarlierOfEqualTimes) {
  itch5::inside::slowest_messages s(3);
  s.offer(1, 'A', nanoseconds(5));
  s.offer(2, 'D', nanoseconds(9));
  s.offer(3, 'E', nanoseconds(1));
  s.offer(4, 'U', nanoseconds(9));
  s.offer(5, 'X', nanoseconds(7));
  s.offer(6, 'A', nanoseconds(9));  // as slow as #2 and #4, later: #5 goes, #6 stays
  s.offer(7, 'C', nanoseconds(9));  // equal to the quickest kept, later: not kept
  const std::vector<itch5::inside::slow_message> want = {
      {2, 'D', nanoseconds(9)}, {4, 'U', nanoseconds(9)}, {6, 'A', nanoseconds(9)}};
  EXPECT_EQ(s.sorted(), want);
}

TEST(SlowestMessages, MatchesASortOfEverythingOffered) {
  for (std::size_t keep : {1U, 2U, 10U, 100U, 5000U}) {
    std::mt19937_64 rng(keep);
    std::uniform_int_distribution<int> time(0, 300);  // many equal times
    itch5::inside::slowest_messages s(keep);
    std::vector<itch5::inside::slow_message> all;
    for (std::uint64_t n = 1; n <= 2000; ++n) {
      const itch5::inside::slow_message m{n, static_cast<char>('A' + n % 26), nanoseconds(time(rng))};
      all.push_back(m);
      s.offer(m.message, m.type, m.took);
    }
    EXPECT_EQ(s.sorted(), expected_slowest(all, keep)) << "keep " << keep;
  }
}

TEST(SlowestMessages, KeepingNoneKeepsNothing) {
  itch5::inside::slowest_messages s(0);
  s.offer(1, 'A', nanoseconds(1'000'000'000));
  s.offer(2, 'A', nanoseconds::max());
  EXPECT_TRUE(s.sorted().empty());
}

}  // namespace
