// ITCH 5.0 'R' (39 bytes): Stock Directory: one per symbol at the start of the day; assigns the stock locate.
#pragma once

#include <array>
#include <cstdint>

#include <itch5/detail/field.hpp>
#include <itch5/message_header.hpp>

namespace itch5 {

struct stock_directory {
  static constexpr char type = 'R';
  static constexpr std::size_t size = 39;
  static constexpr const char* name = "stock_directory";

  message_header header;
  stock_symbol stock{};
  char market_category{};
  char financial_status{};
  std::uint32_t round_lot_size{};
  char round_lots_only{};
  char issue_classification{};
  std::array<char, 2> issue_subtype{};
  char authenticity{};
  char short_sale_threshold{};
  char ipo_flag{};
  char luld_reference_price_tier{};
  char etp_flag{};
  std::uint32_t etp_leverage_factor{};
  char inverse_indicator{};

  /// Field offsets from the type byte; decode(), encode() and the text printer use this list.
  static constexpr auto layout() noexcept {
    return detail::fields(
        detail::at<11>("stock", &stock_directory::stock),
        detail::at<19>("market_category", &stock_directory::market_category),
        detail::at<20>("financial_status", &stock_directory::financial_status),
        detail::at<21>("round_lot_size", &stock_directory::round_lot_size),
        detail::at<25>("round_lots_only", &stock_directory::round_lots_only),
        detail::at<26>("issue_classification", &stock_directory::issue_classification),
        detail::at<27>("issue_subtype", &stock_directory::issue_subtype),
        detail::at<29>("authenticity", &stock_directory::authenticity),
        detail::at<30>("short_sale_threshold", &stock_directory::short_sale_threshold),
        detail::at<31>("ipo_flag", &stock_directory::ipo_flag),
        detail::at<32>("luld_reference_price_tier", &stock_directory::luld_reference_price_tier),
        detail::at<33>("etp_flag", &stock_directory::etp_flag),
        detail::at<34>("etp_leverage_factor", &stock_directory::etp_leverage_factor),
        detail::at<38>("inverse_indicator", &stock_directory::inverse_indicator));
  }

  friend bool operator==(const stock_directory&, const stock_directory&) = default;
};

}  // namespace itch5
