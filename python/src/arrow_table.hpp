// One generic converter from a table of tables/ (a row type and its visit(), column.hpp) to Arrow: the
// schema from visiting a prototype row, and record batches (a struct array per batch) from rows appended
// one by one. Column types (docs/python.md):
//   integers, timestamps (ns since midnight), prices (integer units of $0.0001 or $0.00000001)  int64 /
//   uint64; symbols dictionary-encoded (int32 indices into utf8, a dictionary per batch); letters and text
//   (std::string_view, tables::text) utf8, a letter of 0 null; bool boolean; std::optional nullable.
// With a known date (`midnight_utc_ns`, the epoch nanoseconds of the day's midnight in `timezone`), a
// column `time`, timestamp[ns, timezone], follows the `timestamp` column.
// Every field carries metadata itch5.type (column_type_name, or "text") and itch5.meaning.
// append() is O(columns) with no allocation: a batch's integer, price, time and symbol-index columns are
// written into one block allocated when the batch starts (arrow_slab) and handed to Arrow as they are; the
// other columns are built in vectors that keep their storage, and finish() copies them into buffers of
// their own. Not thread-safe: one thread builds, the batch may be released anywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <itch5/tables/column.hpp>

#include "arrow_abi.hpp"
#include "arrow_nodes.hpp"

namespace itch5::python {

/// How a column is laid out in Arrow.
enum class arrow_kind : std::uint8_t { int64, uint64, boolean, utf8, symbol, time };

template <class T>
struct value_of {
  using type = T;
};
template <class T>
struct value_of<std::optional<T>> {
  using type = T;
};

template <class T>
constexpr arrow_kind arrow_kind_of() noexcept {
  using V = typename value_of<T>::type;
  if constexpr (std::is_same_v<V, std::string_view> || std::is_same_v<V, tables::text>) {
    return arrow_kind::utf8;
  } else {
    switch (tables::column_type_of<V>()) {
      case tables::column_type::uint64: return arrow_kind::uint64;
      case tables::column_type::boolean: return arrow_kind::boolean;
      case tables::column_type::letter: return arrow_kind::utf8;
      case tables::column_type::symbol: return arrow_kind::symbol;
      default: return arrow_kind::int64;
    }
  }
}

template <class T>
std::string_view type_name_of() noexcept {
  using V = typename value_of<T>::type;
  if constexpr (std::is_same_v<V, std::string_view>) {
    return "text";
  } else {
    return tables::column_type_name(tables::column_type_of<V>());
  }
}

/// Where the tz-aware `time` column comes from (none when the date is unknown).
struct time_column {
  std::int64_t midnight_utc_ns = 0;
  std::string timezone;  ///< e.g. America/New_York; empty: no time column
};

/// A column's values for the batch being built.
class column_builder {
 public:
  column_builder(std::string name, arrow_kind kind, bool nullable, std::string type_name, std::string meaning)
      : name_(std::move(name)),
        kind_(kind),
        nullable_(nullable),
        type_name_(std::move(type_name)),
        meaning_(std::move(meaning)) {}

  /// Bytes per value of a column written into the batch's slab (arrow_table_builder::start_batch): 8 for
  /// integers, prices and times, 4 for symbol indices; 0 for the others (built in vectors, then copied).
  [[nodiscard]] std::size_t fixed_width() const noexcept {
    switch (kind_) {
      case arrow_kind::int64:
      case arrow_kind::uint64:
      case arrow_kind::time: return 8;
      case arrow_kind::symbol: return 4;
      default: return 0;
    }
  }

  /// Where the values of the batch go: `rows` values at `at`, inside `slab`.
  void attach(std::shared_ptr<const arrow_slab> slab, std::uint8_t* at, std::size_t rows) noexcept {
    slab_ = std::move(slab);
    fixed_ = at;
    capacity_ = rows;
  }

  void reserve(std::size_t rows) {
    if (kind_ == arrow_kind::boolean) ints_.reserve(rows);
    if (nullable_) valid_.reserve(rows);
    if (kind_ == arrow_kind::utf8) {
      offsets_.reserve(rows + 1);
      if (offsets_.empty()) offsets_.push_back(0);
      chars_.reserve(rows * 2);
    }
    if (kind_ == arrow_kind::symbol && dict_offsets_.empty()) dict_offsets_.push_back(0);
  }

  template <class T>
  void append(const T& v) {
    if constexpr (tables::detail::is_optional<T>::value) {
      if (v) {
        append_value(*v);
        mark(true);
      } else {
        append_null();
      }
    } else {
      append_value(v);
      if constexpr (std::is_same_v<T, tables::letter>) {
        mark(v.code != 0);
      } else {
        mark(true);
      }
    }
  }

  void append_time(std::int64_t ns) {
    put<std::int64_t>(ns);
    mark(true);
  }

  /// The column's schema (a child of the batch's struct schema).
  void schema(ArrowSchema* out, const time_column& tc) const {
    std::string format;
    std::unique_ptr<ArrowSchema> dict;
    switch (kind_) {
      case arrow_kind::int64: format = "l"; break;
      case arrow_kind::uint64: format = "L"; break;
      case arrow_kind::boolean: format = "b"; break;
      case arrow_kind::utf8: format = "u"; break;
      case arrow_kind::time: format = "tsn:" + tc.timezone; break;
      case arrow_kind::symbol:
        format = "i";
        dict = std::make_unique<ArrowSchema>();
        make_schema(dict.get(), "u", "", "", 0);
        break;
    }
    const bool nullable = nullable_ || kind_ == arrow_kind::utf8;
    make_schema(out, format, name_,
                encode_metadata({{"itch5.type", type_name_}, {"itch5.meaning", meaning_}}),
                nullable ? ARROW_FLAG_NULLABLE : 0, {}, std::move(dict));
  }

  /// The column's values as an array; the builder starts the next batch (its rows reserved again).
  void finish(ArrowArray* out, std::size_t reserve_rows) {
    const std::int64_t n = static_cast<std::int64_t>(rows_);
    owned_buffer validity;
    if (nulls_ > 0) validity = bits(valid_);
    std::vector<owned_buffer> buffers;
    buffers.push_back(std::move(validity));
    std::unique_ptr<ArrowArray> dict;
    switch (kind_) {
      case arrow_kind::int64:
      case arrow_kind::uint64:
      case arrow_kind::time: buffers.push_back(take_fixed()); break;
      case arrow_kind::boolean: {
        std::vector<bool> b(ints_.begin(), ints_.end());
        buffers.push_back(bits(b));
        break;
      }
      case arrow_kind::utf8:
        buffers.push_back(copy(offsets_.data(), offsets_.size()));
        buffers.push_back(copy(chars_.data(), chars_.size()));
        break;
      case arrow_kind::symbol: {
        buffers.push_back(take_fixed());
        dict = std::make_unique<ArrowArray>();
        std::vector<owned_buffer> dbuf;
        dbuf.emplace_back();
        dbuf.push_back(copy(dict_offsets_.data(), dict_offsets_.size()));
        dbuf.push_back(copy(dict_chars_.data(), dict_chars_.size()));
        make_array(dict.get(), static_cast<std::int64_t>(dict_offsets_.size() - 1), 0, std::move(dbuf));
        break;
      }
    }
    make_array(out, n, static_cast<std::int64_t>(nulls_), std::move(buffers), {}, std::move(dict));
    ints_.clear();
    valid_.clear();
    offsets_.clear();
    chars_.clear();
    next_symbol_generation();
    dict_offsets_.clear();
    dict_chars_.clear();
    rows_ = 0;
    nulls_ = 0;
    reserve(reserve_rows);
  }

 private:
  template <class T>
  void append_value(const T& v) {
    if constexpr (std::is_same_v<T, itch5::timestamp>) {
      put<std::int64_t>(static_cast<std::int64_t>(v.count()));
    } else if constexpr (std::is_same_v<T, itch5::price4> || std::is_same_v<T, itch5::price8>) {
      put<std::int64_t>(static_cast<std::int64_t>(v.units()));
    } else if constexpr (std::is_same_v<T, itch5::stock_symbol>) {
      std::uint64_t key = 0;
      std::memcpy(&key, v.raw().data(), sizeof key);  // never 0: a symbol is padded with spaces
      put<std::int32_t>(symbol_index(key, v));
    } else if constexpr (std::is_same_v<T, tables::letter>) {
      if (v.code != 0) chars_.push_back(v.code);
      offsets_.push_back(static_cast<std::int32_t>(chars_.size()));
    } else if constexpr (std::is_same_v<T, tables::text>) {
      chars_.insert(chars_.end(), v.value.begin(), v.value.end());
      offsets_.push_back(static_cast<std::int32_t>(chars_.size()));
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      chars_.insert(chars_.end(), v.begin(), v.end());
      offsets_.push_back(static_cast<std::int32_t>(chars_.size()));
    } else if constexpr (std::is_same_v<T, bool>) {
      ints_.push_back(v ? 1 : 0);
    } else {
      put<std::int64_t>(static_cast<std::int64_t>(v));
    }
  }

  void append_null() {
    switch (kind_) {
      case arrow_kind::utf8: offsets_.push_back(static_cast<std::int32_t>(chars_.size())); break;
      case arrow_kind::symbol:
        if (dict_offsets_.size() == 1) {  // index 0 must exist: an empty string
          dict_offsets_.push_back(0);
        }
        put<std::int32_t>(0);
        break;
      case arrow_kind::boolean: ints_.push_back(0); break;
      default: put<std::int64_t>(0); break;
    }
    mark(false);
  }

  // The next value of a fixed-width column, into the batch's slab (or, past its rows, a larger buffer
  // of the column's own).
  template <class V>
  void put(V v) {
    if (rows_ == capacity_) [[unlikely]]
      grow(sizeof(V));
    std::memcpy(fixed_ + rows_ * sizeof(V), &v, sizeof(V));
  }

  [[gnu::noinline]] void grow(std::size_t width) {
    const std::size_t rows = std::max<std::size_t>(64, 2 * capacity_);
    owned_buffer bigger(rows * width);
    if (rows_ > 0) std::memcpy(bigger.data(), fixed_, rows_ * width);
    fixed_ = bigger.data();
    capacity_ = rows;
    own_ = std::move(bigger);
    slab_.reset();
  }

  // The fixed-width values of the batch as a buffer; the column is detached until the next attach().
  owned_buffer take_fixed() {
    if (fixed_ == nullptr) grow(fixed_width());  // no row and no slab: an empty buffer, not a null one
    owned_buffer b = own_.data() != nullptr ? std::move(own_)
                                            : owned_buffer(fixed_, rows_ * fixed_width(), std::move(slab_));
    own_ = owned_buffer();
    slab_.reset();
    fixed_ = nullptr;
    capacity_ = 0;
    return b;
  }

  [[nodiscard]] std::size_t symbol_slot_of(std::uint64_t key) const noexcept {
    const std::size_t mask = symbol_slots_.size() - 1;
    std::size_t i = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    while (symbol_slots_[i].generation == symbol_generation_ && symbol_slots_[i].key != key)
      i = (i + 1) & mask;
    return i;
  }

  std::int32_t symbol_index(std::uint64_t key, const itch5::stock_symbol& v) {
    symbol_slot& slot = symbol_slots_[symbol_slot_of(key)];
    if (slot.generation == symbol_generation_) [[likely]]
      return slot.index;
    const auto index = static_cast<std::int32_t>(dict_offsets_.size() - 1);
    const std::string_view name = v.str();
    dict_chars_.insert(dict_chars_.end(), name.begin(), name.end());
    dict_offsets_.push_back(static_cast<std::int32_t>(dict_chars_.size()));
    slot = {key, index, symbol_generation_};
    if (++symbols_in_table_ * 2 > symbol_slots_.size()) grow_symbol_table();
    return index;
  }

  [[gnu::noinline]] void grow_symbol_table() {
    std::vector<symbol_slot> old(symbol_slots_.size() * 2);
    old.swap(symbol_slots_);
    for (const symbol_slot& s : old) {
      if (s.generation == symbol_generation_) symbol_slots_[symbol_slot_of(s.key)] = s;
    }
  }

  void next_symbol_generation() {
    symbols_in_table_ = 0;
    if (++symbol_generation_ == 0) {  // wrapped: every slot empty again
      std::fill(symbol_slots_.begin(), symbol_slots_.end(), symbol_slot{});
      symbol_generation_ = 1;
    }
  }

  void mark(bool valid) {
    ++rows_;
    if (nullable_ || kind_ == arrow_kind::utf8) valid_.push_back(valid);
    if (!valid) ++nulls_;
  }

  template <class T>
  static owned_buffer copy(const T* p, std::size_t n) {
    owned_buffer b(n * sizeof(T));
    if (n > 0) std::memcpy(b.data(), p, n * sizeof(T));
    return b;
  }

  static owned_buffer bits(const std::vector<bool>& v) {
    owned_buffer b((v.size() + 7) / 8);
    std::memset(b.data(), 0, b.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i]) b.data()[i / 8] = static_cast<std::uint8_t>(b.data()[i / 8] | (1u << (i % 8)));
    }
    return b;
  }

  std::string name_;
  arrow_kind kind_;
  bool nullable_;
  std::string type_name_;
  std::string meaning_;
  // Fixed-width values (fixed_width() > 0): written at fixed_, inside slab_ or own_.
  std::shared_ptr<const arrow_slab> slab_;
  owned_buffer own_;
  std::uint8_t* fixed_ = nullptr;
  std::size_t capacity_ = 0;        // values fixed_ has room for
  std::vector<std::int64_t> ints_;  // booleans
  std::vector<bool> valid_;
  std::vector<std::int32_t> offsets_;  // utf8
  std::vector<char> chars_;
  // symbol: its 8 bytes -> its index in the batch's dictionary, in an open-addressing table at most half
  // full (a row costs a multiply and, nearly always, one slot's compare; the table of 4 Ki slots, 64 KB,
  // holds a day's symbols and stays in cache). A slot of an earlier batch's generation is empty, so a
  // batch starts without clearing the table. (It replaced a 1 Ki-slot direct-mapped cache in front of an
  // unordered_map, whose lookups took ~2/3 of the conversion of a day's inside table: perf.)
  struct symbol_slot {
    std::uint64_t key = 0;
    std::int32_t index = 0;
    std::uint32_t generation = 0;
  };
  std::vector<symbol_slot> symbol_slots_ = std::vector<symbol_slot>(4096);
  std::uint32_t symbol_generation_ = 1;
  std::size_t symbols_in_table_ = 0;
  std::vector<std::int32_t> dict_offsets_;
  std::vector<char> dict_chars_;
  std::size_t rows_ = 0;
  std::size_t nulls_ = 0;
};

/// A table's rows turned into Arrow record batches.
template <class Table>
class arrow_table_builder {
 public:
  using row = typename Table::row;

  explicit arrow_table_builder(std::size_t batch_rows, time_column tc = {}, const row& prototype = {})
      : batch_rows_(batch_rows), time_(std::move(tc)) {
    schema_visitor sv{*this};
    Table::visit(sv, prototype);
    for (auto& c : columns_) c.reserve(batch_rows_);
  }

  void append(const row& r) {
    if (rows_ == 0 && !attached_) start_batch();
    append_visitor av{*this, 0};
    Table::visit(av, r);
    ++rows_;
  }

  [[nodiscard]] std::size_t rows() const noexcept { return rows_; }
  [[nodiscard]] bool full() const noexcept { return rows_ >= batch_rows_; }

  /// The schema of the batches (a struct of the columns).
  void schema(ArrowSchema* out) const {
    std::vector<std::unique_ptr<ArrowSchema>> children;
    for (const auto& c : columns_) {
      children.push_back(std::make_unique<ArrowSchema>());
      c.schema(children.back().get(), time_);
    }
    make_schema(out, "+s", "", encode_metadata({{"itch5.table", std::string(Table::name)}}), 0,
                std::move(children));
  }

  /// One slab for the batch's fixed-width columns, each its part (64-byte aligned) for batch_rows values:
  /// they are written there and handed to Arrow as they are, with no copy (arrow_nodes.hpp, arrow_slab).
  void start_batch() {
    const auto part = [this](const column_builder& c) {
      return (c.fixed_width() * batch_rows_ + 63) / 64 * 64;
    };
    std::size_t bytes = 0;
    for (const auto& c : columns_) bytes += part(c);
    attached_ = true;
    if (bytes == 0) return;
    auto slab = std::make_shared<const arrow_slab>(bytes);
    std::uint8_t* at = slab->data();
    for (auto& c : columns_) {
      if (c.fixed_width() == 0) continue;
      c.attach(slab, at, batch_rows_);
      at += part(c);
    }
  }

  /// The rows appended since the last batch, as one record batch (a struct array).
  void finish_batch(ArrowArray* out) {
    std::vector<std::unique_ptr<ArrowArray>> children;
    for (auto& c : columns_) {
      children.push_back(std::make_unique<ArrowArray>());
      c.finish(children.back().get(), batch_rows_);
    }
    std::vector<owned_buffer> buffers;
    buffers.emplace_back();
    make_array(out, static_cast<std::int64_t>(rows_), 0, std::move(buffers), std::move(children));
    rows_ = 0;
    attached_ = false;
  }

 private:
  struct schema_visitor {
    arrow_table_builder& b;
    template <class T>
    void operator()(const tables::field& f, const T&) {
      b.columns_.emplace_back(f.full_name(), arrow_kind_of<T>(), tables::nullable_v<T>,
                              std::string(type_name_of<T>()), std::string(f.meaning));
      if constexpr (std::is_same_v<T, itch5::timestamp>) {
        if (!b.time_.timezone.empty() && f.name == "timestamp" && f.index < 0) {
          b.time_after_ = b.columns_.size() - 1;
          b.columns_.emplace_back("time", arrow_kind::time, false, "time",
                                  "the timestamp as a point in time in " + b.time_.timezone);
        }
      }
    }
  };

  struct append_visitor {
    arrow_table_builder& b;
    std::size_t col;
    template <class T>
    void operator()(const tables::field&, const T& v) {
      b.columns_[col].append(v);
      if constexpr (std::is_same_v<T, itch5::timestamp>) {
        if (col == b.time_after_) {
          b.columns_[++col].append_time(b.time_.midnight_utc_ns + static_cast<std::int64_t>(v.count()));
        }
      }
      ++col;
    }
  };

  std::size_t batch_rows_;
  time_column time_;
  std::vector<column_builder> columns_;
  std::size_t time_after_ = static_cast<std::size_t>(-1);
  std::size_t rows_ = 0;
  bool attached_ = false;  // the fixed-width columns have the batch's slab
};

}  // namespace itch5::python
