// Layered blending on the CPU (LayerJob, subtreeMask; issue #13 part 5's CPU half): the float
// jobs against the double reference of the same blend, the mask's reach, the exact ends.
#include <throng/anim.h>
#include <throng/builtin.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace throng {
namespace {

uint32_t jointNamed(const Skeleton& sk, const std::string& name) {
    const auto it = std::find(sk.names.begin(), sk.names.end(), name);
    EXPECT_NE(it, sk.names.end()) << name;
    return uint32_t(it - sk.names.begin());
}

std::vector<Transform> sample(const Model& m, const Clip& clip, float time) {
    std::vector<Transform> pose(m.skeleton.size());
    SamplingJob job{&m.skeleton, &clip, time, true, pose};
    EXPECT_TRUE(job.run());
    return pose;
}

// The float pipeline after the blend: local -> model -> skinning matrices.
std::vector<glm::mat4> skinning(const Model& m, const std::vector<Transform>& local) {
    std::vector<glm::mat4> model(m.skeleton.size()), out(m.palette.size());
    EXPECT_TRUE((LocalToModelJob{&m.skeleton, local, model}.run()));
    EXPECT_TRUE((SkinningMatricesJob{m.palette, model, out}.run()));
    return out;
}

TEST(Layer, SubtreeMaskHoldsTheJointAndItsDescendants) {
    const Model walker = makeWalker();
    const Skeleton& sk = walker.skeleton;
    const uint32_t spine = jointNamed(sk, "spine");
    const std::vector<float> mask = subtreeMask(sk, spine);
    ASSERT_EQ(mask.size(), sk.size());
    for (uint32_t j = 0; j < sk.size(); ++j) {
        bool below = false;
        for (int32_t k = int32_t(j); k != kNoParent; k = sk.parents[size_t(k)]) below = below || uint32_t(k) == spine;
        EXPECT_EQ(mask[j], below ? 1.0f : 0.0f) << sk.names[j];
    }
    EXPECT_EQ(mask[jointNamed(sk, "hips")], 0.0f);
    EXPECT_EQ(std::count(mask.begin(), mask.end(), 1.0f) + std::count(mask.begin(), mask.end(), 0.0f),
              std::ptrdiff_t(sk.size()));
    EXPECT_EQ(subtreeMask(sk, sk.size()), std::vector<float>(sk.size(), 0.0f)); // no such joint: nothing
}

// The walker walking with the idle's upper body (from `spine`) laid over it at several weights:
// the float jobs' skinned vertices against the double reference, as a share of the size.
TEST(Layer, UpperBodyOverAWalkMatchesTheDoubleReference) {
    const Model walker = makeWalker();
    const Clip& walk = walker.clips[0];
    const Clip& idle = walker.clips[1];
    ASSERT_EQ(walk.name, "walk");
    ASSERT_EQ(idle.name, "idle");
    const double size = bindPoseBounds(walker).diagonal();
    const std::vector<float> mask = subtreeMask(walker.skeleton, jointNamed(walker.skeleton, "spine"));
    double worst = 0.0, moved = 0.0;
    for (float weight : {0.0f, 0.3f, 0.75f, 1.0f})
        for (float time : {0.1f, 0.55f, 1.37f}) {
            const float idle_time = time * 0.8f + 0.4f;
            const std::vector<Transform> a = sample(walker, walk, time), b = sample(walker, idle, idle_time);
            std::vector<Transform> blended(walker.skeleton.size());
            ASSERT_TRUE((LayerJob{a, b, weight, mask, walker.skeleton.size(), blended}.run()));
            const std::vector<glm::mat4> m = skinning(walker, blended);
            std::vector<double> weights(mask.begin(), mask.end());
            for (double& w : weights) w *= weight;
            const std::vector<glm::dmat4> ref =
                referenceLayeredSkinningMatrices(walker, walk, time, idle, idle_time, weights, true);
            const std::vector<glm::dmat4> plain = referenceSkinningMatrices(walker, &walk, time, true);
            std::vector<glm::dmat4> md(m.begin(), m.end());
            const SkinnedVertices got = referenceSkin(walker.meshes[0], md);
            const SkinnedVertices want = referenceSkin(walker.meshes[0], ref);
            const SkinnedVertices base = referenceSkin(walker.meshes[0], plain);
            for (size_t v = 0; v < want.positions.size(); ++v) {
                worst = std::max(worst, glm::length(got.positions[v] - want.positions[v]) / size);
                moved = std::max(moved, glm::length(base.positions[v] - want.positions[v]) / size);
            }
        }
    std::printf("walk with the idle's upper body over it: float jobs within %.2e of the size of the double "
                "reference; the layer moves vertices by up to %.3f of the size\n",
                worst, moved);
    EXPECT_LT(worst, 1e-5);
    EXPECT_GT(moved, 0.01); // the layer does something
}

// Weight 0 keeps the base and weight 1 takes the layer, bit for bit, masked joints only; a
// cross-fade (no mask) halfway is a unit rotation the shorter way round; bad input is refused.
TEST(Layer, EndsAreExactAndContractsHold) {
    const Model walker = makeWalker();
    const uint32_t n = walker.skeleton.size();
    const std::vector<Transform> a = sample(walker, walker.clips[0], 0.3f), b = sample(walker, walker.clips[1], 1.1f);
    const std::vector<float> mask = subtreeMask(walker.skeleton, jointNamed(walker.skeleton, "spine"));
    std::vector<Transform> out(n);
    for (float weight : {0.0f, 1.0f}) {
        ASSERT_TRUE((LayerJob{a, b, weight, mask, n, out}.run()));
        for (uint32_t j = 0; j < n; ++j) {
            const Transform& want = weight == 1.0f && mask[j] == 1.0f ? b[j] : a[j];
            EXPECT_EQ(out[j].rotation, want.rotation) << j;
            EXPECT_EQ(out[j].translation, want.translation) << j;
        }
    }
    std::vector<Transform> flipped = b;
    for (Transform& t : flipped) t.rotation = -t.rotation; // the same rotations, the other sign
    std::vector<Transform> c(n), d(n);
    ASSERT_TRUE((LayerJob{a, b, 0.5f, {}, n, c}.run()));
    ASSERT_TRUE((LayerJob{a, flipped, 0.5f, {}, n, d}.run()));
    for (uint32_t j = 0; j < n; ++j) {
        EXPECT_NEAR(glm::length(c[j].rotation), 1.0f, 1e-6f);
        EXPECT_NEAR(std::abs(glm::dot(c[j].rotation, d[j].rotation)), 1.0f, 1e-6f) << j;
    }
    // In place: output may be the base.
    std::vector<Transform> in_place = a;
    ASSERT_TRUE((LayerJob{in_place, b, 0.5f, {}, n, in_place}.run()));
    for (uint32_t j = 0; j < n; ++j) EXPECT_EQ(in_place[j].rotation, c[j].rotation);

    EXPECT_FALSE((LayerJob{a, b, 1.5f, mask, n, out}.run()));
    EXPECT_FALSE((LayerJob{a, b, std::nanf(""), mask, n, out}.run()));
    std::vector<float> bad = mask;
    bad[0] = -0.1f;
    EXPECT_FALSE((LayerJob{a, b, 0.5f, bad, n, out}.run()));
    EXPECT_FALSE((LayerJob{a, b, 0.5f, std::span<const float>(mask).first(2), n, out}.run()));
    EXPECT_FALSE((LayerJob{a, std::span<const Transform>(b).first(3), 0.5f, mask, n, out}.run()));
}

} // namespace
} // namespace throng
