// feed_events: the recent inside changes of one input file, per symbol, as signal values ready to be
// binned into windows.
//
// Reads an inside_reader in time order, keeps the chosen symbols (or all), and turns each change into its
// value for every signal_kind (see signal_kind.hpp) from the symbol's previous quote in this file; the
// first change of a symbol contributes an event but no price or size change. The caller slides a window
// forward: load_until(end) pulls changes with timestamp < end, drop_before(start) forgets older ones, so
// memory is bounded by the busiest window. Amortised O(1) per change; per-window work is proportional to
// the symbols with queued changes. One thread at a time.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <itch5/tde/windows/inside_reader.hpp>
#include <itch5/tde/windows/signal_kind.hpp>

namespace itch5::tde {

struct change_event {
  std::int64_t timestamp;                       ///< ns since midnight
  std::array<double, signal_kind_count> value;  ///< indexed by signal_kind
  [[nodiscard]] double operator[](signal_kind s) const noexcept { return value[static_cast<std::size_t>(s)]; }
};

class feed_events {
 public:
  /// Reads from `reader` (which must outlive this). Keeps only `symbols`, or every symbol when empty.
  explicit feed_events(inside_reader& reader, const std::vector<std::string>& symbols = {});

  /// Queues every change with timestamp < end.
  void load_until(std::int64_t end);
  /// Forgets queued changes with timestamp < start.
  void drop_before(std::int64_t start);

  /// Timestamp of the next change not yet queued (of a kept symbol), or nothing at the end of the input.
  [[nodiscard]] std::optional<std::int64_t> next_timestamp();

  /// The queued changes of `symbol`, oldest first (empty for a symbol never seen).
  [[nodiscard]] std::span<const change_event> events(std::string_view symbol) const;
  /// The symbols that have queued changes, in no particular order.
  [[nodiscard]] std::vector<std::string_view> active_symbols() const;
  /// The same into `out` (cleared first unless `append`), reusing its capacity. The views stay valid until
  /// the next load_until().
  void active_symbols(std::vector<std::string_view>& out, bool append = false) const;
  [[nodiscard]] bool empty() const noexcept { return active_.empty(); }
  /// Whether a change of `symbol` has been read (queued or not).
  [[nodiscard]] bool seen(std::string_view symbol) const;

  [[nodiscard]] const std::string& name() const noexcept { return reader_.name(); }

 private:
  struct symbol_state {
    explicit symbol_state(std::string n) : name(std::move(n)) {}
    std::string name;
    bool known = false;       // a previous quote exists
    itch5::inside_line last;  // its symbol view is not used
    std::vector<change_event> queue;
    std::size_t head = 0;
    bool active = false;
  };

  bool peek();
  [[nodiscard]] const symbol_state* state(std::string_view symbol) const;

  inside_reader& reader_;
  bool keep_all_;
  std::unordered_map<std::uint64_t, std::size_t> index_;  // packed symbol -> states_ index
  std::vector<symbol_state> states_;
  std::vector<std::size_t> active_;
  bool has_pending_ = false;
  bool at_end_ = false;
  std::size_t pending_symbol_ = 0;
  change_event pending_{};
};

}  // namespace itch5::tde
