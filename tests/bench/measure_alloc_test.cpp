// measure() must not allocate: every operator new in this program is counted while `armed` is set.
#include <microbench/measure.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace {
std::atomic<bool> armed{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t n) {
  if (armed.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
// GCC 12 at -O1, inlining these into a delete, warns that free() gets a pointer from operator new: it does
// not see that this operator new is the malloc above.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

struct quiet_fixture {
  explicit quiet_fixture(const microbench::config&) : data(1000, 1) {}
  std::uint64_t run() {
    std::uint64_t s = 0;
    for (auto x : data) s += x;
    return s;
  }
  void reset() { data[0] = 1; }
  std::vector<std::uint64_t> data;
};

struct allocating_fixture {
  explicit allocating_fixture(const microbench::config&) {}
  std::size_t run() {
    kept = std::make_unique<std::string>(100, 'x');  // escapes into a member: cannot be elided
    return kept->size();
  }
  std::unique_ptr<std::string> kept;
};

template <class F>
long allocations_during_measure(std::size_t iterations) {
  microbench::config cfg;
  F f(cfg);
  std::vector<std::int64_t> samples(iterations);
  allocations = 0;
  armed = true;
  microbench::measure(f, 10, samples);
  armed = false;
  return allocations.load();
}

TEST(MeasureAllocations, TheLoopAllocatesNothing) {
  EXPECT_EQ(allocations_during_measure<quiet_fixture>(10'000), 0);
}

// The per-item loop, with a cache disturber, allocates nothing either.
struct quiet_items {
  explicit quiet_items(const microbench::config&) : data(100, 1) {}
  void run() {
    for (std::uint64_t i = 0; i < data.size(); ++i) run_item(i);
  }
  std::uint64_t run_item(std::uint64_t i) { return data[i] += 1; }
  std::uint64_t items_per_iteration() const { return data.size(); }
  void reset() { data[0] = 1; }
  std::vector<std::uint64_t> data;
};

TEST(MeasureAllocations, ThePerItemLoopAllocatesNothing) {
  microbench::config cfg;
  quiet_items f(cfg);
  microbench::cache_disturber d(4096);
  std::vector<std::int64_t> ticks(100 * 100);
  allocations = 0;
  armed = true;
  microbench::measure_items(f, 10, ticks, &d);
  armed = false;
  EXPECT_EQ(allocations.load(), 0);
}

TEST(MeasureAllocations, TheCounterSeesAllocationsInRun) {
  // Proves the check above can fail: 10 warm-up + 50 timed runs, at least one allocation each.
  EXPECT_GE(allocations_during_measure<allocating_fixture>(50), 60);
}

}  // namespace
