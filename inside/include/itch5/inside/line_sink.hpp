// Where run_inside (run_inside.hpp) writes the inside lines: chunks of complete lines (inside_line.hpp
// format), so that a consumer never sees half a line, also when a run stops at a read error. Called on
// one thread at a time (with inside_options::line_thread, the line thread), once per chunk, not per line.
#pragma once

#include <string_view>

namespace itch5::inside {

/// Receives output in chunks of complete lines.
class line_sink {
 public:
  virtual ~line_sink() = default;
  virtual void write(std::string_view lines) = 0;
  /// True for a sink that drops every line (the tables carry the run's output: the Python package,
  /// itch5lobster): the lines are then counted, not formatted.
  [[nodiscard]] virtual bool discards() const noexcept { return false; }
};

/// The sink of a run whose output is its tables (the Python package, itch5lobster): every line dropped, so
/// the run only counts them.
class discarding_line_sink final : public line_sink {
 public:
  void write(std::string_view) override {}
  [[nodiscard]] bool discards() const noexcept override { return true; }
};

}  // namespace itch5::inside
