// work_pool: every item runs exactly once, on a valid worker, one item at a time per worker; exceptions
// come back to the caller; a started batch runs while the caller works and is waited for.
#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/tde/windows/work_pool.hpp>

namespace {

TEST(work_pool, runs_every_item_once_on_its_workers) {
  for (std::size_t workers : {1, 2, 3, 8}) {
    itch5::tde::work_pool pool(workers);
    ASSERT_EQ(pool.size(), workers);
    for (std::size_t items : {0, 1, 2, 7, 1000}) {
      std::vector<std::atomic<int>> runs(items);
      std::vector<std::atomic<int>> inside(workers);  // items a worker is running right now
      std::atomic<bool> overlap{false}, bad_worker{false};
      pool.run(items, [&](std::size_t w, std::size_t i) {
        if (w >= workers) {
          bad_worker = true;
          return;
        }
        if (inside[w].fetch_add(1) != 0) overlap = true;
        runs[i].fetch_add(1);
        inside[w].fetch_sub(1);
      });
      for (std::size_t i = 0; i < items; ++i) EXPECT_EQ(runs[i].load(), 1) << workers << " " << i;
      EXPECT_FALSE(overlap);
      EXPECT_FALSE(bad_worker);
    }
  }
}

TEST(work_pool, an_exception_reaches_the_caller_and_the_pool_goes_on) {
  itch5::tde::work_pool pool(3);
  EXPECT_THROW(pool.run(100,
                        [](std::size_t, std::size_t i) {
                          if (i == 37) throw std::runtime_error("item 37");
                        }),
               std::runtime_error);
  std::atomic<int> n{0};
  pool.run(50, [&](std::size_t, std::size_t) { ++n; });
  EXPECT_EQ(n.load(), 50);

  pool.start(10, [](std::size_t, std::size_t i) {
    if (i == 3) throw std::invalid_argument("item 3");
  });
  EXPECT_THROW(pool.wait(), std::invalid_argument);
  EXPECT_NO_THROW(pool.wait()) << "nothing left to wait for";
}

TEST(work_pool, a_started_batch_runs_on_the_pool_threads_while_the_caller_works) {
  itch5::tde::work_pool pool(3);
  const auto caller = std::this_thread::get_id();
  std::vector<std::atomic<int>> runs(500);
  std::atomic<bool> on_caller{false}, worker_zero{false};
  pool.start(runs.size(), [&](std::size_t w, std::size_t i) {
    if (std::this_thread::get_id() == caller) on_caller = true;
    if (w == 0) worker_zero = true;
    runs[i].fetch_add(1);
  });
  pool.wait();
  for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
  EXPECT_FALSE(on_caller);
  EXPECT_FALSE(worker_zero) << "worker 0 is the caller's";

  EXPECT_THROW(itch5::tde::work_pool(1).start(1, [](std::size_t, std::size_t) {}), std::logic_error);
}

TEST(work_pool, destruction_waits_for_a_started_batch) {
  std::atomic<int> done{0};
  {
    itch5::tde::work_pool pool(2);
    pool.start(20, [&](std::size_t, std::size_t) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++done;
    });
  }
  EXPECT_EQ(done.load(), 20);
}

}  // namespace
