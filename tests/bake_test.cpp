// bake(): the baked texels are the double reference rounded to the storage precision, frame
// timing follows baked.h, bounds hold every skinned vertex, half precision stays accurate; every
// shared model bakes, and `throng bake` works as a user runs it.
#include "test_util.h"

#include <throng/anim.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>
#include <throng/import.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace throng;

namespace {

BakedAsset mustBake(const Model& model, Precision precision, BakeReport* report = nullptr, float fps = 30.0f) {
    Result<BakedAsset> r = bake(model, BakeOptions{fps, precision, {}}, report);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BakedAsset{};
}

bool inside(const Bounds& b, const glm::dvec3& p) {
    for (int i = 0; i < 3; ++i)
        if (p[i] < double(b.min[i]) || p[i] > double(b.max[i])) return false;
    return true;
}

// Matrices of one baked frame, rebuilt from the texels.
std::vector<glm::dmat4> texelMatrices(const BakedAsset& a, uint32_t clip, uint32_t frame) {
    std::vector<glm::dmat4> m(a.joint_count, glm::dmat4(1.0));
    for (uint32_t k = 0; k < a.joint_count; ++k)
        for (uint32_t r = 0; r < 3; ++r) {
            const glm::vec4 row = bakedTexel(a, clip, frame, k, r);
            for (int c = 0; c < 4; ++c) m[k][c][int(r)] = double(row[c]);
        }
    return m;
}

TEST(Bake, WalkerTexelsAreTheReferenceRounded) {
    const Model model = makeWalker();
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        const BakedAsset a = mustBake(model, p);
        ASSERT_TRUE(validate(a).ok()) << validate(a).message;
        ASSERT_EQ(a.clips.size(), model.clips.size());
        EXPECT_EQ(a.joint_count, model.palette.size());
        for (uint32_t c = 0; c < a.clips.size(); ++c)
            for (uint32_t f = 0; f < a.clips[c].frame_count; ++f) {
                const std::vector<glm::dmat4> ref =
                    referenceSkinningMatrices(model, &model.clips[c], bakedFrameTime(a.clips[c], f), false);
                for (uint32_t k = 0; k < a.joint_count; ++k)
                    for (uint32_t r = 0; r < 3; ++r) {
                        const glm::vec4 texel = bakedTexel(a, c, f, k, r);
                        for (int col = 0; col < 4; ++col) {
                            const float expected = float(ref[k][col][int(r)]);
                            ASSERT_EQ(texel[col],
                                      p == Precision::Float16 ? halfToFloat(floatToHalf(expected)) : expected)
                                << "clip " << c << " frame " << f << " joint " << k << " row " << r;
                        }
                    }
            }
    }
}

TEST(Bake, FrameTiming) {
    const BakedAsset a = mustBake(makeWalker(), Precision::Float32);
    ASSERT_EQ(a.clips.size(), 2u);
    EXPECT_EQ(a.clips[0].name, "walk");
    EXPECT_EQ(a.clips[0].frame_count, 34u); // round(1.1 * 30) + 1
    EXPECT_EQ(a.clips[1].frame_count, 91u); // round(3.0 * 30) + 1
    EXPECT_EQ(a.max_frames, 91u);
    EXPECT_TRUE(a.clips[0].loop && a.clips[1].loop);
    EXPECT_FLOAT_EQ(a.clips[0].duration, 1.1f);
    EXPECT_EQ(bakedFrameTime(a.clips[0], 33), double(1.1f));
    // Frames past a clip's end repeat its last frame.
    for (uint32_t f = 34; f < a.max_frames; ++f)
        for (uint32_t k = 0; k < a.joint_count; ++k)
            for (uint32_t r = 0; r < 3; ++r) ASSERT_EQ(bakedTexel(a, 0, f, k, r), bakedTexel(a, 0, 33, k, r));
    const BakedAsset b = mustBake(makeWalker(), Precision::Float32, nullptr, 1.0f);
    EXPECT_EQ(b.clips[0].frame_count, 2u); // 1.1 s at 1 fps: round(1.1) + 1
    EXPECT_EQ(b.clips[1].frame_count, 4u);
}

TEST(Bake, LoopingClipsEndWhereTheyStart) {
    const BakedAsset a = mustBake(makeWalker(), Precision::Float32);
    for (uint32_t c = 0; c < a.clips.size(); ++c) {
        const uint32_t last = a.clips[c].frame_count - 1;
        for (uint32_t k = 0; k < a.joint_count; ++k)
            for (uint32_t r = 0; r < 3; ++r) {
                const glm::vec4 d = bakedTexel(a, c, last, k, r) - bakedTexel(a, c, 0, k, r);
                ASSERT_LT(glm::length(d), 1e-5f) << a.clips[c].name << " joint " << k;
            }
    }
}

TEST(Bake, BoundsHoldEverySkinnedVertex) {
    const Model model = makeWalker();
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        const BakedAsset a = mustBake(model, p);
        for (uint32_t c = 0; c < a.clips.size(); ++c)
            for (uint32_t f = 0; f < a.clips[c].frame_count; ++f) {
                const Bounds& b = a.clips[c].frame_bounds[f];
                const std::vector<glm::dmat4> exact =
                    referenceSkinningMatrices(model, &model.clips[c], bakedFrameTime(a.clips[c], f), false);
                const std::vector<glm::dmat4> stored = texelMatrices(a, c, f);
                for (const Mesh& mesh : model.meshes) {
                    const SkinnedVertices e = referenceSkin(mesh, exact), s = referenceSkin(mesh, stored);
                    for (size_t v = 0; v < e.positions.size(); ++v) {
                        ASSERT_TRUE(inside(b, e.positions[v])) << "clip " << c << " frame " << f << " vertex " << v;
                        ASSERT_TRUE(inside(b, s.positions[v])) << "clip " << c << " frame " << f << " vertex " << v;
                    }
                }
                // Tight: no wider than the points plus float rounding.
                EXPECT_LT(b.diagonal(), a.bind_bounds.diagonal() * 2.0f);
            }
    }
}

TEST(Bake, HalfErrorIsSmallAndReported) {
    BakeReport float_report, half_report;
    const BakedAsset f = mustBake(makeWalker(), Precision::Float32, &float_report);
    const BakedAsset h = mustBake(makeWalker(), Precision::Float16, &half_report);
    EXPECT_EQ(float_report.max_half_error, 0.0);
    EXPECT_GT(half_report.max_half_error, 0.0);
    EXPECT_LE(half_report.max_half_error, 1e-3);
    EXPECT_EQ(float_report.bytes, f.texelCount() * 16);
    EXPECT_EQ(half_report.bytes, h.texelCount() * 8);
    EXPECT_TRUE(h.animation_f32.empty());
    EXPECT_EQ(h.animation_f16.size(), h.texelCount() * 4);
}

TEST(Bake, MeshIsCopied) {
    Model model = makeWalker();
    const BakedAsset a = mustBake(model, Precision::Float32);
    const Mesh mesh = model.meshes[0];
    ASSERT_EQ(a.vertices.size(), vertexCount(model));
    // LOD 0's indices first; the other levels' follow (lod_test.cpp).
    ASSERT_GE(a.indices.size(), mesh.indices.size());
    EXPECT_EQ(std::vector<uint32_t>(a.indices.begin(), a.indices.begin() + ptrdiff_t(mesh.indices.size())),
              mesh.indices);
    ASSERT_EQ(a.submeshes.size(), mesh.submeshes.size());
    EXPECT_EQ(a.submeshes[0].texture, -1);
    for (size_t v = 0; v < a.vertices.size(); v += 97) {
        EXPECT_EQ(glm::vec3(a.vertices[v].position[0], a.vertices[v].position[1], a.vertices[v].position[2]),
                  mesh.positions[v]);
        for (int i = 0; i < 4; ++i) {
            EXPECT_EQ(a.vertices[v].weights[i], mesh.weights[v][i]);
            if (mesh.weights[v][i] > 0.0f) {
                EXPECT_EQ(a.vertices[v].joints[i], mesh.joints[v][i]);
            }
            if (!mesh.colors.empty()) {
                EXPECT_NEAR(a.vertices[v].color[i], mesh.colors[v][i] * 255.0f, 0.5f + 1e-3f);
            }
        }
    }
    EXPECT_EQ(a.bind_bounds.min, bindPoseBounds(model).min);

    // Two meshes: indices and submeshes of the second are offset; an external texture is kept empty.
    model.meshes.push_back(model.meshes[0]);
    model.meshes[1].colors.clear();
    model.meshes[1].uvs.clear();
    model.textures.push_back(Texture{"skin", "image/png", "skin.png", {}});
    model.materials.push_back(Material{"textured", glm::vec4(0.5f, 0.25f, 1.0f, 1.0f), 0});
    model.meshes[1].submeshes[0].material = 1;
    BakeReport report;
    const BakedAsset b = mustBake(model, Precision::Float32, &report);
    const uint32_t n = uint32_t(mesh.positions.size());
    ASSERT_EQ(b.vertices.size(), 2 * size_t(n));
    EXPECT_EQ(b.indices[mesh.indices.size() + 5], mesh.indices[5] + n);
    ASSERT_EQ(b.submeshes.size(), 2u);
    EXPECT_EQ(b.submeshes[1].first_index, mesh.indices.size());
    EXPECT_EQ(b.submeshes[1].texture, 0);
    EXPECT_EQ(b.submeshes[1].base_color, glm::vec4(0.5f, 0.25f, 1.0f, 1.0f));
    EXPECT_EQ(b.vertices[n].color[0], 255);
    EXPECT_EQ(b.vertices[n].uv[0], 0.0f);
    ASSERT_EQ(b.textures.size(), 1u);
    EXPECT_TRUE(b.textures[0].encoded.empty());
    ASSERT_EQ(report.warnings.size(), 1u);
    EXPECT_NE(report.warnings[0].find("texture 'skin': image file 'skin.png' not found next to the model"),
              std::string::npos)
        << report.warnings[0];
}

TEST(Bake, ModelWithoutClipsBakesItsRestPose) {
    const Model fish = makeFish();
    const BakedAsset a = mustBake(fish, Precision::Float32);
    ASSERT_EQ(a.clips.size(), 1u);
    EXPECT_EQ(a.clips[0].name, "rest");
    EXPECT_EQ(a.clips[0].frame_count, 1u);
    EXPECT_EQ(a.clips[0].duration, 0.0f);
    const std::vector<glm::dmat4> rest = referenceSkinningMatrices(fish, nullptr, 0.0, false);
    for (uint32_t k = 0; k < a.joint_count; ++k)
        for (uint32_t r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) EXPECT_EQ(bakedTexel(a, 0, 0, k, r)[c], float(rest[k][c][int(r)]));
}

// What a runtime technique does with asset.source: a Model of its skeleton, palette and clips.
Model modelOf(const AnimationSource& source) {
    Model m;
    m.skeleton = source.skeleton;
    m.palette = source.palette;
    m.clips = source.clips;
    return m;
}

// Sampling the source reproduces every baked frame: float32 texels are the reference rounded
// once, so equal bit for bit; also after a trip through a file, which is how the runtime gets it.
void expectSourceReproducesTheFrames(const BakedAsset& a) {
    ASSERT_EQ(a.precision, Precision::Float32);
    ASSERT_FALSE(a.source.empty());
    const Model m = modelOf(a.source);
    ASSERT_EQ(m.clips.size(), a.clips.size());
    for (uint32_t c = 0; c < a.clips.size(); ++c)
        for (uint32_t f = 0; f < a.clips[c].frame_count; ++f) {
            const std::vector<glm::dmat4> ref =
                referenceSkinningMatrices(m, &m.clips[c], bakedFrameTime(a.clips[c], f), false);
            ASSERT_EQ(ref.size(), a.joint_count);
            for (uint32_t k = 0; k < a.joint_count; ++k)
                for (uint32_t r = 0; r < 3; ++r)
                    for (int col = 0; col < 4; ++col)
                        ASSERT_EQ(bakedTexel(a, c, f, k, r)[col], float(ref[k][col][int(r)]))
                            << a.clips[c].name << " frame " << f << " joint " << k << " row " << r;
        }
}

TEST(Bake, SourceIsTheModelsAnimation) {
    const Model model = makeWalker();
    const BakedAsset a = mustBake(model, Precision::Float32);
    const AnimationSource& src = a.source;
    EXPECT_EQ(src.skeleton.names, model.skeleton.names);
    EXPECT_EQ(src.skeleton.parents, model.skeleton.parents);
    ASSERT_EQ(src.palette.size(), model.palette.size());
    ASSERT_EQ(src.palette.size(), a.joint_count);
    for (size_t k = 0; k < src.palette.size(); ++k) {
        EXPECT_EQ(src.palette[k].joint, model.palette[k].joint);
        EXPECT_EQ(src.palette[k].inverse_bind, model.palette[k].inverse_bind);
    }
    ASSERT_EQ(src.clips.size(), model.clips.size());
    for (size_t c = 0; c < src.clips.size(); ++c) {
        EXPECT_EQ(src.clips[c].name, a.clips[c].name);
        EXPECT_EQ(src.clips[c].duration, a.clips[c].duration);
        EXPECT_EQ(src.clips[c].tracks.size(), model.clips[c].tracks.size());
        EXPECT_EQ(keyframeCount(src.clips[c]), keyframeCount(model.clips[c]));
    }
    expectSourceReproducesTheFrames(a);
    const std::string path = (test::scratchDir("source") / "walker.throng").string();
    ASSERT_TRUE(writeThrong(a, path).ok());
    Result<BakedAsset> back = readThrong(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    expectSourceReproducesTheFrames(back.value());
}

TEST(Bake, SourceOfAModelWithoutClipsIsTheRestClip) {
    const Model fish = makeFish();
    const BakedAsset a = mustBake(fish, Precision::Float32);
    ASSERT_EQ(a.source.clips.size(), 1u);
    EXPECT_EQ(a.source.clips[0].name, "rest");
    EXPECT_EQ(a.source.clips[0].duration, 0.0f);
    EXPECT_TRUE(a.source.clips[0].tracks.empty());
    EXPECT_EQ(a.source.palette.size(), fish.palette.size());
    EXPECT_EQ(a.source.skeleton.size(), fish.skeleton.size());
    expectSourceReproducesTheFrames(a);
}

TEST(Bake, ProgressAfterEachClip) {
    std::vector<std::pair<size_t, size_t>> calls;
    BakeOptions options;
    options.progress = [&](size_t done, size_t total) { calls.emplace_back(done, total); };
    ASSERT_TRUE(bake(makeWalker(), options).ok());
    EXPECT_EQ(calls, (std::vector<std::pair<size_t, size_t>>{{1, 2}, {2, 2}}));
}

TEST(Bake, Errors) {
    for (float fps : {0.0f, 0.5f, -30.0f, 1001.0f, NAN, INFINITY}) {
        Result<BakedAsset> r = bake(makeWalker(), BakeOptions{fps, Precision::Float32, {}});
        ASSERT_FALSE(r.ok()) << fps;
        EXPECT_NE(r.error().message.find("out of range (1 .. 1000)"), std::string::npos) << r.error().message;
    }
    EXPECT_TRUE(bake(makeWalker(), BakeOptions{1.0f, Precision::Float32, {}}).ok());
    Model broken = makeWalker();
    broken.meshes[0].weights[17] = glm::vec4(0.75f, 0.0f, 0.0f, 0.0f);
    Result<BakedAsset> r = bake(broken, BakeOptions{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("vertex 17: weights sum to 0.75"), std::string::npos) << r.error().message;
    Model endless = makeWalker();
    endless.clips[1].duration = 1e7f; // 3 e8 frames
    r = bake(endless, BakeOptions{});
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("more than the limit of 268435456; lower the fps"), std::string::npos)
        << r.error().message;
}

// Vertex animation: every texel is the reference skin at the frame's time, rounded to float
// (exactly) or half (within 1e-3 of the bind diagonal); frames past a clip's end repeat its last.
TEST(Bake, VatTexelsAreTheReferenceSkin) {
    const Model model = makeWalker();
    EXPECT_FALSE(mustBake(model, Precision::Float32).hasVat());
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        BakeOptions o;
        o.precision = p;
        o.vat = true;
        BakeReport report;
        Result<BakedAsset> r = bake(model, o, &report);
        ASSERT_TRUE(r.ok()) << r.error().message;
        const BakedAsset& a = r.value();
        ASSERT_TRUE(a.hasVat());
        ASSERT_TRUE(validate(a).ok()) << validate(a).message;
        EXPECT_EQ(report.vat_bytes, a.vatTexelCount() * (p == Precision::Float16 ? 8 : 16));
        const double diagonal = a.bind_bounds.diagonal();
        double worst = 0.0, worst_normal = 0.0;
        for (uint32_t c = 0; c < a.clips.size(); ++c)
            for (uint32_t f = 0; f < a.max_frames; ++f) {
                const uint32_t frame = std::min(f, a.clips[c].frame_count - 1);
                const auto m =
                    referenceSkinningMatrices(model, &model.clips[c], bakedFrameTime(a.clips[c], frame), false);
                const SkinnedVertices ref = referenceSkin(model.meshes[0], m);
                ASSERT_EQ(ref.positions.size(), a.vertices.size());
                for (uint32_t v = 0; v < a.vertices.size(); ++v) {
                    const glm::vec4 pos = vatTexel(a, c, f, v, false), nrm = vatTexel(a, c, f, v, true);
                    if (p == Precision::Float32) {
                        ASSERT_EQ(glm::vec3(pos), glm::vec3(ref.positions[v]))
                            << "clip " << c << " frame " << f << " vertex " << v;
                        ASSERT_EQ(glm::vec3(nrm), glm::vec3(ref.normals[v]))
                            << "clip " << c << " frame " << f << " vertex " << v;
                    }
                    ASSERT_EQ(pos.w, 1.0f);
                    ASSERT_EQ(nrm.w, 0.0f);
                    worst = std::max(worst, glm::length(glm::dvec3(glm::vec3(pos)) - ref.positions[v]) / diagonal);
                    worst_normal = std::max(worst_normal, glm::length(glm::dvec3(glm::vec3(nrm)) - ref.normals[v]));
                }
            }
        std::printf("vat %s: positions within %.2e of the diagonal, normals within %.2e\n", toString(p), worst,
                    worst_normal);
        EXPECT_LE(worst, p == Precision::Float32 ? 1e-7 : 1e-3);
        EXPECT_LE(worst_normal, p == Precision::Float32 ? 1e-7 : 1e-3);
    }
}

TEST(Bake, VatBeyondTheTexelLimitIsAClearError) {
    // 2 clips x 30001 frames x 10642 texels = 6.4e8 vertex texels; the bone animation (3.8e6) fits.
    Model longer = makeWalker();
    for (Clip& c : longer.clips) c.duration = 30.0f;
    BakeOptions o;
    o.fps = 1000.0f;
    o.vat = true;
    Result<BakedAsset> r = bake(longer, o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(
        r.error().message.find("vertex animation needs 638541284 texels (2 clips x 30001 frames x 10642), more than "
                               "the limit of 268435456; lower the fps or bake without --vat"),
        std::string::npos)
        << r.error().message;
}

// --- Every shared model --------------------------------------------------------------------

void bakeShared(const std::string& path, double max_half_error) {
    Result<Model> model = importModel(path);
    ASSERT_TRUE(model.ok()) << model.error().message;
    const auto dir = test::scratchDir("shared");
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        BakeReport report;
        const auto start = std::chrono::steady_clock::now();
        const BakedAsset a = mustBake(model.value(), p, &report);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ASSERT_TRUE(validate(a).ok()) << validate(a).message;
        EXPECT_EQ(a.vertices.size(), vertexCount(model.value()));
        EXPECT_EQ(a.clips.size(), std::max<size_t>(1, model.value().clips.size()));
        if (p == Precision::Float16) {
            EXPECT_LE(report.max_half_error, max_half_error);
        }
        const std::string out = (dir / (std::string("asset-") + toString(p) + ".throng")).string();
        ASSERT_TRUE(writeThrong(a, out).ok());
        Result<BakedAsset> back = readThrong(out);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(back.value().animation_f16, a.animation_f16);
        EXPECT_EQ(back.value().animation_f32.size(), a.animation_f32.size());
        EXPECT_EQ(a.source.palette.size(), a.joint_count);
        EXPECT_EQ(back.value().source.clips.size(), a.clips.size());
        EXPECT_EQ(back.value().source.skeleton.size(), model.value().skeleton.size());
        if (p == Precision::Float32) expectSourceReproducesTheFrames(back.value());
        // What the source animation (sections SKEL and TRAK) adds to the file.
        BakedAsset without = a;
        without.source = AnimationSource{};
        const std::string bare = (dir / "bare.throng").string();
        ASSERT_TRUE(writeThrong(without, bare).ok());
        std::printf("  %-48s %-5s %2zu clips %5u frames %4u joints %6zu vertices  %9ju bytes (source +%ju)  bake "
                    "%.2f s  half error %.2e\n",
                    path.c_str(), toString(p), a.clips.size(), a.max_frames, a.joint_count, a.vertices.size(),
                    uintmax_t(fs::file_size(out)), uintmax_t(fs::file_size(out) - fs::file_size(bare)), seconds,
                    report.max_half_error);
    }
}

TEST(BakeShared, RiggedSimple) {
    THRONG_ASSET(p, "RiggedSimple/RiggedSimple.glb");
    bakeShared(p, 1e-3);
}
TEST(BakeShared, RiggedSimpleCollada) {
    THRONG_ASSET(p, "RiggedSimple_Collada/RiggedSimple.dae");
    bakeShared(p, 1e-3);
}
TEST(BakeShared, CesiumMan) {
    THRONG_ASSET(p, "CesiumMan/CesiumMan.glb");
    bakeShared(p, 1e-3);
}
TEST(BakeShared, Fox) {
    THRONG_ASSET(p, "Fox/Fox.glb");
    bakeShared(p, 1e-2);
}
TEST(BakeShared, RobotExpressive) {
    THRONG_ASSET(p, "RobotExpressive/RobotExpressive.glb");
    bakeShared(p, 1e-2);
}
TEST(BakeShared, RecursiveSkeletons) {
    THRONG_ASSET(p, "RecursiveSkeletons/RecursiveSkeletons.glb");
    bakeShared(p, 1e-2);
}
TEST(BakeShared, AnimationWithSkeletonFbx) {
    THRONG_ASSET(p, "AnimationWithSkeleton_FBX/animation_with_skeleton.fbx");
    bakeShared(p, 1e-2);
}

TEST(BakeShared, CesiumManKeepsItsTexture) {
    THRONG_ASSET(path, "CesiumMan/CesiumMan.glb");
    Result<Model> model = importModel(path);
    ASSERT_TRUE(model.ok()) << model.error().message;
    const BakedAsset a = mustBake(model.value(), Precision::Float16);
    ASSERT_EQ(a.textures.size(), model.value().textures.size());
    ASSERT_FALSE(a.textures.empty());
    EXPECT_EQ(a.textures[0].mime_type, "image/jpeg");
    EXPECT_EQ(a.textures[0].encoded, model.value().textures[0].encoded);
    bool textured = false;
    for (const BakedSubmesh& s : a.submeshes) textured = textured || s.texture == 0;
    EXPECT_TRUE(textured);
}

// --- The CLI -------------------------------------------------------------------------------

using throng::test::CliRun;

CliRun run(const std::string& args) { return throng::test::runThrong(args); }

TEST(CliBake, WalkerHalf) {
    const std::string out = (test::scratchDir("bake") / "walker.throng").string();
    const CliRun r = run("bake builtin:walker -o " + out + " --precision half --fps 24");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("2 clips, 100 frames, "), std::string::npos) << r.out; // 27 + 73 at 24 fps
    EXPECT_NE(r.out.find("half precision"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("bytes on disk"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("max half error"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_NE(r.err.find("bake: clip 2/2 'idle'"), std::string::npos) << r.err;
    Result<BakedAsset> a = readThrong(out);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a.value().precision, Precision::Float16);
    EXPECT_EQ(a.value().fps, 24.0f);
    EXPECT_EQ(a.value().name, "builtin:walker");
}

TEST(CliBake, WalkerVat) {
    const std::string out = (test::scratchDir("bake-vat") / "walker-vat.throng").string();
    const CliRun r = run("bake builtin:walker -o " + out + " --vat");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(", vertex animation 30989504 bytes"), std::string::npos) << r.out; // 2 x 91 x 10642 x 16
    Result<BakedAsset> a = readThrong(out);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_TRUE(a.value().hasVat());
}

TEST(CliBake, Errors) {
    const auto dir = test::scratchDir("bake-errors");
    const std::string out = (dir / "x.throng").string();
    CliRun r = run("bake builtin:walker -o " + out + " --fps 0");
    EXPECT_EQ(r.exit_code, 2); // a usage mistake
    EXPECT_EQ(r.err, "throng: error: --fps: 0 is out of range (1 .. 1000) (see throng bake --help)\n");
    r = run("bake builtin:walker -o " + (dir / "missing" / "x.throng").string());
    EXPECT_EQ(r.exit_code, 1);
    // Refused before baking: no progress line, only the error.
    EXPECT_EQ(r.err, "throng: error: " + (dir / "missing" / "x.throng").string() + ": the folder does not exist\n");
    r = run("bake builtin:nope -o " + out);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.rfind("throng: error: builtin:nope: ", 0), 0u) << r.err;
    EXPECT_NE(run("bake builtin:walker -o " + out + " --precision quarter").exit_code, 0);
    EXPECT_NE(run("bake builtin:walker").exit_code, 0);
    EXPECT_FALSE(fs::exists(out));
}

} // namespace
