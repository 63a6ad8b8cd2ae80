// What a benchmark provides: a fixture type. Its constructor sets up (not timed), its run() is one timed
// iteration.
//
//   struct sum_fixture {
//     explicit sum_fixture(const microbench::config& cfg) : data(cfg.size, 1) {}   // setup, not timed
//     std::uint64_t run() { return std::accumulate(data.begin(), data.end(), 0ull); }  // one iteration
//     std::uint64_t items_per_iteration() const { return data.size(); }           // optional
//     std::vector<std::uint64_t> data;
//   };
//
// Requirements (concept microbench::fixture<F, Args...>):
//   - F is constructible from (const config&, Args...): the suite builds it once per test case, before
//     the warm-up, and destroys it after the run. Extra arguments come from suite::add<F>(name, args...).
//   - f.run() is valid. A non-void result is passed to do_not_optimize(), so returning a checksum is
//     enough to keep the work from being optimised away.
// Optional members, detected at compile time:
//   - f.reset(): called before every iteration (warm-up and timed), outside the timed region; for
//     fixtures whose run() consumes state (a book that must be refilled, caches to disturb).
//   - f.items_per_iteration() const -> unsigned: how many items (messages, operations) one run()
//     handles; the summary then adds ns/item and items/s. Read once, after construction.
//   - f.run_item(i) for i in [0, items_per_iteration()): item i of an iteration on its own, for the
//     per-item mode (config::per_item), which after reset() calls run_item(0), run_item(1), ... in order
//     and times each call. Calling them all in order must do the work of one run(). A non-void result is
//     passed to do_not_optimize().
//   - f.prepare_item(i): called, untimed, just before run_item(i) (after the cache disturbance, if any),
//     to bring in what the item needs but is not part of its cost: the operation or message record a real
//     caller would already hold in cache, so that a cold measurement shows the cold state, not the input.
//
// run() is called directly on the concrete type in measure(): no virtual call, no std::function.
// Thread-safety: a fixture is used by one thread.
#pragma once

#include <concepts>
#include <cstdint>

#include <microbench/config.hpp>

namespace microbench {

/// A type whose run() is one iteration.
template <class F>
concept runnable = requires(F& f) {
  f.run();
};

/// A benchmark fixture built from the framework's config and `Args`; see the header comment.
template <class F, class... Args>
concept fixture = std::constructible_from<F, const config&, Args...> && runnable<F>;

/// A fixture with a per-iteration, untimed reset().
template <class F>
concept resettable = requires(F& f) {
  f.reset();
};

/// A fixture that says how many items one iteration handles.
template <class F>
concept counts_items = requires(const F& f) {
  { f.items_per_iteration() } -> std::convertible_to<std::uint64_t>;
};

/// A fixture whose iteration can be run, and timed, one item at a time.
template <class F>
concept itemwise = counts_items<F> && requires(F& f, std::uint64_t i) {
  f.run_item(i);
};

/// An itemwise fixture that prepares each item, untimed, before it runs.
template <class F>
concept prepares_items = itemwise<F> && requires(F& f, std::uint64_t i) {
  f.prepare_item(i);
};

}  // namespace microbench
