// The sharded runner: several book threads (inside_options::threads > 1). The calling thread reads and frames
// the stream (message_reader, as in run_loop), checks every message's timestamp, and copies the frames of
// dispatched messages into batches; it is also book thread 0, which handles its share of each batch right
// after publishing it to the others. Each of the N book threads walks every frame of each batch and handles
// the order messages (A F E C X D U) of its stock locates and every stock directory message (which names a
// locate's book; cheap, and the locate may have no owner yet): these are all that touch a book; the rest only
// have their timestamp checked. The reading thread decides the owner of each message (locate_balancer). A
// thread formats its lines into its own buffer of the batch, noting the batch index of the message of each
// line (a message makes at most one line), and likewise its statistics and depth samples and each message's
// change of its live order count. The calling thread merges the threads' outputs of a batch in message order:
// lines written, samples fed to one feed_statistics and depth_statistics, live order counts summed, so that
// everything but the measured processing times is what run_loop gives. Order references are unique per day
// and every order message carries its order's locate, so each order lives in one thread's order table; input
// that breaks this (a reference reused across locates, an order message whose locate is not its order's) can
// count other anomalies than one thread does. The parts: locate_balancer (who handles a message),
// batch_exchange (the hand-over and the joining), shard (a book thread), shard_merger (message order again).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include <itch5/message_reader.hpp>
#include <itch5/peek.hpp>

#include <itch5/stats/depth_statistics.hpp>
#include <itch5/stats/feed_statistics.hpp>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>
#include <itch5/inside/line_sink.hpp>
#include <itch5/inside/run_inside.hpp>

#include "batch_exchange.hpp"
#include "day_events.hpp"
#include "depth_output.hpp"
#include "feed_latency.hpp"
#include "feed_output.hpp"
#include "locate_balancer.hpp"
#include "result_assembly.hpp"
#include "shard.hpp"
#include "shard_merger.hpp"
#include "sharded_batch.hpp"
#include "timestamp_check.hpp"

namespace itch5::inside {

template <class Book, bool Timed, bool Depth>
void run_sharded(itch5::message_reader& reader, const inside_options& opt, line_sink& sink,
                 const progress_callback& progress, inside_result& r) {
  using shard_type = shard<Book, Timed, Depth>;
  const unsigned n = opt.threads;
  std::vector<std::unique_ptr<shard_type>> shards;
  for (unsigned s = 0; s < n; ++s) shards.push_back(std::make_unique<shard_type>(opt, s));
  std::array<batch, batch_slots> batches;
  std::vector<std::array<shard_output, batch_slots>> outputs(n);

  std::unique_ptr<stats::feed_statistics> feed = Timed ? std::make_unique<stats::feed_statistics>() : nullptr;
  std::unique_ptr<stats::depth_statistics> depth =
      Depth ? std::make_unique<stats::depth_statistics>() : nullptr;
  itch5::io::latency_queue* const latencies = Timed ? opt.latencies : nullptr;
  if (feed && latencies != nullptr) feed->enable_latency();
  shard_merger<Timed, Depth> merger(n, opt.books.output_buffer_bytes, sink, feed.get(), depth.get(),
                                    latencies != nullptr);
  locate_balancer balancer(n);
  timestamp_check timestamps;

  // Book thread 0 is the reading thread itself (it handles its share of a batch right after publishing
  // it); threads 1..N-1 start here, and stop and are joined when `exchange` goes, however this is left.
  batch_exchange exchange(n);
  exchange.start([&](unsigned s, std::uint64_t k) {
    shards[s]->handle(batches[k % batch_slots], outputs[s][k % batch_slots]);
  });
  // Waits for batch k in every book thread, then merges it.
  auto merge = [&](std::uint64_t k) {
    exchange.wait_handled(k);
    const std::size_t slot = k % batch_slots;
    merger.merge(batches[slot], [&](unsigned s) -> const shard_output& { return outputs[s][slot]; });
  };
  std::uint64_t next_batch = 0;  // the batch being filled
  std::uint64_t merged = 0;      // batches merged
  batch* b = &batches[0];
  auto publish = [&] {
    const std::size_t slot = next_batch % batch_slots;
    exchange.publish(++next_batch);
    shards[0]->handle(batches[slot], outputs[0][slot]);
    exchange.handled_by_reader(next_batch);
    if (next_batch - merged == batch_slots) merge(merged++);  // the slot to fill next must be free
    b = &batches[next_batch % batch_slots];
    b->clear();
  };

  std::uint64_t latencies_taken = 0;
  day_events events;
  std::span<const std::byte> msg;
  while (reader.next(msg) == itch5::read_status::message) {
    if constexpr (Timed) {
      if (latencies != nullptr) {
        b->latencies.push_back(take_latency(*latencies, latencies_taken, reader.messages()));
      }
    }
    count_message(r.messages_by_type, events, msg);
    timestamps(msg.data());
    balancer.charge_read();
    if (b->append(msg, balancer.owner_of(msg))) publish();
    if ((reader.messages() & 0xffff) == 0) [[unlikely]] {
      if (progress) progress(reader);
      if (opt.cancel != nullptr && opt.cancel->load(std::memory_order_relaxed)) {
        r.cancelled = true;
        break;
      }
    }
  }
  if (b->count > 0) publish();
  while (merged < next_batch) merge(merged++);
  merger.finish();

  reader_counts(reader, r);
  events.add_to(r);
  r.anomalies = timestamps.anomalies;
  std::unordered_set<std::string> seen;
  for (const auto& sh : shards) {
    r.book_events += sh->engine().book_events();
    r.inside_changes += sh->engine().inside_changes();
    r.lines += sh->lines();
    r.anomalies += sh->engine().anomalies();
    r.order_table_bytes += sh->engine().orders().memory_bytes();
    add_seen_symbols(sh->engine(), seen);
  }
  r.peak_live_orders = merger.peak_live_orders();
  auto name_of = [&](std::uint16_t locate) {
    const std::uint8_t o = balancer.owner(locate);
    return shards[o == to_none ? 0 : o]->obs().name_of(locate);
  };
  find_symbols_not_seen(opt, seen, r);
  if (feed) finish_feed_table(*feed, opt, name_of, r);
  if (depth) finish_depth_table(*depth, opt, name_of, r);
}

}  // namespace itch5::inside
