// capture_flags: the note on framing errors in a capture's messages, and the capture flags refused on an
// input that is not a capture (the texts itch5cat and itch5inside print).
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include <itch5/cli/capture_flags.hpp>

namespace {

itch5::read_error error_of(itch5::read_errc code) {
  itch5::read_error e;
  e.code = code;
  return e;
}

TEST(capture_flags, the_framing_note_is_for_framing_errors_in_a_capture_only) {
  itch5::io::capture_stats file, capture;
  capture.is_capture = true;
  const std::string note = itch5::cli::capture_flags::framing_note;
  EXPECT_EQ(note, " (the byte offset is in the BinaryFILE stream of the capture's MoldUDP64 messages)");
  for (auto code : {itch5::read_errc::not_itch, itch5::read_errc::truncated_length_prefix,
                    itch5::read_errc::truncated_message, itch5::read_errc::message_too_short}) {
    const itch5::read_error e = error_of(code);
    EXPECT_EQ(itch5::cli::capture_flags::framing_note_for(capture, e), note) << to_string(code);
    EXPECT_EQ(std::string(itch5::cli::capture_flags::framing_note_for(file, e)), "") << to_string(code);
  }
  for (auto code : {itch5::read_errc::input_failure, itch5::read_errc::corrupt_capture}) {
    const std::string none = itch5::cli::capture_flags::framing_note_for(capture, error_of(code));
    EXPECT_EQ(none, "") << to_string(code);
  }
}

TEST(capture_flags, capture_flags_on_an_input_that_is_not_a_capture_are_an_error) {
  itch5::io::capture_stats file, capture;
  capture.is_capture = true;
  itch5::cli::capture_flags none;
  EXPECT_NO_THROW(none.check_input(file, "day.itch"));
  for (auto set : {+[](itch5::cli::capture_flags& f) { f.filter = "udp"; },
                   +[](itch5::cli::capture_flags& f) { f.port = 26477; },
                   +[](itch5::cli::capture_flags& f) { f.timestamp = "capture"; }}) {
    itch5::cli::capture_flags f;
    set(f);
    EXPECT_NO_THROW(f.check_input(capture, "day.pcap"));
    try {
      f.check_input(file, "day.itch");
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()),
                "day.itch: --filter, --port and --timestamp capture apply to a pcap or pcapng capture; this "
                "input is not one");
    }
  }
}

}  // namespace
