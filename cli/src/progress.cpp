#include <itch5/cli/progress.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

namespace itch5::cli {

progress::progress(bool enabled)
    : active_(enabled && ::isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void progress::update(std::uint64_t position, std::uint64_t total, std::uint64_t messages) {
  if (!active_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(500)) return;
  last_ = now;
  double secs = std::chrono::duration<double>(now - start_).count();
  char eta[32] = "";
  char pct[16] = "";
  if (total > 0 && position > 0 && position <= total) {
    double left = secs * static_cast<double>(total - position) / static_cast<double>(position);
    auto l = static_cast<unsigned long>(left);
    std::snprintf(eta, sizeof eta, ", ETA %lu:%02lu", l / 60, l % 60);
    std::snprintf(pct, sizeof pct, "%5.1f%% ",
                  100.0 * static_cast<double>(position) / static_cast<double>(total));
  }
  std::fprintf(stderr, "\r%s%s read, %s messages, %s msg/s%s   ", pct,
               human_bytes(static_cast<double>(position)).c_str(),
               human_count(static_cast<double>(messages)).c_str(),
               human_count(static_cast<double>(messages) / (secs > 0 ? secs : 1)).c_str(), eta);
  std::fflush(stderr);
  drawn_ = true;
}

void progress::finish() {
  if (drawn_) {
    std::fprintf(stderr, "\r%80s\r", "");
    std::fflush(stderr);
    drawn_ = false;
  }
}

std::uint64_t peak_rss_bytes() {
  rusage ru{};
  ::getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;  // Linux reports KiB
}

std::string human_bytes(double b) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1000 && u < 4) {
    b /= 1000;
    ++u;
  }
  char s[32];
  std::snprintf(s, sizeof s, u == 0 ? "%.0f %s" : "%.2f %s", b, units[u]);
  return s;
}

std::string human_count(double n) {
  const char* units[] = {"", " k", " M", " G", " T"};
  int u = 0;
  while (n >= 1000 && u < 4) {
    n /= 1000;
    ++u;
  }
  char s[32];
  std::snprintf(s, sizeof s, u == 0 ? "%.0f%s" : "%.2f%s", n, units[u]);
  return s;
}

}  // namespace itch5::cli
