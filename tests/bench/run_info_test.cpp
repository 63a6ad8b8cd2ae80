#include <microbench/run_info.hpp>

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace {

TEST(RunInfo, RecordsBuildAndMachine) {
  auto info = microbench::run_info::collect();
  for (const char* key :
       {"compiler", "flags", "build_type", "git_commit", "cpu_model", "cpus", "kernel", "date"}) {
    EXPECT_FALSE(info.get(key).empty()) << key;
  }
  const std::string commit(info.get("git_commit"));
  EXPECT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{40}(-dirty)?|unknown"))) << commit;
  EXPECT_TRUE(std::regex_match(std::string(info.get("date")),
                               std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")));
  EXPECT_NE(info.get("kernel").find("Linux"), std::string_view::npos);
#if defined(__clang__)
  EXPECT_EQ(info.get("compiler").substr(0, 5), "Clang");
#elif defined(__GNUC__)
  EXPECT_EQ(info.get("compiler").substr(0, 4), "GNU ");
#endif
  EXPECT_NE(info.get("flags").find("-Wall"), std::string_view::npos);  // the project's options are included
}

TEST(RunInfo, WritesCommentLines) {
  microbench::run_info info;
  info.add("a", "1");
  info.add("multi", "x\ny");
  std::ostringstream out;
  info.write(out);
  EXPECT_EQ(out.str(), "# a: 1\n# multi: x y\n");
  EXPECT_EQ(info.get("a"), "1");
  EXPECT_TRUE(info.get("missing").empty());
}

}  // namespace
