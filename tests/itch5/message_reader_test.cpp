// BinaryFILE framing by message_reader over in-memory inputs: identical message sequences for every block
// size (1, 2, 3, 7 bytes put the carry at every position) with synchronous and threaded sources, unknown
// types skipped and counted, zero-length end of session, oversized messages, truncated prefixes and bodies,
// empty and non-ITCH input, and read failures, each with exact offsets and message numbers.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <itch5/io/input_error.hpp>
#include <itch5/message_reader.hpp>
#include <itch5/messages.hpp>
#include <itch5_test/support.hpp>

namespace {

using itch5::read_errc;
using itch5::read_status;
using itch5_test::builder;
using itch5_test::bytes;

// A message of `type` of the spec's length with a recognisable body.
bytes message_of(char type, std::uint16_t locate) {
  builder b;
  b.header(type, locate, static_cast<std::uint16_t>(locate * 3), 1'000'000ull * locate);
  for (std::size_t i = 11; i < itch5_test::spec_length(type); ++i) {
    b.u8(static_cast<std::uint8_t>(i + locate));
  }
  return b.get();
}

// Every type of the spec, three rounds, as a well-formed stream.
bytes mixed_stream() {
  builder b;
  std::uint16_t locate = 1;
  for (int round = 0; round < 3; ++round) {
    for (const auto& e : itch5_test::spec_table) b.frame(message_of(e.type, locate++));
  }
  return b.get();
}

class ReaderAllConfigs : public testing::TestWithParam<itch5_test::source_config> {};

std::string config_name(const testing::TestParamInfo<itch5_test::source_config>& p) {
  const auto& c = p.param;
  return std::string(c.threaded ? "threaded" : "sync") + "_block" + std::to_string(c.block_size) +
         (c.max_chunk != SIZE_MAX ? "_chunk" + std::to_string(c.max_chunk) : "");
}

INSTANTIATE_TEST_SUITE_P(Sources, ReaderAllConfigs, testing::ValuesIn(itch5_test::all_source_configs()),
                         config_name);

TEST_P(ReaderAllConfigs, MixedStreamMatchesReferenceFraming) {
  const bytes input = mixed_stream();
  const auto expected = itch5_test::reference_frames(input);
  ASSERT_EQ(expected.size(), 69u);
  auto r = itch5_test::read_memory(input, GetParam());
  EXPECT_EQ(r.status, read_status::end_of_input);
  EXPECT_EQ(r.messages, expected);
  EXPECT_EQ(r.framed, 69u);
  EXPECT_EQ(r.oversized, 0u);
  EXPECT_EQ(r.unknown_total, 0u);
  EXPECT_EQ(r.offset, input.size());
}

// next_frame_buffered() says exactly whether the next next() returns without reading a block (run_loop
// ends a timed message's time before a read on that word).
TEST_P(ReaderAllConfigs, NextFrameBufferedIsTrueExactlyWhenNextReadsNoBlock) {
  const bytes input = mixed_stream();
  itch5::message_reader reader(itch5_test::memory_source(input, GetParam()));
  std::span<const std::byte> msg;
  ASSERT_EQ(reader.next(msg), read_status::message);
  std::size_t buffered = 0;
  for (;;) {
    const bool says = reader.next_frame_buffered();
    const std::uint64_t blocks = reader.block_number();
    const read_status st = reader.next(msg);
    EXPECT_EQ(says, st == read_status::message && reader.block_number() == blocks)
        << "after message " << reader.messages();
    if (st != read_status::message) break;
    buffered += says ? 1 : 0;
  }
  EXPECT_EQ(reader.messages(), 69u);
  if (GetParam().block_size >= 4096) {
    EXPECT_GT(buffered, 60u);
  }
}

TEST_P(ReaderAllConfigs, UnknownTypesAreSkippedByLengthAndCounted) {
  bytes s = itch5_test::system_event_bytes('O');
  bytes a = itch5_test::add_order_bytes(1, 'B', 100, "AAPL", 1'000'000);
  bytes d = itch5_test::order_delete_bytes(1);
  bytes z20 = builder().header('Z', 1, 2, 3).u64(0x5a5a'5a5a'5a5a'5a5a).u8(0).get();  // 20 bytes
  bytes z1 = builder().ch('Z').get();                                                 // type byte only
  bytes f0 = builder().u8(0xf0).u8(0).u8(0x0c).get();                                 // looks like a prefix
  bytes big(300, std::byte{0x53});                                                    // 'S' bytes inside
  big[0] = std::byte{'z'};
  const bytes input = builder().frame(s).frame(z20).frame(a).frame(z1).frame(f0).frame(big).frame(d).get();

  auto r = itch5_test::read_memory(input, GetParam());
  EXPECT_EQ(r.status, read_status::end_of_input);
  EXPECT_EQ(r.messages, (std::vector<bytes>{s, a, d}));
  EXPECT_EQ(r.framed, 7u);
  EXPECT_EQ(r.unknown_total, 4u);
  EXPECT_EQ(r.unknown['Z'], 2u);
  EXPECT_EQ(r.unknown[0xf0], 1u);
  EXPECT_EQ(r.unknown['z'], 1u);
  EXPECT_EQ(r.unknown['S'], 0u);
  EXPECT_EQ(r.offset, input.size());
}

TEST_P(ReaderAllConfigs, ZeroLengthAtTheEndEndsTheSession) {
  bytes s = itch5_test::system_event_bytes('C');
  bytes a = itch5_test::add_order_bytes(1, 'S', 5, "MSFT", 3'000'000);
  // S (14) + A (38): the zero length prefix is at offset 52, the last two bytes.
  auto r = itch5_test::read_memory(builder().frame(s).frame(a).u16(0).get(), GetParam());
  EXPECT_EQ(r.status, read_status::end_of_session);
  EXPECT_EQ(r.messages, (std::vector<bytes>{s, a}));
  EXPECT_EQ(r.offset, 52u);
  EXPECT_FALSE(r.data_after_session);
}

// A zero length prefix with bytes after it is damage (a zero-filled tail), not an end of session: an
// error naming its offset and the bytes after it; allow_zero_tail() makes it an end of session.
TEST_P(ReaderAllConfigs, ZeroLengthBeforeTheEndIsAnErrorUnlessAllowed) {
  bytes s = itch5_test::system_event_bytes('C');
  bytes a = itch5_test::add_order_bytes(1, 'S', 5, "MSFT", 3'000'000);
  bytes d = itch5_test::order_delete_bytes(1);
  // S (14) + A (38): the zero length prefix is at offset 52; D framed is 21 bytes.
  const bytes with_more = builder().frame(s).frame(a).u16(0).frame(d).get();
  const bytes one_more_byte = builder().frame(s).frame(a).u16(0).u8(0).get();
  bytes zero_tail = builder().frame(s).frame(a).get();
  zero_tail.resize(zero_tail.size() + 5000);  // zeros: a copy that stopped
  struct expected {
    const bytes* in;
    std::uint64_t after;
  };
  for (const expected& e :
       {expected{&with_more, 21}, expected{&one_more_byte, 1}, expected{&zero_tail, 4998}}) {
    {
      itch5::message_reader reader(itch5_test::memory_source(*e.in, GetParam()));
      auto r = itch5_test::read_all(reader);
      ASSERT_EQ(r.status, read_status::error);
      EXPECT_EQ(r.messages, (std::vector<bytes>{s, a}));
      EXPECT_EQ(r.error.code, read_errc::zero_length_before_end);
      EXPECT_EQ(r.error.describe("day.itch"),
                "day.itch: byte offset 52 (message #3): zero length prefix before the end of the input: " +
                    std::to_string(e.after) + (e.after == 1 ? " byte" : " bytes") +
                    " after it not read (a zero-filled tail?)");
      std::span<const std::byte> msg;
      EXPECT_EQ(reader.next(msg), read_status::error);  // it stays an error
    }
    itch5::message_reader reader(itch5_test::memory_source(*e.in, GetParam()));
    reader.allow_zero_tail(true);
    auto r = itch5_test::read_all(reader);
    EXPECT_EQ(r.status, read_status::end_of_session);
    EXPECT_EQ(r.messages, (std::vector<bytes>{s, a}));
    EXPECT_EQ(r.framed, 2u);
    EXPECT_EQ(r.offset, 52u);
    EXPECT_TRUE(r.data_after_session);
    EXPECT_EQ(reader.end_of_session_offset(), 52u);
    EXPECT_EQ(reader.bytes_after_end_of_session().count, e.after);
    EXPECT_TRUE(reader.bytes_after_end_of_session().exact);
    // The session stays ended.
    std::span<const std::byte> msg;
    EXPECT_EQ(reader.next(msg), read_status::end_of_session);
  }
}

// Files of another kind are named by their first bytes, in one error.
TEST_P(ReaderAllConfigs, OtherKindsOfFileAreNamed) {
  const bytes day = builder().frame(itch5_test::system_event_bytes('O')).get();
  struct kind {
    std::string head;
    std::string says;
  };
  for (const kind& k : {kind{"\x28\xb5\x2f\xfd", "the input is zstd-compressed (magic 28 b5 2f fd)"},
                        kind{"BZh9", "the input is bzip2-compressed (magic 'BZh')"},
                        kind{std::string("\xfd"
                                         "7zXZ\x00",
                                         6),
                             "the input is xz-compressed (magic fd 37 7a 58 5a 00)"},
                        kind{"ITCH5HST", "the input is an itch5 histogram file"}}) {
    bytes in = itch5_test::to_bytes(k.head);
    in.insert(in.end(), day.begin(), day.end());
    auto r = itch5_test::read_memory(in, GetParam());
    ASSERT_EQ(r.status, read_status::error) << k.says;
    EXPECT_EQ(r.error.code, read_errc::not_itch);
    EXPECT_EQ(r.error.offset, 0u);
    EXPECT_EQ(r.error.detail.rfind(k.says, 0), 0u) << r.error.detail;
  }
}

TEST_P(ReaderAllConfigs, ZeroLengthFirstIsAnEmptySession) {
  auto r = itch5_test::read_memory(builder().u16(0).get(), GetParam());
  EXPECT_EQ(r.status, read_status::end_of_session);
  EXPECT_TRUE(r.messages.empty());
  EXPECT_FALSE(r.data_after_session);
}

// Nothing but zeros (/dev/zero, a file of lost blocks) is no session, even with allow_zero_tail().
TEST_P(ReaderAllConfigs, ZerosOnlyAreAnError) {
  for (const bool allow : {false, true}) {
    itch5::message_reader reader(itch5_test::memory_source(bytes(3000, std::byte{0}), GetParam()));
    reader.allow_zero_tail(allow);
    auto r = itch5_test::read_all(reader);
    ASSERT_EQ(r.status, read_status::error);
    EXPECT_EQ(r.error.describe("z"),
              "z: byte offset 0 (message #1): zero length prefix before the end of the input: 2998 bytes "
              "after it not read (a zero-filled tail?)");
  }
}

TEST_P(ReaderAllConfigs, OversizedMessageIsDeliveredAndCounted) {
  bytes s = itch5_test::system_event_bytes('O');
  bytes a = itch5_test::add_order_bytes(0x0102'0304'0506'0708, 'B', 300, "IBM", 1'234'500);
  bytes a_long = a;
  for (int i = 0; i < 4; ++i) a_long.push_back(std::byte{0xee});  // 40 bytes framed for a 36-byte type
  bytes d = itch5_test::order_delete_bytes(9);
  const bytes input = builder().frame(s).frame(a_long).frame(d).get();

  auto r = itch5_test::read_memory(input, GetParam());
  EXPECT_EQ(r.status, read_status::end_of_input);
  ASSERT_EQ(r.messages.size(), 3u);
  EXPECT_EQ(r.messages[1], a_long);  // the whole frame, extra bytes included
  EXPECT_EQ(r.messages[2], d);       // the next frame starts after the extra bytes
  EXPECT_EQ(r.oversized, 1u);
  auto m = itch5::decode<itch5::add_order>(r.messages[1].data());
  EXPECT_EQ(m.order_ref, 0x0102'0304'0506'0708u);
  EXPECT_EQ(m.shares, 300u);
  EXPECT_EQ(m.stock.str(), "IBM");
  EXPECT_EQ(m.price.units(), 1'234'500u);
}

TEST_P(ReaderAllConfigs, TruncatedLengthPrefix) {
  bytes s = itch5_test::system_event_bytes('O');
  auto r = itch5_test::read_memory(builder().frame(s).u8(0).get(), GetParam());
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::truncated_length_prefix);
  EXPECT_EQ(r.error.offset, 14u);
  EXPECT_EQ(r.error.message_number, 2u);
  EXPECT_EQ(r.messages, std::vector<bytes>{s});
}

TEST_P(ReaderAllConfigs, TruncatedBody) {
  bytes s = itch5_test::system_event_bytes('O');
  bytes a = itch5_test::add_order_bytes(1, 'B', 100, "AAPL", 1'000'000);
  bytes z = builder().header('Z', 0, 0, 0).get();  // unknown type: counted in message numbers
  // S (14) + Z (13) + A's prefix and 20 of its 36 bytes.
  bytes cut = builder().frame(s).frame(z).frame(a).get();
  cut.resize(14 + 13 + 2 + 20);
  auto r = itch5_test::read_memory(cut, GetParam());
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::truncated_message);
  EXPECT_EQ(r.error.offset, 27u);
  EXPECT_EQ(r.error.message_number, 3u);
  EXPECT_NE(r.error.detail.find("36"), std::string::npos) << r.error.detail;
  EXPECT_NE(r.error.detail.find("20"), std::string::npos) << r.error.detail;
  EXPECT_EQ(r.messages, std::vector<bytes>{s});

  // Only the length prefix of the last message.
  cut.resize(14 + 13 + 2);
  r = itch5_test::read_memory(cut, GetParam());
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::truncated_message);
  EXPECT_EQ(r.error.offset, 27u);
  EXPECT_EQ(r.error.message_number, 3u);

  // A truncated unknown-type message is truncated too, not skipped.
  bytes cut_unknown = builder().frame(s).frame(z).get();
  cut_unknown.resize(cut_unknown.size() - 1);
  r = itch5_test::read_memory(cut_unknown, GetParam());
  EXPECT_EQ(r.error.code, read_errc::truncated_message);
  EXPECT_EQ(r.error.offset, 14u);
  EXPECT_EQ(r.error.message_number, 2u);
}

TEST_P(ReaderAllConfigs, EmptyInput) {
  auto r = itch5_test::read_memory(bytes{}, GetParam());
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::empty_input);
  EXPECT_EQ(r.error.offset, 0u);
  EXPECT_EQ(r.error.message_number, 1u);
}

TEST_P(ReaderAllConfigs, TextIsNotItch) {
  for (std::string text : {"Hello, world!\nThis is a text file.\n",
                           "date,symbol,price\n2019-01-30,AAPL,1.0\n", "#!/bin/sh\nexit 0\n", "{}"}) {
    auto r = itch5_test::read_memory(itch5_test::to_bytes(text), GetParam());
    EXPECT_EQ(r.status, read_status::error) << text;
    EXPECT_EQ(r.error.code, text.size() >= 3 ? read_errc::not_itch : read_errc::truncated_message) << text;
    EXPECT_EQ(r.error.offset, 0u);
    EXPECT_EQ(r.error.message_number, 1u);
    EXPECT_TRUE(r.messages.empty());
  }
}

TEST_P(ReaderAllConfigs, RandomBytesAreNotItch) {
  std::mt19937 rng(20190130);
  for (int i = 0; i < 8; ++i) {
    bytes junk(1000 + 37 * i);
    for (auto& b : junk) b = static_cast<std::byte>(rng() & 0xff);
    auto r = itch5_test::read_memory(junk, GetParam());
    EXPECT_EQ(r.status, read_status::error) << "buffer " << i;
    EXPECT_EQ(r.error.code, read_errc::not_itch) << "buffer " << i;
    EXPECT_TRUE(r.messages.empty());
  }
}

TEST_P(ReaderAllConfigs, ValidFirstMessageIsAcceptedEvenIfGarbageFollows) {
  bytes s = itch5_test::system_event_bytes('O');
  auto r = itch5_test::read_memory(builder().frame(s).get(), GetParam());
  EXPECT_EQ(r.status, read_status::end_of_input);
  EXPECT_EQ(r.messages, std::vector<bytes>{s});

  // Text after a valid first message: the format check is done, so this is a framing error later on
  // ("He" = length 0x4865, much more than what is left).
  r = itch5_test::read_memory(builder().frame(s).append(itch5_test::to_bytes("Hello, world\n")).get(),
                              GetParam());
  EXPECT_EQ(r.status, read_status::error);
  EXPECT_EQ(r.error.code, read_errc::truncated_message);
  EXPECT_EQ(r.error.offset, 14u);
  EXPECT_EQ(r.error.message_number, 2u);
  EXPECT_EQ(r.messages, std::vector<bytes>{s});
}

// A byte_stream that returns `good` bytes, then throws input_error.
class failing_stream final : public itch5::io::byte_stream {
 public:
  explicit failing_stream(bytes good) : inner_(good), size_(good.size()) {}
  std::size_t read(std::byte* dst, std::size_t n) override {
    std::size_t got = inner_.read(dst, n);
    if (got == 0) throw itch5::io::input_error("disk on fire after " + std::to_string(size_) + " bytes");
    return got;
  }
  [[nodiscard]] std::uint64_t consumed() const noexcept override { return inner_.consumed(); }
  [[nodiscard]] std::uint64_t total() const noexcept override { return 0; }

 private:
  itch5_test::memory_stream inner_;
  std::size_t size_;
};

TEST_P(ReaderAllConfigs, ReadFailureComesAfterEveryByteBeforeIt) {
  const auto& c = GetParam();
  const bytes input = mixed_stream();
  const auto frames = itch5_test::reference_frames(input);
  // Cut inside the 11th frame: 10 whole messages, then the failure.
  std::size_t ten = 0;
  for (int i = 0; i < 10; ++i) ten += 2 + frames[static_cast<std::size_t>(i)].size();
  for (std::size_t cut : {ten, ten + 1, ten + 5}) {
    SCOPED_TRACE("cut at " + std::to_string(cut));
    itch5::io::block_options o;
    o.block_size = c.block_size;
    o.threaded = c.threaded;
    auto stream = std::make_unique<failing_stream>(
        bytes(input.begin(), input.begin() + static_cast<std::ptrdiff_t>(cut)));
    auto r = itch5_test::read_all(itch5::io::make_block_source(std::move(stream), o));
    EXPECT_EQ(r.status, read_status::error);
    EXPECT_EQ(r.error.code, read_errc::input_failure);
    EXPECT_EQ(r.error.offset, ten) << "named at the start of the message in progress";
    EXPECT_NE(r.error.detail.find("(input ends at byte offset " + std::to_string(cut) + ")"),
              std::string::npos)
        << r.error.detail;
    EXPECT_EQ(r.error.message_number, 11u);
    EXPECT_NE(r.error.detail.find("disk on fire"), std::string::npos) << r.error.detail;
    EXPECT_EQ(r.messages, std::vector<bytes>(frames.begin(), frames.begin() + 10));
  }
}

TEST(Reader, LargestFramesAreCarriedWhole) {
  // A 65535-byte frame (the largest a 2-byte prefix allows) of an unknown type, then one of a known type
  // (oversized, so delivered). After the 14-byte S, a 65550-byte block ends one byte before the first big
  // frame's end: the carry is 65536 bytes, the most the block headroom must hold.
  bytes s = itch5_test::system_event_bytes('O');
  bytes unknown(65535, std::byte{0x5a});
  bytes known(65535);
  for (std::size_t i = 0; i < known.size(); ++i) known[i] = static_cast<std::byte>(i * 7 + 3);
  known[0] = std::byte{'S'};
  const bytes input = builder().frame(s).frame(unknown).frame(known).frame(s).get();
  for (itch5_test::source_config cfg :
       {itch5_test::source_config{65550, false}, itch5_test::source_config{65550, true},
        itch5_test::source_config{65549, false}, itch5_test::source_config{65551, true},
        itch5_test::source_config{64, false}, itch5_test::source_config{4093, true},
        itch5_test::source_config{std::size_t{1} << 20, true}}) {
    SCOPED_TRACE(testing::PrintToString(cfg));
    auto r = itch5_test::read_memory(input, cfg);
    EXPECT_EQ(r.status, read_status::end_of_input);
    ASSERT_EQ(r.messages.size(), 3u);
    EXPECT_EQ(r.messages[0], s);
    EXPECT_TRUE(r.messages[1] == known) << "the 65535-byte message was not delivered intact";
    EXPECT_EQ(r.messages[2], s);
    EXPECT_EQ(r.unknown['Z'], 1u);
    EXPECT_EQ(r.oversized, 1u);
    EXPECT_EQ(r.offset, input.size());
  }
}

TEST(Reader, ErrorDescriptionNamesFileOffsetAndMessage) {
  itch5::read_error e{read_errc::truncated_message, 1234, 56, "the length prefix says 36 bytes"};
  std::string d = e.describe("day.itch");
  EXPECT_EQ(d,
            "day.itch: byte offset 1234 (message #56): truncated message: the length prefix says 36 bytes");
}

TEST(Reader, ThreadedSourceCanBeAbandonedEarly) {
  // Destroying a reader whose producer is blocked on a full ring must not hang.
  const bytes one = mixed_stream();
  bytes input;
  for (int i = 0; i < 64; ++i) input.insert(input.end(), one.begin(), one.end());
  for (int round = 0; round < 20; ++round) {
    itch5::message_reader reader(itch5_test::memory_source(input, {16, true}));
    std::span<const std::byte> msg;
    ASSERT_EQ(reader.next(msg), read_status::message);
  }
}

TEST(Reader, BlockSourceRejectsBadOptions) {
  itch5::io::block_options zero;
  zero.block_size = 0;
  EXPECT_THROW((void)itch5::io::make_block_source(std::make_unique<itch5_test::memory_stream>(bytes{}), zero),
               std::invalid_argument);
  itch5::io::block_options two_slots;
  two_slots.slots = 2;
  EXPECT_THROW(
      (void)itch5::io::make_block_source(std::make_unique<itch5_test::memory_stream>(bytes{}), two_slots),
      std::invalid_argument);
}

}  // namespace
