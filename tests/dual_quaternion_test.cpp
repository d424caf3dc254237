// Dual-quaternion skinning (--skinning dual-quaternion): the double reference (throng/anim.h)
// keeps the cross-section of builtin:twist where linear blending collapses it and agrees with
// linear blending where nothing twists; techniques palette and baked draw it on the GPU as the
// reference says (validation on); the command line end to end.
#include "../src/render/renderer.h"
#include <throng/anim.h>
#include <throng/bake.h>
#include <throng/builtin.h>

#include "gpu_suite.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace throng {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr int kSegments = 24; // builtin:twist's vertices around the axis

// The area of the polygon of `ring` (in order around the axis) projected on the xz plane.
double ringArea(const std::vector<glm::dvec3>& ring) {
    double twice = 0.0;
    for (size_t i = 0; i < ring.size(); ++i) {
        const glm::dvec3& a = ring[i];
        const glm::dvec3& b = ring[(i + 1) % ring.size()];
        twice += a.x * b.z - b.x * a.z;
    }
    return std::abs(twice) / 2.0;
}

// The vertices of builtin:twist at height y (within 1e-4), in their order around the axis.
std::vector<uint32_t> ringAt(const std::vector<glm::vec3>& bind, double y) {
    std::vector<uint32_t> ring;
    for (uint32_t v = 0; v < bind.size(); ++v)
        if (std::abs(bind[v].y - y) < 1e-4) ring.push_back(v);
    std::sort(ring.begin(), ring.end(), [&](uint32_t a, uint32_t b) {
        return std::atan2(bind[a].z, bind[a].x) < std::atan2(bind[b].z, bind[b].x);
    });
    return ring;
}

// The middle ring's area at `time` of clip `twist`, as a share of the bind pose's.
double middleShare(const Model& twist, double time, bool dual) {
    const Mesh& mesh = twist.meshes[0];
    const std::vector<glm::dmat4> m = referenceSkinningMatrices(twist, &twist.clips[0], time, true);
    const SkinnedVertices v = dual ? referenceSkinDualQuaternion(mesh, m) : referenceSkin(mesh, m);
    std::vector<glm::dvec3> skinned, bind;
    for (uint32_t i : ringAt(mesh.positions, 1.0)) {
        skinned.push_back(v.positions[i]);
        bind.push_back(glm::dvec3(mesh.positions[i]));
    }
    EXPECT_EQ(skinned.size(), size_t(kSegments));
    return ringArea(skinned) / ringArea(bind);
}

TEST(DualQuaternion, RigidAndUniformlyScaledMatricesComeBackExactly) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < 200; ++i) {
        const glm::dquat q = glm::normalize(glm::dquat(u(rng), u(rng), u(rng), u(rng)));
        const double s = 0.1 + 2.0 * (u(rng) + 1.0);
        glm::dmat4 m(glm::mat3_cast(q) * s);
        m[3] = glm::dvec4(10.0 * u(rng), 10.0 * u(rng), 10.0 * u(rng), 1.0);
        const glm::dmat4 matrices[1] = {m};
        const glm::dmat4 back = dualQuaternionBlend(matrices, glm::u16vec4(0), glm::vec4(1, 0, 0, 0));
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) ASSERT_NEAR(back[c][r], m[c][r], 1e-12 * (1.0 + 10.0 * s)) << i;
        // Two joints of the same matrix blend to it, whatever the weights and the sign of q.
        const glm::dmat4 same[2] = {m, m};
        const glm::dmat4 mixed = dualQuaternionBlend(same, glm::u16vec4(0, 1, 0, 0), glm::vec4(0.3f, 0.7f, 0, 0));
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) ASSERT_NEAR(mixed[c][r], m[c][r], 1e-12 * (1.0 + 10.0 * s)) << i;
    }
}

// A joint scaled to nothing (a hidden accessory) collapses its vertices onto its translation, as
// linear blending does, instead of making them NaN.
TEST(DualQuaternion, AJointScaledToNothingCollapsesLikeLinearBlending) {
    glm::dmat4 hidden(0.0);
    hidden[3] = glm::dvec4(1.0, 2.0, 3.0, 1.0);
    const glm::dmat4 matrices[2] = {hidden, glm::dmat4(1.0)};
    const glm::dmat4 alone = dualQuaternionBlend(matrices, glm::u16vec4(0), glm::vec4(1, 0, 0, 0));
    EXPECT_EQ(glm::dvec3(alone * glm::dvec4(0.3, -0.7, 0.2, 1.0)), glm::dvec3(1.0, 2.0, 3.0));
    const glm::dmat4 half = dualQuaternionBlend(matrices, glm::u16vec4(0, 1, 0, 0), glm::vec4(0.5f, 0.5f, 0, 0));
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) EXPECT_TRUE(std::isfinite(half[c][r])) << c << " " << r;
    const glm::dvec3 p = glm::dvec3(half * glm::dvec4(1.0, 0.0, 0.0, 1.0));
    EXPECT_NEAR(p.x, 0.5 + 0.5, 1e-12); // half the scale, half the translation: as linear blending here
    EXPECT_NEAR(p.y, 1.0, 1e-12);
    EXPECT_NEAR(p.z, 1.5, 1e-12);
}

// The test: builtin:twist turned 180 degrees keeps its middle cross-section with dual
// quaternions and loses it with linear blending.
TEST(DualQuaternion, TwistKeepsItsCrossSectionWhereLinearBlendingCollapses) {
    const Model twist = makeTwist();
    ASSERT_TRUE(validate(twist));
    for (double time : {0.0, 0.5, 1.0, 1.5, 1.9, 2.0}) {
        const double degrees = 90.0 * time;
        const double dual = middleShare(twist, time, true), linear = middleShare(twist, time, false);
        std::printf("twist %5.1f degrees: middle cross-section %.4f of the bind pose's with dual quaternions, %.4f "
                    "linear (cos^2 of half the angle: %.4f)\n",
                    degrees, dual, linear, std::pow(std::cos(degrees / 2.0 * kPi / 180.0), 2.0));
        // The clip's keys are float quaternions: exact to about 1e-7.
        EXPECT_NEAR(dual, 1.0, 1e-6);
        EXPECT_NEAR(linear, std::pow(std::cos(degrees / 2.0 * kPi / 180.0), 2.0), 1e-6);
    }
    EXPECT_LT(middleShare(twist, 2.0, false), 1e-6); // collapsed onto the axis
}

// Where joints bend rather than twist, the two blends agree closely: the walker's walk and idle
// against linear blending, each vertex's distance as a share of the bind pose's diagonal.
TEST(DualQuaternion, UntwistedPosesAgreeWithLinearBlending) {
    const Model walker = makeWalker();
    const double diagonal = bindPoseBounds(walker).diagonal();
    for (const Clip& clip : walker.clips) {
        double worst = 0.0, sum = 0.0;
        size_t count = 0;
        for (int k = 0; k <= 20; ++k) {
            const double time = clip.duration * k / 20.0;
            const std::vector<glm::dmat4> m = referenceSkinningMatrices(walker, &clip, time, true);
            const SkinnedVertices linear = referenceSkin(walker.meshes[0], m);
            const SkinnedVertices dual = referenceSkinDualQuaternion(walker.meshes[0], m);
            for (size_t v = 0; v < linear.positions.size(); ++v) {
                const double d = glm::length(linear.positions[v] - dual.positions[v]) / diagonal;
                worst = std::max(worst, d);
                sum += d;
                ++count;
            }
            if (k == 0 && &clip == &walker.clips[0]) {
                // The rest pose: identical.
                const std::vector<glm::dmat4> rest = referenceSkinningMatrices(walker, nullptr, 0.0, true);
                const SkinnedVertices a = referenceSkin(walker.meshes[0], rest);
                const SkinnedVertices b = referenceSkinDualQuaternion(walker.meshes[0], rest);
                for (size_t v = 0; v < a.positions.size(); ++v)
                    ASSERT_LT(glm::length(a.positions[v] - b.positions[v]), 1e-12 * diagonal);
            }
        }
        std::printf("walker %s: dual quaternions against linear blending, worst %.2e, mean %.2e of the diagonal\n",
                    clip.name.c_str(), worst, sum / double(count));
        EXPECT_LT(worst, 5e-3) << clip.name; // measured 3.7e-3 (walk), 1.4e-4 (idle)
        EXPECT_LT(sum / double(count), 1e-3) << clip.name;
    }
}

class DualQuaternionGpu : public test::GpuSuite {};

// builtin:twist drawn by palette and baked with the capture shaders: the middle ring's area from
// the GPU's positions, at 90 and 180 degrees, for both blends.
TEST_F(DualQuaternionGpu, PaletteAndBakedKeepTheTwistsCrossSection) {
    if (!context_->vertex_stores) GTEST_SKIP() << "the device lacks vertexPipelineStoresAndAtomics (capture shaders)";
    const Model twist = makeTwist();
    BakeOptions options;
    options.lods = 1;
    Result<BakedAsset> baked = bake(twist, options);
    ASSERT_TRUE(baked) << baked.error().message;
    const BakedAsset& asset = baked.value();
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, asset);
    ASSERT_TRUE(g.ok());
    std::vector<glm::vec3> bind;
    for (const BakedVertex& v : asset.vertices) bind.push_back({v.position[0], v.position[1], v.position[2]});
    const std::vector<uint32_t> ring = ringAt(bind, 1.0);
    ASSERT_EQ(ring.size(), size_t(kSegments));

    render::CrowdLayout co;
    co.count = 4;
    co.cross_fade_share = 0.0f;
    render::Crowd crowd = render::makeCrowd(asset, co);
    for (gpu::shader::InstanceRecord& r : crowd.instances) { // every member at the clip's own time
        r.speed = 1.0f;
        r.time_offset = 0.0f;
        r.blend = 0.0f;
    }
    const glm::mat4 vp = render::frameBounds(crowd.bounds, 1.0f);
    for (const char* technique : {"palette", "baked"})
        for (Skinning skinning : {Skinning::Linear, Skinning::DualQuaternion})
            for (float time : {1.0f, 2.0f}) {
                render::RenderSettings s;
                s.technique = technique;
                s.skinning = skinning;
                s.baked = &asset;
                s.width = s.height = 64;
                s.frames = 1;
                s.time = time;
                s.capture = true;
                Result<render::RenderOutput> r = render::renderCrowd(*allocator_, g.value(), crowd, vp, s);
                ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
                const std::vector<glm::vec4>& p = r.value().positions;
                for (size_t i = 0; i < crowd.instances.size(); ++i) {
                    const double scale = crowd.instances[i].position_scale.w;
                    std::vector<glm::dvec3> skinned, rest;
                    for (uint32_t v : ring) {
                        skinned.push_back(glm::dvec3(p[i * asset.vertices.size() + v]) / scale);
                        rest.push_back(glm::dvec3(bind[v]));
                    }
                    const double share = ringArea(skinned) / ringArea(rest);
                    if (i == 0)
                        std::printf("%-36s %s %3.0f degrees: middle cross-section %.4f of the bind pose's\n",
                                    r.value().technique.c_str(), toString(skinning), 90.0 * time, share);
                    // Within 0.5%: a member's orientation is stored as four halves, not quite
                    // a unit quaternion, which scales it by up to about 0.1% a side.
                    if (skinning == Skinning::DualQuaternion)
                        EXPECT_NEAR(share, 1.0, 5e-3) << technique << " " << time;
                    else
                        EXPECT_NEAR(share, time == 1.0f ? 0.5 : 0.0, 5e-3) << technique << " " << time;
                }
            }
    g.value().release();
}

TEST_F(DualQuaternionGpu, TechniquesThatCannotAreRefused) {
    const BakedAsset asset = bake(makeTwist(), {}).value();
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, asset);
    ASSERT_TRUE(g.ok());
    render::CrowdLayout co;
    co.count = 2;
    const render::Crowd crowd = render::makeCrowd(asset, co);
    const glm::mat4 vp = render::frameBounds(crowd.bounds, 1.0f);
    for (const char* technique : {"cpu", "bonetex", "static", "vat"}) {
        render::RenderSettings s;
        s.technique = technique;
        s.skinning = Skinning::DualQuaternion;
        s.baked = &asset;
        s.width = s.height = 32;
        s.frames = 1;
        Result<render::RenderOutput> r = render::renderCrowd(*allocator_, g.value(), crowd, vp, s);
        ASSERT_FALSE(r.ok()) << technique;
        EXPECT_NE(r.error().message.find("dual-quaternion skinning is drawn by techniques palette"), std::string::npos)
            << r.error().message;
    }
    g.value().release();
}

// The command line: a picture with each blend, and one line for what cannot be drawn.
TEST(DualQuaternionCli, RenderDrawsTheTwistAndRefusesWhatItCannot) {
    const std::string dir = test::scratchDir("dq").string();
    for (const char* technique : {"palette", "baked"}) {
        const std::string png = dir + "/twist-" + technique + ".png";
        const test::CliRun r = test::runThrong("render --model builtin:twist --technique " + std::string(technique) +
                                               " --skinning dual-quaternion --instances 9 --time 2 --size 96x64 "
                                               "--frames 1 --validate --out " +
                                               png);
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_NE(r.out.find("dual-quaternion"), std::string::npos) << r.out;
        EXPECT_TRUE(std::filesystem::exists(png));
    }
    const test::CliRun cpu =
        test::runThrong("render --model builtin:twist --technique cpu --skinning dual-quaternion --size 32x32 --out " +
                        dir + "/no.png");
    EXPECT_EQ(cpu.exit_code, 2) << cpu.err; // options that do not go together: a usage error
    EXPECT_EQ(cpu.err.find('\n'), cpu.err.size() - 1) << cpu.err;
    EXPECT_NE(cpu.err.find("dual-quaternion skinning is drawn by techniques palette"), std::string::npos) << cpu.err;
    EXPECT_FALSE(std::filesystem::exists(dir + "/no.png"));
    // The compute rasterizer blends dual quaternions too (raster_test compares its pictures).
    const test::CliRun raster =
        test::runThrong("render --model builtin:twist --skinning dual-quaternion --raster compute --size 32x32 "
                        "--frames 1 --validate --out " +
                        dir + "/raster.png");
    EXPECT_EQ(raster.exit_code, 0) << raster.err;
    EXPECT_TRUE(std::filesystem::exists(dir + "/raster.png"));
    const test::CliRun bad =
        test::runThrong("render --model builtin:twist --skinning spherical --out " + dir + "/no.png");
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
}

} // namespace
} // namespace throng
