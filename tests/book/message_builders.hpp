// Terse constructors of book messages for tests.
#pragma once

#include <cstdint>
#include <string_view>

#include <itch5/messages.hpp>

namespace testing_messages {

inline itch5::message_header hdr(std::uint16_t locate, std::int64_t ts) {
  return {locate, 0, itch5::timestamp(ts)};
}

inline itch5::system_event system_event(std::int64_t ts, char code) {
  itch5::system_event m{};
  m.header = hdr(0, ts);
  m.event_code = code;
  return m;
}

inline itch5::stock_directory directory(std::uint16_t locate, std::string_view symbol, std::int64_t ts = 1) {
  itch5::stock_directory m{};
  m.header = hdr(locate, ts);
  m.stock = itch5::stock_symbol::from(symbol);
  m.round_lot_size = 100;
  return m;
}

inline itch5::add_order add(std::int64_t ts, std::uint16_t locate, std::uint64_t ref, char side,
                            std::uint32_t shares, std::uint32_t price, std::string_view symbol = "TEST") {
  itch5::add_order m{};
  m.header = hdr(locate, ts);
  m.order_ref = ref;
  m.side = side;
  m.shares = shares;
  m.stock = itch5::stock_symbol::from(symbol);
  m.price = itch5::price4(price);
  return m;
}

inline itch5::add_order_mpid add_mpid(std::int64_t ts, std::uint16_t locate, std::uint64_t ref, char side,
                                      std::uint32_t shares, std::uint32_t price,
                                      std::string_view symbol = "TEST") {
  itch5::add_order_mpid m{};
  m.header = hdr(locate, ts);
  m.order_ref = ref;
  m.side = side;
  m.shares = shares;
  m.stock = itch5::stock_symbol::from(symbol);
  m.price = itch5::price4(price);
  m.attribution = {'M', 'P', 'I', 'D'};
  return m;
}

inline itch5::order_executed exec(std::int64_t ts, std::uint16_t locate, std::uint64_t ref,
                                  std::uint32_t shares) {
  itch5::order_executed m{};
  m.header = hdr(locate, ts);
  m.order_ref = ref;
  m.executed_shares = shares;
  return m;
}

inline itch5::order_executed_with_price exec_price(std::int64_t ts, std::uint16_t locate, std::uint64_t ref,
                                                   std::uint32_t shares, std::uint32_t trade_price) {
  itch5::order_executed_with_price m{};
  m.header = hdr(locate, ts);
  m.order_ref = ref;
  m.executed_shares = shares;
  m.printable = 'Y';
  m.execution_price = itch5::price4(trade_price);
  return m;
}

inline itch5::order_cancel cancel(std::int64_t ts, std::uint16_t locate, std::uint64_t ref,
                                  std::uint32_t shares) {
  itch5::order_cancel m{};
  m.header = hdr(locate, ts);
  m.order_ref = ref;
  m.cancelled_shares = shares;
  return m;
}

inline itch5::order_delete del(std::int64_t ts, std::uint16_t locate, std::uint64_t ref) {
  itch5::order_delete m{};
  m.header = hdr(locate, ts);
  m.order_ref = ref;
  return m;
}

inline itch5::order_replace replace(std::int64_t ts, std::uint16_t locate, std::uint64_t old_ref,
                                    std::uint64_t new_ref, std::uint32_t shares, std::uint32_t price) {
  itch5::order_replace m{};
  m.header = hdr(locate, ts);
  m.original_order_ref = old_ref;
  m.new_order_ref = new_ref;
  m.shares = shares;
  m.price = itch5::price4(price);
  return m;
}

}  // namespace testing_messages
