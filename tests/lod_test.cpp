// Levels of detail (baked.h, src/bake/lod.cpp): LOD 0 is the mesh; every level is a range of
// indices into the same vertices, smaller level by level, with a non-decreasing error; every
// level's vertices skinned at every baked frame lie in the clip's conservative bounds
// (clipBounds), and in a tween or a cross-fade in the union of the clips' bounds; `throng bake
// --lods` and `throng info` show the chain. The .throng side (LODS) is in format_test.cpp.
#include "test_util.h"

#include <throng/anim.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>
#include <throng/import.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>

namespace fs = std::filesystem;
using namespace throng;

namespace {

BakedAsset mustBake(const Model& model, uint32_t lods = kMaxBakedLods) {
    BakeOptions options;
    options.lods = lods;
    Result<BakedAsset> r = bake(model, options);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BakedAsset{};
}

void printChain(const std::string& name, const BakedAsset& a) {
    const double full = double(a.lods[0].triangleCount()), diagonal = a.bind_bounds.diagonal();
    std::printf("%s: %zu LODs, %zu submeshes, bind diagonal %.4g\n", name.c_str(), a.lods.size(), a.submeshes.size(),
                diagonal);
    for (size_t l = 0; l < a.lods.size(); ++l)
        std::printf("  LOD %zu %7llu triangles (%6.2f%%)  error %.4g (%.2e of the diagonal)\n", l,
                    static_cast<unsigned long long>(a.lods[l].triangleCount()),
                    100.0 * double(a.lods[l].triangleCount()) / full, double(a.lods[l].error),
                    double(a.lods[l].error) / diagonal);
}

// The vertices a level's triangles use.
std::vector<uint32_t> usedVertices(const BakedAsset& a, const BakedLod& lod) {
    std::set<uint32_t> used;
    for (const BakedLodRange& r : lod.submeshes)
        for (uint32_t i = r.first_index; i < r.first_index + r.index_count; ++i) used.insert(a.indices[i]);
    return {used.begin(), used.end()};
}

// The chain's invariants: LOD 0 is the mesh with error 0, every index names an existing vertex,
// triangles strictly fewer level by level, errors finite and non-decreasing, every vertex a
// level uses is an original vertex, weights summing to 1.
void expectGoodChain(const Model& model, const BakedAsset& a) {
    ASSERT_TRUE(validate(a).ok()) << validate(a).message;
    ASSERT_GE(a.lods.size(), 1u);
    ASSERT_LE(a.lods.size(), kMaxBakedLods);
    const BakedLod& lod0 = a.lods[0];
    EXPECT_EQ(lod0.error, 0.0f);
    ASSERT_EQ(lod0.submeshes.size(), a.submeshes.size());
    for (size_t s = 0; s < a.submeshes.size(); ++s) {
        EXPECT_EQ(lod0.submeshes[s].first_index, a.submeshes[s].first_index);
        EXPECT_EQ(lod0.submeshes[s].index_count, a.submeshes[s].index_count);
    }
    EXPECT_EQ(lod0.triangleCount(), triangleCount(model));
    // The vertices are the model's, in order (meshes concatenated), untouched.
    std::vector<glm::vec3> positions;
    for (const Mesh& m : model.meshes) positions.insert(positions.end(), m.positions.begin(), m.positions.end());
    ASSERT_EQ(a.vertices.size(), positions.size());
    for (size_t l = 0; l < a.lods.size(); ++l) {
        const BakedLod& lod = a.lods[l];
        EXPECT_TRUE(std::isfinite(lod.error)) << "LOD " << l;
        if (l > 0) {
            EXPECT_LT(lod.triangleCount(), a.lods[l - 1].triangleCount()) << "LOD " << l;
            EXPECT_GE(lod.error, a.lods[l - 1].error) << "LOD " << l;
        }
        for (const BakedLodRange& r : lod.submeshes) {
            ASSERT_LE(uint64_t(r.first_index) + r.index_count, a.indices.size()) << "LOD " << l;
            ASSERT_EQ(r.index_count % 3, 0u) << "LOD " << l;
        }
        for (uint32_t v : usedVertices(a, lod)) {
            ASSERT_LT(v, a.vertices.size()) << "LOD " << l;
            const BakedVertex& x = a.vertices[v];
            ASSERT_EQ(glm::vec3(x.position[0], x.position[1], x.position[2]), positions[v])
                << "LOD " << l << " vertex " << v;
            const float sum = x.weights[0] + x.weights[1] + x.weights[2] + x.weights[3];
            ASSERT_NEAR(sum, 1.0f, kWeightSumTolerance) << "LOD " << l << " vertex " << v;
        }
    }
}

bool inside(const Bounds& b, const glm::dvec3& p) {
    for (int i = 0; i < 3; ++i)
        if (p[i] < double(b.min[i]) || p[i] > double(b.max[i])) return false;
    return true;
}

Bounds unite(const Bounds& a, const Bounds& b) { return Bounds{glm::min(a.min, b.min), glm::max(a.max, b.max)}; }

// Every mesh skinned by the double-precision reference, concatenated as the baked vertices are.
std::vector<glm::dvec3> skinAll(const Model& model, const std::vector<glm::dmat4>& matrices) {
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices s = referenceSkin(mesh, matrices);
        out.insert(out.end(), s.positions.begin(), s.positions.end());
    }
    return out;
}

std::vector<glm::dmat4> framePose(const Model& model, uint32_t clip, double time) {
    return referenceSkinningMatrices(model, model.clips.empty() ? nullptr : &model.clips[clip], time, false);
}

std::vector<glm::dmat4> blend(const std::vector<glm::dmat4>& x, const std::vector<glm::dmat4>& y, double w) {
    std::vector<glm::dmat4> out(x.size());
    for (size_t k = 0; k < x.size(); ++k) out[k] = x[k] * (1.0 - w) + y[k] * w;
    return out;
}

// Every level's vertices at every baked frame lie in the frame's bounds and in clipBounds; a
// tween halfway between two frames stays in clipBounds; a cross-fade of two clips' frames
// (matrices blended, as every technique does) in the union of both clips' bounds.
void expectLodsInsideClipBounds(const Model& model, const BakedAsset& a) {
    std::vector<std::vector<uint32_t>> used;
    for (const BakedLod& lod : a.lods) used.push_back(usedVertices(a, lod));
    std::vector<Bounds> clip_bounds;
    for (const BakedClip& c : a.clips) clip_bounds.push_back(clipBounds(c));
    size_t checked = 0;
    for (uint32_t c = 0; c < a.clips.size(); ++c) {
        const BakedClip& clip = a.clips[c];
        for (uint32_t f = 0; f < clip.frame_count; ++f) {
            EXPECT_TRUE(inside(clip_bounds[c], glm::dvec3(clip.frame_bounds[f].min)));
            EXPECT_TRUE(inside(clip_bounds[c], glm::dvec3(clip.frame_bounds[f].max)));
            const std::vector<glm::dmat4> pose = framePose(model, c, bakedFrameTime(clip, f));
            const std::vector<glm::dvec3> p = skinAll(model, pose);
            // Halfway to the next frame (time interpolation of the source: a pose between frames).
            const uint32_t next = std::min(f + 1, clip.frame_count - 1);
            const std::vector<glm::dvec3> tween =
                skinAll(model, blend(pose, framePose(model, c, bakedFrameTime(clip, next)), 0.5));
            for (size_t l = 0; l < a.lods.size(); ++l)
                for (uint32_t v : used[l]) {
                    ASSERT_TRUE(inside(clip.frame_bounds[f], p[v]))
                        << clip.name << " frame " << f << " LOD " << l << " vertex " << v;
                    ASSERT_TRUE(inside(clip_bounds[c], p[v])) << clip.name << " frame " << f << " LOD " << l;
                    ASSERT_TRUE(inside(clip_bounds[c], tween[v])) << clip.name << " tween " << f << " LOD " << l;
                    ++checked;
                }
        }
    }
    // Cross-fades: every pair of clips, a few frames and weights.
    for (uint32_t c0 = 0; c0 < a.clips.size(); ++c0)
        for (uint32_t c1 = c0 + 1; c1 < a.clips.size(); ++c1) {
            const Bounds both = unite(clip_bounds[c0], clip_bounds[c1]);
            for (double w : {0.25, 0.5, 0.9}) {
                const uint32_t f0 = uint32_t(w * (a.clips[c0].frame_count - 1)),
                               f1 = uint32_t((1.0 - w) * (a.clips[c1].frame_count - 1));
                const std::vector<glm::dvec3> p =
                    skinAll(model, blend(framePose(model, c0, bakedFrameTime(a.clips[c0], f0)),
                                         framePose(model, c1, bakedFrameTime(a.clips[c1], f1)), w));
                for (size_t l = 0; l < a.lods.size(); ++l)
                    for (uint32_t v : used[l]) {
                        ASSERT_TRUE(inside(both, p[v])) << "cross-fade " << c0 << "/" << c1 << " LOD " << l;
                        ++checked;
                    }
            }
        }
    EXPECT_GT(checked, 0u);
}

TEST(Lod, WalkerChain) {
    const Model model = makeWalker();
    const BakedAsset a = mustBake(model);
    printChain("builtin:walker", a);
    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(lodChain(model).ok());
    std::printf("  built in %.1f ms\n",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    expectGoodChain(model, a);
    EXPECT_EQ(a.lods[0].triangleCount(), 9600u);
    ASSERT_GE(a.lods.size(), 5u);
    EXPECT_LE(double(a.lods.back().triangleCount()), 0.025 * 9600.0);
    EXPECT_GT(a.lods.back().error, 0.0f);
    EXPECT_LT(a.lods.back().error, a.bind_bounds.diagonal());
    for (size_t l = 1; l < a.lods.size(); ++l) // about half the level before
        EXPECT_LE(double(a.lods[l].triangleCount()), 0.8 * double(a.lods[l - 1].triangleCount())) << "LOD " << l;
}

TEST(Lod, FishChain) {
    const Model model = makeFish();
    const BakedAsset a = mustBake(model);
    printChain("builtin:fish", a);
    expectGoodChain(model, a);
    EXPECT_GE(a.lods.size(), 4u);
}

TEST(Lod, EveryLevelIsInsideTheClipBounds) {
    const Model model = makeWalker();
    const BakedAsset a = mustBake(model);
    expectLodsInsideClipBounds(model, a);
}

TEST(Lod, OptionLimitsTheChainAndTheChainIsDeterministic) {
    const Model model = makeWalker();
    const BakedAsset full = mustBake(model);
    const size_t lod0 = full.lods[0].triangleCount() * 3;
    for (uint32_t n : {0u, 1u}) {
        const BakedAsset a = mustBake(model, n);
        ASSERT_EQ(a.lods.size(), 1u) << n;
        EXPECT_EQ(a.indices.size(), lod0) << n;
        EXPECT_TRUE(validate(a).ok());
    }
    const BakedAsset three = mustBake(model, 3);
    ASSERT_EQ(three.lods.size(), 3u);
    for (size_t l = 0; l < 3; ++l) {
        EXPECT_EQ(three.lods[l].submeshes, full.lods[l].submeshes);
        EXPECT_EQ(std::bit_cast<uint32_t>(three.lods[l].error), std::bit_cast<uint32_t>(full.lods[l].error));
    }
    EXPECT_EQ(std::vector<uint32_t>(full.indices.begin(), full.indices.begin() + ptrdiff_t(three.indices.size())),
              three.indices);
    EXPECT_EQ(mustBake(model).indices, full.indices);
    // What info shows is what bake stores.
    Result<std::vector<BakedLod>> chain = lodChain(model);
    ASSERT_TRUE(chain.ok()) << chain.error().message;
    ASSERT_EQ(chain.value().size(), full.lods.size());
    for (size_t l = 0; l < full.lods.size(); ++l) {
        EXPECT_EQ(chain.value()[l].submeshes, full.lods[l].submeshes);
        EXPECT_EQ(chain.value()[l].error, full.lods[l].error);
    }
    BakeOptions too_many;
    too_many.lods = kMaxBakedLods + 1;
    Result<BakedAsset> r = bake(model, too_many);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "lods 9 out of range (0 .. 8)");
    EXPECT_FALSE(lodChain(model, 9).ok());
}

TEST(Lod, BuildLodsOnAHandMadeMesh) {
    // A 32 x 32 grid of quads in two submeshes (left and right halves), one joint.
    BakedAsset a;
    const int n = 33;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x) {
            BakedVertex v{};
            v.position[0] = float(x);
            v.position[1] = float(y);
            v.position[2] = 0.1f * std::sin(float(x) * 0.7f) * std::cos(float(y) * 0.5f);
            v.normal[2] = 1.0f;
            v.weights[0] = 1.0f;
            a.vertices.push_back(v);
        }
    for (int half = 0; half < 2; ++half) {
        const uint32_t first = uint32_t(a.indices.size());
        for (int y = 0; y + 1 < n; ++y)
            for (int x = half * 16; x < half * 16 + 16; ++x) {
                const uint32_t i = uint32_t(y * n + x);
                a.indices.insert(a.indices.end(), {i, i + 1, i + n, i + 1, i + n + 1, i + n});
            }
        a.submeshes.push_back(BakedSubmesh{first, uint32_t(a.indices.size()) - first, glm::vec4(1.0f), -1});
    }
    const std::vector<uint32_t> lod0_indices = a.indices;
    buildLods(a, kMaxBakedLods);
    ASSERT_GE(a.lods.size(), 4u);
    EXPECT_EQ(std::vector<uint32_t>(a.indices.begin(), a.indices.begin() + ptrdiff_t(lod0_indices.size())),
              lod0_indices);
    for (size_t l = 1; l < a.lods.size(); ++l) {
        EXPECT_LT(a.lods[l].triangleCount(), a.lods[l - 1].triangleCount());
        EXPECT_GE(a.lods[l].error, a.lods[l - 1].error);
        for (const BakedLodRange& r : a.lods[l].submeshes) EXPECT_GT(r.index_count, 0u) << "LOD " << l;
        // The ranges are appended level by level, submesh by submesh.
        EXPECT_EQ(a.lods[l].submeshes[1].first_index,
                  a.lods[l].submeshes[0].first_index + a.lods[l].submeshes[0].index_count);
    }
    EXPECT_EQ(a.lods.back().submeshes[1].first_index + a.lods.back().submeshes[1].index_count, a.indices.size());
    // The bumps are 0.1 high on a 32-wide grid: errors in model units, well below the grid's size.
    EXPECT_GT(a.lods[1].error, 0.0f);
    EXPECT_LT(a.lods[1].error, 0.5f);
}

// A closed box of 8 vertices and 12 triangles, centred at `centre`, appended to `a` as submesh
// `submesh` (a new one when it is the next index, else the triangles join that submesh's).
void addBox(BakedAsset& a, glm::vec3 centre, glm::vec3 half, size_t submesh) {
    const uint32_t base = uint32_t(a.vertices.size());
    for (int i = 0; i < 8; ++i) {
        BakedVertex v{};
        const glm::vec3 p = centre + half * glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f);
        v.position[0] = p.x, v.position[1] = p.y, v.position[2] = p.z;
        v.normal[1] = 1.0f;
        v.weights[0] = 1.0f;
        a.vertices.push_back(v);
    }
    const uint32_t faces[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                   {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    if (submesh == a.submeshes.size())
        a.submeshes.push_back(BakedSubmesh{uint32_t(a.indices.size()), 0, glm::vec4(1.0f), -1});
    ASSERT_EQ(a.submeshes[submesh].first_index + a.submeshes[submesh].index_count, a.indices.size());
    for (const auto& f : faces)
        for (uint32_t k : f) a.indices.push_back(base + k);
    a.submeshes[submesh].index_count += 36;
}

// The stalled chain's fallbacks (lod.cpp): pieces too small to simplify alone, each its own
// submesh (more of them than a share group holds), are joined and clustered as one body; the
// chain goes well below the pieces' 12 triangles each, and every triangle of a level stays in a
// submesh one of its vertices came from.
TEST(Lod, ManySmallPiecesAreSimplifiedAsOneBody) {
    BakedAsset a;
    const int side = 7; // 49 boxes in a 7 x 7 patch: 588 triangles
    for (int z = 0; z < side; ++z)
        for (int x = 0; x < side; ++x)
            addBox(a, glm::vec3(float(x), 0.0f, float(z)), glm::vec3(0.3f), a.submeshes.size());
    buildLods(a, kMaxBakedLods);
    ASSERT_GE(a.lods.size(), 3u);
    const uint64_t full = a.lods[0].triangleCount();
    EXPECT_EQ(full, 588u);
    EXPECT_LT(a.lods.back().triangleCount(), full / 10) << "the chain stalled";
    for (size_t l = 1; l < a.lods.size(); ++l) {
        EXPECT_LT(a.lods[l].triangleCount(), a.lods[l - 1].triangleCount());
        EXPECT_GE(a.lods[l].error, a.lods[l - 1].error);
        EXPECT_LT(a.lods[l].error, 2.0f * float(side)) << "LOD " << l; // within the patch's size
        for (size_t s = 0; s < a.submeshes.size(); ++s) {
            const BakedSubmesh& sub = a.submeshes[s];
            const BakedLodRange& r = a.lods[l].submeshes[s];
            for (uint32_t t = r.first_index; t < r.first_index + r.index_count; t += 3) {
                bool own = false;
                for (uint32_t k = 0; k < 3; ++k)
                    own |= a.indices[t + k] >= a.vertices.size() ? false : a.indices[t + k] / 8 == sub.first_index / 36;
                EXPECT_TRUE(own) << "LOD " << l << " submesh " << s;
            }
        }
    }
}

// A long thin model (21 boxes touching in a row along x, 42 times longer than wide, one submesh,
// like the FBX sample's chain of bones):
// clustering on a cubic grid keeps every box or none, so the chain stopped at 252 triangles; on
// the grid stretched per axis it goes on.
TEST(Lod, ALongThinModelIsClusteredOnAStretchedGrid) {
    BakedAsset a;
    for (int i = 0; i < 21; ++i) addBox(a, glm::vec3(2.0f * float(i), 0.0f, 0.0f), glm::vec3(1.0f, 0.5f, 0.5f), 0);
    buildLods(a, kMaxBakedLods);
    ASSERT_GE(a.lods.size(), 2u);
    EXPECT_EQ(a.lods[0].triangleCount(), 252u);
    EXPECT_LE(a.lods.back().triangleCount(), 84u) << "the chain stalled";
    for (size_t l = 1; l < a.lods.size(); ++l) {
        EXPECT_LT(a.lods[l].triangleCount(), a.lods[l - 1].triangleCount());
        EXPECT_GE(a.lods[l].error, a.lods[l - 1].error);
        EXPECT_LT(a.lods[l].error, 42.0f) << "LOD " << l; // the row's length
    }
}

TEST(Lod, RoundTripThroughAThrongFileIsBitExact) {
    const BakedAsset a = mustBake(makeWalker());
    const std::string path = (test::scratchDir("lod") / "walker.throng").string();
    ASSERT_TRUE(writeThrong(a, path).ok());
    Result<BakedAsset> b = readThrong(path);
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(b.value().indices, a.indices);
    ASSERT_EQ(b.value().lods.size(), a.lods.size());
    for (size_t l = 0; l < a.lods.size(); ++l) {
        EXPECT_EQ(b.value().lods[l].submeshes, a.lods[l].submeshes);
        EXPECT_EQ(std::bit_cast<uint32_t>(b.value().lods[l].error), std::bit_cast<uint32_t>(a.lods[l].error));
    }
}

// --- Shared models -------------------------------------------------------------------------

void sharedChain(const std::string& path, bool check_bounds) {
    Result<Model> model = importModel(path);
    ASSERT_TRUE(model.ok()) << model.error().message;
    const BakedAsset a = mustBake(model.value());
    printChain(path, a);
    expectGoodChain(model.value(), a);
    if (check_bounds) expectLodsInsideClipBounds(model.value(), a);
    const std::string out = (test::scratchDir("shared") / "asset.throng").string();
    ASSERT_TRUE(writeThrong(a, out).ok());
    Result<BakedAsset> b = readThrong(out);
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(b.value().indices, a.indices);
    ASSERT_EQ(b.value().lods.size(), a.lods.size());
    for (size_t l = 0; l < a.lods.size(); ++l) EXPECT_EQ(b.value().lods[l].submeshes, a.lods[l].submeshes);
}

TEST(LodShared, CesiumMan) {
    THRONG_ASSET(p, "CesiumMan/CesiumMan.glb");
    sharedChain(p, true);
}
TEST(LodShared, Fox) {
    THRONG_ASSET(p, "Fox/Fox.glb");
    sharedChain(p, true);
}
TEST(LodShared, RobotExpressive) {
    THRONG_ASSET(p, "RobotExpressive/RobotExpressive.glb");
    sharedChain(p, false);
}

// Models whose chains stalled before the fallbacks (the robot's 19 small meshes at 287
// triangles, the FBX sample's row of boxes at 252) now reach the coarse levels a far crowd needs.
void expectCoarseEnd(const std::string& path, double fraction) {
    Result<Model> model = importModel(path);
    ASSERT_TRUE(model.ok()) << model.error().message;
    const BakedAsset a = mustBake(model.value());
    printChain(path, a);
    EXPECT_LE(double(a.lods.back().triangleCount()), fraction * double(a.lods[0].triangleCount()));
}
TEST(LodShared, RobotExpressiveReachesTheCoarseEnd) {
    THRONG_ASSET(p, "RobotExpressive/RobotExpressive.glb");
    expectCoarseEnd(p, 0.02);
}
TEST(LodShared, FbxSampleReachesTheCoarseEnd) {
    THRONG_ASSET(p, "AnimationWithSkeleton_FBX/animation_with_skeleton.fbx");
    expectCoarseEnd(p, 0.02);
}

// --- The CLI -------------------------------------------------------------------------------

using throng::test::CliRun;

TEST(LodCli, BakeListsTheChain) {
    const auto dir = test::scratchDir("bake");
    const std::string out = (dir / "walker.throng").string();
    CliRun r = test::runThrong("bake builtin:walker -o " + out + " --lods 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(", 4 LODs 9600 "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" triangles, errors 0 "), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    Result<BakedAsset> a = readThrong(out);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a.value().lods.size(), 4u);
    r = test::runThrong("bake builtin:walker -o " + out + " --lods 0");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(", 1 LOD 9600 triangles, errors 0\n"), std::string::npos) << r.out;
    r = test::runThrong("bake builtin:walker -o " + out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    a = readThrong(out);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_NE(r.out.find(", " + std::to_string(a.value().lods.size()) + " LODs 9600 4"), std::string::npos) << r.out;
    r = test::runThrong("bake builtin:walker -o " + out + " --lods 9");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "throng: error: --lods: 9 is out of range (0 .. 8) (see throng bake --help)\n");
}

TEST(LodCli, InfoListsTheChain) {
    Result<std::vector<BakedLod>> chain = lodChain(makeWalker());
    ASSERT_TRUE(chain.ok()) << chain.error().message;
    CliRun r = test::runThrong("info builtin:walker");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("  lods       " + std::to_string(chain.value().size()) + " (as throng bake stores them"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("    LOD 0       9600 triangles  error 0\n"), std::string::npos) << r.out;
    r = test::runThrong("info builtin:walker --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["lods"].size(), chain.value().size());
    for (size_t l = 0; l < chain.value().size(); ++l) {
        EXPECT_EQ(j["lods"][l]["triangles"].get<uint64_t>(), chain.value()[l].triangleCount());
        EXPECT_EQ(j["lods"][l]["error"].get<float>(), chain.value()[l].error);
    }
    EXPECT_FALSE(j.contains("lods_error"));
}

} // namespace
