// Command-line and YAML configuration for the itch5 tools, declared once per option.
//
//   itch5::cli::options opts("itch5inside", "[options] INPUT", "Writes one line per change of ...");
//   opts.add("book", cfg.book, "Book side implementation.").choices({"array", "map"});
//   opts.positional("INPUT", cfg.input, "ITCH file (raw or .gz), or - for standard input.");
//   if (auto exit_code = opts.parse(argc, argv)) return *exit_code;
//
// Every option is a long flag (--book array, --book=array) and the YAML key of the same name in a file
// given with --config FILE (a directory, an unreadable file or a key given twice is an error). A
// positional argument is the YAML key of its name in lower case (INPUT: input); the last one takes a list
// when the program takes more (FILE...: file: [a, b]); positional arguments on the command line replace
// all of the file's. Defaults
// come from the targets' initial values; the file overrides them and flags override the file. --help
// explains every option, --print-config writes the effective configuration as YAML, --version the build
// (itch5::cli::build_info). A bad value raises a message naming the flag or the key and what was expected;
// numbers are parsed exactly (no floating point for counts, sizes and durations), and one beyond the
// option's range or its type is an error, never a wrapped or rounded value. CLI11 splits the command line
// and formats --help; the values, the YAML file and the messages are this library's.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace itch5::cli {

class options {
 public:
  /// A registered option, returned by add() to refine it.
  class option {
   public:
    /// Restricts a string option to `allowed` values.
    option& choices(std::vector<std::string> allowed);
    /// One-letter alias, e.g. 'o' for -o.
    option& alias(char c);
    /// Placeholder shown in --help ("FILE", "N").
    option& value_name(std::string name);

   private:
    friend class options;
    std::string key;
    std::string help;
    std::string value_name_;
    char short_name = 0;
    bool is_flag = false;
    std::vector<std::string> allowed;
    std::function<void(const std::string& value)> set;  // throws std::invalid_argument with the reason
    std::function<std::string()> get;                   // current value, as text
    std::function<bool()> get_bool;                     // flags only
    bool is_list = false;
  };

  options(std::string program, std::string usage, std::string description);

  option& add(std::string key, std::string& target, std::string help);
  option& add(std::string key, bool& target, std::string help);  // --key, --no-key; YAML true/false
  option& add(std::string key, std::int64_t& target, std::string help, std::int64_t min, std::int64_t max);
  option& add(std::string key, std::uint64_t& target, std::string help, std::uint64_t min, std::uint64_t max);
  option& add(std::string key, double& target, std::string help, double min, double max);
  option& add(std::string key, std::vector<std::string>& target, std::string help);  // comma-separated
  /// A duration with a unit: 250ns, 10us, 16.384ms, 2s, 1min; a bare 0 is zero. Never negative.
  option& add(std::string key, std::chrono::nanoseconds& target, std::string help);
  /// A count with an optional decimal suffix: 20000, 20k, 50M, 2G; decimals are exact (1.001M = 1001000)
  /// and must give a whole number.
  option& add_count(std::string key, std::uint64_t& target, std::string help, std::uint64_t min,
                    std::uint64_t max);
  /// A byte size with an optional binary suffix: 65536, 64KiB, 1MiB; decimals are exact (1.5KiB = 1536)
  /// and must give a whole number of bytes.
  option& add_size(std::string key, std::uint64_t& target, std::string help, std::uint64_t min,
                   std::uint64_t max);

  /// A positional argument, in order.
  void positional(std::string name, std::string& target, std::string help, bool required = true);

  /// Positional arguments after the last positional() go to `target`, in order, instead of being an error
  /// ("FILE..."). Set at most once.
  void more_positionals(std::vector<std::string>& target);

  /// Text appended to --help after the options (formats, exit codes, examples).
  void epilog(std::string text);

  /// Parses the command line (and --config). Returns an exit code when the program should stop now:
  /// 0 after --help, --version or --print-config, 2 after a usage error (already reported on stderr).
  [[nodiscard]] std::optional<int> parse(int argc, char** argv);

  /// The files given with --config, in order (read by parse()): inputs of the run like any other.
  [[nodiscard]] const std::vector<std::string>& config_files() const noexcept { return config_files_; }

  /// The effective configuration as YAML: the options, then the positional arguments given.
  [[nodiscard]] std::string to_yaml() const;
  [[nodiscard]] std::string help_text() const;

  /// Applies a YAML document (the text of a --config file); `origin` names it in errors. Throws
  /// std::invalid_argument naming the key on a bad value, an unknown key or a repeated one, and on text
  /// that is not one YAML mapping (invalid YAML, several documents, a key that is not a name).
  void apply_yaml(const std::string& yaml_text, const std::string& origin);

 private:
  option& add_option(std::string key, std::string help, std::string value_name);
  option* find(std::string_view key);
  void set_from(option& o, const std::string& value, const std::string& origin);
  // The command line, by CLI11 (cli/src/options.cpp).
  [[nodiscard]] std::unique_ptr<CLI::App> make_app() const;
  void add_to(CLI::App& app, const option& o) const;
  std::vector<std::string> checked_arguments(const CLI::App& app, int argc, char** argv) const;
  void apply(const CLI::App& app);
  void set_from_command_line(const CLI::Option& o, const std::string& value);

  struct positional_arg {
    std::string name;
    std::string help;
    std::string* target;
    bool required;
    bool from_file = false;  // set by a --config file (apply_yaml)
  };
  positional_arg* find_positional(std::string_view key);

  std::string program_;
  std::string usage_;
  std::string description_;
  std::string epilog_;
  std::vector<std::unique_ptr<option>> options_;
  std::vector<positional_arg> positionals_;
  std::vector<std::string>* more_positionals_ = nullptr;
  std::vector<std::string> config_files_;
};

/// Parses "250ns", "10us", "16.384ms", "2s", "1min", "1h" (exact to the nanosecond), and "0" without a
/// unit. Throws std::invalid_argument naming the text for a negative duration, one finer than a
/// nanosecond, one beyond the int64 nanosecond range (about 292 years) or a malformed one.
std::chrono::nanoseconds parse_duration(std::string_view text);
/// The shortest exact text for `d` that parse_duration() reads back ("16384us").
std::string format_duration(std::chrono::nanoseconds d);

}  // namespace itch5::cli
