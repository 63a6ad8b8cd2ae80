// The market-state event tables as CSV files in one directory, one file per kind (DIR/<kind>.csv, the kind
// being the table's name: stock_directory.csv, noii.csv, ...), as `itch5inside --events DIR` writes them:
//
//   auto kinds = itch5::tables::event_csv_files::parse_kinds({"noii", "H"});   // names or message letters
//   itch5::tables::event_csv_files files("events", kinds, out_options);       // the files, with headers
//   options.tables.events = &files.sinks();                                   // ... run ...
//   files.commit();                                                           // or abandon() on failure
//
// Each file is an io::output_file (written under a temporary name, renamed by commit(); abandon() keeps the
// rows as FILE.partial). The directory must exist. Not thread-safe; the sinks are written by the run's books'
// thread.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <itch5/io/output_file.hpp>

#include <itch5/tables/event_sinks.hpp>
#include <itch5/tables/table_sink.hpp>

namespace itch5::tables {

class event_csv_files {
 public:
  /// Every kind's name, in the order of event_sinks.
  static std::vector<std::string_view> all_kinds() {
    std::vector<std::string_view> k;
    for_each_event_table([&]<class T>(std::type_identity<T>, auto) { k.push_back(T::name); });
    return k;
  }

  /// The kinds named in `names`: a kind's name (noii), its message's type letter (I; case matters: h is
  /// operational_halts, H trading_actions) or "all"; none given is all. Each kind once, in the order of
  /// event_sinks. Throws std::invalid_argument naming an unknown one and the kinds there are.
  static std::vector<std::string_view> parse_kinds(const std::vector<std::string>& names) {
    std::vector<bool> on(all_kinds().size(), names.empty());
    for (const std::string& n : names) {
      bool known = n == "all";
      if (known) on.assign(on.size(), true);
      std::size_t i = 0;
      for_each_event_table([&]<class T>(std::type_identity<T>, auto) {
        if (n == T::name || (n.size() == 1 && n[0] == T::message::type)) {
          on[i] = true;
          known = true;
        }
        ++i;
      });
      if (!known) {
        std::string list;
        for (const auto k : all_kinds()) list += (list.empty() ? "" : ", ") + std::string(k);
        throw std::invalid_argument("--event-kinds: unknown kind '" + n + "' (kinds: " + list +
                                    ", their message type letters, or all)");
      }
    }
    std::vector<std::string_view> kinds;
    const auto all = all_kinds();
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (on[i]) kinds.push_back(all[i]);
    }
    return kinds;
  }

  /// The file of `kind` in `dir`.
  static std::string path_of(const std::string& dir, std::string_view kind) {
    return dir + (dir.empty() || dir.back() == '/' ? "" : "/") + std::string(kind) + ".csv";
  }

  /// Opens the files of `kinds` in `dir` (which must exist) and writes their headers.
  event_csv_files(const std::string& dir, const std::vector<std::string_view>& kinds,
                  const itch5::io::output_options& options) {
    for_each_event_table([&]<class T>(std::type_identity<T>, auto member) {
      for (const auto k : kinds) {
        if (k != T::name) continue;
        auto& f = std::get<files_of<T>>(files_);
        f.file = std::make_unique<itch5::io::output_file>(path_of(dir, T::name), options);
        f.sink = std::make_unique<csv_table_sink<T>>(*f.file);
        sinks_.*member = f.sink.get();
        outputs_.push_back(f.file.get());
      }
    });
  }

  /// The sinks of the kinds on, for inside::table_options::events.
  [[nodiscard]] const event_sinks& sinks() const noexcept { return sinks_; }
  /// The files, in the order of event_sinks.
  [[nodiscard]] const std::vector<itch5::io::output_file*>& files() const noexcept { return outputs_; }

  /// Gives every file its final name (after the run finished the sinks).
  void commit() {
    for (auto* f : outputs_) f->commit();
  }

  /// "stock_directory 993, system_events 1, ...": each file's kind and rows.
  [[nodiscard]] std::string rows() const {
    std::string s;
    std::apply(
        [&](const auto&... f) {
          ((f.sink ? void(s += (s.empty() ? "" : ", ") + f.name() + " " + std::to_string(f.sink->rows()))
                   : void()),
           ...);
        },
        files_);
    return s;
  }

 private:
  template <class T>
  struct files_of {
    std::unique_ptr<itch5::io::output_file> file;
    std::unique_ptr<csv_table_sink<T>> sink;
    [[nodiscard]] static std::string name() { return std::string(T::name); }
  };

  std::tuple<files_of<events::stock_directory_table>, files_of<events::system_events_table>,
             files_of<events::trading_actions_table>, files_of<events::reg_sho_table>,
             files_of<events::luld_collars_table>, files_of<events::mwcb_levels_table>,
             files_of<events::mwcb_status_table>, files_of<events::ipo_quoting_table>,
             files_of<events::noii_table>, files_of<events::rpii_table>,
             files_of<events::operational_halts_table>, files_of<events::dlcr_table>,
             files_of<events::participant_positions_table>>
      files_;
  event_sinks sinks_;
  std::vector<itch5::io::output_file*> outputs_;
};

}  // namespace itch5::tables
