// The CPU runtime: interpolation modes (exact at keys, hand-computed between them), looping,
// the hierarchy, and the float skinning path (every SIMD level this CPU runs, and the threaded
// run) against the double reference and the scalar loop.
#include <throng/anim.h>

#include "../src/anim/skin_simd.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace throng;

namespace {

Track track(TrackTarget target, Interpolation interp, std::vector<float> times, std::vector<glm::vec4> values) {
    return Track{0, target, interp, std::move(times), std::move(values)};
}

glm::vec4 axisAngle(glm::vec3 axis, float degrees) {
    const glm::quat q = glm::angleAxis(glm::radians(degrees), glm::normalize(axis));
    return {q.x, q.y, q.z, q.w};
}

} // namespace

TEST(ClipTime, LoopsAndClamps) {
    EXPECT_DOUBLE_EQ(clipTime(2.5, 2.0, true), 0.5);
    EXPECT_DOUBLE_EQ(clipTime(-0.5, 2.0, true), 1.5);
    EXPECT_DOUBLE_EQ(clipTime(2.0, 2.0, true), 0.0);
    EXPECT_DOUBLE_EQ(clipTime(2.5, 2.0, false), 2.0);
    EXPECT_DOUBLE_EQ(clipTime(-1.0, 2.0, false), 0.0);
    EXPECT_DOUBLE_EQ(clipTime(5.0, 0.0, true), 0.0);
}

TEST(SampleTrack, KeyTimesReturnKeysExactly) {
    const std::vector<float> times = {0.1f, 0.35f, 0.8f, 1.3f};
    const std::vector<glm::vec4> values = {
        {1.1f, 2.2f, 3.3f, 0}, {-4.7f, 0.3f, 9.1f, 0}, {0.01f, 1e-5f, 7.0f, 0}, {5, 6, 7, 0}};
    for (Interpolation interp : {Interpolation::Step, Interpolation::Linear}) {
        const Track t = track(TrackTarget::Translation, interp, times, values);
        for (size_t k = 0; k < times.size(); ++k)
            EXPECT_EQ(sampleTrack(t, times[k]), values[k]) << toString(interp) << " key " << k;
    }
    std::vector<glm::vec4> rot;
    for (int k = 0; k < 4; ++k) rot.push_back(axisAngle({1, 2, 3}, 37.0f * float(k)));
    const Track r = track(TrackTarget::Rotation, Interpolation::Linear, times, rot);
    for (size_t k = 0; k < times.size(); ++k) EXPECT_EQ(sampleTrack(r, times[k]), rot[k]);
    std::vector<glm::vec4> cubic;
    for (const glm::vec4& v : values) cubic.insert(cubic.end(), {v * 3.0f, v, v * -2.0f});
    const Track c = track(TrackTarget::Translation, Interpolation::CubicSpline, times, cubic);
    for (size_t k = 0; k < times.size(); ++k) EXPECT_EQ(sampleTrack(c, times[k]), values[k]);
}

TEST(SampleTrack, StepHoldsThePreviousKey) {
    const Track t =
        track(TrackTarget::Translation, Interpolation::Step, {0, 1, 2}, {{1, 0, 0, 0}, {2, 0, 0, 0}, {3, 0, 0, 0}});
    EXPECT_EQ(sampleTrack(t, 0.999f).x, 1.0f);
    EXPECT_EQ(sampleTrack(t, 1.5f).x, 2.0f);
    EXPECT_EQ(sampleTrack(t, 7.0f).x, 3.0f);  // after the last key: the last value
    EXPECT_EQ(sampleTrack(t, -1.0f).x, 1.0f); // before the first: the first
}

TEST(SampleTrack, LinearInterpolates) {
    const Track t = track(TrackTarget::Translation, Interpolation::Linear, {1, 3}, {{0, 10, -2, 0}, {4, 20, 2, 0}});
    const glm::vec4 v = sampleTrack(t, 1.5f); // a quarter of the way
    EXPECT_FLOAT_EQ(v.x, 1.0f);
    EXPECT_FLOAT_EQ(v.y, 12.5f);
    EXPECT_FLOAT_EQ(v.z, -1.0f);
}

TEST(SampleTrack, RotationSlerpsAlongTheShortestArc) {
    // 0 and 170 degrees about y; the second key stored negated (same rotation, other hemisphere).
    const glm::vec4 a = axisAngle({0, 1, 0}, 0.0f);
    const glm::vec4 b = -axisAngle({0, 1, 0}, 170.0f);
    const Track t = track(TrackTarget::Rotation, Interpolation::Linear, {0, 1}, {a, b});
    const glm::vec4 mid = sampleTrack(t, 0.5f);
    const glm::vec4 expected = axisAngle({0, 1, 0}, 85.0f);
    EXPECT_NEAR(std::fabs(glm::dot(mid, expected)), 1.0f, 1e-6f); // halfway by angle, not by chord
    const glm::vec4 q = sampleTrack(t, 0.25f);
    EXPECT_NEAR(std::fabs(glm::dot(q, axisAngle({0, 1, 0}, 42.5f))), 1.0f, 1e-6f);
}

TEST(SampleTrack, CubicSplineMatchesHandComputedValues) {
    // Keys at t = 1 and t = 3 (interval d = 2): value 0 -> 1, out-tangent of key 0 = 0.5/s,
    // in-tangent of key 1 = -1/s. At s = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125,
    // p = 0.5*0 + 0.125*(2*0.5) + 0.5*1 + (-0.125)*(2*-1) = 0.125 + 0.5 + 0.25 = 0.875.
    // At s = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875,
    // p = 0.140625*1 + 0.15625 + (-0.046875)*(-2) = 0.390625.
    const Track t = track(TrackTarget::Translation, Interpolation::CubicSpline, {1, 3},
                          {{9, 0, 0, 0}, {0, 0, 0, 0}, {0.5f, 0, 0, 0}, {-1, 0, 0, 0}, {1, 0, 0, 0}, {9, 0, 0, 0}});
    EXPECT_FLOAT_EQ(sampleTrack(t, 2.0f).x, 0.875f);
    EXPECT_FLOAT_EQ(sampleTrack(t, 1.5f).x, 0.390625f);
    // Rotations come back normalised.
    const Track r =
        track(TrackTarget::Rotation, Interpolation::CubicSpline, {0, 1},
              {{0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0.3f, 0, 0}, {0, 0.3f, 0, 0}, axisAngle({0, 1, 0}, 60), {0, 0, 0, 0}});
    EXPECT_NEAR(glm::length(sampleTrack(r, 0.4f)), 1.0f, 1e-6f);
}

TEST(Jobs, RejectBrokenContracts) {
    Skeleton sk;
    sk.names = {"a", "b"};
    sk.parents = {kNoParent, 0};
    sk.rest.resize(2);
    Clip clip{"c", 1.0f, {Track{5, TrackTarget::Translation, Interpolation::Linear, {0}, {{0, 0, 0, 0}}}}};
    std::vector<Transform> local(2);
    EXPECT_FALSE((SamplingJob{&sk, &clip, 0.0f, true, local}).run()); // track on joint 5
    clip.tracks[0].joint = 1;
    EXPECT_TRUE((SamplingJob{&sk, &clip, 0.0f, true, local}).run());
    std::vector<Transform> short_local(1);
    EXPECT_FALSE((SamplingJob{&sk, &clip, 0.0f, true, short_local}).run());
    std::vector<glm::mat4> world(1);
    EXPECT_FALSE((LocalToModelJob{&sk, local, world}).run());
    const std::vector<PaletteEntry> palette = {PaletteEntry{3, glm::mat4(1)}};
    std::vector<glm::mat4> skin(1), two(2);
    EXPECT_FALSE((SkinningMatricesJob{palette, two, skin}).run());
    const std::vector<glm::vec3> p(1), n(1);
    std::vector<glm::vec3> out(1), out_n(1);
    const std::vector<glm::u16vec4> j = {{2, 0, 0, 0}};
    const std::vector<glm::vec4> w = {{1, 0, 0, 0}};
    EXPECT_FALSE((SkinningJob{two, p, n, j, w, out, out_n}).run()); // joint 2 of 2 matrices
    const std::vector<glm::u16vec4> j_ok = {{1, 0, 0, 0}};
    EXPECT_FALSE((SkinningJob{two, p, n, j_ok, w, out, {}}).run()); // normals in, none out
    EXPECT_TRUE((SkinningJob{two, p, {}, j_ok, w, out, {}}).run()); // positions only
}

// A random skeleton, mesh and clip; the float jobs must agree with the double reference.
TEST(Skinning, FloatPathMatchesDoubleReference) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    Model m;
    const int joints = 12;
    for (int j = 0; j < joints; ++j) {
        m.skeleton.names.push_back("j" + std::to_string(j));
        m.skeleton.parents.push_back(j == 0 ? kNoParent : int32_t(rng() % uint32_t(j)));
        Transform t;
        t.translation = {u(rng), u(rng) + 1.0f, u(rng)};
        t.rotation = glm::normalize(glm::quat(1.0f + u(rng), u(rng), u(rng), u(rng)));
        t.scale = glm::vec3(1.0f + 0.2f * u(rng));
        m.skeleton.rest.push_back(t);
        m.palette.push_back(PaletteEntry{uint32_t(j), glm::mat4(1.0f)});
    }
    Mesh mesh;
    for (int v = 0; v < 500; ++v) {
        mesh.positions.emplace_back(u(rng), u(rng), u(rng));
        mesh.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 1.5f)));
        glm::vec4 w(std::fabs(u(rng)) + 0.01f, std::fabs(u(rng)), std::fabs(u(rng)), std::fabs(u(rng)));
        mesh.weights.push_back(w / (w.x + w.y + w.z + w.w));
        mesh.joints.emplace_back(rng() % joints, rng() % joints, rng() % joints, rng() % joints);
    }
    m.meshes.push_back(mesh);
    Clip clip{"random", 2.0f, {}};
    for (int j = 0; j < joints; ++j) {
        Track r{uint32_t(j), TrackTarget::Rotation, Interpolation::Linear, {0.0f, 0.7f, 2.0f}, {}};
        for (int k = 0; k < 3; ++k) r.values.push_back(axisAngle({u(rng), u(rng), u(rng)}, 120.0f * u(rng)));
        clip.tracks.push_back(r);
    }
    ASSERT_TRUE(validate(m.skeleton).ok());
    std::vector<Transform> local(joints);
    std::vector<glm::mat4> world(joints), skin(joints);
    std::vector<glm::vec3> pos(mesh.positions.size()), nrm(mesh.positions.size());
    for (float t : {0.0f, 0.35f, 0.7f, 1.234f, 1.99f}) {
        ASSERT_TRUE((SamplingJob{&m.skeleton, &clip, t, true, local}).run());
        ASSERT_TRUE((LocalToModelJob{&m.skeleton, local, world}).run());
        ASSERT_TRUE((SkinningMatricesJob{m.palette, world, skin}).run());
        const SkinningJob job{skin, mesh.positions, mesh.normals, mesh.joints, mesh.weights, pos, nrm};
        const std::vector<glm::dmat4> ref = referenceSkinningMatrices(m, &clip, t, true);
        const SkinnedVertices exact = referenceSkin(mesh, ref);
        // run() (the level picked at run time), then each level this CPU runs, on 500 vertices:
        // whole blocks plus a tail for every block width.
        ASSERT_TRUE(job.run());
        for (int level = -1; level < int(std::size(detail::kSimdLevels)); ++level) {
            const char* name = "run()";
            if (level >= 0) {
                const detail::SimdLevel simd = detail::kSimdLevels[level];
                if (!detail::simdLevelSupported(simd)) continue;
                name = detail::toString(simd);
                std::fill(pos.begin(), pos.end(), glm::vec3(NAN));
                std::fill(nrm.begin(), nrm.end(), glm::vec3(NAN));
                detail::skinRange(simd, job, 0, pos.size());
            }
            SCOPED_TRACE(std::string(name) + " t " + std::to_string(t));
            for (size_t v = 0; v < pos.size(); ++v) {
                EXPECT_LT(glm::length(glm::dvec3(pos[v]) - exact.positions[v]), 1e-5) << "vertex " << v;
                EXPECT_LT(glm::length(glm::dvec3(nrm[v]) - exact.normals[v]), 1e-4) << "vertex " << v;
            }
        }
    }
}

namespace {

// Matrices and vertices that reach every branch of the kernels: mirroring matrices (negative
// determinant), a degenerate one (zero linear part, so the normal is kept), non-uniform scale,
// and weight slots that are zero on whole blocks, on some vertices, or never.
struct SkinCase {
    std::vector<glm::mat4> matrices;
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
};

SkinCase skinCase(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    SkinCase c;
    for (int j = 0; j < 9; ++j) {
        glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(u(rng), u(rng), u(rng)) * 3.0f);
        m = glm::rotate(m, 3.0f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 2)));
        m = glm::scale(m, glm::vec3(1.0f + 0.5f * u(rng), 1.0f + 0.5f * u(rng), 1.0f + 0.5f * u(rng)));
        if (j % 4 == 3) m = glm::scale(m, glm::vec3(-1, 1, 1)); // mirroring
        c.matrices.push_back(m);
    }
    glm::mat4 degenerate(0.0f);
    degenerate[3] = glm::vec4(1, 2, 3, 1);
    c.matrices.push_back(degenerate);
    const uint16_t kDegenerate = 9;
    for (size_t v = 0; v < n; ++v) {
        c.positions.emplace_back(u(rng) * 2.0f, u(rng) * 2.0f, u(rng) * 2.0f);
        c.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0.1f, 0.2f, 0.3f)));
        glm::u16vec4 j(rng() % 9, rng() % 9, rng() % 9, rng() % 9);
        glm::vec4 w(std::fabs(u(rng)) + 0.05f, std::fabs(u(rng)), std::fabs(u(rng)), std::fabs(u(rng)));
        switch ((v / 16) % 4) {          // per 16 vertices, so whole blocks of every width share a pattern
        case 0: break;                   // 4 influences
        case 1: w.z = w.w = 0.0f; break; // 2 influences
        case 2:
            w.y = (v % 3 == 0) ? 0.0f : w.y;
            w.w = (v % 5 == 0) ? -0.0f : 0.0f;
            break; // mixed
        case 3:
            w = glm::vec4(1, 0, 0, 0);
            if (v % 7 == 0) j.x = kDegenerate;
            break; // rigid
        }
        c.joints.push_back(j);
        c.weights.push_back(w / (w.x + w.y + w.z + w.w));
    }
    return c;
}

void expectClose(glm::vec3 a, glm::vec3 b, const std::string& what) {
    EXPECT_LE(glm::length(a - b), 1e-5f * std::max(1.0f, glm::length(b)))
        << what << ": " << a.x << " " << a.y << " " << a.z << " vs " << b.x << " " << b.y << " " << b.z;
}

} // namespace

// Every SIMD level against the scalar loop on sub-ranges that start and end inside blocks: the
// kernels must write exactly [begin, end), agree to 1e-5 relative, and handle empty ranges.
TEST(Skinning, EverySimdLevelMatchesTheScalarLoopOnAnyRange) {
    const size_t n = 150;
    const SkinCase c = skinCase(n, 11);
    std::vector<glm::vec3> want_p(n), want_n(n), pos(n), nrm(n);
    const SkinningJob scalar_job{c.matrices, c.positions, c.normals, c.joints, c.weights, want_p, want_n};
    ASSERT_TRUE(scalar_job.validate());
    detail::skinScalar(scalar_job, 0, n);
    int degenerate = 0;
    for (size_t v = 0; v < n; ++v)
        if (c.weights[v].x == 1.0f && c.joints[v].x == 9) {
            EXPECT_EQ(want_n[v], c.normals[v]) << "a degenerate blend keeps the normal, vertex " << v;
            ++degenerate;
        }
    EXPECT_GT(degenerate, 0);
    const SkinningJob job{c.matrices, c.positions, c.normals, c.joints, c.weights, pos, nrm};
    const SkinningJob positions_only{c.matrices, c.positions, {}, c.joints, c.weights, pos, {}};
    for (detail::SimdLevel simd : detail::kSimdLevels) {
        if (!detail::simdLevelSupported(simd)) continue;
        for (const auto& [begin, end] : {std::pair<size_t, size_t>{0, n},
                                         {0, 0},
                                         {5, 5},
                                         {0, 1},
                                         {3, 4},
                                         {1, 18},
                                         {7, 40},
                                         {16, 32},
                                         {17, 150},
                                         {131, 150},
                                         {0, 15},
                                         {0, 17}}) {
            for (const bool normals : {true, false}) {
                const std::string what = std::string(detail::toString(simd)) + " [" + std::to_string(begin) + ", " +
                                         std::to_string(end) + ")" + (normals ? "" : " positions only");
                const glm::vec3 sentinel(-123.0f);
                std::fill(pos.begin(), pos.end(), sentinel);
                std::fill(nrm.begin(), nrm.end(), sentinel);
                detail::skinRange(simd, normals ? job : positions_only, begin, end);
                for (size_t v = 0; v < n; ++v) {
                    const bool inside = v >= begin && v < end;
                    if (!inside) {
                        EXPECT_EQ(pos[v], sentinel) << what << " wrote vertex " << v;
                        EXPECT_EQ(nrm[v], sentinel) << what << " wrote normal " << v;
                        continue;
                    }
                    expectClose(pos[v], want_p[v], what + " position " + std::to_string(v));
                    if (normals)
                        expectClose(nrm[v], want_n[v], what + " normal " + std::to_string(v));
                    else
                        EXPECT_EQ(nrm[v], sentinel) << what << " wrote normal " << v;
                }
            }
        }
    }
}

// validate() scans the joint indices 32 at a time: a bad index must be found in any position,
// in the vectorised part or the tail, up to the largest index there is.
TEST(Skinning, ValidateFindsABadJointIndexAnywhere) {
    const size_t n = 45; // 180 indices: five blocks of 32 and a tail of 20
    SkinCase c = skinCase(n, 3);
    std::vector<glm::vec3> p(n), nn(n);
    ASSERT_TRUE((SkinningJob{c.matrices, c.positions, c.normals, c.joints, c.weights, p, nn}).validate());
    for (size_t at = 0; at < 4 * n; ++at)
        for (const uint16_t bad : {uint16_t(c.matrices.size()), uint16_t(0x8000), uint16_t(0xffff)}) {
            SkinCase broken = c;
            broken.joints[at / 4][int(at % 4)] = bad;
            EXPECT_FALSE((SkinningJob{c.matrices, c.positions, c.normals, broken.joints, c.weights, p, nn}).validate())
                << "index " << bad << " at " << at;
        }
    std::vector<glm::mat4> many(0x10000, glm::mat4(1.0f)); // every uint16 index is valid
    c.joints[17].y = 0xffff;
    EXPECT_TRUE((SkinningJob{many, c.positions, c.normals, c.joints, c.weights, p, nn}).validate());
}

TEST(Skinning, RunParallelWritesTheSameBitsAsRun) {
    for (const size_t n : {size_t(0), size_t(37), kSkinningChunk, 3 * kSkinningChunk + 21}) {
        const SkinCase c = skinCase(n, 5);
        std::vector<glm::vec3> p1(n), n1(n), p2(n), n2(n);
        ASSERT_TRUE((SkinningJob{c.matrices, c.positions, c.normals, c.joints, c.weights, p1, n1}).run());
        ASSERT_TRUE((SkinningJob{c.matrices, c.positions, c.normals, c.joints, c.weights, p2, n2}).runParallel());
        EXPECT_TRUE(p1 == p2) << n << " vertices";
        EXPECT_TRUE(n1 == n2) << n << " vertices";
    }
    // The contract is checked before any thread starts: nothing is written.
    const SkinCase good = skinCase(3 * kSkinningChunk, 6);
    for (const size_t at : {size_t(0), good.positions.size() / 2, good.positions.size() - 1}) {
        SkinCase c = good;
        c.joints[at].w = uint16_t(c.matrices.size());
        std::vector<glm::vec3> p(c.positions.size(), glm::vec3(7.0f)), nn(c.positions.size(), glm::vec3(7.0f));
        EXPECT_FALSE((SkinningJob{c.matrices, c.positions, c.normals, c.joints, c.weights, p, nn}).runParallel()) << at;
        EXPECT_TRUE(std::all_of(p.begin(), p.end(), [](glm::vec3 x) { return x == glm::vec3(7.0f); })) << at;
        EXPECT_TRUE(std::all_of(nn.begin(), nn.end(), [](glm::vec3 x) { return x == glm::vec3(7.0f); })) << at;
    }
}

TEST(Skinning, NormalsUseTheInverseTransposeUnderNonUniformScale) {
    Model m;
    m.skeleton.names = {"j"};
    m.skeleton.parents = {kNoParent};
    Transform t;
    t.scale = {4.0f, 1.0f, 1.0f};
    m.skeleton.rest = {t};
    m.palette = {PaletteEntry{0, glm::mat4(1.0f)}};
    Mesh mesh;
    const glm::vec3 n = glm::normalize(glm::vec3(1, 1, 0));
    mesh.positions = {{0, 0, 0}};
    mesh.normals = {n};
    mesh.joints = {{0, 0, 0, 0}};
    mesh.weights = {{1, 0, 0, 0}};
    const auto ref = referenceSkin(mesh, referenceSkinningMatrices(m, nullptr, 0.0, false));
    const glm::dvec3 expected = glm::normalize(glm::dvec3(0.25, 1.0, 0.0)); // stretched x: normal tilts toward y
    EXPECT_NEAR(glm::length(ref.normals[0] - expected), 0.0, 1e-12);
    const std::vector<glm::mat4> skin = {toMatrix(t)};
    std::vector<glm::vec3> pos(1), nrm(1);
    ASSERT_TRUE((SkinningJob{skin, mesh.positions, mesh.normals, mesh.joints, mesh.weights, pos, nrm}).run());
    EXPECT_NEAR(glm::length(glm::dvec3(nrm[0]) - expected), 0.0, 1e-6);
}
