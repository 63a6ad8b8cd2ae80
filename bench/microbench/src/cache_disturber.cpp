#include <microbench/cache_disturber.hpp>

#include <unistd.h>

#include <fstream>
#include <string>

namespace microbench {
namespace {

constexpr std::uint64_t words_per_line = cache_disturber::line / sizeof(std::uint64_t);

// "8192K", "32M", "512" (bytes) from a sysfs cache size file; 0 when unreadable.
std::uint64_t parse_cache_size(const std::string& text) {
  std::uint64_t v = 0;
  std::size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    v = v * 10 + static_cast<std::uint64_t>(text[i++] - '0');
  }
  if (i < text.size() && text[i] == 'K') v <<= 10;
  if (i < text.size() && text[i] == 'M') v <<= 20;
  if (i < text.size() && text[i] == 'G') v <<= 30;
  return v;
}

}  // namespace

cache_disturber::cache_disturber(std::uint64_t bytes) {
  if (bytes == 0) bytes = 2 * last_level_cache_bytes();
  lines_ = (bytes + line - 1) / line;
  buffer_ = std::make_unique_for_overwrite<std::uint64_t[]>(lines_ * words_per_line);
  for (std::uint64_t i = 0; i < lines_ * words_per_line; ++i) buffer_[i] = i;  // every page written now
}

std::uint64_t cache_disturber::touch() noexcept {
  const std::uint64_t* p = buffer_.get();
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < lines_; ++i) sum += p[i * words_per_line];
  return sum;
}

std::uint64_t cache_disturber::last_level_cache_bytes() {
  int best_level = 0;
  std::uint64_t best_size = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), size_file(dir + "size");
    int level = 0;
    std::string size_text;
    if (!(level_file >> level) || !(size_file >> size_text)) break;
    const std::uint64_t size = parse_cache_size(size_text);
    if (size > 0 && level >= best_level) {
      best_level = level;
      best_size = size;
    }
  }
  if (best_size > 0) return best_size;
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (const long l3 = ::sysconf(_SC_LEVEL3_CACHE_SIZE); l3 > 0) return static_cast<std::uint64_t>(l3);
#endif
  return std::uint64_t{32} << 20;
}

}  // namespace microbench
