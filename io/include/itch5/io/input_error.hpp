// The exception byte streams throw when the input cannot be read: missing file, I/O error, corrupt or
// truncated gzip data. The message names the input and, where one is known, the byte offset.
#pragma once

#include <stdexcept>

namespace itch5::io {

class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace itch5::io
