// The sides of an inside-change line written from a book's price levels, for the inside runner's line
// formatter: the format itself (format_inside_line), its empty sides and its parser are in
// <itch5/inside_line.hpp>; these overloads take book::price_level and forward to it. O(1), no allocation;
// written into the caller's buffer.
#pragma once

#include <itch5/inside_line.hpp>

#include <itch5/book/price_level.hpp>

namespace itch5::book {

using itch5::max_inside_line;

/// "<bid px> <bid qty>", "0 0" for an empty bid. `out` needs 48 bytes.
inline char* format_bid(char* out, const price_level& bid) noexcept {
  return itch5::format_inside_bid(out, bid.price.units(), bid.shares);
}

/// "<offer px> <offer qty>", "2000000000 0" for an empty offer. `out` needs 48 bytes.
inline char* format_offer(char* out, const price_level& offer) noexcept {
  return itch5::format_inside_offer(out, offer.price.units(), offer.shares);
}

}  // namespace itch5::book
