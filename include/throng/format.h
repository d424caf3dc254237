// throng/format.h — the .throng file: a BakedAsset on disk. Documented in docs/FORMAT.md.
//
// Runtime code: reading needs only zstd; no importer, no baker.
#pragma once

#include <throng/api.h>
#include <throng/baked.h>

#include <cstdint>
#include <span>
#include <string>

THRONG_API_BEGIN
namespace throng {

// 2: adds the optional section LODS (levels of detail). Version 1 files still read (one LOD).
constexpr uint32_t kThrongFormatVersion = 2;

// Writes atomically through io::writeFileAtomic (throng/files.h): a temporary file in the same
// folder, fsync, then rename over PATH, so an existing file is either replaced whole or left
// untouched; a FIFO, device, socket or directory at PATH is refused, a link to a regular file is
// followed; the temporary is removed on failure. Sections are zstd-compressed (level 6) where that saves bytes. Errors:
// an asset that fails validate(), I/O (missing folder, disk full, no permission) with the reason, never the path.
Status writeThrong(const BakedAsset& asset, const std::string& path);

// Reads and validates (validate(BakedAsset) passes on every asset it returns). Each failure has
// its own message: "not a .throng file (bad magic)", "format version 7 is newer than this build
// reads (2)", "section 'ANIM': checksum mismatch", "truncated: section 'VERT' ends at byte N,
// file has M", "section 'CLIP': clip count 4000000000 out of range". Never allocates more than
// the file's own bytes justify (plus the documented limits on decompressed sizes).
// Refuses anything but a regular file (a FIFO or device given as the path is never opened for
// reading). A compressed section may inflate at most 1024 times its stored size; that is checked
// before inflating, and the section is inflated into one buffer of its declared size.
Result<BakedAsset> readThrong(const std::string& path);

// The same from bytes in memory (what readThrong does after reading the file; fuzzed).
Result<BakedAsset> readThrongBytes(std::span<const uint8_t> bytes);

// The checksum of the format: FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3)
// over the bytes; `seed` continues a previous call, so checksum(a + b) == checksum(b, checksum(a)).
uint64_t throngChecksum(const void* data, size_t size, uint64_t seed = 0xcbf29ce484222325ull);

} // namespace throng
THRONG_API_END
