// itch5._itch5: the engine's tables as Arrow record batches for Python (nanobind). The Arrow C data and
// stream interfaces are filled by hand (arrow_abi.hpp) and handed over as PyCapsules named as Arrow's
// PyCapsule interface says ("arrow_schema", "arrow_array", "arrow_array_stream"). The engine runs on a
// thread of its own; Python waits for batches with the GIL released, checking for signals every 100 ms.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <itch5/io/input_error.hpp>

#include "arrow_abi.hpp"
#include "engine_run.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace itch5::python {
namespace {

constexpr std::chrono::milliseconds poll{100};

void schema_capsule_free(PyObject* capsule) {
  auto* s = static_cast<ArrowSchema*>(PyCapsule_GetPointer(capsule, "arrow_schema"));
  if (s == nullptr) return;
  if (s->release != nullptr) s->release(s);
  delete s;
}

void array_capsule_free(PyObject* capsule) {
  auto* a = static_cast<ArrowArray*>(PyCapsule_GetPointer(capsule, "arrow_array"));
  if (a == nullptr) return;
  if (a->release != nullptr) a->release(a);
  delete a;
}

void stream_capsule_free(PyObject* capsule) {
  auto* s = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, "arrow_array_stream"));
  if (s == nullptr) return;
  if (s->release != nullptr) s->release(s);
  delete s;
}

nb::object schema_capsule(const std::string& table, const run_config& cfg) {
  auto* s = new ArrowSchema{};
  table_schema(table, cfg, s);
  return nb::steal(PyCapsule_New(s, "arrow_schema", &schema_capsule_free));
}

nb::object array_capsule(ArrowArray& a) {
  auto* p = new ArrowArray(a);
  a.release = nullptr;
  return nb::steal(PyCapsule_New(p, "arrow_array", &array_capsule_free));
}

// The C stream over a run of one table.
struct stream_state {
  std::shared_ptr<engine_run> run;
  std::string error;
};

int stream_get_schema(ArrowArrayStream* s, ArrowSchema* out) {
  auto* st = static_cast<stream_state*>(s->private_data);
  try {
    table_schema(st->run->config().tables.at(0), st->run->config(), out);
    return 0;
  } catch (const std::exception& e) {
    st->error = e.what();
    return EINVAL;
  }
}

int stream_get_next(ArrowArrayStream* s, ArrowArray* out) {
  auto* st = static_cast<stream_state*>(s->private_data);
  for (;;) {
    batch b;
    const auto w = st->run->next(b, poll);
    if (w == engine_run::wait_status::batch) {
      *out = b.array;
      return 0;
    }
    if (w == engine_run::wait_status::end) {
      const run_end& e = st->run->end();
      if (e.error) {
        st->error = e.message;
        return EIO;
      }
      out->release = nullptr;
      return 0;
    }
    // Ctrl-C: the consumer may hold the GIL or not; PyGILState_Ensure works in both cases.
    const PyGILState_STATE g = PyGILState_Ensure();
    const bool interrupted = PyErr_CheckSignals() != 0;
    if (interrupted) {
      PyErr_Clear();
      PyErr_SetInterrupt();  // raised as KeyboardInterrupt once the consumer returns to Python
    }
    PyGILState_Release(g);
    if (interrupted) {
      st->run->cancel();
      st->error = "interrupted (KeyboardInterrupt)";
      return EINTR;
    }
  }
}

const char* stream_last_error(ArrowArrayStream* s) {
  auto* st = static_cast<stream_state*>(s->private_data);
  return st->error.empty() ? nullptr : st->error.c_str();
}

void stream_release(ArrowArrayStream* s) {
  if (s->release == nullptr) return;
  delete static_cast<stream_state*>(s->private_data);
  s->release = nullptr;
}

run_config make_config(const std::string& path, const std::vector<std::string>& tables,
                       const std::vector<std::string>& symbols, std::int64_t start, std::int64_t end,
                       const std::string& book, std::size_t batch_rows, std::size_t queue_batches,
                       const std::string& tz, std::int64_t midnight_utc_ns, bool stats) {
  run_config cfg;
  cfg.path = path;
  cfg.tables = tables;
  cfg.symbols = symbols;
  cfg.start_ns = start;
  cfg.end_ns = end;
  cfg.book = book;
  cfg.batch_rows = batch_rows == 0 ? 1 : batch_rows;
  cfg.queue_batches = queue_batches == 0 ? 1 : queue_batches;
  cfg.time = {midnight_utc_ns, tz};
  cfg.stats = stats;
  return cfg;
}

// A run as Python sees it.
class py_run {
 public:
  explicit py_run(run_config cfg) {
    try {
      run_ = std::make_shared<engine_run>(std::move(cfg));
    } catch (const itch5::io::input_error& e) {
      throw nb::builtin_exception(nb::exception_type::runtime_error, e.what());
    }
  }

  // (table, schema capsule, array capsule), or None at the end (end() then says how it ended).
  nb::object next() {
    for (;;) {
      batch b;
      engine_run::wait_status w;
      {
        nb::gil_scoped_release release;
        w = run_->next(b, poll);
      }
      if (w == engine_run::wait_status::batch) {
        const std::string& name = run_->config().tables.at(b.table);
        nb::object arr = array_capsule(b.array);
        return nb::make_tuple(name, schema_capsule(name, run_->config()), arr);
      }
      if (w == engine_run::wait_status::end) return nb::none();
      if (PyErr_CheckSignals() != 0) {
        run_->cancel();
        throw nb::python_error();
      }
    }
  }

  nb::dict end() const {
    const run_end& e = run_->end();
    nb::dict d;
    d["error"] = e.error;
    d["cancelled"] = e.cancelled;
    d["message"] = e.message;
    d["offset"] = e.offset;
    d["message_number"] = e.message_number;
    d["messages"] = e.messages;
    d["stats_csv"] = e.stats_csv;
    d["depth_csv"] = e.depth_csv;
    return d;
  }

  void cancel() { run_->cancel(); }

  // The run's only table as an ArrowArrayStream capsule.
  nb::object stream() {
    if (run_->config().tables.size() != 1) {
      throw nb::value_error("a stream is made of a run of exactly one table");
    }
    auto* s = new ArrowArrayStream{};
    s->get_schema = &stream_get_schema;
    s->get_next = &stream_get_next;
    s->get_last_error = &stream_last_error;
    s->release = &stream_release;
    s->private_data = new stream_state{run_, {}};
    return nb::steal(PyCapsule_New(s, "arrow_array_stream", &stream_capsule_free));
  }

 private:
  std::shared_ptr<engine_run> run_;
};

}  // namespace
}  // namespace itch5::python

NB_MODULE(_itch5, m) {
  using namespace itch5::python;
  m.doc() = "The itch5 engine's tables as Arrow record batches (the C data interface, built by hand).";
  m.def("table_names", &table_names, "The tables a run can make.");
  m.def(
      "schema",
      [](const std::string& table, const std::string& tz, std::int64_t midnight_utc_ns) {
        run_config cfg;
        cfg.time = {midnight_utc_ns, tz};
        return schema_capsule(table, cfg);
      },
      "table"_a, "timezone"_a = "", "midnight_utc_ns"_a = 0,
      "The Arrow schema of a table, as an 'arrow_schema' PyCapsule.");
  nb::class_<py_run>(m, "Run", "One pass of the engine over a file, making the tables asked for.")
      .def(
          "__init__",
          [](py_run* self, const std::string& path, const std::vector<std::string>& tables,
             const std::vector<std::string>& symbols, std::int64_t start, std::int64_t end,
             const std::string& book, std::size_t batch_rows, std::size_t queue_batches,
             const std::string& tz, std::int64_t midnight_utc_ns, bool stats) {
            new (self) py_run(make_config(path, tables, symbols, start, end, book, batch_rows, queue_batches,
                                          tz, midnight_utc_ns, stats));
          },
          "path"_a, "tables"_a, "symbols"_a, "start"_a, "end"_a, "book"_a = "array", "batch_rows"_a = 65536,
          "queue_batches"_a = 4, "timezone"_a = "", "midnight_utc_ns"_a = 0, "stats"_a = false)
      .def("next", &py_run::next,
           "The next batch as (table, schema capsule, array capsule), or None at the end.")
      .def("end", &py_run::end, "How the run ended (after next() returned None).")
      .def("cancel", &py_run::cancel, "Stops the engine.")
      .def("stream", &py_run::stream, "The run's only table as an 'arrow_array_stream' PyCapsule.");
}
