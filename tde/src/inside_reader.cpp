#include <itch5/tde/windows/inside_reader.hpp>

#include <algorithm>
#include <cstring>
#include <unordered_set>

namespace itch5::tde {

namespace {

bool is_blank(char c) noexcept { return c == ' ' || c == '\t'; }

std::string_view long_line_reason(std::string_view line) noexcept {
  return itch5::looks_binary(line.substr(0, inside_reader::max_line + 1)) ? itch5::inside_line_binary_reason
                                                                          : "line longer than 4096 bytes";
}

}  // namespace

inside_format_error::inside_format_error(const std::string& file, std::uint64_t line, std::string_view reason)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + std::string(reason)),
      file_(file),
      line_(line) {}

inside_reader::inside_reader(const std::string& path) : inside_reader(itch5::io::open_input(path), path) {}

inside_reader::inside_reader(std::unique_ptr<itch5::io::byte_stream> stream, std::string name)
    : stream_(std::move(stream)), name_(std::move(name)), buf_(std::size_t{1} << 20) {}

bool inside_reader::next_line(std::string_view& line) {
  while (true) {
    if (begin_ < end_) {
      const void* nl = std::memchr(buf_.data() + begin_, '\n', end_ - begin_);
      if (nl != nullptr) {
        auto stop = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
        line = std::string_view(buf_.data() + begin_, stop - begin_);
        begin_ = stop + 1;
        ++line_;
        if (line.size() > max_line) throw inside_format_error(name_, line_, long_line_reason(line));
        return true;
      }
    }
    if (eof_) {
      if (begin_ == end_) return false;
      line = std::string_view(buf_.data() + begin_, end_ - begin_);  // last line without a newline
      begin_ = end_;
      ++line_;
      return true;
    }
    // Keep the partial line, then fill the rest of the buffer.
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ > max_line) {
      ++line_;  // the line being read, as line_number() reports it
      throw inside_format_error(name_, line_, long_line_reason({buf_.data(), end_}));
    }
    std::size_t got = stream_->read(reinterpret_cast<std::byte*>(buf_.data() + end_), buf_.size() - end_);
    if (got == 0) eof_ = true;
    end_ += got;
  }
}

bool inside_reader::next(itch5::inside_line& out) {
  if (looked_ahead_) {
    looked_ahead_ = false;
    out = ahead_;
    return ahead_valid_;
  }
  return read_change(out);
}

bool inside_reader::at_end() {
  if (!looked_ahead_) {
    ahead_valid_ = read_change(ahead_);
    looked_ahead_ = true;
  }
  return !ahead_valid_;
}

bool inside_reader::read_change(itch5::inside_line& out) {
  std::string_view line;
  while (next_line(line)) {
    std::size_t i = 0;
    while (i < line.size() && (is_blank(line[i]) || line[i] == '\r')) ++i;
    if (i == line.size() || line[i] == '#') continue;
    std::string_view reason = itch5::parse_inside_line(line, out);
    if (!reason.empty()) throw inside_format_error(name_, line_, reason);
    if (out.timestamp < last_timestamp_) {
      // itch5inside writes such a line as the feed had it (and counts it as an anomaly): taken at the
      // previous line's time, so that the changes stay in time order, and counted.
      if (backwards_++ == 0) first_backwards_line_ = line_;
      out.timestamp = last_timestamp_;
    }
    last_timestamp_ = out.timestamp;
    ++changes_;
    return true;
  }
  return false;
}

std::vector<std::string> absent_symbols(inside_reader& reader, const std::vector<std::string>& symbols) {
  std::unordered_set<std::string_view> pending(symbols.begin(), symbols.end());
  itch5::inside_line c;
  while (!pending.empty() && reader.next(c)) pending.erase(c.symbol);
  std::vector<std::string> absent;
  for (const auto& s : symbols) {
    if (pending.contains(s) && std::find(absent.begin(), absent.end(), s) == absent.end())
      absent.push_back(s);
  }
  return absent;
}

std::string backwards_text(const inside_reader& reader) {
  if (reader.backwards() == 0) return {};
  const std::uint64_t n = reader.backwards();
  return reader.name() + ": " + std::to_string(n) + (n == 1 ? " line has" : " lines have") +
         " a timestamp earlier than the line before (first at line " +
         std::to_string(reader.first_backwards_line()) + "); taken at the time of the line before";
}

std::string absent_symbols_text(const std::vector<std::string>& symbols, const std::string& file) {
  if (symbols.empty()) return {};
  std::string text;
  for (const auto& s : symbols) text += (text.empty() ? "" : ", ") + s;
  return text + (symbols.size() == 1 ? " does not appear in " : " do not appear in ") + file;
}

}  // namespace itch5::tde
