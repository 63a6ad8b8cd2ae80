// engine_run.hpp: the table bindings, the sinks that turn rows into batches, the engine's thread.
#include "engine_run.hpp"

#include <functional>
#include <type_traits>
#include <stdexcept>
#include <utility>

#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/message_reader.hpp>

#include <itch5/inside/run_inside.hpp>
#include <itch5/inside/table_options.hpp>
#include <itch5/tables/event_sinks.hpp>
#include <itch5/tables/inside_table.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>
#include <itch5/tables/table_sink.hpp>

namespace itch5::python {

namespace {

// A table's rows from the engine, appended to a builder; each full builder is one batch to the queue.
template <class Table>
class arrow_sink final : public tables::table_sink<Table> {
 public:
  arrow_sink(engine_run& run, std::size_t index, const run_config& cfg, const typename Table::row& prototype)
      : run_(run), index_(index), builder_(cfg.batch_rows, cfg.time, prototype) {}
  void write(std::span<const typename Table::row> rows) override {
    for (const auto& r : rows) {
      builder_.append(r);
      if (builder_.full()) emit();
    }
  }
  void finish() override {
    if (builder_.rows() > 0) emit();
  }

 private:
  void emit() {
    ArrowArray a{};
    builder_.finish_batch(&a);
    run_.push(index_, a);
  }
  engine_run& run_;
  std::size_t index_;
  arrow_table_builder<Table> builder_;
};

// Where a binding sets its sink: the run's options, or the event tables' sinks (which the options point to
// when any event table is asked for).
struct sink_slots {
  inside::inside_options& options;
  tables::event_sinks& events;
};

// A table as the Python package knows it: its name, its schema, and its sink set in inside_options.
struct table_binding {
  std::string name;
  std::function<void(const run_config&, ArrowSchema*)> schema;
  std::function<std::shared_ptr<void>(engine_run&, std::size_t, const run_config&, sink_slots)> attach;
};

template <class Table, class Member>
table_binding bind(
    Member member, std::function<typename Table::row(const run_config&)> prototype = [](const run_config&) {
      return typename Table::row{};
    }) {
  return {std::string(Table::name),
          [prototype](const run_config& cfg, ArrowSchema* out) {
            arrow_table_builder<Table>(0, cfg.time, prototype(cfg)).schema(out);
          },
          [member, prototype](engine_run& run, std::size_t index, const run_config& cfg,
                              sink_slots slots) -> std::shared_ptr<void> {
            auto sink = std::make_shared<arrow_sink<Table>>(run, index, cfg, prototype(cfg));
            if constexpr (std::is_member_object_pointer_v<Member> &&
                          std::is_same_v<Member, tables::table_sink<Table> * tables::event_sinks::*>) {
              slots.events.*member = sink.get();
            } else {
              slots.options.tables.*member = sink.get();
            }
            return sink;
          }};
}

table_binding levels_binding(unsigned n);

// Every table of tables/ the package offers: one line each.
const std::vector<table_binding>& table_bindings() {
  static const std::vector<table_binding> all = {
      bind<tables::inside_table>(&inside::table_options::inside),
      bind<tables::trades_table>(&inside::table_options::trades),
      bind<tables::trade_stats_table>(&inside::table_options::trade_stats),
  };
  static const std::vector<table_binding> with_events = [] {
    std::vector<table_binding> v = all;
    v.push_back(levels_binding(10));
    tables::for_each_event_table(
        [&]<class T>(std::type_identity<T>, auto member) { v.push_back(bind<T>(member)); });
    return v;
  }();
  return with_events;
}

// The N-level book as table "levels" (N = 10) or "levelsN" (N from 1 to tables::max_levels): its columns
// follow N, so its binding is made per N.
table_binding levels_binding(unsigned n) {
  table_binding b = bind<tables::levels_table>(&inside::table_options::book_levels, [n](const run_config&) {
    tables::levels_row shape;
    shape.levels = n;
    return shape;
  });
  b.name = n == 10 ? "levels" : "levels" + std::to_string(n);
  auto attach = b.attach;
  b.attach = [attach, n](engine_run& run, std::size_t index, const run_config& cfg, sink_slots slots) {
    slots.options.tables.levels = n;
    return attach(run, index, cfg, slots);
  };
  return b;
}

// The levels of a "levelsN" name, or 0.
unsigned levels_of(const std::string& name) {
  if (name == "levels") return 10;
  if (name.size() < 7 || name.size() > 8 || name.rfind("levels", 0) != 0) return 0;
  unsigned n = 0;
  for (std::size_t i = 6; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return 0;
    n = n * 10 + static_cast<unsigned>(name[i] - '0');
  }
  return n >= 1 && n <= tables::max_levels && std::to_string(n) == name.substr(6) ? n : 0;
}

table_binding binding(const std::string& name) {
  if (const unsigned n = levels_of(name); n != 0) return levels_binding(n);
  for (const auto& b : table_bindings()) {
    if (b.name == name) return b;
  }
  std::string known;
  for (const auto& b : table_bindings()) known += (known.empty() ? "" : ", ") + b.name;
  throw std::invalid_argument("unknown table '" + name + "' (tables: " + known +
                              ", levelsN for N from 1 to " + std::to_string(tables::max_levels) + ")");
}

// Where the inside lines go: nowhere (the tables carry them).
class null_line_sink final : public inside::line_sink {
 public:
  void write(std::string_view) override {}
};

}  // namespace

std::vector<std::string> table_names() {
  std::vector<std::string> names;
  for (const auto& b : table_bindings()) names.push_back(b.name);
  return names;
}

void table_schema(const std::string& name, const run_config& cfg, ArrowSchema* out) {
  binding(name).schema(cfg, out);
}

struct engine_run::engine {
  std::unique_ptr<itch5::message_reader> reader;
  inside::inside_options options;
  std::vector<std::shared_ptr<void>> sinks;
  tables::event_sinks events;
};

engine_run::engine_run(run_config cfg) : cfg_(std::move(cfg)), engine_(std::make_unique<engine>()) {
  auto& opt = engine_->options;
  opt.book = cfg_.book;
  opt.symbols = cfg_.symbols;
  opt.from = itch5::timestamp(cfg_.start_ns);
  opt.to = itch5::timestamp(cfg_.end_ns);
  opt.cancel = &cancel_;
  opt.threads = 1;
  opt.line_thread = false;
  opt.decode_thread = false;
  opt.stats = cfg_.stats;
  opt.depth = cfg_.stats;
  for (std::size_t i = 0; i < cfg_.tables.size(); ++i) {
    engine_->sinks.push_back(binding(cfg_.tables[i]).attach(*this, i, cfg_, {opt, engine_->events}));
  }
  if (tables::any(engine_->events)) opt.tables.events = &engine_->events;
  engine_->reader =
      std::make_unique<itch5::message_reader>(itch5::io::make_block_source(itch5::io::open_input(cfg_.path)));
  thread_ = std::thread([this] { body(); });
}

engine_run::~engine_run() {
  cancel();
  if (thread_.joinable()) thread_.join();
  for (auto& b : queue_) {
    if (b.array.release != nullptr) b.array.release(&b.array);
  }
}

void engine_run::cancel() {
  cancel_.store(true, std::memory_order_relaxed);
  std::lock_guard lock(mutex_);
  not_full_.notify_all();
}

void engine_run::push(std::size_t table, ArrowArray& array) {
  std::unique_lock lock(mutex_);
  not_full_.wait(lock, [this] { return queue_.size() < cfg_.queue_batches || cancel_.load(); });
  if (cancel_.load()) {
    array.release(&array);
    return;
  }
  queue_.push_back({table, array});
  array.release = nullptr;
  not_empty_.notify_one();
}

engine_run::wait_status engine_run::next(batch& out, std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  if (!not_empty_.wait_for(lock, timeout, [this] { return !queue_.empty() || done_; })) {
    return wait_status::timeout;
  }
  if (!queue_.empty()) {
    out = queue_.front();
    queue_.pop_front();
    not_full_.notify_one();
    return wait_status::batch;
  }
  return wait_status::end;
}

void engine_run::body() {
  run_end e;
  try {
    null_line_sink lines;
    const inside::inside_result r = inside::run_inside(*engine_->reader, engine_->options, lines);
    e.messages = r.messages;
    e.cancelled = r.cancelled;
    e.stats_csv = r.stats_csv;
    e.depth_csv = r.depth_csv;
    if (r.status == itch5::read_status::error) {
      e.error = true;
      e.message = r.error.describe(cfg_.path);
      e.offset = r.error.offset;
      e.message_number = r.error.message_number;
    }
  } catch (const std::exception& ex) {
    e.error = true;
    e.message = cfg_.path + ": " + ex.what();
  }
  std::lock_guard lock(mutex_);
  end_ = std::move(e);
  done_ = true;
  not_empty_.notify_all();
}

}  // namespace itch5::python
