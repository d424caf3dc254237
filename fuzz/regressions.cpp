// regressions.cpp — every input that once made a fuzz target fail, rebuilt by code into
// OUT/TARGET/ (fuzz_corpus_gen writes OUT = SEEDS/regressions; the replay tests and fuzz/run.sh
// read it). Each is the builder's good input with the one thing that broke; docs/FUZZING.md
// ("Found so far") says what each found and where it was fixed. When a run finds a new failure,
// add a function here that makes its input (the artifact in build/fuzz/artifacts/TARGET/ shows
// what to build) and a row to that table.
#include "corpus_gen.h"

#include <throng/format.h>

#include <cmath>
#include <cstdio>
#include <limits>

namespace corpus {
namespace {

using throng::test::GltfBuilder;
using throng::test::kFloat;
using throng::test::kUShort;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

void primitive(GltfBuilder& b, const char* key, int accessor) {
    nlohmann::json& p = b.json["meshes"][0]["primitives"][0];
    if (std::string(key) == "indices")
        p["indices"] = accessor;
    else
        p["attributes"][key] = accessor;
}

void writeGltf(GltfBuilder& b, const fs::path& path) {
    b.writeGltf(path.string());
    std::printf("%s\n", path.c_str());
}

// --- fuzz_gltf: indices, joints and sparse indices stored as floats ---------------------------
// The importer decodes them as doubles; its range checks let NaN through and its messages
// converted values such as 1e31 to int64_t (both undefined). Found by libFuzzer as a GLB whose
// index accessor was the float positions with a huge value; the others were made alongside.
void gltfRegressions(const fs::path& dir) {
    {
        GltfBuilder b = throng::test::makeRig();
        primitive(b, "indices",
                  b.addAccessor(std::vector<float>{1e31f, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5}, kFloat, 12, "SCALAR"));
        b.writeGlb((dir / "ubsan-huge-float-index.glb").string());
        std::printf("%s\n", (dir / "ubsan-huge-float-index.glb").c_str());
    }
    {
        GltfBuilder b = throng::test::makeRig();
        primitive(b, "indices", b.addAccessor(std::vector<float>(12, kNaN), kFloat, 12, "SCALAR"));
        writeGltf(b, dir / "ubsan-nan-index.gltf");
    }
    {
        GltfBuilder b = throng::test::makeRig();
        primitive(b, "JOINTS_0", b.addAccessor(std::vector<float>(24, kNaN), kFloat, 6, "VEC4"));
        writeGltf(b, dir / "ubsan-nan-joint.gltf");
    }
    {
        // A sparse accessor's index, stored as a float NaN: an out-of-bounds write once.
        GltfBuilder b = throng::test::makeRig();
        const std::vector<float> index = {kNaN}, value = {1, 2, 0};
        const int iv = b.addView(index.data(), 4), vv = b.addView(value.data(), 12);
        b.json["accessors"][0]["sparse"] = {{"count", 1},
                                            {"indices", {{"bufferView", iv}, {"componentType", kFloat}}},
                                            {"values", {{"bufferView", vv}}}};
        writeGltf(b, dir / "ubsan-nan-sparse-index.gltf");
    }
    {
        // A mesh name holding a newline in an error message (`mesh 'st\nrip': vertex index 99 out of
        // range`): two lines where the contract says one.
        GltfBuilder b = throng::test::makeRig();
        b.json["meshes"][0]["name"] = "st\nrip";
        primitive(b, "indices",
                  b.addAccessor(std::vector<uint16_t>{99, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5}, kUShort, 12, "SCALAR"));
        writeGltf(b, dir / "contract-newline-in-mesh-name.gltf");
    }
}

// --- fuzz_throng: a clip name holding a newline, quoted by validate() -------------------------
void throngRegressions(const fs::path& dir) {
    throng::Model rig = rigModel();
    rig.clips.at(0).name = "wa\nve";
    throng::BakeOptions options;
    options.fps = 4.0f;
    const fs::path path = dir / "contract-newline-in-clip-name.throng";
    bakeTo(rig, options, path);
    // The first clip's duration made negative in CLIP (u32 count, string name, f32 duration), so
    // the reader's validate() names the clip in its error.
    const Bytes bytes = uncompressed(readAll(path), [](const std::string& type, Bytes& raw) {
        if (type != "CLIP") return;
        const size_t duration = 8 + load<uint32_t>(raw, 4);
        store<float>(raw, duration, -1.0f);
    });
    if (throng::readThrongBytes(bytes)) fail(path.string() + " reads back");
    writeAll(path, bytes.data(), bytes.size());
}

// --- fuzz_assimp: inputs on which assimp 5.2 never returns -------------------------------------
// Contained: the child is stopped at the time limit ("the importer stopped"). Found by libFuzzer.
void assimpRegressions(const fs::path& dir) {
    // A PLY header that ends before end_header (assimp reads on past the end of the file).
    assimpSeed(dir / "assimp-hang-ply-no-end-header.ply", Ply,
               "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
               "element 3 0 1 21");
    // A NUL where the SMD node list's `end` should be.
    std::string smd = kRigSmd;
    const std::string end = "0\nend\n";
    smd.replace(smd.find(end), end.size(), std::string("0\ne\t\0\n", 6));
    assimpSeed(dir / "assimp-hang-smd-nul-in-nodes.smd", Smd, smd);
}

} // namespace

void writeRegressions(const fs::path& out) {
    for (const char* t : {"fuzz_throng", "fuzz_gltf", "fuzz_assimp", "fuzz_cli", "fuzz_kit"})
        fs::create_directories(out / t);
    gltfRegressions(out / "fuzz_gltf");
    throngRegressions(out / "fuzz_throng");
    assimpRegressions(out / "fuzz_assimp");
}

} // namespace corpus
