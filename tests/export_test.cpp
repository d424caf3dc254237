// `throng bake --export` (throng/export.h, docs/EXPORT.md): the export read back as another
// engine reads it — animation.exr and vat.exr with tinyexr, throng.json with nlohmann, mesh.gltf
// with tinygltf — and the documented shader's math evaluated on the CPU in float, against the
// double-precision reference skinning at baked frames.
#include "export_readback.h"
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
#include <map>

using namespace throng;
using namespace throng::test::exported;

namespace {

// docs/EXPORT.md's vertex shaders, in float, operation for operation. -----------------------

// GLSL's mod: x - y * floor(x / y).
float glslMod(float x, float y) { return x - y * std::floor(x / y); }

// The clip sampling: image rows y0, y1 (first_row already added) and the weight of y1.
struct Rows {
    uint32_t y0 = 0, y1 = 0;
    float w = 0.0f;
};

Rows shaderRows(const nlohmann::json& clip, float time) {
    const float duration = clip["duration"].get<float>(), first_row = float(clip["first_row"].get<uint32_t>());
    const float last = float(clip["frame_count"].get<uint32_t>()) - 1.0f;
    const bool loop = clip["loop"].get<bool>();
    const float local = loop ? (duration > 0.0f ? glslMod(time, duration) : 0.0f) : std::clamp(time, 0.0f, duration);
    const float u = duration > 0.0f ? std::clamp(local / duration * last, 0.0f, last) : 0.0f;
    Rows r;
    r.y0 = uint32_t(first_row + std::floor(u));
    r.y1 = uint32_t(first_row + std::min(std::floor(u) + 1.0f, last));
    r.w = glm::fract(u);
    return r;
}

struct ShadedVertex {
    glm::vec3 position, normal;
};

// The bone shader: the four joints' rows tweened between y0 and y1 and blended by weight into one
// 3x4 matrix; the position through it, the normal through its cofactor.
ShadedVertex shaderSkin(const Image& anim, const Rows& rows, const ExportedMesh& mesh, size_t v) {
    auto row = [&](uint32_t j, uint32_t r, uint32_t y) { return anim.texel(int(3 * j + r), int(y)); };
    glm::vec4 r0(0.0f), r1(0.0f), r2(0.0f);
    for (int k = 0; k < 4; ++k) {
        const uint32_t j = mesh.joints[v][k];
        const float weight = mesh.weights[v][k];
        r0 += weight * glm::mix(row(j, 0, rows.y0), row(j, 0, rows.y1), rows.w);
        r1 += weight * glm::mix(row(j, 1, rows.y0), row(j, 1, rows.y1), rows.w);
        r2 += weight * glm::mix(row(j, 2, rows.y0), row(j, 2, rows.y1), rows.w);
    }
    const glm::vec4 p(mesh.positions[v], 1.0f);
    const glm::vec3 n = mesh.normals[v];
    const glm::vec3 c0(r0.x, r1.x, r2.x), c1(r0.y, r1.y, r2.y), c2(r0.z, r1.z, r2.z);
    const glm::vec3 k0 = glm::cross(c1, c2);
    glm::vec3 normal = k0 * n.x + glm::cross(c2, c0) * n.y + glm::cross(c0, c1) * n.z;
    if (glm::dot(c0, k0) < 0.0f) normal = -normal;
    return {glm::vec3(glm::dot(r0, p), glm::dot(r1, p), glm::dot(r2, p)), glm::normalize(normal)};
}

// The vertex-animation shader: position and normal of rows y0 and y1, blended.
ShadedVertex shaderVat(const Image& vat, const nlohmann::json& layout, const Rows& rows, const ExportedMesh& mesh,
                       size_t v) {
    const uint32_t width = layout["width"], rows_per_frame = layout["rows_per_frame"];
    const uint32_t i = 2u * uint32_t(mesh.vat_index[v]);
    auto texel = [&](uint32_t index, uint32_t row) {
        return vat.texel(int(index % width), int(row * rows_per_frame + index / width));
    };
    const glm::vec4 p = glm::mix(texel(i, rows.y0), texel(i, rows.y1), rows.w);
    const glm::vec4 n = glm::mix(texel(i + 1, rows.y0), texel(i + 1, rows.y1), rows.w);
    EXPECT_EQ(p.w, 1.0f);
    EXPECT_EQ(n.w, 0.0f);
    return {glm::vec3(p), glm::normalize(glm::vec3(n))};
}

// The truth for a time: the bone shader's tweened pose is the two frames' matrices blended by w,
// skinned exactly (positions and inverse-transpose normals); the vertex animation blends the two
// frames' exact vertices (positions identical, LBS being linear in the matrices) and normals.
struct Truth {
    SkinnedVertices bones;
    std::vector<glm::dvec3> vat_normals;
};

Truth truthAt(const Model& model, const Clip* clip, const BakedClip& baked, double time,
              std::map<uint32_t, ExactFrame>& frames) {
    const Frames f = framesAt(baked, time);
    for (const uint32_t frame : {f.f0, f.f1})
        if (!frames.count(frame)) {
            ExactFrame& e = frames[frame];
            e.matrices = referenceSkinningMatrices(model, clip, bakedFrameTime(baked, frame), false);
            e.skinned = skinAll(model, e.matrices);
        }
    const ExactFrame &a = frames[f.f0], &b = frames[f.f1];
    std::vector<glm::dmat4> tweened(a.matrices.size());
    for (size_t j = 0; j < tweened.size(); ++j) tweened[j] = a.matrices[j] * (1.0 - f.w) + b.matrices[j] * f.w;
    Truth t;
    t.bones = skinAll(model, tweened);
    for (size_t v = 0; v < a.skinned.normals.size(); ++v)
        t.vat_normals.push_back(glm::normalize(glm::mix(a.skinned.normals[v], b.skinned.normals[v], f.w)));
    return t;
}

struct Errors {
    double skinned = 0.0;        // animation.exr through the bone shader: position, over the diagonal
    double skinned_normal = 0.0; // its normal, radians
    double vat = 0.0;            // vat.exr through the VAT shader, over the diagonal
    double vat_normal = 0.0;     // radians
    size_t checked = 0;          // vertex x time comparisons
};

// Times to play each clip at: its first, a middle and its last baked frame, between frames, and
// past its end (a looping clip wraps, a clamped one holds its last frame).
std::vector<float> testTimes(const BakedClip& clip) {
    if (clip.frame_count < 2) return {0.0f, 1.0f};
    const uint32_t mid = clip.frame_count / 2;
    const double step = clip.duration / double(clip.frame_count - 1);
    const double t_mid = bakedFrameTime(clip, mid);
    return {0.0f,
            float(t_mid),
            float(t_mid + 0.37 * step),
            float(clip.duration - 0.25 * step),
            clip.duration,
            float(t_mid + 0.61 * step + 2.0 * clip.duration)};
}

// Reads DIR back, plays every clip at testTimes through the documented shaders and compares with
// the reference.
Errors compare(const Model& model, const BakedAsset& asset, const std::string& dir) {
    Errors e;
    const nlohmann::json desc = readJson(dir + "/throng.json");
    EXPECT_EQ(desc["format"], "throng-export");
    EXPECT_EQ(desc["version"], 1);
    const Image anim = readExr(dir + "/animation.exr");
    EXPECT_EQ(anim.width, desc["animation"]["width"].get<int>());
    EXPECT_EQ(anim.height, desc["animation"]["height"].get<int>());
    const ExportedMesh mesh = readGltf(dir + "/mesh.gltf");
    EXPECT_EQ(mesh.positions.size(), asset.vertices.size());
    EXPECT_EQ(mesh.primitives, asset.submeshes.size());
    EXPECT_EQ(mesh.indices, size_t(lodLevels(asset)[0].triangleCount()) * 3);
    const bool has_vat = desc.contains("vat");
    EXPECT_EQ(has_vat, asset.hasVat());
    Image vat;
    if (has_vat) vat = readExr(dir + "/vat.exr");
    const double diag = diagonal(asset);
    for (const nlohmann::json& clip : desc["clips"]) {
        const uint32_t c = clip["index"];
        EXPECT_EQ(clip["name"].get<std::string>(), asset.clips[c].name);
        const Clip* source = model.clips.empty() ? nullptr : &model.clips[c];
        std::map<uint32_t, ExactFrame> frames;
        for (const float time : testTimes(asset.clips[c])) {
            const Rows rows = shaderRows(clip, time);
            const Truth truth = truthAt(model, source, asset.clips[c], double(time), frames);
            for (size_t v = 0; v < mesh.positions.size(); ++v) {
                const glm::dvec3 position = truth.bones.positions[v];
                const bool has_normal = v < truth.bones.normals.size();
                const ShadedVertex s = shaderSkin(anim, rows, mesh, v);
                e.skinned = std::max(e.skinned, glm::length(glm::dvec3(s.position) - position) / diag);
                if (has_normal)
                    e.skinned_normal = std::max(e.skinned_normal, angle(glm::dvec3(s.normal), truth.bones.normals[v]));
                if (has_vat) {
                    const ShadedVertex q = shaderVat(vat, desc["vat"], rows, mesh, v);
                    e.vat = std::max(e.vat, glm::length(glm::dvec3(q.position) - position) / diag);
                    if (has_normal)
                        e.vat_normal = std::max(e.vat_normal, angle(glm::dvec3(q.normal), truth.vat_normals[v]));
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

// Float: the documented shaders' math on the exported data, at baked frames, between frames and
// past a clip's end, stays within 1e-5 of the model's size of the exact pose (normals within 1e-5
// rad), for bones and for vertex animation; the vertex animation wraps its rows.
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
    EXPECT_LE(e.skinned_normal, 1e-5); // radians
    EXPECT_LE(e.vat_normal, 1e-5);

    // Exported again without vertex animation: the earlier vat.exr goes, as throng.json no longer
    // names it. Loaded from a path on the baking machine: the exports name the file alone.
    BakedAsset bones_only = bakeOrFail(model, Precision::Float32, false);
    bones_only.name = "/home/someone/private/models/walker.glb";
    ASSERT_TRUE(exportForEngines(bones_only, dir).ok());
    EXPECT_EQ(readJson(dir + "/throng.json")["source"], "walker.glb");
    EXPECT_EQ(readJson(dir + "/mesh.gltf")["nodes"][0]["name"], "walker.glb");
    EXPECT_FALSE(std::filesystem::exists(dir + "/vat.exr"));
    EXPECT_FALSE(readJson(dir + "/throng.json").contains("vat"));
    RecordProperty("skinned_error", std::to_string(e.skinned));
    std::printf("walker float: bones %.2e, vat %.2e of the diagonal; normals %.2e, %.2e rad\n", e.skinned, e.vat,
                e.skinned_normal, e.vat_normal);
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
    EXPECT_LE(e.skinned_normal, 2e-3);
    std::printf("walker half: bones %.2e of the diagonal; normals %.2e rad\n", e.skinned, e.skinned_normal);
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
    EXPECT_LE(e.skinned_normal, 1e-5);
    const nlohmann::json gltf = readJson(dir + "/mesh.gltf");
    EXPECT_EQ(gltf["images"].size(), 1u);
    EXPECT_TRUE(gltf["materials"][0]["pbrMetallicRoughness"].contains("baseColorTexture"));
    std::printf("CesiumMan float: bones %.2e of the diagonal; normals %.2e rad\n", e.skinned, e.skinned_normal);
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
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err; // one line
    EXPECT_TRUE(r.out.empty()) << r.out;
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "keep me");

    const test::CliRun missing = test::runThrong("bake builtin:walker --export " + (dir / "no/such/dir").string());
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_NE(missing.err.find("parent directory"), std::string::npos) << missing.err;

    const test::CliRun neither = test::runThrong("bake builtin:walker");
    EXPECT_EQ(neither.exit_code, 2);

    // A new directory named with a trailing slash is created (its parent is the scratch folder).
    const test::CliRun slash = test::runThrong("bake builtin:walker --lods 1 --export " + (dir / "new").string() + "/");
    EXPECT_EQ(slash.exit_code, 0) << slash.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "new" / "throng.json"));

    const auto out = dir / "out";
    std::filesystem::create_directories(out);
    std::ofstream(out / "mine.txt") << "mine";
    const test::CliRun ok = test::runThrong("bake builtin:walker --lods 1 --export " + out.string());
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_TRUE(std::filesystem::exists(out / "mine.txt"));
    EXPECT_TRUE(std::filesystem::exists(out / "throng.json"));
    EXPECT_FALSE(std::filesystem::exists(out / "vat.exr")); // only with --vat
}
