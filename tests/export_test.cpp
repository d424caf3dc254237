// `throng bake --export` (throng/export.h, docs/EXPORT.md): the export read back as another
// engine reads it — animation.exr and vat.exr with tinyexr, throng.json with nlohmann, mesh.gltf
// with tinygltf — and the documented shader's math evaluated on the CPU in float, against the
// double-precision reference skinning at baked frames.
#include "test_util.h"

#include <throng/anim.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/export.h>
#include <throng/import.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <tiny_gltf.h>
#include <tinyexr.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

using namespace throng;

namespace {

struct Image {
    int width = 0, height = 0;
    std::vector<float> rgba;
    glm::vec4 texel(int x, int y) const {
        const float* p = &rgba[(size_t(y) * width + x) * 4];
        return {p[0], p[1], p[2], p[3]};
    }
};

Image readExr(const std::string& path) {
    Image img;
    float* data = nullptr;
    const char* err = nullptr;
    if (LoadEXR(&data, &img.width, &img.height, path.c_str(), &err) != TINYEXR_SUCCESS) {
        ADD_FAILURE() << path << ": " << (err ? err : "?");
        if (err) FreeEXRErrorMessage(err);
        return img;
    }
    img.rgba.assign(data, data + size_t(img.width) * img.height * 4);
    std::free(data);
    return img;
}

nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// The mesh as a loader reads it: one primitive's attributes (every primitive shares them).
struct Mesh {
    std::vector<glm::vec3> positions;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    std::vector<float> vat_index;
    size_t primitives = 0, indices = 0;
};

template <class T> std::vector<T> readAccessor(const tinygltf::Model& m, int index) {
    const tinygltf::Accessor& a = m.accessors[size_t(index)];
    const tinygltf::BufferView& v = m.bufferViews[size_t(a.bufferView)];
    const uint8_t* base = m.buffers[size_t(v.buffer)].data.data() + v.byteOffset + a.byteOffset;
    std::vector<T> out(a.count);
    std::memcpy(out.data(), base, a.count * sizeof(T));
    return out;
}

Mesh readGltf(const std::string& path) {
    tinygltf::TinyGLTF loader;
    tinygltf::Model model;
    std::string err, warn;
    Mesh mesh;
    if (!loader.LoadASCIIFromFile(&model, &err, &warn, path)) {
        ADD_FAILURE() << path << ": " << err;
        return mesh;
    }
    const tinygltf::Primitive& p = model.meshes.at(0).primitives.at(0);
    mesh.positions = readAccessor<glm::vec3>(model, p.attributes.at("POSITION"));
    mesh.joints = readAccessor<glm::u16vec4>(model, p.attributes.at("JOINTS_0"));
    mesh.weights = readAccessor<glm::vec4>(model, p.attributes.at("WEIGHTS_0"));
    mesh.vat_index = readAccessor<float>(model, p.attributes.at("_VAT_INDEX"));
    EXPECT_EQ(model.accessors[size_t(p.attributes.at("JOINTS_0"))].componentType,
              TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
    mesh.primitives = model.meshes[0].primitives.size();
    for (const tinygltf::Primitive& q : model.meshes[0].primitives)
        mesh.indices += model.accessors[size_t(q.indices)].count;
    return mesh;
}

// Every mesh of the model skinned by the double reference at `time` (clamped: the last frame
// holds the pose at the clip's end), in bake order.
std::vector<glm::dvec3> reference(const Model& model, const Clip* clip, double time) {
    const std::vector<glm::dmat4> m = referenceSkinningMatrices(model, clip, time, false);
    std::vector<glm::dvec3> out;
    for (const throng::Mesh& mesh : model.meshes) {
        const SkinnedVertices s = referenceSkin(mesh, m);
        out.insert(out.end(), s.positions.begin(), s.positions.end());
    }
    return out;
}

double diagonal(const BakedAsset& asset) { return double(glm::length(asset.bind_bounds.max - asset.bind_bounds.min)); }

struct Errors {
    double skinned = 0.0; // animation.exr through the documented vertex shader, over the diagonal
    double vat = 0.0;     // vat.exr's positions, over the diagonal
    size_t checked = 0;   // vertex x frame comparisons
};

// Reads DIR back and compares, at the first, a middle and the last baked frame of every clip.
Errors compare(const Model& model, const BakedAsset& asset, const std::string& dir) {
    Errors e;
    const nlohmann::json desc = readJson(dir + "/throng.json");
    EXPECT_EQ(desc["format"], "throng-export");
    EXPECT_EQ(desc["version"], 1);
    const Image anim = readExr(dir + "/animation.exr");
    EXPECT_EQ(anim.width, desc["animation"]["width"].get<int>());
    EXPECT_EQ(anim.height, desc["animation"]["height"].get<int>());
    const Mesh mesh = readGltf(dir + "/mesh.gltf");
    EXPECT_EQ(mesh.positions.size(), asset.vertices.size());
    EXPECT_EQ(mesh.primitives, asset.submeshes.size());
    EXPECT_EQ(mesh.indices, size_t(lodLevels(asset)[0].triangleCount()) * 3);
    const bool has_vat = desc.contains("vat");
    Image vat;
    if (has_vat) vat = readExr(dir + "/vat.exr");
    const double diag = diagonal(asset);
    for (const nlohmann::json& clip : desc["clips"]) {
        const uint32_t c = clip["index"], frames = clip["frame_count"], first_row = clip["first_row"];
        EXPECT_EQ(clip["name"].get<std::string>(), asset.clips[c].name);
        const Clip* source = model.clips.empty() ? nullptr : &model.clips[c];
        for (uint32_t f : {0u, frames / 2, frames - 1}) {
            const std::vector<glm::dvec3> ref = reference(model, source, bakedFrameTime(asset.clips[c], f));
            const int row = int(first_row + f);
            for (size_t v = 0; v < mesh.positions.size(); ++v) {
                // The vertex shader of docs/EXPORT.md, in float.
                const glm::vec4 p(mesh.positions[v], 1.0f);
                glm::vec3 skinned(0.0f);
                for (int k = 0; k < 4; ++k) {
                    const int j = mesh.joints[v][k];
                    const glm::vec4 r0 = anim.texel(3 * j + 0, row), r1 = anim.texel(3 * j + 1, row),
                                    r2 = anim.texel(3 * j + 2, row);
                    skinned += mesh.weights[v][k] * glm::vec3(glm::dot(r0, p), glm::dot(r1, p), glm::dot(r2, p));
                }
                e.skinned = std::max(e.skinned, glm::length(glm::dvec3(skinned) - ref[v]) / diag);
                if (has_vat) {
                    const int width = desc["vat"]["width"], rows_per_frame = desc["vat"]["rows_per_frame"];
                    const int i = 2 * int(mesh.vat_index[v]);
                    const glm::vec4 q = vat.texel(i % width, row * rows_per_frame + i / width);
                    e.vat = std::max(e.vat, glm::length(glm::dvec3(glm::vec3(q)) - ref[v]) / diag);
                    EXPECT_EQ(q.w, 1.0f);
                }
                ++e.checked;
            }
        }
    }
    return e;
}

BakedAsset bakeOrFail(const Model& model, Precision precision, bool vat) {
    BakeOptions o;
    o.precision = precision;
    o.vat = vat;
    o.lods = 1;
    Result<BakedAsset> baked = bake(model, o);
    EXPECT_TRUE(baked.ok()) << (baked.ok() ? "" : baked.error().message);
    return baked.ok() ? std::move(baked).value() : BakedAsset{};
}

} // namespace

// Float: the documented shader's math on the exported data stays within 1e-5 of the model's size
// of the exact pose, for bones and for vertex animation; the vertex animation wraps its rows.
TEST(Export, WalkerReadBackSkinsLikeTheReference) {
    const Model model = makeWalker();
    const BakedAsset asset = bakeOrFail(model, Precision::Float32, true);
    const std::string dir = (test::scratchDir("export") / "walker").string();
    ExportOptions options;
    options.max_width = 4096; // 2 x 5321 vertices: three rows a frame
    Result<ExportReport> report = exportForEngines(asset, dir, options);
    ASSERT_TRUE(report.ok()) << report.error().message;
    EXPECT_EQ(report.value().vat_rows_per_frame, 3u);
    EXPECT_EQ(report.value().files.back(), "throng.json");
    const Errors e = compare(model, asset, dir);
    EXPECT_GT(e.checked, 5000u * 6u);
    EXPECT_LE(e.skinned, 1e-5);
    EXPECT_LE(e.vat, 1e-5);
    RecordProperty("skinned_error", std::to_string(e.skinned));
    std::printf("walker float: shader %.2e, vat %.2e of the diagonal\n", e.skinned, e.vat);
}

// Half: the same, within the half-precision bound docs/EXPORT.md states (2e-3 of the size).
TEST(Export, HalfPrecisionWithinItsDocumentedBound) {
    const Model model = makeWalker();
    const BakedAsset asset = bakeOrFail(model, Precision::Float16, false);
    const std::string dir = (test::scratchDir("export") / "half").string();
    ASSERT_TRUE(exportForEngines(asset, dir).ok());
    EXPECT_EQ(readJson(dir + "/throng.json")["animation"]["pixel_type"], "half");
    const Errors e = compare(model, asset, dir);
    EXPECT_LE(e.skinned, 2e-3);
    std::printf("walker half: shader %.2e of the diagonal\n", e.skinned);
}

// A real model (CesiumMan: 19 joints, one textured mesh): the same bar, and its texture travels
// inside mesh.bin.
TEST(Export, SharedModelReadBackSkinsLikeTheReference) {
    THRONG_ASSET(path, "CesiumMan/CesiumMan.glb");
    Result<Model> model = importModel(path);
    ASSERT_TRUE(model.ok()) << model.error().message;
    const BakedAsset asset = bakeOrFail(model.value(), Precision::Float32, false);
    const std::string dir = (test::scratchDir("export") / "cesium").string();
    ASSERT_TRUE(exportForEngines(asset, dir).ok());
    const Errors e = compare(model.value(), asset, dir);
    EXPECT_LE(e.skinned, 1e-5);
    const nlohmann::json gltf = readJson(dir + "/mesh.gltf");
    EXPECT_EQ(gltf["images"].size(), 1u);
    EXPECT_TRUE(gltf["materials"][0]["pbrMetallicRoughness"].contains("baseColorTexture"));
    std::printf("CesiumMan float: shader %.2e of the diagonal\n", e.skinned);
}

// Bad outputs: a regular file where the directory should be is refused before baking, and left
// as it was; other files in an existing directory are left alone.
TEST(Export, BadDirectoriesAreRefusedAndNothingIsDamaged) {
    const auto dir = test::scratchDir("export-bad");
    const std::string file = (dir / "not-a-dir").string();
    std::ofstream(file) << "keep me";
    const test::CliRun r = test::runThrong("bake builtin:walker --export " + file);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("not a directory"), std::string::npos) << r.err;
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "keep me");

    const test::CliRun missing = test::runThrong("bake builtin:walker --export " + (dir / "no/such/dir").string());
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_NE(missing.err.find("parent directory"), std::string::npos) << missing.err;

    const test::CliRun neither = test::runThrong("bake builtin:walker");
    EXPECT_EQ(neither.exit_code, 2);

    const auto out = dir / "out";
    std::filesystem::create_directories(out);
    std::ofstream(out / "mine.txt") << "mine";
    const test::CliRun ok = test::runThrong("bake builtin:walker --lods 1 --export " + out.string());
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_TRUE(std::filesystem::exists(out / "mine.txt"));
    EXPECT_TRUE(std::filesystem::exists(out / "throng.json"));
    EXPECT_FALSE(std::filesystem::exists(out / "vat.exr")); // only with --vat
}
