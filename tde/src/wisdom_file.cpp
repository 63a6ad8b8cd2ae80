#include <itch5/tde/fft/wisdom_file.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <stdexcept>

#include <itch5/tde/fft/fft_wisdom.hpp>

namespace itch5::tde {

wisdom_file wisdom_file::of(const std::string& given, const std::string& precision) {
  if (given == "none") return {};
  if (!given.empty()) return {given, true};
  std::filesystem::path dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/') {
    dir = x;
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h == '/') {
    dir = std::filesystem::path(h) / ".cache";
  } else {
    return {};
  }
  return {(dir / "itch5" / ("fftw-wisdom-" + precision)).string(), false};
}

// The wisdom file is saved at the end through a temporary file in its directory: check now that it can be.
void wisdom_file::check_directory() const {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw std::runtime_error(path + ": cannot be saved at the end: directory " + dir.string() + ": " +
                             std::strerror(errno));
  }
}

template <fft_real T>
bool load_wisdom(const wisdom_file& w) {
  if (w.path.empty()) return false;
  if (w.chosen) {
    w.check_directory();
    return import_wisdom<T>(w.path);
  }
  try {
    return import_wisdom<T>(w.path);
  } catch (const std::exception&) {
    forget_wisdom<T>();
    return false;
  }
}

template <fft_real T>
std::string save_wisdom(const wisdom_file& w) {
  if (w.path.empty()) return {};
  if (w.chosen) {
    export_wisdom<T>(w.path);
    return {};
  }
  try {
    std::filesystem::create_directories(std::filesystem::path(w.path).parent_path());
    export_wisdom<T>(w.path);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

template bool load_wisdom<float>(const wisdom_file&);
template bool load_wisdom<double>(const wisdom_file&);
template std::string save_wisdom<float>(const wisdom_file&);
template std::string save_wisdom<double>(const wisdom_file&);

}  // namespace itch5::tde
