// A run of the engine (inside::run_inside) on a thread of its own, handing Arrow record batches of the
// tables asked for to the consumer. The engine's thread queues the tables' rows (copied, a few thousand at
// a time) and the consumer's thread turns them into Arrow batches in next(), so the conversion runs beside
// the books. The queue is bounded in rows (queue_batches * batch_rows): memory stays bounded whatever the
// day's size. The consumer waits with a timeout (so that Python can check for Ctrl-C) and may cancel; a
// read error ends the queue after the batches before it.
// Tables are bound in one list (table_bindings in engine_run.cpp), one line per table of tables/.
// Thread-safety: next(), cancel() and the destructor from one consumer thread; the engine's thread only
// posts.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <itch5/inside/inside_options.hpp>
#include <itch5/inside/inside_result.hpp>

#include "arrow_abi.hpp"
#include "arrow_table.hpp"

namespace itch5::python {

/// What a run reads and makes.
struct run_config {
  std::string path;
  std::vector<std::string> symbols;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = INT64_MAX;
  std::string book = "array";
  std::size_t batch_rows = 65536;
  std::size_t queue_batches = 4;
  time_column time;
  std::vector<std::string> tables;  ///< names from table_names()
  bool stats = false;               ///< keep the statistics and depth CSVs of the result
};

/// The names of the tables a run can make, in binding order.
std::vector<std::string> table_names();

/// The Arrow schema of table `name` as `cfg` shapes it. Throws std::invalid_argument for an unknown name.
void table_schema(const std::string& name, const run_config& cfg, ArrowSchema* out);

/// How a run ended.
struct run_end {
  bool error = false;
  bool cancelled = false;
  std::string message;  ///< the read error: "FILE: byte offset N (message #M): ..."
  std::uint64_t offset = 0;
  std::uint64_t message_number = 0;
  std::uint64_t messages = 0;
  std::string stats_csv;
  std::string depth_csv;
};

/// One record batch of one table.
struct batch {
  std::size_t table = 0;  ///< index into the run's config.tables
  ArrowArray array{};     ///< owned: released by the receiver
};

class engine_run {
 public:
  /// Opens the input (throws itch5::io::input_error naming it when it cannot be opened) and starts the
  /// engine's thread.
  explicit engine_run(run_config cfg);
  ~engine_run();
  engine_run(const engine_run&) = delete;
  engine_run& operator=(const engine_run&) = delete;

  enum class wait_status { batch, end, timeout };
  /// Waits at most `timeout` for the next batch (into `out`) or the end (end() then says how), converting
  /// the rows queued meanwhile.
  wait_status next(batch& out, std::chrono::milliseconds timeout);
  /// Stops the engine soon; the batches not taken are dropped.
  void cancel();
  [[nodiscard]] const run_end& end() const noexcept { return end_; }
  [[nodiscard]] const run_config& config() const noexcept { return cfg_; }

  /// Work the sinks hand from the engine's thread to the consumer's: run() there, in order, may add
  /// batches to `ready`.
  struct job {
    virtual ~job() = default;
    virtual void run(std::deque<batch>& ready) = 0;
  };
  /// Called by the sinks on the engine's thread: queues `j` (carrying `rows` rows), waiting while the
  /// queue holds queue_batches * batch_rows rows (not when cancelled: the job is then dropped).
  void post(std::unique_ptr<job> j, std::size_t rows);

 private:
  void body();

  run_config cfg_;
  std::atomic<bool> cancel_{false};
  std::mutex mutex_;
  std::condition_variable not_full_;
  std::condition_variable not_empty_;
  struct queued {
    std::size_t rows = 0;
    std::unique_ptr<job> work;
  };
  std::deque<queued> queue_;
  std::size_t pending_rows_ = 0;
  std::deque<batch> ready_;  // converted, not yet taken (the consumer's thread's only)
  bool done_ = false;
  run_end end_;
  struct engine;
  std::unique_ptr<engine> engine_;
  std::thread thread_;
};

}  // namespace itch5::python
