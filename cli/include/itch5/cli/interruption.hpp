// What the tools do on SIGINT, SIGTERM and SIGHUP: stop at the next safe point, finish outputs the way an
// error does (complete records kept as FILE.partial, or dropped), report, and exit as killed by the signal.
//
//   itch5::cli::interruption::install();
//   ... long loop: if (itch5::cli::interruption::requested()) stop; or pass &itch5::cli::interruption::flag()
//   to a library that polls an std::atomic<bool> ... out.abandon(); std::cerr << ... <<
//   itch5::cli::interruption::name() << ...; itch5::cli::interruption::exit_now();  // re-raises the signal:
//   exit status 128 + signal number
//
// The first signal only sets the flag (async-signal-safe: a lock-free atomic store). If the program has not
// exited 10 s later (blocked on a stalled pipe, say), or when a second signal arrives, the handler removes
// every temporary output file (itch5::io::remove_temporary_outputs(), unlink only) and the process dies of
// the signal at once, leaving no FILE.tmp.* behind.
#pragma once

#include <atomic>
#include <string>

namespace itch5::cli {

class interruption {
 public:
  /// Installs the handlers (idempotent). Call before creating outputs.
  static void install() noexcept;
  /// Whether a signal asked the program to stop.
  [[nodiscard]] static bool requested() noexcept;
  /// The flag itself, for libraries that poll a std::atomic<bool>.
  [[nodiscard]] static const std::atomic<bool>& flag() noexcept;
  /// "SIGINT", "SIGTERM" or "SIGHUP" (empty if none arrived).
  [[nodiscard]] static std::string name();
  /// Dies of the signal that arrived (default action re-raised), so the parent sees 128 + its number.
  [[noreturn]] static void exit_now() noexcept;
};

}  // namespace itch5::cli
