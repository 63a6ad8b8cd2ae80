// A mutable argv built from strings, for tests that call parse() or main().
#pragma once

#include <string>
#include <vector>

namespace microbench::test {

class argv {
 public:
  argv(std::initializer_list<std::string> args) : strings_(args) {
    for (auto& s : strings_) pointers_.push_back(s.data());
    pointers_.push_back(nullptr);
  }
  [[nodiscard]] int argc() const { return static_cast<int>(strings_.size()); }
  [[nodiscard]] char** get() { return pointers_.data(); }

 private:
  std::vector<std::string> strings_;
  std::vector<char*> pointers_;
};

}  // namespace microbench::test
