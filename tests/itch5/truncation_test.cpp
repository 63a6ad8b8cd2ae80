// Every truncation length of every message type: a frame whose length prefix L (1 .. size-1) is below the
// type's fixed size, followed by exactly L bytes, is a message_too_short error from message_reader at the
// frame's offset with the right message number, under every block size (so the carry falls at every
// position) with both the synchronous and the threaded source; checked dispatch() says too_short.
// Inputs live in exactly-sized heap buffers so ASan reports any read past them.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <itch5/dispatch.hpp>
#include <itch5/message_reader.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5_test::builder;
using itch5_test::bytes;

struct truncation_case {
  char type;
  std::size_t size;    // the spec's length
  std::size_t length;  // the truncated length, 1 .. size-1
};

void PrintTo(const truncation_case& c, std::ostream* os) {
  *os << "type '" << c.type << "' (" << c.size << " bytes) cut to " << c.length;
}

std::vector<truncation_case> all_cases() {
  std::vector<truncation_case> v;
  for (const auto& e : itch5_test::spec_table) {
    for (std::size_t len = 1; len < e.length; ++len) v.push_back({e.type, e.length, len});
  }
  return v;
}

std::string case_name(const testing::TestParamInfo<truncation_case>& info) {
  const auto& c = info.param;
  // 'H' and 'h' are both types: spell the case out so the names stay unique on case-insensitive systems.
  std::string t = (c.type >= 'a' && c.type <= 'z') ? std::string("lower_") + c.type : std::string(1, c.type);
  return t + "_len" + std::to_string(c.length);
}

// The first `length` bytes of a well-formed message of the case's type.
bytes truncated_body(const truncation_case& c) {
  builder b;
  b.header(c.type, 0x0101, 0x0202, 0x0303'0303'0303);
  for (std::size_t i = 11; i < c.size; ++i) b.u8(static_cast<std::uint8_t>(0x40 + i));
  bytes full = b.get();
  EXPECT_EQ(full.size(), c.size);
  return bytes(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(c.length));
}

// Tiny blocks put the carry at every position of the short frame; a block of exactly the input's size
// ends the data at the end of the block's allocation, so ASan sees a read past the input. Blocks are
// allocated per reader (and six per threaded one), so "large" is 4 KiB here rather than 1 MiB: the
// inputs are at most 65 bytes, and the sanitizer build stays fast.
std::vector<itch5_test::source_config> configs_for(std::size_t input_size) {
  return {{1, false},    {2, false}, {3, false}, {7, false}, {64, false, 5},     {input_size, false},
          {4096, false}, {1, true},  {3, true},  {7, true},  {input_size, true}, {4096, true}};
}

class Truncation : public testing::TestWithParam<truncation_case> {};

TEST_P(Truncation, IsAnErrorForReaderAndDispatch) {
  const auto& c = GetParam();
  const bytes first = itch5_test::system_event_bytes('O');
  const bytes body = truncated_body(c);
  // S (14 framed bytes), then the short frame ending the input.
  const bytes input = builder().frame(first).frame(body).get();
  ASSERT_EQ(input.size(), 14 + 2 + c.length);
  // The same with a valid message after it: the reader must stop at the short frame, not skip it.
  const bytes followed = builder().frame(first).frame(body).frame(itch5_test::order_delete_bytes(9)).get();
  const bytes alone = builder().frame(body).get();

  for (const auto& cfg : configs_for(input.size())) {
    SCOPED_TRACE(testing::PrintToString(cfg));
    for (const bytes* in : {&input, &followed}) {
      auto r = itch5_test::read_memory(*in, cfg);
      ASSERT_EQ(r.status, itch5::read_status::error);
      EXPECT_EQ(r.error.code, itch5::read_errc::message_too_short);
      EXPECT_EQ(r.error.offset, 14u);
      EXPECT_EQ(r.error.message_number, 2u);
      EXPECT_NE(r.error.detail.find("needs " + std::to_string(c.size) + " bytes"), std::string::npos)
          << r.error.detail;
      EXPECT_NE(r.error.detail.find("says " + std::to_string(c.length)), std::string::npos) << r.error.detail;
      ASSERT_EQ(r.messages.size(), 1u);
      EXPECT_EQ(r.messages[0], first);
    }
    // As the very first frame, the reader's format check sees it: a known type shorter than its size
    // there means the input is not (intact) ITCH; the error is at offset 0, message #1.
    auto r = itch5_test::read_memory(alone, cfg);
    ASSERT_EQ(r.status, itch5::read_status::error);
    EXPECT_EQ(r.error.code, itch5::read_errc::not_itch);
    EXPECT_EQ(r.error.offset, 0u);
    EXPECT_EQ(r.error.message_number, 1u);
    EXPECT_TRUE(r.messages.empty());
  }

  // Checked dispatch over exactly the short body.
  std::unique_ptr<std::byte[]> exact(new std::byte[c.length]);
  std::memcpy(exact.get(), body.data(), c.length);
  int calls = 0;
  auto handler = [&](const auto&) { ++calls; };
  EXPECT_EQ(itch5::dispatch(std::span<const std::byte>(exact.get(), c.length), handler),
            itch5::dispatch_result::too_short);
  EXPECT_EQ(calls, 0);
}

INSTANTIATE_TEST_SUITE_P(AllTypesAllLengths, Truncation, testing::ValuesIn(all_cases()), case_name);

}  // namespace
