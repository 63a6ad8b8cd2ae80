// A table's columns (column.hpp), collected by visiting a prototype row, and what follows from them: the
// CSV header line and the markdown column list of docs/formats.md.
//
//   const std::vector<itch5::tables::column> cols = itch5::tables::schema_of<trades_table>();
//   out << itch5::tables::csv_header(cols) << itch5::tables::markdown_columns(cols);
//
// Tables whose columns depend on options (the N-level book) take a prototype row set up for them.
#pragma once

#include <string>
#include <vector>

#include <itch5/tables/column.hpp>

namespace itch5::tables {

namespace detail {
struct schema_collector {
  std::vector<column> columns;
  template <class T>
  void operator()(const field& f, const T&) {
    columns.push_back({f.full_name(), column_type_of<T>(), std::string(f.meaning), nullable_v<T>});
  }
};
}  // namespace detail

/// The columns of `Table`, in order, from visiting `prototype`.
template <class Table>
std::vector<column> schema_of(const typename Table::row& prototype = {}) {
  detail::schema_collector c;
  Table::visit(c, prototype);
  return std::move(c.columns);
}

/// The CSV header line: the column names separated by commas, with a newline.
[[nodiscard]] std::string csv_header(const std::vector<column>& columns);

/// The columns as a markdown table (| column | type | meaning |), the form docs/formats.md lists each
/// table's columns in (a test checks that it does, for every table).
[[nodiscard]] std::string markdown_columns(const std::vector<column>& columns);

}  // namespace itch5::tables
