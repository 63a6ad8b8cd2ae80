// csv_writer: window rows as a plain CSV (the column-name line first, then one line per row), and the YAML
// sidecar that carries what the CSV does not: the sign convention, the settings and the build.
//
// Output:
//   window_start_ns,symbol,signal,events_a,events_b,lag_samples,delay_us,rho,psr,second_ratio,z,p_value,flags
//   34200000000000,AAPL,events,812,809,12,12.2831,0.9312,41.07,0.112,48.31,0,ok
//   34200016384000,AAPL,events,3,0,,,0.0000,0.00,,,,few_events|flat
// No comment lines, no quoting: csv.DictReader and pandas.read_csv read it as it is. A missing value is an
// empty field (never "nan"); an unbounded one prints inf. The columns are listed once, in csv_writer.cpp
// (csv_columns): adding one is one entry there. Rows are buffered and handed to the output in large
// chunks of whole lines (itch5::io::line_writer). O(1) per row, no allocation once the buffers are sized.
// One thread at a time.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <itch5/io/line_writer.hpp>
#include <itch5/io/output_file.hpp>
#include <itch5/tde/windows/window_analyzer.hpp>

namespace itch5::tde {

class csv_writer {
 public:
  /// Writes the column-name line to `out` (which must outlive the writer).
  explicit csv_writer(itch5::io::output_file& out);
  csv_writer(const csv_writer&) = delete;
  csv_writer& operator=(const csv_writer&) = delete;

  void write(const window_row& row);
  /// Hands the buffered rows to the output. Call before committing it.
  void flush();

  /// The column names, in order.
  [[nodiscard]] static std::vector<std::string_view> column_names();
  /// The column-name line (without newline).
  [[nodiscard]] static std::string header();

 private:
  itch5::io::line_writer lines_;
  std::string row_;  // the row being formatted
};

/// What the sidecar YAML says about a run besides its options.
struct csv_metadata {
  std::string program = "itch5tde";
  std::string version;     ///< e.g. "0.1.0"
  std::string git_commit;  ///< e.g. "4f398f1", "unknown"
  std::string csv;         ///< the CSV described ("-" for standard output)
  std::string input_a, input_b;
  std::string precision;  ///< "double" or "float"
  std::size_t fft_length = 0;
};

/// The sidecar YAML document of a CSV: program, version, commit, files, sign convention, columns and every
/// setting (docs/formats.md, "TDE CSV metadata").
[[nodiscard]] std::string metadata_yaml(const analysis_options& options, const csv_metadata& meta);

/// The sidecar's default name for a CSV written to `csv_path`: csv_path + ".yaml" ("tde.csv" ->
/// "tde.csv.yaml", "tde.csv.gz" -> "tde.csv.gz.yaml"); empty for standard output ("-").
[[nodiscard]] std::string default_metadata_path(const std::string& csv_path);

/// `text` as a YAML double-quoted scalar (", \ and control characters escaped).
[[nodiscard]] std::string yaml_quoted(std::string_view text);

}  // namespace itch5::tde
