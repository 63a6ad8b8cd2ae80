// libFuzzer target: the tools' command-line and YAML configuration (cli/options.hpp), over one
// itch5::cli::options with an option of every kind: strings (free and with choices), flags, signed and
// unsigned integers, a double, a list, a duration, a count, a size and two positionals (one optional).
//
// Every input is used twice:
//   (a) as a command line: the bytes split at newlines into arguments, after the program name, to parse();
//   (b) as a YAML document, to apply_yaml() on fresh options.
// std::invalid_argument (a usage or value error) is the documented failure; any other exception, a crash
// or undefined behaviour is a bug. When a parse succeeds, the effective configuration it prints
// (to_yaml(), what --print-config writes) must read back with apply_yaml() without any error and print
// the same again: --print-config output is a valid --config file (unless a string value holds control
// characters, see check_round_trip).
//
// parse() reads the file named by --config: each such name is replaced by one of two harness files (a
// small valid YAML config, or a path that does not exist), so the input never names a real file (a
// device or a FIFO would block). parse() reports errors on std::cerr and --help and --print-config write
// to std::cout; both are silenced while the target runs.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <typeinfo>
#include <vector>

#include <unistd.h>

#include <itch5/cli/options.hpp>

namespace {

// The targets of every kind of option, with their defaults.
struct config {
  std::string book = "array";
  std::string output;
  bool quiet = false;
  bool stats = true;
  std::int64_t offset = -5;
  std::uint64_t levels = 256;
  double ratio = 0.5;
  std::vector<std::string> symbols;
  std::chrono::nanoseconds window{std::chrono::milliseconds(16)};
  std::uint64_t messages = 20'000'000;
  std::uint64_t block = 1 << 20;
  std::string input;
  std::string second;
};

void declare(itch5::cli::options& opts, config& c) {
  opts.add("book", c.book, "Book side implementation.").choices({"array", "map"});
  opts.add("output", c.output, "Output file.").alias('o').value_name("FILE");
  opts.add("quiet", c.quiet, "No progress line.").alias('q');
  opts.add("stats", c.stats, "Collect statistics.");
  opts.add("offset", c.offset, "A signed integer.", -1000, 1000);
  opts.add("levels", c.levels, "An unsigned integer.", 64, 1 << 20);
  opts.add("ratio", c.ratio, "A fraction.", 0, 0.99);
  opts.add("symbols", c.symbols, "Symbols, comma separated.");
  opts.add("window", c.window, "A duration.");
  opts.add_count("messages", c.messages, "A count with a decimal suffix.", 1, std::uint64_t{1} << 40);
  opts.add_size("block-size", c.block, "A size with a binary suffix.", 4096, std::uint64_t{1} << 30);
  opts.positional("INPUT", c.input, "Input file.");
  opts.positional("SECOND", c.second, "An optional second file.", false);
  opts.epilog("Exit status: 0 on success.\n");
}

// Swallows everything written to it.
class null_buffer final : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// Points std::cout and std::cerr at a null buffer for its lifetime.
class silence {
 public:
  silence() : out_(std::cout.rdbuf(&null_)), err_(std::cerr.rdbuf(&null_)) {}
  ~silence() {
    std::cout.rdbuf(out_);
    std::cerr.rdbuf(err_);
  }
  silence(const silence&) = delete;
  silence& operator=(const silence&) = delete;

 private:
  null_buffer null_;
  std::streambuf* out_;
  std::streambuf* err_;
};

// The harness's --config files: a valid one, written once per process and removed at exit, and a path
// that does not exist.
class config_files {
 public:
  config_files() {
    const std::filesystem::path dir = std::filesystem::temp_directory_path();
    valid_ = (dir / ("itch5-fuzz-options-" + std::to_string(::getpid()) + ".yaml")).string();
    std::ofstream(valid_) << "book: map\nlevels: 1024\nsymbols: [AAPL, MSFT]\nwindow: 2ms\nquiet: true\n";
    missing_ = (dir / ("itch5-fuzz-options-" + std::to_string(::getpid()) + "-missing.yaml")).string();
  }
  ~config_files() { std::remove(valid_.c_str()); }
  config_files(const config_files&) = delete;
  config_files& operator=(const config_files&) = delete;

  /// The harness file standing for a --config name from the input.
  [[nodiscard]] const std::string& stand_in(const std::string& name) const {
    return name.size() % 2 == 0 ? valid_ : missing_;
  }

 private:
  std::string valid_;
  std::string missing_;
};

[[noreturn]] void unexpected(const char* where, const std::exception& e) {
  std::fprintf(stderr, "fuzz_options: %s threw %s: %s\n", where, typeid(e).name(), e.what());
  std::abort();
}

bool has_control_characters(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u < 0x20 || u == 0x7f;
  });
}

// The configuration printed after a successful parse must read back, unchanged. Not checked when a string
// holds control characters: yaml-cpp writes "x\r" as a plain scalar, which reads back as "x" (a file name
// or symbol with a carriage return is not worth the noise). The positional arguments are strings printed
// too (INPUT: input, SECOND: second) since --print-config shows them.
void check_round_trip(const itch5::cli::options& parsed, const config& values) {
  if (has_control_characters(values.book) || has_control_characters(values.output) ||
      has_control_characters(values.input) || has_control_characters(values.second) ||
      std::any_of(values.symbols.begin(), values.symbols.end(), has_control_characters)) {
    return;
  }
  const std::string printed = parsed.to_yaml();
  config c;
  itch5::cli::options again("fuzz", "[options] INPUT [SECOND]", "Round trip.");
  declare(again, c);
  try {
    again.apply_yaml(printed, "printed config");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_options: the printed configuration does not read back:\n%s", printed.c_str());
    unexpected("apply_yaml(to_yaml())", e);
  }
  if (again.to_yaml() != printed) {
    std::fprintf(stderr, "fuzz_options: printed configuration changed on reading back:\n%s---\n%s",
                 printed.c_str(), again.to_yaml().c_str());
    std::abort();
  }
}

void command_line(const std::string& text, const config_files& files) {
  std::vector<std::string> args{"fuzz"};
  std::size_t from = 0;
  while (from <= text.size()) {
    std::size_t nl = text.find('\n', from);
    if (nl == std::string::npos) nl = text.size();
    args.push_back(text.substr(from, nl - from));
    from = nl + 1;
  }
  if (text.empty()) args.pop_back();  // no argument at all
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--config" && i + 1 < args.size()) {
      args[i + 1] = files.stand_in(args[i + 1]);
      ++i;
    } else if (args[i].rfind("--config=", 0) == 0) {
      args[i] = "--config=" + files.stand_in(args[i].substr(9));
    }
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  config c;
  itch5::cli::options opts("fuzz", "[options] INPUT [SECOND]", "Parses options.");
  declare(opts, c);
  std::optional<int> exit_code;
  try {
    exit_code = opts.parse(static_cast<int>(args.size()), argv.data());
  } catch (const std::exception& e) {
    unexpected("parse()", e);  // parse() reports usage errors itself and returns 2
  }
  if (exit_code && *exit_code != 0 && *exit_code != 2) std::abort();
  if (!exit_code) check_round_trip(opts, c);
}

void yaml_document(const std::string& text) {
  config c;
  itch5::cli::options opts("fuzz", "[options] INPUT [SECOND]", "Applies YAML.");
  declare(opts, c);
  try {
    opts.apply_yaml(text, "fuzz input");
  } catch (const std::invalid_argument&) {
    return;
  } catch (const std::exception& e) {
    unexpected("apply_yaml()", e);
  }
  check_round_trip(opts, c);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const config_files files;
  const std::string text(reinterpret_cast<const char*>(data), size);
  silence quiet;
  command_line(text, files);
  yaml_document(text);
  return 0;
}
