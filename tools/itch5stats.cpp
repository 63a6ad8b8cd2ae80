// itch5stats: work on the histogram files written by itch5inside --histograms.
//
//   itch5stats merge FILE... [--stats OUT.csv] [--depth OUT.csv] [--histograms OUT]
//
// merge adds up the histograms of several runs (days) per symbol name and writes the statistics and depth
// CSVs with the columns and rules of itch5inside (stats/statistics_tables.hpp formats both).
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/input_error.hpp>
#include <unistd.h>

#include <itch5/io/output_file.hpp>

#include <itch5/stats/histogram_file.hpp>

#include <itch5/cli/compression_flags.hpp>
#include <itch5/cli/build_info.hpp>
#include <itch5/cli/options.hpp>
#include <itch5/cli/path_guard.hpp>

namespace {

const char* const top_help =
    "Usage: itch5stats COMMAND [options] ...\n"
    "Works on the histogram files written by 'itch5inside --histograms FILE'.\n"
    "\n"
    "Commands:\n"
    "  merge FILE... [--stats OUT.csv] [--depth OUT.csv] [--histograms OUT]\n"
    "      Adds up the histograms of several runs (e.g. days) per symbol name and writes the statistics and\n"
    "      depth CSVs with exactly the columns and rules of itch5inside --stats and --depth.\n"
    "      'itch5stats merge --help' explains every flag.\n"
    "\n"
    "Options:\n"
    "  -h,--help\n"
    "      Print this help and exit.\n"
    "  --version\n"
    "      Print the version, git commit, compiler and build options, and exit.\n"
    "\n"
    "Exit status: 0 on success, 1 on an unreadable or invalid input file, 2 on a usage error.\n";

struct merge_config {
  std::string first;
  std::vector<std::string> more;
  std::string stats;
  std::string depth;
  std::string histograms;
  itch5::cli::compression_flags compression;
};

std::string read_all(const std::string& path) {
  auto in = itch5::io::open_input(path);
  std::string bytes;
  std::vector<std::byte> buf(1 << 16);
  while (std::size_t n = in->read(buf.data(), buf.size()))
    bytes.append(reinterpret_cast<const char*>(buf.data()), n);
  return bytes;
}

int merge(const merge_config& cfg) {
  std::vector<std::string> files{cfg.first};
  files.insert(files.end(), cfg.more.begin(), cfg.more.end());
  itch5::stats::statistics_histograms all;
  std::string before;  // the files merged so far, for messages
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string name = files[i] == "-" ? "standard input" : files[i];
    itch5::stats::statistics_histograms h = itch5::stats::decode_histograms(read_all(files[i]), name);
    if (i == 0) {
      all = std::move(h);
      before = name;
    } else {
      itch5::stats::merge(all, h, name, i == 1 ? before : "the " + std::to_string(i) + " files before it");
    }
  }
  const itch5::io::output_options out_opts = cfg.compression.output();
  std::vector<std::unique_ptr<itch5::io::output_file>> outs;
  auto write = [&](const std::string& path, const std::string& bytes) {
    if (path.empty()) return;
    outs.push_back(std::make_unique<itch5::io::output_file>(path, out_opts));
    outs.back()->write(bytes);
  };
  write(cfg.stats, itch5::stats::feed_csv(all.feed));
  write(cfg.depth, itch5::stats::depth_csv(all.depth));
  write(cfg.histograms, itch5::stats::encode_histograms(all));
  for (auto& o : outs) o->commit();
  return 0;
}

int run_merge(int argc, char** argv) {
  merge_config cfg;
  itch5::cli::options opts(
      "itch5stats merge", "FILE... [--stats OUT.csv] [--depth OUT.csv] [--histograms OUT]",
      "Merges the histogram files of several itch5inside runs (e.g. one per day, written with --histograms): "
      "the histograms of each symbol are added up per symbol NAME (stock locates differ between days), the "
      "__aggregate__ histograms with the __aggregate__ histograms, and the statistics and depth CSVs are "
      "written with exactly the columns and rules of itch5inside --stats and --depth: NSamples is the sum, "
      "quantiles come from the merged histograms. Rows come in order of first appearance: the first file's "
      "symbols in its order, then the symbols new in the second file, and so on. Merging a single file "
      "gives that run's own CSVs byte for byte.");
  opts.positional(
      "FILE", cfg.first,
      "Histogram files (itch5inside --histograms; a .gz is read as such, detected from its bytes), "
      "or - for standard input (once). Every further FILE is merged too; each file once (the same file "
      "twice, under any name, is a usage error: it would be counted twice). Files whose statistics sample "
      "different events (--stats-events) cannot be merged, nor files whose time ranges (--from, --to, "
      "--session) differ and overlap, such as a whole day and its regular session: merge files of one "
      "range (e.g. whole days), or the disjoint parts of a day.");
  opts.more_positionals(cfg.more);
  opts.add(
          "stats", cfg.stats,
          "Write the merged statistics CSV (itch5inside --stats columns) to this file; - is standard output.")
      .value_name("OUT.csv");
  opts.add("depth", cfg.depth,
           "Write the merged depth CSV (itch5inside --depth columns) to this file; - is standard output.")
      .value_name("OUT.csv");
  opts.add("histograms", cfg.histograms,
           "Write the merged histograms as a histogram file, to be merged again later (e.g. per month, then "
           "per year); - is standard output (refused when it is a terminal: the file is binary).")
      .value_name("OUT");
  cfg.compression.add_to(opts);
  opts.epilog(
      "At least one of --stats, --depth and --histograms is required. The formats, and what merging the two "
      "parts of a day gives compared with the whole day, are described in docs/formats.md of the source "
      "tree.\n"
      "Files: every input and output is checked before anything is read (an output that is an input, or "
      "another output, or whose directory cannot be written, is a usage error). An output appears only "
      "complete: it is written under a temporary name and renamed; OUT.gz is compressed.\n"
      "Exit status: 0 on success; 1 on an unreadable, truncated or invalid histogram file (the message names "
      "the file and the byte offset, after decompression) or on files that cannot be merged; 2 on a usage "
      "error.\n");
  if (auto rc = opts.parse(argc, argv)) return *rc;
  try {
    if (cfg.stats.empty() && cfg.depth.empty() && cfg.histograms.empty()) {
      throw std::invalid_argument("nothing to write: give --stats, --depth or --histograms (see --help)");
    }
    itch5::cli::path_guard paths;
    for (const auto& c : opts.config_files()) paths.input(c, "--config");
    paths.distinct_input(cfg.first, "FILE");
    for (const auto& f : cfg.more) paths.distinct_input(f, "FILE");
    paths.output(cfg.stats, "--stats");
    paths.output(cfg.depth, "--depth");
    paths.output(cfg.histograms, "--histograms");
    paths.check();
    // The histogram file is binary: not for a terminal (itch5synth refuses likewise).
    if (cfg.histograms == "-" && ::isatty(STDOUT_FILENO) == 1) {
      throw std::invalid_argument(
          "--histograms -: standard output is a terminal and the histogram file is binary; redirect it or "
          "give --histograms FILE");
    }
  } catch (const itch5::cli::path_error& e) {
    std::cerr << "itch5stats merge: error: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::invalid_argument& e) {
    std::cerr << "itch5stats merge: error: " << e.what() << "\n";
    return 2;
  }
  try {
    return merge(cfg);
  } catch (const std::exception& e) {
    std::cerr << "itch5stats merge: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "itch5stats: error: missing COMMAND (see --help)\n";
    return 2;
  }
  const std::string command = argv[1];
  if (command == "merge") return run_merge(argc - 1, argv + 1);
  if (command == "-h" || command == "--help") {
    std::cout << top_help;
    return 0;
  }
  if (command == "--version") {
    std::cout << itch5::cli::build_info::current().version_text("itch5stats");
    return 0;
  }
  std::cerr << "itch5stats: error: unknown command '" << command << "' (the command is merge; see --help)\n";
  return 2;
}
