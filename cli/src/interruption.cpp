#include <itch5/cli/interruption.hpp>

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>

#include <itch5/io/output_file.hpp>

namespace itch5::cli {
namespace {

std::atomic<bool> stop_requested{false};
std::atomic<int> stop_signal{0};
constexpr unsigned grace_seconds = 10;
static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);

[[noreturn]] void die_of(int sig) noexcept {
  itch5::io::remove_temporary_outputs();
  ::signal(sig, SIG_DFL);
  sigset_t only;  // inside a handler the signal is blocked: let the re-raised one through
  sigemptyset(&only);
  sigaddset(&only, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);  // not reached unless the signal is blocked
}

extern "C" void on_alarm(int) {
  const int sig = stop_signal.load();
  die_of(sig != 0 ? sig : SIGTERM);
}

extern "C" void on_stop_signal(int sig) {
  if (stop_requested.exchange(true)) die_of(sig);  // the second signal: no more waiting
  stop_signal.store(sig);
  ::alarm(grace_seconds);
}

}  // namespace

void interruption::install() noexcept {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // reads and writes go on; the program polls the flag
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
  struct sigaction alarm_action {};
  alarm_action.sa_handler = on_alarm;
  sigemptyset(&alarm_action.sa_mask);
  ::sigaction(SIGALRM, &alarm_action, nullptr);
}

bool interruption::requested() noexcept { return stop_requested.load(std::memory_order_relaxed); }

const std::atomic<bool>& interruption::flag() noexcept { return stop_requested; }

std::string interruption::name() {
  switch (stop_signal.load()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return {};
  }
}

void interruption::exit_now() noexcept {
  const int sig = stop_signal.load();
  die_of(sig != 0 ? sig : SIGTERM);
}

}  // namespace itch5::cli
