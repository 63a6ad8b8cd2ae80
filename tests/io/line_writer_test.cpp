// line_writer: lines gathered and handed to an output_file in chunks of whole lines.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include <itch5/io/line_writer.hpp>
#include <itch5/io/output_file.hpp>
#include <itch5_test/support.hpp>

namespace {

// "line N\n" written at reserve()'s pointer.
void put_line(itch5::io::line_writer& w, int n) {
  const std::string text = "line " + std::to_string(n) + "\n";
  char* p = w.reserve(text.size());
  std::memcpy(p, text.data(), text.size());
  w.commit(p + text.size());
}

TEST(LineWriter, WritesEveryLineInOrder) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.txt");
  std::string expected;
  {
    itch5::io::output_file out(path);
    itch5::io::line_writer w(out, 32);  // a few lines per chunk: many hand-overs
    for (int i = 0; i < 100; ++i) {
      if (i % 2 == 0) {
        put_line(w, i);
      } else {
        w.append("line " + std::to_string(i) + "\n");
      }
      expected += "line " + std::to_string(i) + "\n";
      EXPECT_LE(w.buffered(), w.capacity());
    }
    w.append(std::string(100, 'x') + "\n");  // longer than the buffer: one write of its own
    expected += std::string(100, 'x') + "\n";
    put_line(w, 100);
    expected += "line 100\n";
    w.flush();
    EXPECT_EQ(w.buffered(), 0u);
    out.commit();
  }
  EXPECT_EQ(itch5_test::read_text(path), expected);
}

// What reaches the output before a run stops is whole lines only (kept in FILE.partial), and what the
// buffer still held is not written by the writer's destructor.
TEST(LineWriter, HandsOverWholeLinesOnly) {
  itch5_test::temp_dir dir;
  const auto path = dir.file("out.txt");
  {
    itch5::io::output_file out(path);
    itch5::io::line_writer w(out, 20);
    put_line(w, 1);  // 7 bytes
    put_line(w, 2);  // 14
    put_line(w, 3);  // 21 > 20: lines 1 and 2 go first
    EXPECT_EQ(w.buffered(), 7u);
    out.abandon();
  }
  EXPECT_EQ(itch5_test::read_text(path + ".partial"), "line 1\nline 2\n");
}

TEST(LineWriter, ReservingMoreThanTheCapacityIsAnError) {
  itch5_test::temp_dir dir;
  itch5::io::output_file out(dir.file("out.txt"));
  itch5::io::line_writer w(out, 16);
  EXPECT_THROW((void)w.reserve(17), std::length_error);
  EXPECT_NO_THROW((void)w.reserve(16));
  out.discard();
}

}  // namespace
