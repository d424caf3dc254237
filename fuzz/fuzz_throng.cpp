// fuzz_throng.cpp — libFuzzer target: the .throng reader, readThrongBytes() (docs/FORMAT.md).
//
// The input is a .throng file. The reader checks an FNV-1a checksum over the header and the
// section table and one over every section, so almost every random mutation would stop at the
// first checksum. Unless reserved header byte 32 (ignored by the reader) is odd, the target
// therefore rewrites the checksums in a copy of the input first (and the header's file size,
// unless reserved byte 33 is odd), so mutations reach the section parsers; with byte 32 odd the
// bytes are read exactly as they are, which keeps the checksum and size checks fuzzed too. The
// seeds (fuzz/corpus_gen.cpp) are plain .throng files (reserved bytes zero).
//
// Besides crashes, leaks and sanitizer reports it checks the reader's contract (format.h): an
// asset it returns passes validate(), an error is one non-empty line.
#include <throng/baked.h>
#include <throng/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace {

constexpr size_t kHeaderSize = 48, kEntrySize = 40, kChecksummedHeaderBytes = 24;
constexpr size_t kMaxFixedSections = 64; // more entries than any real file; bounds the work per input

uint32_t loadU32(const uint8_t* p) {
    uint32_t v = 0;
    std::memcpy(&v, p, 4); // the format and the machines we build for are little-endian
    return v;
}
uint64_t loadU64(const uint8_t* p) {
    uint64_t v = 0;
    std::memcpy(&v, p, 8);
    return v;
}
void storeU64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

// Makes every checksum (and, with fix_size, the file size) in `file` agree with its bytes, as far
// as the section table can be read; offsets and sizes themselves stay as the input says.
void fixChecksums(std::vector<uint8_t>& file, bool fix_size) {
    const size_t size = file.size();
    if (fix_size) storeU64(file.data() + 16, size);
    const uint64_t count = loadU32(file.data() + 12);
    const uint64_t entries = std::min<uint64_t>(count, (size - kHeaderSize) / kEntrySize);
    for (uint64_t i = 0; i < std::min<uint64_t>(entries, kMaxFixedSections); ++i) {
        uint8_t* entry = file.data() + kHeaderSize + i * kEntrySize;
        const uint64_t offset = loadU64(entry + 8), stored = loadU64(entry + 16);
        if (offset <= size && stored <= size - offset)
            storeU64(entry + 32, throng::throngChecksum(file.data() + offset, size_t(stored)));
    }
    uint64_t sum = throng::throngChecksum(file.data(), kChecksummedHeaderBytes);
    sum = throng::throngChecksum(file.data() + kHeaderSize, size_t(entries * kEntrySize), sum);
    storeU64(file.data() + 24, sum);
}

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_throng: contract broken: %s: %s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::span<const uint8_t> input(data, size);
    std::vector<uint8_t> fixed;
    if (size >= kHeaderSize && (data[32] & 1u) == 0) {
        fixed.assign(data, data + size);
        fixChecksums(fixed, (data[33] & 1u) == 0);
        input = fixed;
    }
    throng::Result<throng::BakedAsset> asset = throng::readThrongBytes(input);
    if (asset) {
        if (throng::Status s = throng::validate(asset.value()); !s)
            contractBroken("readThrongBytes returned an asset that fails validate()", s.message);
    } else {
        const std::string& message = asset.error().message;
        if (message.empty()) contractBroken("empty error message", "");
        if (message.find('\n') != std::string::npos) contractBroken("error message of several lines", message);
    }
    return 0;
}
