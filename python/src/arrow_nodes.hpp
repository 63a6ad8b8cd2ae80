// Owned ArrowSchema and ArrowArray trees (arrow_abi.hpp): a node holds the strings, buffers and children
// behind one struct and frees them in its release callback, which releases the children not moved out
// first, as the C data interface asks. Building a node allocates; used per batch and per column, never per
// row. Not thread-safe; a released struct may be released from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "arrow_abi.hpp"

namespace itch5::python {

/// Key-value metadata in the C data interface's binary form (int32 count, then int32 length + bytes for
/// each key and value, native byte order).
inline std::string encode_metadata(const std::vector<std::pair<std::string, std::string>>& kv) {
  if (kv.empty()) return {};
  std::string out;
  const auto put32 = [&out](std::int32_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put32(static_cast<std::int32_t>(kv.size()));
  for (const auto& [k, v] : kv) {
    put32(static_cast<std::int32_t>(k.size()));
    out += k;
    put32(static_cast<std::int32_t>(v.size()));
    out += v;
  }
  return out;
}

/// What an ArrowSchema's private_data points to.
struct schema_node {
  std::string format;
  std::string name;
  std::string metadata;  // binary (encode_metadata); empty: none
  std::vector<std::unique_ptr<ArrowSchema>> children;
  std::vector<ArrowSchema*> child_pointers;
  std::unique_ptr<ArrowSchema> dictionary;
};

inline void release_schema(ArrowSchema* s) {
  if (s == nullptr || s->release == nullptr) return;
  auto* n = static_cast<schema_node*>(s->private_data);
  for (auto& c : n->children) {
    if (c->release != nullptr) c->release(c.get());
  }
  if (n->dictionary && n->dictionary->release != nullptr) n->dictionary->release(n->dictionary.get());
  delete n;
  s->release = nullptr;
}

/// Fills `out` with a schema of this format and name owning `children` (already filled) and `dictionary`.
inline void make_schema(ArrowSchema* out, std::string format, std::string name, std::string metadata,
                        std::int64_t flags, std::vector<std::unique_ptr<ArrowSchema>> children = {},
                        std::unique_ptr<ArrowSchema> dictionary = nullptr) {
  auto* n =
      new schema_node{std::move(format),    std::move(name), std::move(metadata), std::move(children), {},
                      std::move(dictionary)};
  for (auto& c : n->children) n->child_pointers.push_back(c.get());
  out->format = n->format.c_str();
  out->name = n->name.c_str();
  out->metadata = n->metadata.empty() ? nullptr : n->metadata.data();
  out->flags = flags;
  out->n_children = static_cast<std::int64_t>(n->children.size());
  out->children = n->child_pointers.empty() ? nullptr : n->child_pointers.data();
  out->dictionary = n->dictionary.get();
  out->release = &release_schema;
  out->private_data = n;
}

/// One block of memory that the fixed-width columns of a record batch are written into (arrow_table.hpp),
/// freed when the last buffer inside it is released.
class arrow_slab {
 public:
  explicit arrow_slab(std::size_t bytes)
      : data_(static_cast<std::uint8_t*>(::operator new (bytes + 64, std::align_val_t{64}))) {}
  arrow_slab(const arrow_slab&) = delete;
  arrow_slab& operator=(const arrow_slab&) = delete;
  ~arrow_slab() { ::operator delete (data_, std::align_val_t{64}); }
  [[nodiscard]] std::uint8_t* data() const noexcept { return data_; }

 private:
  std::uint8_t* data_;
};

/// A buffer of bytes an array owns (64-byte aligned, as Arrow recommends): an allocation of its own, or a
/// part of an arrow_slab that it keeps alive.
class owned_buffer {
 public:
  owned_buffer() = default;
  explicit owned_buffer(std::size_t bytes)
      : data_(static_cast<std::uint8_t*>(::operator new (round(bytes), std::align_val_t{64}))),
        size_(bytes) {}
  owned_buffer(std::uint8_t* data, std::size_t bytes, std::shared_ptr<const arrow_slab> slab) noexcept
      : data_(data), size_(bytes), slab_(std::move(slab)) {}
  owned_buffer(owned_buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(o.size_), slab_(std::move(o.slab_)) {}
  owned_buffer& operator=(owned_buffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(slab_, o.slab_);
    return *this;
  }
  owned_buffer(const owned_buffer&) = delete;
  owned_buffer& operator=(const owned_buffer&) = delete;
  ~owned_buffer() {
    if (data_ != nullptr && !slab_) ::operator delete (data_, std::align_val_t{64});
  }
  [[nodiscard]] std::uint8_t* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

 private:
  static std::size_t round(std::size_t b) { return (b + 63) / 64 * 64 + 64; }
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::shared_ptr<const arrow_slab> slab_;  // null: data_ is this buffer's own allocation
};

/// What an ArrowArray's private_data points to.
struct array_node {
  std::vector<owned_buffer> buffers;
  std::vector<const void*> buffer_pointers;
  std::vector<std::unique_ptr<ArrowArray>> children;
  std::vector<ArrowArray*> child_pointers;
  std::unique_ptr<ArrowArray> dictionary;
};

inline void release_array(ArrowArray* a) {
  if (a == nullptr || a->release == nullptr) return;
  auto* n = static_cast<array_node*>(a->private_data);
  for (auto& c : n->children) {
    if (c->release != nullptr) c->release(c.get());
  }
  if (n->dictionary && n->dictionary->release != nullptr) n->dictionary->release(n->dictionary.get());
  delete n;
  a->release = nullptr;
}

/// Fills `out` with an array of `length` values owning `buffers` (a default-constructed buffer is a null
/// pointer: no validity bitmap when null_count is 0), `children` and `dictionary`.
inline void make_array(ArrowArray* out, std::int64_t length, std::int64_t null_count,
                       std::vector<owned_buffer> buffers,
                       std::vector<std::unique_ptr<ArrowArray>> children = {},
                       std::unique_ptr<ArrowArray> dictionary = nullptr) {
  auto* n = new array_node{std::move(buffers), {}, std::move(children), {}, std::move(dictionary)};
  for (auto& b : n->buffers) n->buffer_pointers.push_back(b.data());
  for (auto& c : n->children) n->child_pointers.push_back(c.get());
  out->length = length;
  out->null_count = null_count;
  out->offset = 0;
  out->n_buffers = static_cast<std::int64_t>(n->buffers.size());
  out->n_children = static_cast<std::int64_t>(n->children.size());
  out->buffers = n->buffer_pointers.data();
  out->children = n->child_pointers.empty() ? nullptr : n->child_pointers.data();
  out->dictionary = n->dictionary.get();
  out->release = &release_array;
  out->private_data = n;
}

}  // namespace itch5::python
