// What a run of the itch5inside job (run_inside.hpp) returns: the reader's counts and how it ended, the
// books' counts and anomalies, the statistics and depth tables asked for, the slowest messages. Filled in
// completely also after a read error or a cancelled run, covering what was read until then.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <itch5/message_reader.hpp>

#include <itch5/book/anomaly_counts.hpp>
#include <itch5/stats/histogram_file.hpp>

#include <itch5/inside/slowest_messages.hpp>

namespace itch5::inside {

struct inside_result {
  std::array<std::uint64_t, 256> messages_by_type{};  ///< framed messages of known types, by type byte
  std::uint64_t messages = 0;                         ///< all framed messages (unknown types included)
  std::uint64_t unknown_types = 0;
  std::uint64_t oversized = 0;
  std::uint64_t book_events = 0;
  std::uint64_t inside_changes = 0;  ///< all symbols
  std::uint64_t lines = 0;           ///< lines written (after the symbol filter)
  book::anomaly_counts anomalies;
  std::size_t peak_live_orders = 0;
  std::size_t order_table_bytes = 0;
  itch5::read_status status = itch5::read_status::end_of_input;
  itch5::read_error error;                 ///< when status == error
  bool data_after_end_of_session = false;  ///< when status == end_of_session
  std::string stats_csv;                   ///< when options.stats (also after an error: covers what was read)
  std::string depth_csv;                   ///< when options.depth
  /// When status == end_of_session with bytes after the zero length prefix (allowed by
  /// message_reader::allow_zero_tail): where the prefix was and what followed it.
  std::uint64_t end_of_session_offset = 0;
  itch5::bytes_after_zero_length bytes_after_end_of_session;
  /// When options.histograms: the histograms the two CSVs are formatted from (meta left empty).
  stats::statistics_histograms histograms;
  /// Whether the input held the System Events that start and end a day: Start of Messages (S 'O') and End
  /// of Messages (S 'C'). A day without its End of Messages is incomplete, however cleanly it ends.
  bool start_of_messages = false;
  bool end_of_messages = false;
  bool cancelled = false;  ///< options.cancel stopped the run before the end of the input
  /// Requested symbols (upper case, as matched) that no message of the input named: neither a stock
  /// directory message nor an order.
  std::vector<std::string> symbols_not_seen;
  /// When options.slowest: the slowest messages, slowest first (the time from before decoding a message to
  /// after its book update and output formatting, as the statistics' Processing columns).
  std::vector<slow_message> slowest;
};

}  // namespace itch5::inside
