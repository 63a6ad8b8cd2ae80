#include <itch5/tde/fft/fft_wisdom.hpp>

#include <filesystem>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <system_error>

#include <itch5/io/byte_stream.hpp>
#include <itch5/io/output_file.hpp>
#include <itch5/tde/fft/detail/fftw_api.hpp>

namespace itch5::tde {

template <fft_real T>
std::string export_wisdom_string() {
  using api = detail::fftw_api<T>;
  std::lock_guard lock(detail::planner_mutex());
  char* text = api::export_wisdom();
  if (text == nullptr) throw std::runtime_error("FFTW could not export its wisdom");
  std::string out(text);
  api::free(text);
  return out;
}

template <fft_real T>
bool import_wisdom_string(const std::string& text) {
  std::lock_guard lock(detail::planner_mutex());
  return detail::fftw_api<T>::import_wisdom(text.c_str()) != 0;
}

template <fft_real T>
bool import_wisdom(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  std::string text;
  auto in = itch5::io::open_input(path);  // throws itch5::io::input_error (a runtime_error) naming the file
  std::byte buf[1 << 14];
  while (std::size_t n = in->read(buf, sizeof buf)) text.append(reinterpret_cast<const char*>(buf), n);
  if (!import_wisdom_string<T>(text)) {
    throw std::runtime_error(path + ": not FFTW wisdom for " + detail::fftw_api<T>::name +
                             " transforms (delete it to start afresh)");
  }
  return true;
}

template <fft_real T>
void export_wisdom(const std::string& path) {
  std::string text = export_wisdom_string<T>();
  itch5::io::output_file out(path);
  out.write(text);
  out.commit();
}

template <fft_real T>
void forget_wisdom() {
  std::lock_guard lock(detail::planner_mutex());
  detail::fftw_api<T>::forget_wisdom();
}

template bool import_wisdom<float>(const std::string&);
template bool import_wisdom<double>(const std::string&);
template void export_wisdom<float>(const std::string&);
template void export_wisdom<double>(const std::string&);
template std::string export_wisdom_string<float>();
template std::string export_wisdom_string<double>();
template bool import_wisdom_string<float>(const std::string&);
template bool import_wisdom_string<double>(const std::string&);
template void forget_wisdom<float>();
template void forget_wisdom<double>();

}  // namespace itch5::tde
