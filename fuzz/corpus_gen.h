// corpus_gen.h — what fuzz/corpus_gen.cpp (the seeds) and fuzz/regressions.cpp (the inputs that
// once made a target fail) share: writing files, the rig of tests/gltf_builder.h as a Model, and
// .throng files laid out uncompressed. Every function ends the process with one line on failure.
#pragma once

#include "gltf_builder.h"

#include <throng/bake.h>
#include <throng/model.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace corpus {

namespace fs = std::filesystem;
using Bytes = std::vector<uint8_t>;

[[noreturn]] void fail(const std::string& message);
Bytes readAll(const fs::path& path);
void writeAll(const fs::path& path, const void* data, size_t size); // prints the path and size
void writeText(const fs::path& path, const std::string& text);

template <class T> T load(const Bytes& b, size_t at) {
    T v{};
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}
template <class T> void store(Bytes& b, size_t at, T v) { std::memcpy(b.data() + at, &v, sizeof v); }

// The rig of tests/gltf_builder.h, imported as a GLB would be.
throng::Model rigModel(const throng::test::RigOptions& options = {});
// bake() then writeThrong() to path.
void bakeTo(const throng::Model& model, const throng::BakeOptions& options, const fs::path& path);

// Called with each section's four-letter type and its raw (decompressed) bytes, which it may change.
using SectionEdit = std::function<void(const std::string& type, Bytes& raw)>;
// The same .throng file with every section stored uncompressed (docs/FORMAT.md: flag bit 0 clear),
// laid out as the writer would (header, table, sections at 16-byte-aligned offsets), after `edit`;
// sizes and checksums are those of the edited bytes.
Bytes uncompressed(const Bytes& in, const SectionEdit& edit = {});

// The selector bytes of fuzz_assimp.cpp's kExtensions.
enum Ext : char { Obj = 0, Dae = 1, Ply = 2, Stl = 3, X = 4, Off = 6, Bvh = 8, Smd = 9 };
// A fuzz_assimp input: the selector byte, then the file.
void assimpSeed(const fs::path& path, Ext ext, const std::string& text);
// The rig as a Valve SMD file (the fuzz_assimp seed rig.smd).
extern const char* const kRigSmd;

// Writes OUT/TARGET/NAME for every input that once made a fuzz target fail (fuzz/regressions.cpp).
void writeRegressions(const fs::path& out);

} // namespace corpus
