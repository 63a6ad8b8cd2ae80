#include <itch5/tables/column.hpp>
#include <itch5/tables/schema.hpp>

#include <string>

namespace itch5::tables {

std::string field::full_name() const {
  std::string n(name);
  if (index >= 0) {
    if (index < 10) n += '0';
    n += std::to_string(index);
  }
  return n;
}

std::string_view column_type_name(column_type t) noexcept {
  switch (t) {
    case column_type::int64: return "int64";
    case column_type::uint64: return "uint64";
    case column_type::timestamp: return "ns";
    case column_type::price4: return "price4";
    case column_type::price8: return "price8";
    case column_type::symbol: return "symbol";
    case column_type::letter: return "letter";
    case column_type::boolean: return "bool";
    case column_type::text: return "text";
  }
  return "?";
}

std::string csv_header(const std::vector<column>& columns) {
  std::string h;
  for (const column& c : columns) {
    if (!h.empty()) h += ',';
    h += c.name;
  }
  h += '\n';
  return h;
}

std::string markdown_columns(const std::vector<column>& columns) {
  std::string m = "| column | type | meaning |\n|---|---|---|\n";
  for (const column& c : columns) {
    m += "| `" + c.name + "` | " + std::string(column_type_name(c.type)) + (c.nullable ? " or empty" : "") +
         " | " + c.meaning + " |\n";
  }
  return m;
}

}  // namespace itch5::tables
