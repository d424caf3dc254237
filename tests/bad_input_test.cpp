// Bad input: every case gives a clear one-line error (checked by its words), never a crash;
// this suite also runs under ASan + UBSan in `make test`.
#include <throng/import.h>

#include "gltf_builder.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

using namespace throng;
using throng::test::makeRig;
using throng::test::RigOptions;

namespace {

std::filesystem::path dir() {
    const auto d = std::filesystem::path(THRONG_TEST_SCRATCH) /
                   (std::string("BadInput.") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(d);
    return d;
}

void writeBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<uint8_t> readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Imports `path` and expects an error whose message contains `fragment` and is one line.
void expectError(const std::filesystem::path& path, const std::string& fragment) {
    const Result<Model> r = importModel(path.string());
    ASSERT_FALSE(r.ok()) << path << " imported, expected an error about '" << fragment << "'";
    const std::string& m = r.error().message;
    EXPECT_NE(m.find(fragment), std::string::npos) << "message: " << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "message has several lines: " << m;
    EXPECT_FALSE(m.empty());
}

} // namespace

TEST(BadInput, MissingFile) { expectError(dir() / "does_not_exist.glb", "no such file"); }

TEST(BadInput, Directory) { expectError(dir(), "directory"); }

TEST(BadInput, EmptyFile) {
    for (const char* name : {"empty.glb", "empty.gltf", "empty.fbx", "empty.dae"}) {
        writeBytes(dir() / name, {});
        expectError(dir() / name, "empty");
    }
}

TEST(BadInput, TruncatedGlb) {
    const auto full = dir() / "full.glb";
    makeRig().writeGlb(full.string());
    std::vector<uint8_t> bytes = readBytes(full);
    for (size_t keep : {size_t(5), size_t(12), bytes.size() / 2, bytes.size() - 1}) {
        writeBytes(dir() / "truncated.glb", std::vector<uint8_t>(bytes.begin(), bytes.begin() + std::ptrdiff_t(keep)));
        expectError(dir() / "truncated.glb", "truncated GLB");
    }
}

TEST(BadInput, TruncatedSharedModel) {
    THRONG_ASSET(path, "CesiumMan/CesiumMan.glb");
    const std::vector<uint8_t> bytes = readBytes(path);
    writeBytes(dir() / "cesium_cut.glb", std::vector<uint8_t>(bytes.begin(), bytes.begin() + 100000));
    expectError(dir() / "cesium_cut.glb", "truncated GLB: header says 490956 bytes, file has 100000");
}

TEST(BadInput, RandomBytes) {
    std::mt19937 rng(1234);
    std::vector<uint8_t> noise(64 * 1024);
    for (uint8_t& b : noise) b = uint8_t(rng());
    writeBytes(dir() / "noise.glb", noise);
    expectError(dir() / "noise.glb", "not a GLB file");
    writeBytes(dir() / "noise.gltf", noise);
    expectError(dir() / "noise.gltf", "glTF");
    for (const char* name : {"noise.fbx", "noise.dae", "noise.x"}) {
        writeBytes(dir() / name, noise);
        expectError(dir() / name, "assimp");
    }
}

TEST(BadInput, GlbWithTextInsteadOfJson) {
    // A valid GLB header around a JSON chunk that is not JSON.
    std::vector<uint8_t> bytes = {'g', 'l', 'T', 'F', 2,   0,   0,   0,   28,  0,   0,   0,   8,   0,
                                  0,   0,   'J', 'S', 'O', 'N', '{', '{', '{', '{', '{', '{', '{', '{'};
    writeBytes(dir() / "badjson.glb", bytes);
    expectError(dir() / "badjson.glb", "glTF");
}

TEST(BadInput, AccessorIndexOutOfRange) {
    makeRig(RigOptions{.bad_position_accessor = true}).writeGltf((dir() / "accessor.gltf").string());
    expectError(dir() / "accessor.gltf", "99");
}

TEST(BadInput, AccessorLargerThanItsBuffer) {
    auto b = makeRig();
    b.json["accessors"][0]["count"] = 1000000000; // positions claim a billion vertices
    b.writeGltf((dir() / "huge.gltf").string());
    expectError(dir() / "huge.gltf", "do not fit");
}

TEST(BadInput, NaNWeight) {
    makeRig(RigOptions{.nan_weight = true}).writeGltf((dir() / "nan.gltf").string());
    expectError(dir() / "nan.gltf", "NaN");
}

TEST(BadInput, HierarchyCycle) {
    makeRig(RigOptions{.cycle = true}).writeGltf((dir() / "cycle.gltf").string());
    expectError(dir() / "cycle.gltf", "cycle");
}

TEST(BadInput, KeyTimesNotIncreasing) {
    auto b = makeRig();
    const std::vector<float> times = {0, 2, 1};
    const int view = b.addView(times.data(), sizeof(float) * 3);
    b.json["accessors"].push_back({{"bufferView", view}, {"componentType", 5126}, {"count", 3}, {"type", "SCALAR"}});
    b.json["animations"][0]["samplers"][0]["input"] = b.json["accessors"].size() - 1;
    b.writeGltf((dir() / "times.gltf").string());
    expectError(dir() / "times.gltf", "not increasing");
}

TEST(BadInput, ChannelOnMissingNode) {
    auto b = makeRig();
    b.json["animations"][0]["channels"][0]["target"]["node"] = 42;
    b.writeGltf((dir() / "channel.gltf").string());
    expectError(dir() / "channel.gltf", "node 42, which does not exist");
}

TEST(BadInput, JointIndexBeyondTheSkin) {
    auto b = makeRig();
    const std::vector<uint8_t> joints(24, 7);
    const int view = b.addView(joints.data(), joints.size());
    b.json["accessors"].push_back({{"bufferView", view}, {"componentType", 5121}, {"count", 6}, {"type", "VEC4"}});
    b.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = b.json["accessors"].size() - 1;
    b.writeGltf((dir() / "joints.gltf").string());
    expectError(dir() / "joints.gltf", "joint 7 out of range");
}

TEST(BadInput, UnknownBuiltin) { expectError("builtin:dragon", "unknown built-in model 'dragon'"); }
