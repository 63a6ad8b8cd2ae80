// csv_writer: window rows as CSV, with a header that states the sign convention and the settings.
//
// Output:
//   # itch5tde: delay > 0 means B lags A (B's changes come later than A's). ...
//   # sampling_period_ns=1000 window_ns=16384000 ...
//   window_start_ns,symbol,signal,events_a,events_b,lag_samples,delay_us,rho,psr,second_ratio,z,p_value,flags
//   34200000000000,AAPL,events,812,809,12,12.2831,0.9312,41.07,0.112,48.31,0,ok
// Missing values print as nan, unbounded ones as inf. Rows are buffered and handed to the output in large
// chunks of whole lines. O(1) per row, no allocation once the buffer is sized. One thread at a time.
#pragma once

#include <cstddef>
#include <string>

#include <itch5/io/output_file.hpp>
#include <tde/window_analyzer.hpp>

namespace tde {

class csv_writer {
 public:
  /// Writes the header to `out` (which must outlive the writer).
  csv_writer(itch5::io::output_file& out, const analysis_options& options, std::size_t fft_length);
  csv_writer(const csv_writer&) = delete;
  csv_writer& operator=(const csv_writer&) = delete;

  void write(const window_row& row);
  /// Hands the buffered rows to the output. Call before committing it.
  void flush();

  /// The column-name line (without newline).
  static constexpr const char* columns =
      "window_start_ns,symbol,signal,events_a,events_b,lag_samples,delay_us,rho,psr,second_ratio,z,p_value,"
      "flags";

 private:
  itch5::io::output_file& out_;
  std::string buf_;
};

}  // namespace tde
