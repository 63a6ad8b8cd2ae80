// The book engine on small hand-made streams, for every book family: exact insides after each message,
// event depths, book depths, and every kind of anomaly.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/peek.hpp>

#include <itch5/book/book_engine.hpp>
#include <itch5/book/book_types.hpp>

#include "message_builders.hpp"
#include "random_stream.hpp"

namespace {

using namespace testing_messages;
using itch5::price4;
using itch5::book::anomaly;
using itch5::book::price_level;

struct recorded {
  itch5::book::book_event event;
  itch5::book::inside in;
};

template <class Book>
struct recorder {
  static constexpr bool wants_book_depth = true;
  std::vector<recorded> events;
  void on_book_event(const itch5::book::book_event& e, const itch5::book::order_book<Book>& b) {
    events.push_back({e, b.last});
  }
};

template <class Book>
class BookEngineTest : public ::testing::Test {
 protected:
  BookEngineTest() {
    engine(directory(1, "AAPL"));
    engine(directory(2, "PENNY"));
  }

  // Feeds one message and returns the event it produced (fails the test if none).
  template <class M>
  recorded feed(const M& m) {
    std::size_t before = rec.events.size();
    engine(m);
    EXPECT_EQ(rec.events.size(), before + 1) << "expected exactly one book event";
    return rec.events.empty() ? recorded{} : rec.events.back();
  }
  // Feeds one message that must produce no book event.
  template <class M>
  void feed_skipped(const M& m) {
    std::size_t before = rec.events.size();
    engine(m);
    EXPECT_EQ(rec.events.size(), before) << "expected the message to be skipped";
  }

  static itch5::book::inside in(std::uint32_t bp, std::uint64_t bq, std::uint32_t op, std::uint64_t oq) {
    return {bq ? price_level{price4(bp), bq} : price_level{},
            oq ? price_level{price4(op), oq} : price_level{}};
  }

  itch5::book::book_config cfg{64};
  recorder<Book> rec;
  itch5::book::book_engine<Book, recorder<Book>> engine{cfg, rec};
};

using families = ::testing::Types<itch5::book::array_book, itch5::book::map_book>;
TYPED_TEST_SUITE(BookEngineTest, families);

TYPED_TEST(BookEngineTest, FirstBidAndFirstOfferChangeTheInside) {
  auto r = this->feed(add(10, 1, 1, 'B', 100, 1000000));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(1000000, 100, 0, 0));
  EXPECT_EQ(r.event.locate, 1);
  EXPECT_EQ(r.event.timestamp.count(), 10);
  EXPECT_EQ(r.event.type, 'A');
  r = this->feed(add(11, 1, 2, 'S', 200, 1000100));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(1000000, 100, 1000100, 200));
}

TYPED_TEST(BookEngineTest, OrdersBehindTheInsideDoNotChangeIt) {
  this->feed(add(1, 1, 1, 'B', 100, 1000000));
  auto r = this->feed(add(2, 1, 2, 'B', 100, 999700));  // 3 cents below
  EXPECT_FALSE(r.event.inside_changed);
  EXPECT_EQ(r.event.event_depth, 3u);
  EXPECT_EQ(r.event.book_depth, 3u);
  r = this->feed(del(3, 1, 2));
  EXPECT_FALSE(r.event.inside_changed);
  EXPECT_EQ(r.event.event_depth, 3u);
  EXPECT_EQ(r.event.book_depth, 0u);
}

TYPED_TEST(BookEngineTest, JoiningTheBestLevelChangesItsSize) {
  this->feed(add(1, 1, 1, 'S', 100, 1000000));
  auto r = this->feed(add(2, 1, 2, 'S', 50, 1000000));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(0, 0, 1000000, 150));
  EXPECT_EQ(r.event.event_depth, 0u);
}

TYPED_TEST(BookEngineTest, ExecutionsAndCancelsAtTheInside) {
  this->feed(add(1, 1, 1, 'B', 300, 1000000));
  this->feed(add(2, 1, 2, 'B', 100, 999900));
  auto r = this->feed(exec(3, 1, 1, 100));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(1000000, 200, 0, 0));
  r = this->feed(exec_price(4, 1, 1, 50, 1000500));  // the trade price does not move the book
  EXPECT_EQ(r.in, this->in(1000000, 150, 0, 0));
  EXPECT_EQ(r.event.type, 'C');
  r = this->feed(cancel(5, 1, 1, 100));
  EXPECT_EQ(r.in, this->in(1000000, 50, 0, 0));
  EXPECT_EQ(r.event.type, 'X');
  r = this->feed(exec(6, 1, 1, 50));  // fully executed: the next level becomes the best
  EXPECT_EQ(r.in, this->in(999900, 100, 0, 0));
  this->feed_skipped(del(7, 1, 1));  // order 1 is gone
  EXPECT_EQ(this->engine.anomalies()[anomaly::unknown_order], 1u);
}

TYPED_TEST(BookEngineTest, DeleteThatEmptiesTheBestLevel) {
  this->feed(add(1, 1, 1, 'S', 100, 1000000));
  this->feed(add(2, 1, 2, 'S', 100, 1000300));
  auto r = this->feed(del(3, 1, 1));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(0, 0, 1000300, 100));
  r = this->feed(del(4, 1, 2));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(0, 0, 0, 0));
}

TYPED_TEST(BookEngineTest, ReplaceThatMovesAnOrderToANewBestPrice) {
  // Order 2 rests behind the inside; its replacement improves on the best bid: the inside must change.
  this->feed(add(1, 1, 1, 'B', 100, 1000000));
  this->feed(add(2, 1, 2, 'B', 300, 999000));
  auto r = this->feed(replace(3, 1, 2, 3, 300, 1000100));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(1000100, 300, 0, 0));
  EXPECT_EQ(r.event.type, 'U');
  EXPECT_EQ(r.event.side, itch5::book::side_kind::buy);
  EXPECT_EQ(r.event.event_depth, 0u);  // the new price beats the best before the replace
  // The new reference is live with the original's side; the original is gone.
  r = this->feed(exec(4, 1, 3, 100));
  EXPECT_EQ(r.in, this->in(1000100, 200, 0, 0));
  this->feed_skipped(del(5, 1, 2));
}

TYPED_TEST(BookEngineTest, ReplaceOfTheBestOrderToAWorsePriceAndAcrossTheWindow) {
  this->feed(add(1, 1, 1, 'S', 100, 1000000));
  this->feed(add(2, 1, 2, 'S', 100, 1000500));
  auto r = this->feed(replace(3, 1, 1, 3, 100, 1002000));  // 20 cents worse than the old best
  EXPECT_EQ(r.in, this->in(0, 0, 1000500, 100));
  EXPECT_EQ(r.event.event_depth, 20u);              // from the best before the replace
  r = this->feed(replace(4, 1, 3, 4, 40, 980000));  // 200 levels better than the window edge
  EXPECT_EQ(r.in, this->in(0, 0, 980000, 40));
  r = this->feed(replace(5, 1, 4, 5, 60, 980000));  // same price, new size
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.in, this->in(0, 0, 980000, 60));
}

TYPED_TEST(BookEngineTest, SubDollarBooksUseTheFinerTick) {
  this->feed(add(1, 2, 1, 'B', 1000, 5000));  // $0.5000
  auto r = this->feed(add(2, 2, 2, 'B', 1000, 4990));
  EXPECT_EQ(r.event.event_depth, 10u);  // ten $0.0001 levels
  r = this->feed(add(3, 2, 3, 'S', 500, 5003));
  EXPECT_EQ(r.in, this->in(5000, 1000, 5003, 500));
}

TYPED_TEST(BookEngineTest, EventDepthIsZeroOnAnEmptySideAndForBetterPrices) {
  auto r = this->feed(add(1, 1, 1, 'B', 100, 1000000));
  EXPECT_EQ(r.event.event_depth, 0u);
  r = this->feed(add(2, 1, 2, 'B', 100, 1010000));
  EXPECT_EQ(r.event.event_depth, 0u);
  r = this->feed(add(3, 1, 3, 'S', 100, 1200000));  // the offer side was empty
  EXPECT_EQ(r.event.event_depth, 0u);
}

TYPED_TEST(BookEngineTest, BadAddsAreCountedAndSkipped) {
  this->feed(add(1, 1, 1, 'B', 100, 1000000));
  this->feed_skipped(add(2, 1, 1, 'B', 100, 1000100));    // duplicate reference
  this->feed_skipped(add(3, 1, 2, 'B', 0, 1000100));      // zero shares
  this->feed_skipped(add(4, 1, 3, 'B', 10, 0));           // zero price
  this->feed_skipped(add(5, 1, 4, 'S', 10, 2000000001));  // above $200,000.0000
  this->feed_skipped(add(6, 1, 5, 'Z', 10, 1000100));     // no such side
  const auto& a = this->engine.anomalies();
  EXPECT_EQ(a[anomaly::duplicate_order], 1u);
  EXPECT_EQ(a[anomaly::zero_shares], 1u);
  EXPECT_EQ(a[anomaly::invalid_price], 2u);
  EXPECT_EQ(a[anomaly::invalid_side], 1u);
  EXPECT_EQ(this->engine.find_book(1)->last, this->in(1000000, 100, 0, 0));
  // The largest valid price is accepted.
  auto r = this->feed(add(7, 1, 6, 'S', 10, 2000000000));
  EXPECT_EQ(r.in, this->in(1000000, 100, 2000000000, 10));
}

TYPED_TEST(BookEngineTest, ReductionsOfUnknownOrdersOrTooManySharesAreCounted) {
  this->feed_skipped(exec(1, 1, 99, 10));
  this->feed_skipped(exec_price(2, 1, 99, 10, 1));
  this->feed_skipped(cancel(3, 1, 99, 10));
  this->feed_skipped(del(4, 1, 99));
  this->feed_skipped(replace(5, 1, 99, 100, 10, 1000000));
  EXPECT_EQ(this->engine.anomalies()[anomaly::unknown_order], 5u);
  this->feed(add(6, 1, 1, 'B', 100, 1000000));
  auto r = this->feed(exec(7, 1, 1, 150));  // more than the order has: the order is removed
  EXPECT_EQ(this->engine.anomalies()[anomaly::reduce_exceeds_order], 1u);
  EXPECT_EQ(r.in, this->in(0, 0, 0, 0));
  this->feed_skipped(del(8, 1, 1));
}

TYPED_TEST(BookEngineTest, ReplaceWithABadNewOrderStillRemovesTheOriginal) {
  this->feed(add(1, 1, 1, 'B', 100, 1000000));
  this->feed(add(2, 1, 2, 'B', 100, 990000));
  this->feed(add(3, 1, 3, 'B', 100, 980000));
  auto r = this->feed(replace(4, 1, 1, 10, 0, 1000000));  // zero shares
  EXPECT_EQ(r.in, this->in(990000, 100, 0, 0));
  r = this->feed(replace(5, 1, 2, 11, 100, 0));  // invalid price
  EXPECT_EQ(r.in, this->in(980000, 100, 0, 0));
  r = this->feed(replace(6, 1, 3, 3, 100, 970000));  // the "new" reference is the original itself: fine
  EXPECT_EQ(r.in, this->in(970000, 100, 0, 0));
  this->feed(add(7, 1, 20, 'B', 5, 960000));
  r = this->feed(replace(8, 1, 3, 20, 100, 970000));  // new reference already live
  EXPECT_EQ(r.in, this->in(960000, 5, 0, 0));
  const auto& a = this->engine.anomalies();
  EXPECT_EQ(a[anomaly::zero_shares], 1u);
  EXPECT_EQ(a[anomaly::invalid_price], 1u);
  EXPECT_EQ(a[anomaly::duplicate_order], 1u);
}

TYPED_TEST(BookEngineTest, CrossedBooksAreCountedOnEntry) {
  this->feed(add(1, 1, 1, 'B', 100, 1000000));
  this->feed(add(2, 1, 2, 'S', 100, 1000000));  // locked: bid == offer
  EXPECT_EQ(this->engine.anomalies()[anomaly::crossed_book], 1u);
  this->feed(add(3, 1, 3, 'S', 100, 990000));  // still crossed: not counted again
  EXPECT_EQ(this->engine.anomalies()[anomaly::crossed_book], 1u);
  this->feed(del(4, 1, 1));                   // uncrossed
  this->feed(add(5, 1, 4, 'B', 10, 995000));  // crossed again
  EXPECT_EQ(this->engine.anomalies()[anomaly::crossed_book], 2u);
}

TYPED_TEST(BookEngineTest, UnannouncedLocatesAreCountedAndNamedByTheAdd) {
  auto r = this->feed(add(1, 77, 1, 'B', 100, 1000000, "ZZZ"));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(this->engine.anomalies()[anomaly::unannounced_locate], 1u);
  EXPECT_EQ(this->engine.find_book(77)->symbol.str(), "ZZZ");
  this->feed(add(2, 1, 2, 'B', 100, 1000000));
  EXPECT_EQ(this->engine.anomalies()[anomaly::unannounced_locate], 1u) << "locate 1 was announced";
}

TYPED_TEST(BookEngineTest, TimestampsGoingBackwardsOrBeyondTheDay) {
  this->feed(add(1000, 1, 1, 'B', 100, 1000000));
  this->feed(add(999, 1, 2, 'B', 100, 1000000));
  EXPECT_EQ(this->engine.anomalies()[anomaly::timestamp_backwards], 1u);
  itch5::system_event s{};
  s.header = hdr(0, 86'400'000'000'000);
  this->engine(s);
  EXPECT_EQ(this->engine.anomalies()[anomaly::timestamp_beyond_day], 1u);
  this->feed(add(2000, 1, 3, 'B', 100, 1000000));
  EXPECT_EQ(this->engine.anomalies()[anomaly::timestamp_backwards], 2u);
}

TYPED_TEST(BookEngineTest, BooksAreKeptPerLocate) {
  this->feed(add(1, 1, 1, 'B', 100, 1000000));
  auto r = this->feed(add(2, 2, 2, 'B', 7, 5000));
  EXPECT_TRUE(r.event.inside_changed);
  EXPECT_EQ(r.event.locate, 2);
  EXPECT_EQ(r.in, this->in(5000, 7, 0, 0));
  EXPECT_EQ(this->engine.find_book(1)->last, this->in(1000000, 100, 0, 0));
  r = this->feed(del(3, 1, 2));  // the order knows its locate
  EXPECT_EQ(r.event.locate, 2);
  EXPECT_EQ(this->engine.find_book(2)->last, this->in(0, 0, 0, 0));
}

TYPED_TEST(BookEngineTest, NonBookMessagesProduceNoEvents) {
  itch5::trade p{};
  p.header = hdr(1, 5);
  p.order_ref = 1;
  p.side = 'B';
  p.shares = 100;
  p.price = price4(1000000);
  this->feed_skipped(p);
  itch5::cross_trade q{};
  q.header = hdr(1, 6);
  this->feed_skipped(q);
  EXPECT_EQ(this->engine.book_events(), 0u);
}

// The look-ahead stages (prefetch_far, prefetch_level) are hints: an engine that is
// handed every frame ahead of time, whole and cut at every length that changes what a stage may read (each
// in a heap buffer of exactly that size, so that a read past it shows under ASan), gives the same events and
// anomalies as one that never is, on a random stream with every kind of anomaly.
TYPED_TEST(BookEngineTest, PrefetchStagesChangeNothingAndReadOnlyTheirFrame) {
  const std::vector<std::byte> stream = random_stream(7, 20000, true);
  std::vector<std::span<const std::byte>> frames;
  for (std::size_t at = 0; at + itch5::frame_length_size <= stream.size();) {
    const std::size_t len = itch5::peek_frame_length(stream.data() + at);
    frames.emplace_back(stream.data() + at + itch5::frame_length_size, len);
    at += itch5::frame_length_size + len;
  }
  ASSERT_GT(frames.size(), 19000u);
  recorder<TypeParam> plain_rec;
  itch5::book::book_engine<TypeParam, recorder<TypeParam>> plain(this->cfg, plain_rec);
  recorder<TypeParam> hinted_rec;
  itch5::book::book_engine<TypeParam, recorder<TypeParam>> hinted(this->cfg, hinted_rec);
  auto each_cut = [&](std::span<const std::byte> f, auto&& stage) {
    for (std::size_t n :
         {std::size_t{0}, std::size_t{1}, itch5::order_reference_end - 1, itch5::order_reference_end,
          itch5::add_price_end - 1, itch5::add_price_end, f.size()}) {
      if (n > f.size()) continue;
      const std::vector<std::byte> copy(f.begin(),
                                        f.begin() + static_cast<std::ptrdiff_t>(n));  // exactly n bytes
      stage(std::span<const std::byte>(copy.data(), n));
    }
  };
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (i + 16 < frames.size()) each_cut(frames[i + 16], [&](auto f) { hinted.prefetch_far(f); });
    if (i + 5 < frames.size()) each_cut(frames[i + 5], [&](auto f) { hinted.prefetch_level(f); });
    itch5::dispatch_unchecked(frames[i].data(), hinted);
    itch5::dispatch_unchecked(frames[i].data(), plain);
  }
  ASSERT_EQ(hinted_rec.events.size(), plain_rec.events.size());
  ASSERT_GT(plain_rec.events.size(), 10000u);
  for (std::size_t i = 0; i < plain_rec.events.size(); ++i) {
    ASSERT_EQ(hinted_rec.events[i].in, plain_rec.events[i].in) << "event " << i;
    ASSERT_EQ(hinted_rec.events[i].event.inside_changed, plain_rec.events[i].event.inside_changed)
        << "event " << i;
    ASSERT_EQ(hinted_rec.events[i].event.book_depth, plain_rec.events[i].event.book_depth) << "event " << i;
  }
  EXPECT_GT(plain.anomalies().total(), 0u);
  EXPECT_EQ(hinted.anomalies().total(), plain.anomalies().total());
  EXPECT_EQ(hinted.orders().size(), plain.orders().size());
}

// A directory of thousands of symbols comes faster than huge pages can be mapped: books made while the
// arena has nothing ready keep their windows on the heap and move into the arena at later messages that
// touch no book. Wherever a window lives, the array books give the map books' insides, event by event.
// What each event says it did to its order: the reference, the price (the resting order's for E, C, X
// and D), the shares moved and left, a replace's old order, an execution's match number, price and flag.
TYPED_TEST(BookEngineTest, EventsSayWhatTheyDidToTheirOrder) {
  auto a = this->feed(add(10, 1, 7, 'S', 300, 1'000'100)).event;
  EXPECT_EQ(a.type, 'A');
  EXPECT_EQ(a.order_ref, 7u);
  EXPECT_EQ(a.price, price4(1'000'100));
  EXPECT_EQ(a.shares, 300u);
  EXPECT_EQ(a.remaining, 300u);
  EXPECT_EQ(a.old_ref, 0u);

  auto e_msg = exec(11, 1, 7, 100);
  e_msg.match_number = 555;
  auto e = this->feed(e_msg).event;
  EXPECT_EQ(e.type, 'E');
  EXPECT_EQ(e.price, price4(1'000'100));
  EXPECT_EQ(e.execution_price, price4(1'000'100));  // E executes at the resting order's price
  EXPECT_EQ(e.shares, 100u);
  EXPECT_EQ(e.remaining, 200u);
  EXPECT_EQ(e.match_number, 555u);
  EXPECT_EQ(e.printable, 'Y');

  auto c_msg = exec_price(12, 1, 7, 50, 1'000'000);
  c_msg.match_number = 556;
  c_msg.printable = 'N';
  auto c = this->feed(c_msg).event;
  EXPECT_EQ(c.type, 'C');
  EXPECT_EQ(c.price, price4(1'000'100));
  EXPECT_EQ(c.execution_price, price4(1'000'000));
  EXPECT_EQ(c.shares, 50u);
  EXPECT_EQ(c.remaining, 150u);
  EXPECT_EQ(c.match_number, 556u);
  EXPECT_EQ(c.printable, 'N');

  auto x = this->feed(cancel(13, 1, 7, 20)).event;
  EXPECT_EQ(x.type, 'X');
  EXPECT_EQ(x.shares, 20u);
  EXPECT_EQ(x.remaining, 130u);
  EXPECT_EQ(x.match_number, 0u);

  auto u = this->feed(replace(14, 1, 7, 8, 400, 1'000'200)).event;
  EXPECT_EQ(u.type, 'U');
  EXPECT_EQ(u.side, itch5::book::side_kind::sell);
  EXPECT_EQ(u.order_ref, 8u);
  EXPECT_EQ(u.price, price4(1'000'200));
  EXPECT_EQ(u.shares, 400u);
  EXPECT_EQ(u.remaining, 400u);
  EXPECT_EQ(u.old_ref, 7u);
  EXPECT_EQ(u.old_price, price4(1'000'100));
  EXPECT_EQ(u.old_shares, 130u);

  // A replace whose new order cannot be added (zero shares) still removed the old one: shares 0.
  auto u0 = this->feed(replace(15, 1, 8, 9, 0, 1'000'300)).event;
  EXPECT_EQ(u0.old_ref, 8u);
  EXPECT_EQ(u0.old_shares, 400u);
  EXPECT_EQ(u0.shares, 0u);
  EXPECT_EQ(u0.remaining, 0u);

  this->feed(add(16, 1, 10, 'B', 100, 999'900));
  auto full = this->feed(exec(17, 1, 10, 100)).event;
  EXPECT_EQ(full.remaining, 0u);  // the order left the book
  this->feed(add(18, 1, 11, 'B', 250, 999'800));
  auto d = this->feed(del(19, 1, 11)).event;
  EXPECT_EQ(d.type, 'D');
  EXPECT_EQ(d.order_ref, 11u);
  EXPECT_EQ(d.price, price4(999'800));
  EXPECT_EQ(d.shares, 250u);
  EXPECT_EQ(d.remaining, 0u);
}

// An observer with on_message overloads gets the messages that touch no book, with their locate's book
// (the directory's own), and nothing for the types it has no overload for.
template <class Book>
struct message_recorder {
  std::vector<std::string> seen;
  void on_book_event(const itch5::book::book_event&, const itch5::book::order_book<Book>&) {}
  void on_message(const itch5::stock_directory& m, const itch5::book::order_book<Book>* b) {
    seen.push_back("R " + std::string(m.stock.str()) +
                   (b != nullptr ? " " + std::string(b->symbol.str()) : ""));
  }
  void on_message(const itch5::system_event& m, const itch5::book::order_book<Book>* b) {
    seen.push_back(std::string("S ") + m.event_code + (b == nullptr ? " no book" : " book"));
  }
};

TYPED_TEST(BookEngineTest, ObserversGetTheMessagesTheyTakeOverloadsFor) {
  message_recorder<TypeParam> messages;
  itch5::book::book_engine<TypeParam, message_recorder<TypeParam>> e(this->cfg, messages);
  e(system_event(1, 'O'));
  e(directory(3, "MSFT"));
  e(add(2, 3, 1, 'B', 100, 1'000'000));  // no overload: nothing recorded
  EXPECT_EQ(messages.seen, (std::vector<std::string>{"S O no book", "R MSFT MSFT"}));
}

TEST(BookEngineArena, BooksMadeInADirectoryFloodMoveIntoTheArena) {
  constexpr std::uint16_t symbols = 5000;  // ~5 chunks of 2 MiB
  itch5::book::book_config cfg;
  recorder<itch5::book::array_book> array_rec;
  recorder<itch5::book::map_book> map_rec;
  itch5::book::book_engine<itch5::book::array_book, recorder<itch5::book::array_book>> array_engine(
      cfg, array_rec);
  itch5::book::book_engine<itch5::book::map_book, recorder<itch5::book::map_book>> map_engine(cfg, map_rec);
  auto both = [&](const auto& m) {
    array_engine(m);
    map_engine(m);
  };
  for (std::uint16_t l = 1; l <= symbols; ++l) both(directory(l, "S" + std::to_string(l)));
  // How many books the flood left outside depends on the helper's speed (nearly all, usually); not asserted.
  RecordProperty("books_outside_arena_after_directory", static_cast<int>(array_engine.books_outside_arena()));
  std::uint64_t ref = 1;
  std::int64_t ts = 10;
  auto orders = [&] {
    for (std::uint16_t l = 1; l <= symbols; l = static_cast<std::uint16_t>(l + 7)) {
      both(add(ts++, l, ref++, 'B', 100, 100000 + 100 * (l % 50)));
      both(add(ts++, l, ref++, 'S', 200, 200000 + 100 * (l % 50)));
      both(exec(ts++, l, ref - 2, 40));
      both(del(ts++, l, ref - 1));
    }
  };
  orders();  // books still outside the arena take heap windows at their first add
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (array_engine.books_outside_arena() > 0 && std::chrono::steady_clock::now() < give_up) {
    both(system_event(ts++, 'O'));  // touches no book: moves windows as far as the arena has memory
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  EXPECT_EQ(array_engine.books_outside_arena(), 0u);
  orders();  // the moved windows, with their levels, go on as before
  ASSERT_EQ(array_rec.events.size(), map_rec.events.size());
  for (std::size_t i = 0; i < array_rec.events.size(); ++i) {
    ASSERT_EQ(array_rec.events[i].in, map_rec.events[i].in) << "event " << i;
    ASSERT_EQ(array_rec.events[i].event.inside_changed, map_rec.events[i].event.inside_changed)
        << "event " << i;
    ASSERT_EQ(array_rec.events[i].event.book_depth, map_rec.events[i].event.book_depth) << "event " << i;
  }
  EXPECT_EQ(array_engine.anomalies().total(), 0u);
}

}  // namespace
