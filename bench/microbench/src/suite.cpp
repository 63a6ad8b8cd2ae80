#include <microbench/suite.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <microbench/run_info.hpp>

#include <itch5/cli/options.hpp>

namespace microbench {
namespace {

// The smallest difference between two consecutive steady_clock readings: the resolution plus the cost of
// one reading, a floor under every sample.
std::int64_t timer_floor_ns() {
  using clock = std::chrono::steady_clock;
  auto best = std::chrono::nanoseconds::max();
  for (int i = 0; i < 1000; ++i) {
    const auto a = clock::now();
    const auto b = clock::now();
    best = std::min(best, std::chrono::duration_cast<std::chrono::nanoseconds>(b - a));
  }
  return best.count();
}

// Written in blocks: a per-item run can have millions of samples.
void write_samples(std::ostream& out, std::string_view name, std::span<const std::int64_t> samples) {
  constexpr std::size_t block = 65536;
  std::string buf;
  buf.reserve(std::min(samples.size(), block) * (name.size() + 12));
  char num[24];
  for (std::size_t i = 0; i < samples.size(); ++i) {
    buf += name;
    buf += ',';
    buf.append(num, std::to_chars(num, num + sizeof num, samples[i]).ptr);
    buf += '\n';
    if ((i + 1) % block == 0) {
      out << buf;
      buf.clear();
    }
  }
  out << buf;
}

std::string mebibytes(std::uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

}  // namespace

suite::suite(std::string program, std::string description)
    : program_(std::move(program)),
      opts_(std::make_unique<itch5::cli::options>(program_, "[options]", std::move(description))) {
  add_options(*opts_, cfg_);
  opts_->add("list", list_, "Print the names of the test cases, one per line, and exit.");
}

suite::~suite() = default;

void suite::add_case(std::string name, runner run) {
  if (name.empty() || name.find_first_of(",# \t\n") != std::string::npos) {
    throw std::invalid_argument("microbench: test case name '" + name +
                                "' must be non-empty without commas, '#' or spaces");
  }
  if (find(name) != nullptr)
    throw std::invalid_argument("microbench: test case '" + name + "' registered twice");
  cases_.push_back({std::move(name), std::move(run)});
}

const suite::test_case* suite::find(std::string_view name) const noexcept {
  for (const auto& c : cases_) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::vector<std::string> suite::names() const {
  std::vector<std::string> v;
  for (const auto& c : cases_) v.push_back(c.name);
  return v;
}

std::size_t suite::per_item_samples(std::uint64_t iterations, std::uint64_t items) {
  constexpr std::uint64_t max_samples = 1'000'000'000;  // 8 GB
  if (items == 0) throw std::invalid_argument("--per-item: the fixture reports 0 items per iteration");
  if (iterations > max_samples / items) {
    throw std::invalid_argument("--per-item: " + std::to_string(iterations) + " iterations x " +
                                std::to_string(items) + " items is more than 10^9 samples");
  }
  return static_cast<std::size_t>(iterations * items);
}

const timer_calibration& suite::calibration() {
  if (!calibration_) calibration_ = timer_calibration::measure();
  return *calibration_;
}

cache_disturber* suite::disturber() {
  if (!cfg_.disturb_cache) return nullptr;
  const std::uint64_t want =
      cfg_.disturb_size == 0 ? 2 * cache_disturber::last_level_cache_bytes() : cfg_.disturb_size;
  const std::uint64_t lines = (want + cache_disturber::line - 1) / cache_disturber::line;
  if (!disturber_ || disturber_->size() != lines * cache_disturber::line) {
    disturber_ = std::make_unique<cache_disturber>(want);
  }
  return disturber_.get();
}

suite::result suite::run(std::string_view name) {
  const test_case* c = find(name);
  if (c == nullptr) throw std::invalid_argument("unknown test case '" + std::string(name) + "'");
  run_context ctx;
  ctx.disturb = disturber();
  if (cfg_.per_item) ctx.calibration = &calibration();
  result r;
  r.name = c->name;
  r.per_item = cfg_.per_item;
  // Allocated and touched before the fixture and the run; in per-item mode the runner sizes it after
  // building the fixture, before the run.
  if (!cfg_.per_item) r.samples.assign(cfg_.iterations, 0);
  r.items_per_iteration = c->run(cfg_, ctx, r.samples);
  r.summary = summary::of(r.samples);
  return r;
}

int suite::main(int argc, char** argv) { return main(argc, argv, std::cout, std::cerr); }

int suite::main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  if (auto rc = opts_->parse(argc, argv)) return *rc;
  if (list_) {
    for (const auto& c : cases_) out << c.name << "\n";
    return 0;
  }
  std::vector<const test_case*> chosen;
  if (!choose_cases(chosen, err)) return 2;

  const environment env = environment::prepare(cfg_, os_);
  for (const auto& w : env.warnings) err << program_ << ": warning: " << w << "\n";
  if (!env.ok) {
    err << program_ << ": error: " << env.error << "\n";
    return 1;
  }
  setup_notes notes;
  if (!prepare_notes(notes, err)) return 1;
  if (cfg_.verbose) write_run_info(argc, argv, env, notes, out);
  return run_cases(chosen, out, err) ? 0 : 1;
}

bool suite::choose_cases(std::vector<const test_case*>& chosen, std::ostream& err) const {
  if (cfg_.testcase.empty()) {
    for (const auto& c : cases_) chosen.push_back(&c);
  }
  for (const auto& want : cfg_.testcase) {
    const test_case* c = find(want);
    if (c == nullptr) {
      std::string known;
      for (const auto& k : cases_) known += (known.empty() ? "" : ", ") + k.name;
      err << program_ << ": error: --testcase: unknown test case '" << want << "' (known: " << known << ")\n";
      return false;
    }
    if (std::find(chosen.begin(), chosen.end(), c) == chosen.end()) chosen.push_back(c);
  }
  return true;
}

bool suite::prepare_notes(setup_notes& notes, std::ostream& err) {
  // Timer and disturbance notes: stderr (and the dump's header), before any test case runs.
  try {
    if (cfg_.per_item) notes.timer = calibration().describe();
    if (const cache_disturber* d = disturber()) {
      notes.disturb = mebibytes(d->size()) + " read before every " + (cfg_.per_item ? "item" : "iteration") +
                      " (last-level cache " + mebibytes(cache_disturber::last_level_cache_bytes()) + ")";
    }
  } catch (const std::exception& e) {
    err << program_ << ": error: " << e.what() << "\n";
    return false;
  }
  if (cfg_.per_item) err << program_ << ": per-item timer: " << notes.timer << "\n";
  if (cfg_.disturb_cache) err << program_ << ": cache disturbance: " << notes.disturb << "\n";
  return true;
}

void suite::write_run_info(int argc, char** argv, const environment& env, const setup_notes& notes,
                           std::ostream& out) const {
  run_info info = run_info::collect();
  std::string command;
  for (int i = 0; i < argc; ++i) command += (i ? " " : "") + std::string(argv[i]);
  info.add("program", program_);
  info.add("command", command);
  info.add("realtime", env.realtime);
  info.add("mlockall", env.memory);
  info.add("affinity", env.affinity);
  info.add("mode", cfg_.per_item ? "per-item" : "per-iteration");
  info.add("timer", cfg_.per_item ? notes.timer
                                  : "std::chrono::steady_clock, back-to-back readings >= " +
                                        std::to_string(timer_floor_ns()) + " ns");
  info.add("cache_disturbance", notes.disturb);
  std::istringstream yaml(opts_->to_yaml());
  for (std::string line; std::getline(yaml, line);) {
    auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    info.add("option." + line.substr(0, colon), line.substr(colon + 2));
  }
  info.write(out);
  out << "testcase,nanoseconds\n" << std::flush;
}

bool suite::run_cases(const std::vector<const test_case*>& chosen, std::ostream& out, std::ostream& err) {
  for (const test_case* c : chosen) {
    result r;
    try {
      r = run(c->name);
    } catch (const std::exception& e) {
      err << program_ << ": error: test case " << c->name << ": " << e.what() << "\n";
      return false;
    }
    const std::string line =
        r.per_item ? r.summary.line(r.name, 0, "item") : r.summary.line(r.name, r.items_per_iteration);
    if (cfg_.verbose) {
      write_samples(out, r.name, r.samples);
      out << "# summary: " << line << "\n" << std::flush;
    }
    err << line << "\n" << std::flush;
  }
  return true;
}

}  // namespace microbench
