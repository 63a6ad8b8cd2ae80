// row_batch with and without a sink_thread: the sinks get every row in order, from the writer thread only
// when there is one, finish() on the caller's thread after the last write; a write's exception comes back
// to the producer and drops the later batches; a batch destroyed without finish() waits for its writes;
// ahead() names the slots next() gives later.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <itch5/tables/sink_thread.hpp>
#include <itch5/tables/table_sink.hpp>

namespace {

struct number_table {
  using row = std::uint64_t;
};

using itch5::tables::row_batch;
using itch5::tables::sink_thread;

// Records what it was given and from which thread; throws on write number `fail_at` (1-based) if set.
class recording_sink final : public itch5::tables::table_sink<number_table> {
 public:
  explicit recording_sink(std::optional<int> fail_at = std::nullopt,
                          std::chrono::microseconds delay = std::chrono::microseconds(0))
      : fail_at_(fail_at), delay_(delay) {}

  void write(std::span<const std::uint64_t> rows) override {
    const std::lock_guard lock(mutex_);  // read by the test thread after the run
    ++writes_;
    threads_.push_back(std::this_thread::get_id());
    if (fail_at_ && writes_ == *fail_at_)
      throw std::runtime_error("disk full at write " + std::to_string(writes_));
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    rows_.insert(rows_.end(), rows.begin(), rows.end());
  }
  void finish() override {
    const std::lock_guard lock(mutex_);
    ++finishes_;
    finish_thread_ = std::this_thread::get_id();
    writes_at_finish_ = writes_;
  }

  std::vector<std::uint64_t> rows() {
    const std::lock_guard lock(mutex_);
    return rows_;
  }
  std::vector<std::thread::id> threads() {
    const std::lock_guard lock(mutex_);
    return threads_;
  }
  int writes() {
    const std::lock_guard lock(mutex_);
    return writes_;
  }
  int finishes() {
    const std::lock_guard lock(mutex_);
    return finishes_;
  }
  std::thread::id finish_thread() {
    const std::lock_guard lock(mutex_);
    return finish_thread_;
  }
  int writes_at_finish() {
    const std::lock_guard lock(mutex_);
    return writes_at_finish_;
  }

 private:
  std::mutex mutex_;
  std::optional<int> fail_at_;
  std::chrono::microseconds delay_;
  std::vector<std::uint64_t> rows_;
  std::vector<std::thread::id> threads_;
  int writes_ = 0;
  int finishes_ = 0;
  int writes_at_finish_ = -1;
  std::thread::id finish_thread_{};
};

std::vector<std::uint64_t> numbers(std::uint64_t from, std::uint64_t count) {
  std::vector<std::uint64_t> v;
  for (std::uint64_t i = 0; i < count; ++i) v.push_back(from + i);
  return v;
}

TEST(RowBatch, WithoutAWriterTheSinkIsCalledOnTheCallersThread) {
  recording_sink sink;
  {
    row_batch<number_table> batch(sink, 3);
    for (std::uint64_t i = 0; i < 10; ++i) batch.next() = i;
    batch.finish();
  }
  EXPECT_EQ(sink.rows(), numbers(0, 10));
  EXPECT_EQ(sink.writes(), 4);  // 3 + 3 + 3 + 1
  for (const auto id : sink.threads()) EXPECT_EQ(id, std::this_thread::get_id());
  EXPECT_EQ(sink.finishes(), 1);
}

// ahead(k) (a prefetch hint) names the slot that next() gives k rows later while it is in the same buffer.
TEST(RowBatch, AheadNamesTheSlotNextGivesLaterInTheSameBuffer) {
  recording_sink sink;
  sink_thread writer;
  row_batch<number_table> batch(sink, 4, &writer);
  for (int round = 0; round < 3; ++round) {  // each buffer of the writer's ring in turn
    std::uint64_t& first = batch.next();     // from the second round on, after a hand-over
    std::uint64_t* const third = batch.ahead(1);
    ASSERT_NE(third, nullptr);
    EXPECT_EQ(batch.ahead(3), nullptr);  // past the 4-row buffer
    std::uint64_t& second = batch.next();
    EXPECT_EQ(batch.ahead(0), third);
    EXPECT_EQ(&batch.next(), third);
    EXPECT_NE(&first, third);
    EXPECT_NE(&second, third);
    batch.next();
    EXPECT_EQ(batch.ahead(0), nullptr);  // the buffer is full: the next next() hands it over first
  }
  batch.finish();
  EXPECT_EQ(sink.rows().size(), 12u);
}

TEST(SinkThread, TwoBatchesSharingAWriterEachGetEveryRowInOrderOnTheWriterThread) {
  recording_sink a, b(std::nullopt, std::chrono::microseconds(50));  // b slow: its buffers fill up
  {
    sink_thread writer;
    row_batch<number_table> to_a(a, 7, &writer);
    row_batch<number_table> to_b(b, 5, &writer);
    for (std::uint64_t i = 0; i < 20'000; ++i) {
      to_a.next() = i;
      if (i % 3 == 0) to_b.next() = 1'000'000 + i / 3;
    }
    to_a.finish();
    EXPECT_EQ(a.writes_at_finish(), a.writes());  // finish() after the last write
    to_b.finish();
    EXPECT_EQ(b.writes_at_finish(), b.writes());
    EXPECT_EQ(a.finish_thread(), std::this_thread::get_id());
  }
  EXPECT_EQ(a.rows(), numbers(0, 20'000));
  EXPECT_EQ(b.rows(), numbers(1'000'000, 6'667));
  for (const auto id : a.threads()) EXPECT_NE(id, std::this_thread::get_id());
  for (const auto id : b.threads()) EXPECT_EQ(id, a.threads().front());  // one writer thread for both
  EXPECT_EQ(a.finishes(), 1);
  EXPECT_EQ(b.finishes(), 1);
}

TEST(SinkThread, AWriteFailureIsRethrownToTheProducerAndLaterBatchesAreDropped) {
  recording_sink sink(3);
  sink_thread writer;
  row_batch<number_table> batch(sink, 4, &writer);
  std::string error;
  std::uint64_t made = 0;
  try {
    for (; made < 1'000'000; ++made) batch.next() = made;
    batch.finish();
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  EXPECT_EQ(error, "disk full at write 3");
  EXPECT_LT(made, 1'000'000u);            // stopped by the failure, not by the end of the rows
  EXPECT_EQ(sink.rows(), numbers(0, 8));  // the two batches before the failing one
  EXPECT_EQ(sink.writes(), 3);            // nothing written after it
  EXPECT_EQ(sink.finishes(), 0);
  EXPECT_THROW(batch.finish(), std::runtime_error);  // and again at finish()
  EXPECT_EQ(sink.finishes(), 0);
}

TEST(SinkThread, ABatchDestroyedWithoutFinishWaitsForItsWrites) {
  recording_sink sink(std::nullopt, std::chrono::microseconds(300));
  sink_thread writer;
  {
    row_batch<number_table> batch(sink, 2, &writer);
    for (std::uint64_t i = 0; i < 12; ++i) batch.next() = i;  // 5 batches handed over, 2 rows not
  }
  // Every batch handed over was written before the destructor returned (its buffers are gone now).
  EXPECT_EQ(sink.rows(), numbers(0, 10));
  EXPECT_EQ(sink.finishes(), 0);
}

}  // namespace
