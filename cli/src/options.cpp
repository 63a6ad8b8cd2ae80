#include <itch5/cli/options.hpp>

#include <CLI/CLI.hpp>
#include <yaml-cpp/anchor.h>
#include <yaml-cpp/emitterstyle.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <itch5/cli/build_info.hpp>

#include "values.hpp"

// What CLI11 does here, and what this file does itself. CLI11 (2.1.2, Debian's libcli11-dev) splits the
// command line (long and short names, --key=value, grouped short flags -qo, the -- mark) and formats
// --help. The rest is ours, each part because CLI11 would change a message or a rule of options.hpp:
//
// - Values are checked by the option's own parser (values.hpp), not by CLI11 validators (IsMember, Range):
//   a --config file's values need the same checks and messages, and validators would report a bad value
//   while CLI11 parses, in their words ("x not in {array,map}"), before an unknown option or an unreadable
//   --config file that apply() reports first.
// - The YAML file is read here (apply_yaml), not by a CLI::Config class through set_config(): CLI11 would
//   hand the file's values to the options as results like the command line's, so a bad one could not
//   name the file and the key ("config file F: key 'seed': ..."); it reports an unknown key as "INI was
//   not able to parse ..." (or ignores it, its default), a missing file or a directory as "... was not
//   readable (missing?)", and a repeated key not at all.
// - Every option keeps all its values (MultiOptionPolicy::TakeAll) and apply() walks app.parse_order()
//   itself: a repeated option is checked at each occurrence, the last one winning, and the values are
//   checked in the order written (the first bad one is the one reported). CLI11 keeps one value per
//   option by default (or refuses a repeat) and runs the options' callbacks in the order declared.
// - A flag's --no- form is a hidden option of its own, not CLI11's negation
//   (add_flag("--quiet,!--no-quiet")): with negation, --no-quiet=false gives the result "true" (turning
//   the flag on), --no-quiet=3 gives "-3", and the results do not say which name was written, so
//   "--no-quiet: takes no value, got '3'" could not be reported; --help would show "--no-quiet{false}".
// - checked_arguments() looks at the arguments before CLI11 does: CLI11 takes the next argument as the
//   value of an option written --key= (empty value), takes an option name as a forgotten value
//   (--output --quiet sets output to "--quiet"), and reads -o=x as -o with the value "=x".
// - allow_extras(), then reject_extras(): without it CLI11 throws ExtrasError, "The following arguments
//   were not expected: ...", all of them in one line and without telling an unknown option from a
//   positional argument too many; ours names the first one and says which it is, and the positional ones
//   are what options::more_positionals() collects.
// - App::parse(std::vector<std::string>&) expects the arguments reversed (it takes them from the back), so
//   parse() reverses the checked arguments before handing them over.

namespace itch5::cli {
namespace {

// The text of the --config file `path`; throws naming the path when it is a directory or unreadable
// (an ifstream opens a directory and reads nothing, which would look like an empty configuration).
std::string read_config_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw std::invalid_argument("--config: '" + path + "' is a directory, not a YAML file");
  }
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw std::invalid_argument("--config: cannot read '" + path + "'" +
                                (err != 0 ? ": " + std::string(std::strerror(err)) : std::string()));
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::invalid_argument("--config: error while reading '" + path + "'");
  return text.str();
}

// Wraps `text` to `width` columns, indenting continuation lines by `indent`.
std::string wrap(const std::string& text, std::size_t indent, std::size_t width) {
  std::string out, line;
  std::istringstream words(text);
  std::string w;
  std::size_t col = indent;
  bool first = true;
  while (words >> w) {
    if (!first && col + 1 + w.size() > width) {
      out += '\n' + std::string(indent, ' ');
      col = indent;
      first = true;
    }
    if (!first) {
      out += ' ';
      ++col;
    }
    out += w;
    col += w.size();
    first = false;
  }
  return out;
}

// The text of an option's YAML value: a scalar, or a list (for a list option) joined with commas.
std::string yaml_value_text(const YAML::Node& v, bool is_list, const std::string& where) {
  if (v.IsScalar()) return v.as<std::string>();
  if (v.IsNull()) throw std::invalid_argument(where + ": has no value");
  if (!v.IsSequence()) throw std::invalid_argument(where + ": expected a scalar value");
  if (!is_list) throw std::invalid_argument(where + ": expected a single value, got a list");
  std::vector<std::string> items;
  for (const auto& item : v) {
    if (!item.IsScalar()) throw std::invalid_argument(where + ": list items must be scalars");
    items.push_back(item.as<std::string>());
  }
  return values::join(items, ",");
}

// Every key of `root` is a name, and none is repeated: yaml-cpp keeps every entry of a repeated key, and one
// of them would silently win.
void check_keys(const YAML::Node& root, const std::string& origin) {
  std::vector<std::pair<std::string, int>> seen;  // key, line (from 1)
  for (const auto& kv : root) {
    const int line = kv.first.Mark().line + 1;
    if (!kv.first.IsScalar()) {
      throw std::invalid_argument(origin + ": line " + std::to_string(line) +
                                  ": expected an option name as the key, got a " +
                                  (kv.first.IsMap()        ? "mapping"
                                   : kv.first.IsSequence() ? "list"
                                                           : "null"));
    }
    std::string key = kv.first.as<std::string>();
    for (const auto& [k, first_line] : seen) {
      if (k == key) {
        throw std::invalid_argument(origin + ": key '" + key + "' is repeated (lines " +
                                    std::to_string(first_line) + " and " + std::to_string(line) + ")");
      }
    }
    seen.emplace_back(std::move(key), line);
  }
}

// The one mapping of names to values in `yaml_text` (an empty node for an empty document).
// Counts the documents of a YAML stream without building them; the events are not needed.
class document_counter final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
  }
  void OnMapEnd() override {}

  YAML::Mark start;
};

// The number of documents in `yaml_text`. yaml-cpp 0.7's LoadAll never returns on some invalid streams (a
// ',' where a node should start, e.g. ",A" or "[a]\n,"; found by fuzz_options): its parser reports an
// empty document forever (jbeder/yaml-cpp#1040, fixed upstream in #1319, not in Debian's 0.7). Documents
// are counted here with a bound instead: each needs at least one byte of the text.
std::size_t count_documents(const std::string& yaml_text, const std::string& origin) {
  std::istringstream in(yaml_text);
  YAML::Parser parser(in);
  document_counter counter;
  std::size_t documents = 0;
  while (parser.HandleNextDocument(counter)) {
    if (++documents > yaml_text.size() + 1) {
      throw std::invalid_argument(
          origin + ": not valid YAML: error at line " + std::to_string(counter.start.line + 1) + ", column " +
          std::to_string(counter.start.column + 1) + ": a ',' outside a [ ] or { } list");
    }
  }
  return documents;
}

YAML::Node load_mapping(const std::string& yaml_text, const std::string& origin) {
  YAML::Node root;
  try {
    // YAML::Load alone would read the first document and ignore the others.
    const std::size_t documents = count_documents(yaml_text, origin);
    if (documents > 1) {
      throw std::invalid_argument(origin + ": holds " + std::to_string(documents) +
                                  " YAML documents (separated by ---); expected one");
    }
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw std::invalid_argument(origin + ": not valid YAML: " + e.what());
  }
  if (!root || root.IsNull()) return YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap()) throw std::invalid_argument(origin + ": expected a mapping of option names to values");
  check_keys(root, origin);
  return root;
}

// Whether `arg` names an option (not a flag) that needs a value: --key or its one-letter alias.
bool takes_value(const CLI::App& app, const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-') return false;
  const CLI::Option* o = app.get_option_no_throw(arg);
  return o != nullptr && o->get_items_expected_max() > 0;
}

// What CLI11 left over (allow_extras): an unknown option, or a positional argument too many. CLI11 keeps the
// first -- among them; what follows it was positional whatever it looks like.
// Positional ones go to `more` when the program takes them (options::more_positionals).
void reject_extras(const std::vector<std::string>& rest, std::vector<std::string>* more) {
  bool after_mark = false;
  for (const std::string& a : rest) {
    if (a == "--" && !after_mark) {
      after_mark = true;
      continue;
    }
    if (!after_mark && a.size() > 1 && a[0] == '-') {
      throw std::invalid_argument("unknown option '" + a + "' (see --help)");
    }
    if (more == nullptr) throw std::invalid_argument("unexpected argument '" + a + "'");
    more->push_back(a);
  }
}

const std::string options_group =
    "Options (each also a key of the YAML file given to --config; flags override the file)";
const std::string config_help =
    "Read options from a YAML file (keys as above; the arguments are keys too, in lower case, e.g. input).";
const std::string print_config_help =
    "Print the effective configuration as YAML, the arguments given included, and exit.";
const std::string help_help = "Print this help and exit.";
const std::string version_help = "Print the version, git commit, compiler and build options, and exit.";

// --help: the usage line and the description, the positional arguments, then each option on a line of its
// own (aliases, the --no- form of a flag, the value's placeholder) with its explanation wrapped below it
// at 100 columns, and the epilog.
class help_formatter final : public CLI::Formatter {
 public:
  explicit help_formatter(std::string usage) : usage_(std::move(usage)) { label("Positionals", "Arguments"); }
  std::string make_help(const CLI::App* app, std::string name, CLI::AppFormatMode) const override {
    const auto shown =
        app->get_options([](const CLI::Option* o) { return o->nonpositional() && !o->get_group().empty(); });
    return make_usage(app, std::move(name)) + make_positionals(app) +
           make_group(options_group, false, shown) + "\n" + make_footer(app);
  }
  std::string make_usage(const CLI::App* app, std::string name) const override {
    return "Usage: " + name + " " + usage_ + "\n\n" + wrap(app->get_description(), 0, 100) + "\n";
  }
  std::string make_option(const CLI::Option* o, bool positional) const override {
    std::string names = o->get_name(positional, true);  // "-o,--output"
    for (auto c = names.find(','); c != std::string::npos; c = names.find(',', c)) names.insert(++c, " ");
    return "  " + names + o->get_option_text() + "\n      " + wrap(o->get_description(), 6, 100) + "\n";
  }
  std::string make_footer(const CLI::App* app) const override {
    const std::string& epilog = app->get_footer();
    return epilog.empty() || epilog.back() == '\n' ? epilog : epilog + "\n";
  }

 private:
  std::string usage_;
};

}  // namespace

options::option& options::option::choices(std::vector<std::string> a) {
  allowed = std::move(a);
  return *this;
}
options::option& options::option::alias(char c) {
  short_name = c;
  return *this;
}
options::option& options::option::value_name(std::string name) {
  value_name_ = std::move(name);
  return *this;
}

options::options(std::string program, std::string usage, std::string description)
    : program_(std::move(program)), usage_(std::move(usage)), description_(std::move(description)) {}

options::option& options::add_option(std::string key, std::string help, std::string value_name) {
  auto o = std::make_unique<option>();
  o->key = std::move(key);
  o->help = std::move(help);
  o->value_name_ = std::move(value_name);
  options_.push_back(std::move(o));
  return *options_.back();
}

options::option& options::add(std::string key, std::string& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "STR");
  o.set = [&target](const std::string& v) { target = v; };
  o.get = [&target] { return target; };
  return o;
}

options::option& options::add(std::string key, bool& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "");
  o.is_flag = true;
  o.set = [&target](const std::string& v) {
    if (v == "true" || v == "yes" || v == "on" || v == "1")
      target = true;
    else if (v == "false" || v == "no" || v == "off" || v == "0")
      target = false;
    else
      throw std::invalid_argument("expected true or false, got '" + v + "'");
  };
  o.get = [&target] { return std::string(target ? "true" : "false"); };
  o.get_bool = [&target] { return target; };
  return o;
}

options::option& options::add(std::string key, std::int64_t& target, std::string help, std::int64_t min,
                              std::int64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "N");
  o.set = [&target, min, max](const std::string& v) { target = values::parse_int(v, min, max); };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

options::option& options::add(std::string key, std::uint64_t& target, std::string help, std::uint64_t min,
                              std::uint64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "N");
  o.set = [&target, min, max](const std::string& v) { target = values::parse_uint(v, min, max); };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

options::option& options::add(std::string key, double& target, std::string help, double min, double max) {
  auto& o = add_option(std::move(key), std::move(help), "X");
  o.set = [&target, min, max](const std::string& v) { target = values::parse_real(v, min, max); };
  o.get = [&target] {
    std::ostringstream s;
    s << target;
    return s.str();
  };
  return o;
}

options::option& options::add(std::string key, std::vector<std::string>& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "A,B,...");
  o.is_list = true;
  o.set = [&target](const std::string& v) { target = values::parse_list(v); };
  o.get = [&target] { return values::join(target, ","); };
  return o;
}

options::option& options::add(std::string key, std::chrono::nanoseconds& target, std::string help) {
  auto& o = add_option(std::move(key), std::move(help), "DURATION");
  o.set = [&target](const std::string& v) { target = parse_duration(v); };
  o.get = [&target] { return format_duration(target); };
  return o;
}

options::option& options::add_count(std::string key, std::uint64_t& target, std::string help,
                                    std::uint64_t min, std::uint64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "N");
  o.set = [&target, min, max](const std::string& v) { target = values::parse_count(v, min, max); };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

options::option& options::add_size(std::string key, std::uint64_t& target, std::string help,
                                   std::uint64_t min, std::uint64_t max) {
  auto& o = add_option(std::move(key), std::move(help), "BYTES");
  o.set = [&target, min, max](const std::string& v) { target = values::parse_size(v, min, max); };
  o.get = [&target] { return std::to_string(target); };
  return o;
}

void options::positional(std::string name, std::string& target, std::string help, bool required) {
  positionals_.push_back({std::move(name), std::move(help), &target, required});
}

void options::more_positionals(std::vector<std::string>& target) { more_positionals_ = &target; }

void options::epilog(std::string text) { epilog_ = std::move(text); }

options::option* options::find(std::string_view key) {
  for (auto& o : options_) {
    if (o->key == key) return o.get();
  }
  return nullptr;
}

void options::set_from(option& o, const std::string& value, const std::string& origin) {
  if (!o.allowed.empty() && std::find(o.allowed.begin(), o.allowed.end(), value) == o.allowed.end()) {
    throw std::invalid_argument(origin + ": expected one of " + values::join(o.allowed, ", ") + ", got '" +
                                value + "'");
  }
  try {
    o.set(value);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(origin + ": " + e.what());
  }
}

options::positional_arg* options::find_positional(std::string_view key) {
  for (auto& p : positionals_) {
    std::string lower = p.name;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower == key) return &p;
  }
  return nullptr;
}

void options::apply_yaml(const std::string& yaml_text, const std::string& origin) {
  const YAML::Node root = load_mapping(yaml_text, origin);
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    const std::string where = origin + ": key '" + key + "'";
    option* o = find(key);
    if (o != nullptr) {
      set_from(*o, yaml_value_text(kv.second, o->is_list, where), where);
      continue;
    }
    positional_arg* p = find_positional(key);
    if (p == nullptr) throw std::invalid_argument(where + ": unknown option (see --help)");
    // The last positional argument of a program that takes more (FILE...) is a list.
    const bool takes_list = more_positionals_ != nullptr && p == &positionals_.back();
    if (takes_list && kv.second.IsSequence()) {
      std::vector<std::string> items;
      for (const auto& item : kv.second) {
        if (!item.IsScalar()) throw std::invalid_argument(where + ": list items must be scalars");
        items.push_back(item.as<std::string>());
      }
      if (items.empty()) throw std::invalid_argument(where + ": has no value");
      *p->target = items.front();
      more_positionals_->assign(items.begin() + 1, items.end());
    } else {
      *p->target = yaml_value_text(kv.second, false, where);
      if (takes_list) more_positionals_->clear();
    }
    p->from_file = true;
  }
}

// The command line as a CLI11 app: CLI11 splits it into options, values and positional arguments, and the
// values stay text for the options' own parsers. Every option keeps all its values (TakeAll) and apply()
// sets them in command-line order, so a repeated option is checked at each occurrence and the last wins,
// and a flag's --no- form (a hidden option of its own) counts where it is written.
std::unique_ptr<CLI::App> options::make_app() const {
  auto app = std::make_unique<CLI::App>(description_, program_);
  app->set_help_flag();  // added last, below, to be listed last
  app->allow_extras();   // reported by reject_extras() in our words (see the top of this file)
  app->footer(epilog_);
  app->formatter(std::make_shared<help_formatter>(usage_));
  app->option_defaults()->group(options_group)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  for (const auto& p : positionals_) app->add_option(p.name, std::as_const(p.help));
  for (const auto& o : options_) add_to(*app, *o);
  app->add_option("--config", std::as_const(config_help))->option_text(" FILE");
  app->add_flag("--print-config", std::as_const(print_config_help));
  app->add_flag("-h,--help", std::as_const(help_help));
  app->add_flag("--version", std::as_const(version_help));
  return app;
}

void options::add_to(CLI::App& app, const option& o) const {
  std::string names = "--" + o.key;
  if (o.short_name != 0) names = std::string("-") + o.short_name + "," + names;
  std::string help = o.help;
  if (!o.allowed.empty()) help += " One of: " + values::join(o.allowed, ", ") + ".";
  const std::string def = o.get();
  // A help text that says its default in words ("Default: the start.") is not given a second one.
  if (help.find("Default:") == std::string::npos)
    help += " Default: " + (def.empty() ? std::string("(none)") : def) + ".";
  const std::string& text = help;
  if (!o.is_flag) {
    app.add_option(names, text)->option_text(" " + o.value_name_);
    return;
  }
  app.add_flag(names, text)->option_text(", --no-" + o.key);
  app.add_flag("--no-" + o.key)->group("");  // hidden; not CLI11's "!--no-" negation (top of this file)
}

// Before CLI11 sees them: an option that needs a value must have one, and `--output --quiet` is a forgotten
// value, not a file named --quiet (CLI11 would take it). `--types=` is the empty value (CLI11 would take
// the next argument): it is handed over as `--types ""`. `-o=x` is no option (CLI11 would set -o to "=x").
std::vector<std::string> options::checked_arguments(const CLI::App& app, int argc, char** argv) const {
  std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size() && args[i] != "--"; ++i) {
    const std::string& a = args[i];
    if (a.size() > 3 && a.back() == '=' && takes_value(app, a.substr(0, a.size() - 1))) {
      args[i].pop_back();
      args.insert(args.begin() + static_cast<std::ptrdiff_t>(++i), std::string());
      continue;
    }
    if (a.size() > 2 && a[0] == '-' && a[1] != '-' && a[2] == '=') {  // CLI11 would read -o=x as -o "=x"
      throw std::invalid_argument("unknown option '" + a + "' (see --help)");
    }
    if (!takes_value(app, a)) continue;
    if (i + 1 == args.size()) {
      throw std::invalid_argument(a == "--config" ? "--config: missing FILE" : a + ": missing value");
    }
    const std::string& next = args[++i];
    if (next.size() > 2 && next.rfind("--", 0) == 0 &&
        app.get_option_no_throw(next.substr(0, next.find('='))) != nullptr) {
      throw std::invalid_argument(a + ": missing value (the next argument, '" + next +
                                  "', is an option; write " + app.get_option_no_throw(a)->get_name() + "=" +
                                  next + " for a value that looks like one)");
    }
  }
  return args;
}

std::optional<int> options::parse(int argc, char** argv) {
  const std::unique_ptr<CLI::App> app = make_app();
  try {
    std::vector<std::string> args = checked_arguments(*app, argc, argv);
    std::reverse(args.begin(), args.end());  // CLI11 takes the arguments from the back
    app->parse(args);
    if (app->count("--help") != 0) {
      std::cout << app->help();
      return 0;
    }
    if (app->count("--version") != 0) {
      std::cout << build_info::current().version_text(program_);
      return 0;
    }
    apply(*app);
  } catch (const std::invalid_argument& e) {
    std::cerr << program_ << ": error: " << e.what() << "\n";
    return 2;
  } catch (const CLI::ParseError& e) {
    std::cerr << program_ << ": error: " << e.what() << "\n";
    return 2;
  }
  if (app->count("--print-config") != 0) {
    std::cout << to_yaml();
    return 0;
  }
  return std::nullopt;
}

// Defaults < --config files (in order) < the command line (in order), then the required arguments.
void options::apply(const CLI::App& app) {
  std::vector<std::string> extra;  // positional arguments beyond the declared ones
  reject_extras(app.remaining(), more_positionals_ != nullptr ? &extra : nullptr);
  std::vector<std::string> defaults;
  for (const auto& p : positionals_) defaults.push_back(*p.target);
  for (const std::string& file : app.get_option("--config")->results()) {
    config_files_.push_back(file);
    apply_yaml(read_config_file(file), "config file " + file);
  }
  // Positional arguments on the command line replace all of the files'.
  bool on_command_line = !extra.empty();
  for (const auto& p : positionals_) on_command_line = on_command_line || app.count(p.name) != 0;
  if (on_command_line) {
    for (std::size_t i = 0; i < positionals_.size(); ++i) {
      *positionals_[i].target = defaults[i];
      positionals_[i].from_file = false;
    }
    if (more_positionals_ != nullptr) *more_positionals_ = extra;
  }
  std::map<const CLI::Option*, std::size_t> taken;  // values of each option applied so far
  for (const CLI::Option* o : app.parse_order()) set_from_command_line(*o, o->results().at(taken[o]++));
  if (app.count("--print-config") != 0) return;  // prints the configuration, does not run
  for (const auto& p : positionals_) {
    if (p.required && app.count(p.name) == 0 && !p.from_file) {
      throw std::invalid_argument("missing " + p.name + " (see --help)");
    }
  }
}

void options::set_from_command_line(const CLI::Option& o, const std::string& value) {
  if (!o.nonpositional()) {
    for (auto& p : positionals_) {
      if (p.name == o.get_name(true)) *p.target = value;
    }
    return;
  }
  const std::string& key = o.get_lnames().front();  // every option has one; get_name() is "" when hidden
  if (option* x = find(key)) {
    set_from(*x, x->is_flag && value.empty() ? "true" : value, "--" + key);
  } else if (option* negated = key.rfind("no-", 0) == 0 ? find(key.substr(3)) : nullptr) {
    if (value != "true") throw std::invalid_argument("--" + key + ": takes no value, got '" + value + "'");
    negated->set("false");
  }  // else --config (applied first), --print-config
}

std::string options::to_yaml() const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const auto& o : options_) {
    out << YAML::Key << o->key << YAML::Value;
    if (o->is_list) {
      out << YAML::Flow << YAML::BeginSeq;
      for (const auto& item : values::split_list(o->get())) out << item;
      out << YAML::EndSeq;
    } else if (o->is_flag) {
      out << o->get_bool();
    } else {
      out << o->get();
    }
  }
  // The positional arguments given (INPUT: input), the last with the further ones as a list (FILE...).
  for (const auto& p : positionals_) {
    if (p.target->empty()) continue;
    std::string key = p.name;
    std::transform(key.begin(), key.end(), key.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    out << YAML::Key << key << YAML::Value;
    if (more_positionals_ != nullptr && &p == &positionals_.back() && !more_positionals_->empty()) {
      out << YAML::Flow << YAML::BeginSeq << *p.target;
      for (const auto& item : *more_positionals_) out << item;
      out << YAML::EndSeq;
    } else {
      out << *p.target;
    }
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::string options::help_text() const { return make_app()->help(); }

}  // namespace itch5::cli
