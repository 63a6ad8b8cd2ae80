#include "compressor.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <boost/iostreams/device/file_descriptor.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_stream.hpp>
#include <zstd.h>

#ifdef ITCH5_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

namespace itch5::io::detail {
namespace {

namespace bio = boost::iostreams;

// zlib's deflate through Boost.Iostreams (the header, trailer and flushing are its job).
class zlib_compressor final : public compressor {
 public:
  zlib_compressor(int level, int fd, const std::string& name) : name_(name) {
    try {
      out_.push(bio::gzip_compressor(bio::gzip_params(level)), 1 << 16);
      out_.push(bio::file_descriptor_sink(fd, bio::never_close_handle), 1 << 16);
      // Only once the chain is complete: an empty filtering_ostream is in the bad state, and enabling
      // exceptions on it throws at once.
      out_.exceptions(std::ios::badbit | std::ios::failbit);
    } catch (const std::exception& e) {
      throw std::runtime_error(name + ": cannot set up gzip compression: " + e.what());
    }
  }

  void write(std::string_view bytes) override {
    try {
      out_.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    } catch (const std::exception& e) {
      throw std::runtime_error(name_ + ": write error: " + e.what());
    }
  }

  void finish() override {
    try {
      out_.reset();  // flushes the compressor and writes the gzip trailer
    } catch (const std::exception& e) {
      throw std::runtime_error(name_ + ": write error: " + e.what());
    }
  }

 private:
  std::string name_;
  bio::filtering_ostream out_;
};

#ifdef ITCH5_HAVE_ISAL
constexpr std::size_t out_buffer_size = std::size_t{1} << 18;

// ISA-L's igzip, which writes the gzip header and trailer itself (gzip_flag).
class igzip_compressor final : public compressor {
 public:
  igzip_compressor(int level, int fd, const std::string& name) : fd_(fd), name_(name), out_(out_buffer_size) {
    isal_deflate_init(&stream_);
    stream_.gzip_flag = IGZIP_GZIP;
    stream_.level = static_cast<std::uint32_t>(level);
    level_buffer_.resize(level_buffer_size(level));
    stream_.level_buf = level_buffer_.empty() ? nullptr : level_buffer_.data();
    stream_.level_buf_size = static_cast<std::uint32_t>(level_buffer_.size());
  }

  void write(std::string_view bytes) override { deflate(bytes, false); }
  void finish() override { deflate({}, true); }

 private:
  static std::size_t level_buffer_size(int level) noexcept {
    switch (level) {
      case 1: return ISAL_DEF_LVL1_DEFAULT;
      case 2: return ISAL_DEF_LVL2_DEFAULT;
      case 3: return ISAL_DEF_LVL3_DEFAULT;
      default: return ISAL_DEF_LVL0_DEFAULT;
    }
  }

  void deflate(std::string_view bytes, bool last) {
    // igzip takes 32-bit lengths: feed at most 1 GiB at a time.
    do {
      const std::size_t n = std::min<std::size_t>(bytes.size(), std::size_t{1} << 30);
      stream_.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(bytes.data()));
      stream_.avail_in = static_cast<std::uint32_t>(n);
      stream_.end_of_stream = last && n == bytes.size() ? 1 : 0;
      stream_.flush = NO_FLUSH;
      for (;;) {
        stream_.next_out = reinterpret_cast<std::uint8_t*>(out_.data());
        stream_.avail_out = static_cast<std::uint32_t>(out_.size());
        const int rc = isal_deflate(&stream_);
        if (rc != COMP_OK) {
          throw std::runtime_error(name_ + ": igzip compression failed (error " + std::to_string(rc) + ")");
        }
        write_all(fd_, out_.data(), out_.size() - stream_.avail_out, name_);
        const bool done = stream_.end_of_stream ? stream_.internal_state.state == ZSTATE_END
                                                : stream_.avail_in == 0 && stream_.avail_out != 0;
        if (done) break;
      }
      bytes.remove_prefix(n);
    } while (!bytes.empty());
  }

  int fd_;
  std::string name_;
  isal_zstream stream_{};
  std::vector<std::uint8_t> level_buffer_;
  std::vector<char> out_;
};
#endif

// libzstd's streaming compressor.
class zstd_compressor final : public compressor {
 public:
  zstd_compressor(int level, int fd, const std::string& name)
      : fd_(fd), name_(name), ctx_(ZSTD_createCCtx()), out_(ZSTD_CStreamOutSize()) {
    if (ctx_ == nullptr) throw std::runtime_error(name + ": cannot set up zstd compression");
    check(ZSTD_CCtx_setParameter(ctx_.get(), ZSTD_c_compressionLevel, level));
    check(ZSTD_CCtx_setParameter(ctx_.get(), ZSTD_c_checksumFlag, 1));
  }

  void write(std::string_view bytes) override { compress(bytes, ZSTD_e_continue); }
  void finish() override { compress({}, ZSTD_e_end); }

 private:
  struct free_ctx {
    void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
  };

  std::size_t check(std::size_t rc) const {
    if (ZSTD_isError(rc))
      throw std::runtime_error(name_ + ": zstd compression failed: " + ZSTD_getErrorName(rc));
    return rc;
  }

  void compress(std::string_view bytes, ZSTD_EndDirective mode) {
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    for (;;) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      const std::size_t left = check(ZSTD_compressStream2(ctx_.get(), &out, &in, mode));
      write_all(fd_, out_.data(), out.pos, name_);
      if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size) break;
    }
  }

  int fd_;
  std::string name_;
  std::unique_ptr<ZSTD_CCtx, free_ctx> ctx_;
  std::vector<char> out_;
};

}  // namespace

void write_all(int fd, const char* data, std::size_t n, const std::string& name) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(name + ": write error: " + std::strerror(errno));
    }
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

std::string_view compressor_engine(compression format, const output_options& options) noexcept {
  if (format == compression::zstd) return "zstd";
#ifdef ITCH5_HAVE_ISAL
  if (options.gzip_level <= max_igzip_level) return "igzip";
#else
  (void)options;
#endif
  return "zlib";
}

std::unique_ptr<compressor> make_compressor(compression format, const output_options& options, int fd,
                                            const std::string& name) {
  if (format == compression::zstd) return std::make_unique<zstd_compressor>(options.zstd_level, fd, name);
#ifdef ITCH5_HAVE_ISAL
  if (options.gzip_level <= max_igzip_level) {
    return std::make_unique<igzip_compressor>(options.gzip_level, fd, name);
  }
#endif
  return std::make_unique<zlib_compressor>(options.gzip_level, fd, name);
}

}  // namespace itch5::io::detail
