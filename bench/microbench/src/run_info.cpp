#include <microbench/run_info.hpp>

#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <fstream>

namespace microbench {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  // x86 says "model name"; some ARM kernels only give "Hardware" or "CPU part".
  for (const char* key : {"model name", "Hardware", "CPU part"}) {
    in.clear();
    in.seekg(0);
    while (std::getline(in, line)) {
      if (line.rfind(key, 0) != 0) continue;
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      auto start = line.find_first_not_of(" \t", colon + 1);
      return start == std::string::npos ? std::string() : line.substr(start);
    }
  }
  return "unknown";
}

std::string kernel() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

run_info run_info::collect() {
  run_info info;
  info.add("compiler", build::compiler);
  info.add("flags", build::flags);
  info.add("build_type", build::build_type);
  info.add("git_commit", build::git_commit);
  info.add("cpu_model", cpu_model());
  info.add("cpus", std::to_string(sysconf(_SC_NPROCESSORS_ONLN)));
  info.add("kernel", kernel());
  info.add("date", utc_now());
  return info;
}

void run_info::add(std::string key, std::string value) {
  for (char& c : value) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  facts_.emplace_back(std::move(key), std::move(value));
}

std::string_view run_info::get(std::string_view key) const noexcept {
  for (const auto& [k, v] : facts_) {
    if (k == key) return v;
  }
  return {};
}

void run_info::write(std::ostream& out) const {
  for (const auto& [k, v] : facts_) out << "# " << k << ": " << v << "\n";
}

}  // namespace microbench
