// serial.h — little-endian byte writer and bounds-checked byte reader for the .throng sections.
//
// Values are copied with memcpy in host order; the static_assert below limits builds to
// little-endian hosts, which is every platform throng targets (x86-64, arm64).
#pragma once

#include <throng/model.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace throng::detail {

static_assert(std::endian::native == std::endian::little, "the .throng serialisation assumes a little-endian host");

using Bytes = std::vector<uint8_t>;

struct ByteWriter {
    Bytes out;

    template <class T> void array(const T* values, size_t count) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (count == 0) return;
        const size_t at = out.size();
        out.resize(at + count * sizeof(T));
        std::memcpy(out.data() + at, values, count * sizeof(T));
    }
    void u8(uint8_t v) { array(&v, 1); }
    void u32(uint32_t v) { array(&v, 1); }
    void i32(int32_t v) { array(&v, 1); }
    void u64(uint64_t v) { array(&v, 1); }
    void f32(float v) { array(&v, 1); }
    void bounds(const Bounds& b) {
        const float v[6] = {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z};
        array(v, 6);
    }
    void string(const std::string& s) { // u32 byte length, then the bytes (no terminator)
        u32(uint32_t(s.size()));
        array(s.data(), s.size());
    }
};

// Reads from a span; the first read past its end sets failed() and every later read yields
// zeros, so a parser checks once after a group of reads, and always before allocating.
class ByteReader {
  public:
    ByteReader(const uint8_t* data, size_t size, std::string name) : data_(data), size_(size), name_(std::move(name)) {}

    const std::string& name() const { return name_; }
    bool failed() const { return failed_; }
    bool has(uint64_t bytes) const { return !failed_ && bytes <= size_ - pos_; }
    Status status() const {
        return failed_ ? Status::failure("section '" + name_ +
                                         "': truncated: a field runs past the section's end at byte " +
                                         std::to_string(size_))
                       : Status{};
    }
    // Success only if every byte was read: leftovers mean the counts and the size disagree.
    Status finish() const {
        if (failed_) return status();
        if (pos_ != size_)
            return Status::failure("section '" + name_ + "': " + std::to_string(size_ - pos_) +
                                   " unexpected bytes after the content");
        return {};
    }

    template <class T> void array(T* values, size_t count) {
        static_assert(std::is_trivially_copyable_v<T>);
        if (count == 0) return;
        if (!has(uint64_t(count) * sizeof(T))) {
            failed_ = true;
            std::memset(static_cast<void*>(values), 0, count * sizeof(T));
            return;
        }
        std::memcpy(static_cast<void*>(values), data_ + pos_, count * sizeof(T));
        pos_ += count * sizeof(T);
    }
    template <class T> T value() {
        T v{};
        array(&v, 1);
        return v;
    }
    uint8_t u8() { return value<uint8_t>(); }
    uint32_t u32() { return value<uint32_t>(); }
    int32_t i32() { return value<int32_t>(); }
    uint64_t u64() { return value<uint64_t>(); }
    float f32() { return value<float>(); }
    Bounds bounds() {
        float v[6];
        array(v, 6);
        return Bounds{{v[0], v[1], v[2]}, {v[3], v[4], v[5]}};
    }
    std::string string() {
        const uint32_t n = u32();
        if (!has(n)) {
            failed_ = true;
            return {};
        }
        std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
        pos_ += n;
        return s;
    }
    void skip(size_t n) {
        if (!has(n))
            failed_ = true;
        else
            pos_ += n;
    }

  private:
    const uint8_t* data_;
    size_t size_;
    size_t pos_ = 0;
    bool failed_ = false;
    std::string name_;
};

} // namespace throng::detail
