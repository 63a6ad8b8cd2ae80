#include "result_assembly.hpp"

#include <algorithm>

namespace itch5::inside {

void reader_counts(itch5::message_reader& reader, inside_result& r) {
  r.status = reader.status();
  if (r.status == itch5::read_status::error) r.error = reader.error();
  if (r.status == itch5::read_status::end_of_session) {
    r.data_after_end_of_session = reader.data_after_end_of_session();
    r.end_of_session_offset = reader.end_of_session_offset();
    r.bytes_after_end_of_session = reader.bytes_after_end_of_session();
  }
  r.messages = reader.messages();
  r.unknown_types = reader.unknown_total();
  r.oversized = reader.oversized();
}

void find_symbols_not_seen(const inside_options& opt, const std::unordered_set<std::string>& seen,
                           inside_result& r) {
  for (const auto& s : symbol_set(opt.symbols)) {
    if (seen.count(s) == 0) r.symbols_not_seen.push_back(s);
  }
  std::sort(r.symbols_not_seen.begin(), r.symbols_not_seen.end());
}

}  // namespace itch5::inside
