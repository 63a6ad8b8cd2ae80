// bm_order_book: time of the book side implementations (array, map, and any family added to
// itch5::book::all_book_types later) on synthetic operation streams with the measured event-depth
// distribution.
//
// Setup (not timed) generates, with book_stream::generate(), a seeded stream of --size add and reduce
// operations for one side, starting from a steady-state book of ~1,500 levels (book_stream/side_stream.hpp
// describes the stream: depth p50 1, p75 6, p90 14, p99 203, p99.9 2000 levels from the inside, a
// drifting inside, book-consistent reductions). The same seed gives every family the same stream, so the
// families are compared on identical input. reset() (not timed) rebuilds the side from scratch and adds
// the initial levels, best first; one iteration applies the operations in order. Setup checks once that
// the replayed side ends where the generator's reference ends (level count, best and worst level).
//
// Test cases: FAMILY/buy and FAMILY/sell for every family in itch5::book::all_book_types. Per-iteration mode
// reports ns/iteration and ns/operation; --per-item times every operation on its own (one sample per
// operation), with --disturb-cache to start every operation with cold caches (all but its own 12-byte
// record, which prepare_item() loads: a caller would have just decoded it).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>

#include <itch5/book/book_config.hpp>
#include <itch5/book/book_side.hpp>
#include <itch5/book/book_types.hpp>
#include <book_stream/side_stream.hpp>
#include <microbench/suite.hpp>

#include <itch5/cli/options.hpp>

namespace {

struct bench_options {
  std::uint64_t window = itch5::book::book_config{}.window_levels;
  std::uint64_t drift_interval = book_stream::stream_config{}.drift_interval;
};

template <itch5::book::book_side Side>
class side_fixture {
 public:
  side_fixture(const microbench::config& cfg, const bench_options& opts)
      : book_cfg_{static_cast<std::uint32_t>(opts.window)} {
    book_stream::stream_config sc;
    sc.operations = cfg.size;
    sc.seed = cfg.seed;
    sc.drift_interval = static_cast<std::uint32_t>(opts.drift_interval);
    stream_ = book_stream::generate(Side::kind, sc);
    reset();
    (void)run();
    if (side_->level_count() != stream_.final_level_count ||
        side_->best() != as_price_level(stream_.final_best) ||
        side_->worst() != as_price_level(stream_.final_worst)) {
      throw std::logic_error(
          "the side replayed the stream to a different book than the generator's reference");
    }
  }

  /// A fresh side holding the initial book (the first add anchors an array window at the best level).
  void reset() {
    side_.emplace(book_cfg_);
    for (const auto& l : stream_.initial) side_->add(l.price, l.shares);
  }

  /// Applies every operation; returns a value that depends on the final book.
  std::uint64_t run() {
    for (const auto& op : stream_.operations) apply(op);
    return side_->best().price.units() + side_->level_count();
  }

  void run_item(std::uint64_t i) { apply(stream_.operations[i]); }

  /// Untimed, after any cache disturbance: the operation record in cache, as a decoded message would be.
  /// Volatile loads of its first and last byte, so a record straddling two cache lines has both.
  void prepare_item(std::uint64_t i) {
    const volatile auto* bytes = reinterpret_cast<const volatile unsigned char*>(&stream_.operations[i]);
    const unsigned char first = bytes[0];
    const unsigned char last = bytes[sizeof(book_stream::operation) - 1];
    microbench::do_not_optimize(first);
    microbench::do_not_optimize(last);
  }

  [[nodiscard]] std::uint64_t items_per_iteration() const noexcept { return stream_.operations.size(); }

 private:
  static itch5::book::price_level as_price_level(const book_stream::level& l) { return {l.price, l.shares}; }

  void apply(const book_stream::operation& op) {
    if (op.kind == book_stream::op_kind::add) {
      side_->add(op.price, op.shares);
    } else {
      side_->reduce(op.price, op.shares);
    }
  }

  itch5::book::book_config book_cfg_;
  book_stream::side_stream stream_;
  std::optional<Side> side_;
};

template <class Family>
void add_family(microbench::suite& s, const bench_options& opts) {
  using buy = typename Family::template side<itch5::book::side_kind::buy>;
  using sell = typename Family::template side<itch5::book::side_kind::sell>;
  static_assert(microbench::fixture<side_fixture<buy>, const bench_options&>);
  static_assert(microbench::itemwise<side_fixture<buy>>);
  s.add<side_fixture<buy>>(std::string(Family::name) + "/buy", std::cref(opts));
  s.add<side_fixture<sell>>(std::string(Family::name) + "/sell", std::cref(opts));
}

}  // namespace

int main(int argc, char** argv) {
  microbench::suite s(
      "bm_order_book",
      "Times the book side implementations on synthetic streams of add and reduce operations whose "
      "depth from the inside follows the distribution measured on real days. One iteration "
      "applies --size operations to a side rebuilt (untimed) with the same initial book.");
  s.defaults().size = 10000;
  s.defaults().iterations = 1000;
  s.defaults().warmup = 20;
  bench_options opts;
  s.options().add("window", opts.window,
                  "array_book_side window, in price levels (rounded up to a multiple of 64).", 64, 1u << 24);
  s.options().add(
      "drift-interval", opts.drift_interval,
      "Operations per level of drift of the target inside: smaller moves the inside faster, and an "
      "array window re-centres more often (with 32, about once per 20,000 operations).",
      1, 1u << 20);
  s.options().epilog(
      "--size is the number of operations per iteration (default 10000; the stream takes 12 bytes per "
      "operation). The stream: depth from the best price p50 1, p75 6, p90 14, p99 203, p99.9 2000, max "
      "20000 levels; about 53% adds, 32% partial and 15% full reductions; the best price changes after ~10% "
      "of the operations; the initial book holds ~1,400-1,700 levels around $250.\n\n"
      "Test cases: FAMILY/buy and FAMILY/sell for every book family (" +
      [] {
        std::string names;
        for (const auto& n : itch5::book::book_type_names()) names += (names.empty() ? "" : ", ") + n;
        return names;
      }() +
      ").\n\n"
      "Per-operation latency: --per-item times each operation alone (rdtsc, overhead subtracted); keep "
      "iterations x size moderate (8 bytes per sample), e.g. --per-item -n 20. --per-item --disturb-cache "
      "reads twice the last-level cache before every operation (~1.3 ms each here): use e.g. -n 1 --size "
      "2000.\n");
  std::apply([&](auto... family) { (add_family<decltype(family)>(s, opts), ...); },
             itch5::book::all_book_types{});
  return s.main(argc, argv);
}
