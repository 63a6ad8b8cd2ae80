// engine_run.hpp: the table bindings, the sinks that turn rows into batches, the engine's thread.
#include "engine_run.hpp"

#include <cctype>
#include <functional>
#include <optional>
#include <string_view>
#include <type_traits>
#include <stdexcept>
#include <utility>

#include <itch5/io/block_source.hpp>
#include <itch5/io/byte_stream.hpp>
#include <itch5/message_reader.hpp>

#include <itch5/inside/lobster.hpp>
#include <itch5/inside/line_sink.hpp>
#include <itch5/inside/run_inside.hpp>
#include <itch5/inside/table_options.hpp>
#include <itch5/tables/event_sinks.hpp>
#include <itch5/tables/inside_table.hpp>
#include <itch5/tables/levels_table.hpp>
#include <itch5/tables/lobster_table.hpp>
#include <itch5/tables/trade_stats_table.hpp>
#include <itch5/tables/trades_table.hpp>
#include <itch5/tables/table_sink.hpp>

namespace itch5::python {

namespace {

// A table's rows from the engine: the engine's thread copies each batch of rows into a job for the queue,
// and the consumer's thread (engine_run::next) appends them to the builder, each full builder one Arrow
// batch. So the conversion runs beside the books instead of on their thread. The rows' text columns point
// at constant data (tables/events/codes.hpp), so a copied row stays valid.
template <class Table>
class arrow_sink final : public tables::table_sink<Table> {
 public:
  using row = typename Table::row;
  arrow_sink(engine_run& run, std::size_t index, const run_config& cfg, const row& prototype)
      : run_(run), index_(index), builder_(cfg.batch_rows, cfg.time, prototype) {}
  void write(std::span<const row> rows) override {
    if (!rows.empty()) run_.post(std::make_unique<rows_job>(*this, rows, false), rows.size());
  }
  void finish() override { run_.post(std::make_unique<rows_job>(*this, std::span<const row>{}, true), 0); }

 private:
  // Rows to convert (on the consumer's thread), and after the last ones the builder's rest.
  struct rows_job final : engine_run::job {
    rows_job(arrow_sink& s, std::span<const row> r, bool last)
        : sink(s), rows(r.begin(), r.end()), end(last) {}
    void run(std::deque<batch>& ready) override { sink.convert(rows, end, ready); }
    arrow_sink& sink;
    std::vector<row> rows;
    bool end;
  };

  void convert(const std::vector<row>& rows, bool end, std::deque<batch>& ready) {
    for (const auto& r : rows) {
      builder_.append(r);
      if (builder_.full()) emit(ready);
    }
    if (end && builder_.rows() > 0) emit(ready);
  }
  void emit(std::deque<batch>& ready) {
    batch b;
    b.table = index_;
    builder_.finish_batch(&b.array);
    ready.push_back(b);
  }
  engine_run& run_;
  std::size_t index_;
  arrow_table_builder<Table> builder_;  // the consumer's thread's only
};

// A sink that drops its rows: the LOBSTER table of a symbol not asked for beside the one that was (the
// engine makes both of a symbol).
template <class Table>
class discard_sink final : public tables::table_sink<Table> {
 public:
  void write(std::span<const typename Table::row>) override {}
};

// The LOBSTER tables of a run: one entry per symbol (the options point to it when any is asked for), the
// levels its orderbook tables asked for (0: none yet), and the discarding sinks that fill the gaps.
struct lobster_slot {
  inside::lobster_tables tables;
  unsigned levels_asked = 0;
  std::vector<std::shared_ptr<void>> discards;

  inside::lobster_symbol& symbol(const std::string& name) {
    for (auto& s : tables.symbols) {
      if (s.symbol == name) return s;
    }
    tables.symbols.push_back({name, nullptr, nullptr});
    return tables.symbols.back();
  }
  // After every table is attached: a discarding sink where a symbol has one table only.
  void complete() {
    for (auto& s : tables.symbols) {
      if (s.messages == nullptr) {
        auto d = std::make_shared<discard_sink<tables::lobster_message_table>>();
        s.messages = d.get();
        discards.push_back(d);
      }
      if (s.orderbook == nullptr) {
        auto d = std::make_shared<discard_sink<tables::lobster_orderbook_table>>();
        s.orderbook = d.get();
        discards.push_back(d);
      }
    }
  }
};

// Where a binding sets its sink: the run's options, the event tables' sinks (which the options point to
// when any event table is asked for), or the LOBSTER tables'.
struct sink_slots {
  inside::inside_options& options;
  tables::event_sinks& events;
  lobster_slot& lobster;
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

// LOBSTER's two files of one symbol as tables: "lobster_message:SYM", and "lobster_orderbook:SYM" (10
// levels) or "lobster_orderbookN:SYM" (N from 1 to tables::lobster_max_levels). The tables of one run share
// their levels.
struct lobster_name {
  bool orderbook = false;
  unsigned levels = 10;
  std::string symbol;  // upper case
};

std::optional<lobster_name> lobster_of(const std::string& name) {
  const std::size_t colon = name.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const std::string kind = name.substr(0, colon);
  lobster_name l;
  l.symbol = name.substr(colon + 1);
  if (l.symbol.empty() || l.symbol.size() > 8) return std::nullopt;
  for (char& c : l.symbol) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (kind == "lobster_message") return l;
  constexpr std::string_view book = "lobster_orderbook";
  if (kind.rfind(book, 0) != 0) return std::nullopt;
  l.orderbook = true;
  const std::string digits = kind.substr(book.size());
  if (digits.empty()) return l;
  if (digits.size() > 2 || digits[0] == '0' || digits.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  l.levels = static_cast<unsigned>(std::stoul(digits));
  if (l.levels < 1 || l.levels > tables::lobster_max_levels) return std::nullopt;
  return l;
}

table_binding lobster_binding(const std::string& name, const lobster_name& l) {
  table_binding b;
  b.name = name;
  if (!l.orderbook) {
    b.schema = [](const run_config& cfg, ArrowSchema* out) {
      arrow_table_builder<tables::lobster_message_table>(0, cfg.time).schema(out);
    };
    b.attach = [l](engine_run& run, std::size_t index, const run_config& cfg,
                   sink_slots slots) -> std::shared_ptr<void> {
      auto& s = slots.lobster.symbol(l.symbol);
      if (s.messages != nullptr)
        throw std::invalid_argument("lobster_message:" + l.symbol + " asked for twice");
      auto sink = std::make_shared<arrow_sink<tables::lobster_message_table>>(run, index, cfg,
                                                                              tables::lobster_message_row{});
      s.messages = sink.get();
      return sink;
    };
    return b;
  }
  tables::lobster_orderbook_row shape;
  shape.levels = l.levels;
  b.schema = [shape](const run_config& cfg, ArrowSchema* out) {
    arrow_table_builder<tables::lobster_orderbook_table>(0, cfg.time, shape).schema(out);
  };
  b.attach = [l, shape](engine_run& run, std::size_t index, const run_config& cfg,
                        sink_slots slots) -> std::shared_ptr<void> {
    if (slots.lobster.levels_asked != 0 && slots.lobster.levels_asked != l.levels)
      throw std::invalid_argument("the LOBSTER orderbook tables of one run must have the same levels (" +
                                  std::to_string(slots.lobster.levels_asked) + " and " +
                                  std::to_string(l.levels) + ")");
    slots.lobster.levels_asked = l.levels;
    slots.lobster.tables.levels = l.levels;
    auto& s = slots.lobster.symbol(l.symbol);
    if (s.orderbook != nullptr)
      throw std::invalid_argument("lobster_orderbook:" + l.symbol + " asked for twice");
    auto sink = std::make_shared<arrow_sink<tables::lobster_orderbook_table>>(run, index, cfg, shape);
    s.orderbook = sink.get();
    return sink;
  };
  return b;
}

table_binding binding(const std::string& name) {
  if (const unsigned n = levels_of(name); n != 0) return levels_binding(n);
  if (const auto l = lobster_of(name)) return lobster_binding(name, *l);
  for (const auto& b : table_bindings()) {
    if (b.name == name) return b;
  }
  std::string known;
  for (const auto& b : table_bindings()) known += (known.empty() ? "" : ", ") + b.name;
  throw std::invalid_argument("unknown table '" + name + "' (tables: " + known +
                              ", levelsN for N from 1 to " + std::to_string(tables::max_levels) +
                              ", lobster_message:SYMBOL, lobster_orderbook[N]:SYMBOL)");
}

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
  lobster_slot lobster;
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
  // A decode thread only with more than 2 cores. Beside the engine's thread, the consumer's thread converts
  // the rows to Arrow, and to_parquet adds a thread that encodes them and one that hashes the source: on
  // 2 cores those take the second core, and a decode thread there costs more CPU than it saves (its 40-byte
  // records are written and read again). 20 M day on the 2-core AMD EPYC VM, 4 interleaved rounds:
  // to_parquet (inside, trades) 2.77-2.96 s with it, 2.44-2.96 s without (user CPU 4.1-4.4 s, 3.7-4.7 s);
  // the inside table into pyarrow, 6 rounds, 1.72-2.13 s with, 1.65-2.12 s without (2.2-3.0 s of user
  // CPU, 1.9-2.3 s). With more cores it is choose_strategy's to decide (raw input, or more than 2 cores).
  opt.decode_thread = std::thread::hardware_concurrency() > 2;
  opt.stats = cfg_.stats;
  opt.depth = cfg_.stats;
  for (std::size_t i = 0; i < cfg_.tables.size(); ++i) {
    engine_->sinks.push_back(
        binding(cfg_.tables[i]).attach(*this, i, cfg_, {opt, engine_->events, engine_->lobster}));
  }
  if (tables::any(engine_->events)) opt.tables.events = &engine_->events;
  if (!engine_->lobster.tables.symbols.empty()) {
    engine_->lobster.complete();
    opt.tables.lobster = &engine_->lobster.tables;
  }
  engine_->reader =
      std::make_unique<itch5::message_reader>(itch5::io::make_block_source(itch5::io::open_input(cfg_.path)));
  thread_ = std::thread([this] { body(); });
}

engine_run::~engine_run() {
  cancel();
  if (thread_.joinable()) thread_.join();
  for (auto& b : ready_) {
    if (b.array.release != nullptr) b.array.release(&b.array);
  }
}

void engine_run::cancel() {
  cancel_.store(true, std::memory_order_relaxed);
  std::lock_guard lock(mutex_);
  not_full_.notify_all();
}

void engine_run::post(std::unique_ptr<job> j, std::size_t rows) {
  std::unique_lock lock(mutex_);
  // Bounded in rows: at most queue_batches batches' worth waiting (a job of more rows waits for an empty
  // queue).
  const std::size_t limit = cfg_.queue_batches * cfg_.batch_rows;
  not_full_.wait(lock, [&] { return queue_.empty() || pending_rows_ + rows <= limit || cancel_.load(); });
  if (cancel_.load()) return;  // the job is dropped
  pending_rows_ += rows;
  queue_.push_back({rows, std::move(j)});
  not_empty_.notify_one();
}

engine_run::wait_status engine_run::next(batch& out, std::chrono::milliseconds timeout) {
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (!ready_.empty()) {
      out = ready_.front();
      ready_.pop_front();
      return wait_status::batch;
    }
    queued q;
    {
      std::unique_lock lock(mutex_);
      if (!not_empty_.wait_until(lock, give_up, [this] { return !queue_.empty() || done_; })) {
        return wait_status::timeout;
      }
      if (queue_.empty()) return wait_status::end;
      q = std::move(queue_.front());
      queue_.pop_front();
      pending_rows_ -= q.rows;
      not_full_.notify_one();
    }
    q.work->run(ready_);  // the conversion, on this (the consumer's) thread, beside the engine's
  }
}

void engine_run::body() {
  run_end e;
  try {
    inside::discarding_line_sink lines;  // the tables carry the run's output
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
