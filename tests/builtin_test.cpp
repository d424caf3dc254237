// builtin_test.cpp — the built-in creatures: shape, rig, clips, determinism.
#include <throng/anim.h>
#include <throng/builtin.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace throng {
namespace {

Model build(std::string_view name) {
    Result<Model> model = makeBuiltin(name);
    EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().message);
    return model.ok() ? std::move(model).value() : Model{};
}

const Clip* findClip(const Model& model, const std::string& name) {
    for (const Clip& clip : model.clips)
        if (clip.name == name) return &clip;
    return nullptr;
}

uint32_t findJoint(const Model& model, const std::string& name) {
    const auto& names = model.skeleton.names;
    return uint32_t(std::find(names.begin(), names.end(), name) - names.begin());
}

std::vector<glm::dvec3> skinnedAt(const Model& model, const Clip* clip, double t, bool loop) {
    const std::vector<glm::dmat4> matrices = referenceSkinningMatrices(model, clip, t, loop);
    return referenceSkin(model.meshes.at(0), matrices).positions;
}

// Triangles whose geometric normal (CCW winding) disagrees with their vertex normals.
size_t misWoundTriangles(const Mesh& mesh) {
    size_t bad = 0;
    for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
        const uint32_t a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
        const glm::vec3 face = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
        if (glm::length(face) < 1e-9f) continue; // degenerate: no orientation
        if (glm::dot(face, mesh.normals[a] + mesh.normals[b] + mesh.normals[c]) <= 0.0f) ++bad;
    }
    return bad;
}

void expectUnitNormals(const Mesh& mesh) {
    ASSERT_EQ(mesh.normals.size(), mesh.positions.size());
    for (const glm::vec3& n : mesh.normals) ASSERT_NEAR(glm::length(n), 1.0f, 1e-5f);
}

TEST(Builtin, NamesAndUnknown) {
    const auto names = builtinNames();
    ASSERT_EQ(names.size(), 8u);
    EXPECT_EQ(names[0], "fish");
    EXPECT_EQ(names[1], "hat");
    EXPECT_EQ(names[2], "kit");
    EXPECT_EQ(names[3], "strider");
    EXPECT_EQ(names[4], "sword");
    EXPECT_EQ(names[5], "twist");
    EXPECT_EQ(names[6], "walker");
    EXPECT_EQ(names[7], "waver");
    for (std::string_view name : names) {
        Result<Model> m = makeBuiltin(name);
        ASSERT_TRUE(m.ok()) << name;
        EXPECT_TRUE(validate(m.value()).ok()) << name << ": " << validate(m.value()).message;
    }

    const Result<Model> bad = makeBuiltin("dragon");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message,
              "unknown built-in model 'dragon' (known: fish, hat, kit, strider, sword, twist, walker, waver)");
}

// builtin:waver is the walker plus `wave`, whose keys sit on the 30 fps frames and loop.
TEST(Builtin, WaverIsTheWalkerWithAWave) {
    const Model walker = build("walker");
    const Model waver = build("waver");
    ASSERT_EQ(waver.clips.size(), 3u);
    EXPECT_EQ(waver.clips[0].name, "walk");
    EXPECT_EQ(waver.clips[1].name, "idle");
    EXPECT_EQ(waver.clips[2].name, "wave");
    EXPECT_EQ(waver.clips[2].duration, 1.5f);
    EXPECT_EQ(waver.skeleton.names, walker.skeleton.names);
    EXPECT_EQ(waver.meshes[0].positions, walker.meshes[0].positions);
    // The right hand is raised above the head in the wave, and hangs below the hips in the walk.
    const uint32_t hand = uint32_t(std::find(waver.skeleton.names.begin(), waver.skeleton.names.end(), "hand_r") -
                                   waver.skeleton.names.begin());
    const uint32_t head = uint32_t(std::find(waver.skeleton.names.begin(), waver.skeleton.names.end(), "head") -
                                   waver.skeleton.names.begin());
    for (double t : {0.0, 0.4, 1.1}) {
        const std::vector<glm::dmat4> wave = referenceModelMatrices(waver, &waver.clips[2], t, true);
        EXPECT_GT(wave[hand][3].y, wave[head][3].y) << t;
        const std::vector<glm::dmat4> walk = referenceModelMatrices(waver, &waver.clips[0], t, true);
        EXPECT_LT(walk[hand][3].y, 1.0) << t;
    }
}

TEST(Builtin, FishShape) {
    const Model fish = build("fish");
    EXPECT_EQ(fish.source, "builtin:fish");
    EXPECT_EQ(fish.format, "built-in (generated)");
    const Status status = validate(fish);
    EXPECT_TRUE(status.ok()) << status.message;
    ASSERT_EQ(fish.meshes.size(), 1u);
    const Mesh& mesh = fish.meshes[0];
    EXPECT_GE(mesh.positions.size(), 500u);
    EXPECT_LE(mesh.positions.size(), 2000u);

    const Bounds bounds = bindPoseBounds(fish);
    EXPECT_NEAR(bounds.min.z, -1.0f, 1e-5f);
    EXPECT_NEAR(bounds.max.z, 1.0f, 1e-5f);
    const glm::vec3 centre = 0.5f * (bounds.min + bounds.max);
    EXPECT_NEAR(centre.x, 0.0f, 1e-4f);
    EXPECT_NEAR(centre.y, 0.0f, 1e-4f);
    EXPECT_NEAR(centre.z, 0.0f, 1e-4f);
    EXPECT_LT(bounds.max.x - bounds.min.x, 0.5f); // slim: the body is along z

    ASSERT_EQ(mesh.colors.size(), mesh.positions.size());
    EXPECT_TRUE(
        std::any_of(mesh.colors.begin(), mesh.colors.end(), [&](const glm::vec4& c) { return c != mesh.colors[0]; }));
    ASSERT_EQ(mesh.uvs.size(), mesh.positions.size());

    expectUnitNormals(mesh);
    size_t outward = 0;
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec3 p = mesh.positions[i];
        if (glm::dot(mesh.normals[i], p - glm::vec3(0.0f, 0.0f, p.z)) > 0.0f) ++outward;
    }
    EXPECT_GT(double(outward), 0.9 * double(mesh.positions.size()));
    EXPECT_EQ(misWoundTriangles(mesh), 0u);
}

TEST(Builtin, FishRig) {
    const Model fish = build("fish");
    ASSERT_EQ(fish.skeleton.size(), 1u);
    EXPECT_EQ(fish.skeleton.names[0], "body");
    EXPECT_EQ(fish.skeleton.parents[0], kNoParent);
    ASSERT_EQ(fish.palette.size(), 1u);
    EXPECT_EQ(fish.palette[0].joint, 0u);
    EXPECT_EQ(fish.palette[0].inverse_bind, glm::mat4(1.0f));
    EXPECT_TRUE(fish.clips.empty());
    const Mesh& mesh = fish.meshes[0];
    EXPECT_EQ(mesh.rigid_joint, -1);
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        ASSERT_EQ(mesh.joints[i][0], 0);
        ASSERT_EQ(mesh.weights[i], glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    }
}

TEST(Builtin, WalkerShape) {
    const Model walker = build("walker");
    EXPECT_EQ(walker.source, "builtin:walker");
    const Status status = validate(walker);
    EXPECT_TRUE(status.ok()) << status.message;
    EXPECT_GE(walker.skeleton.size(), 15u);
    EXPECT_LE(walker.skeleton.size(), 40u);
    for (uint32_t j = 0; j < walker.skeleton.size(); ++j) EXPECT_LT(walker.skeleton.parents[j], int32_t(j));
    ASSERT_EQ(walker.meshes.size(), 1u);
    const Mesh& mesh = walker.meshes[0];
    EXPECT_GE(mesh.positions.size(), 2000u);
    EXPECT_LE(mesh.positions.size(), 6000u);
    EXPECT_EQ(mesh.skin, 0);

    const Bounds bounds = bindPoseBounds(walker);
    EXPECT_NEAR(bounds.min.y, 0.0f, 1e-3f); // stands on y = 0
    EXPECT_NEAR(bounds.max.y - bounds.min.y, 1.8f, 0.05f);
    EXPECT_GT(bounds.max.z, -bounds.min.z); // toes point to +z

    ASSERT_EQ(mesh.colors.size(), mesh.positions.size());
    ASSERT_EQ(mesh.uvs.size(), mesh.positions.size());
    expectUnitNormals(mesh);
    EXPECT_EQ(misWoundTriangles(mesh), 0u);
}

TEST(Builtin, WalkerWeights) {
    const Model walker = build("walker");
    const Mesh& mesh = walker.meshes[0];
    size_t blended = 0;
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
        const glm::vec4 w = mesh.weights[i];
        ASSERT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f) << "vertex " << i;
        int influences = 0;
        for (int k = 0; k < 4; ++k) {
            ASSERT_GE(w[k], 0.0f);
            ASSERT_LT(mesh.joints[i][k], walker.palette.size());
            if (w[k] > 0.0f) ++influences;
        }
        if (influences >= 2) ++blended;
    }
    // Smooth skinning: a good share of the vertices blend two or more bones.
    EXPECT_GT(double(blended), 0.2 * double(mesh.positions.size()));

    ASSERT_EQ(walker.skins.size(), 1u);
    EXPECT_EQ(walker.skins[0].joints.size(), walker.skeleton.size());
    ASSERT_EQ(walker.palette.size(), walker.skeleton.size());
    for (uint32_t k = 0; k < walker.palette.size(); ++k) EXPECT_EQ(walker.palette[k].joint, k);
}

TEST(Builtin, WalkerRestPoseIsBindPose) {
    const Model walker = build("walker");
    const double diagonal = bindPoseBounds(walker).diagonal();
    const std::vector<glm::dvec3> skinned = skinnedAt(walker, nullptr, 0.0, false);
    const Mesh& mesh = walker.meshes[0];
    ASSERT_EQ(skinned.size(), mesh.positions.size());
    double worst = 0.0;
    for (size_t i = 0; i < skinned.size(); ++i)
        worst = std::max(worst, glm::distance(skinned[i], glm::dvec3(mesh.positions[i])));
    EXPECT_LT(worst, 1e-5 * diagonal);
}

TEST(Builtin, WalkerClipsLoop) {
    const Model walker = build("walker");
    const double diagonal = bindPoseBounds(walker).diagonal();
    for (const char* name : {"walk", "idle"}) {
        const Clip* clip = findClip(walker, name);
        ASSERT_NE(clip, nullptr) << name;
        EXPECT_GT(clip->duration, 0.0f);
        for (const Track& track : clip->tracks) {
            ASSERT_FALSE(track.times.empty());
            EXPECT_EQ(track.times.back(), clip->duration);
            EXPECT_EQ(track.values.back(), track.values.front()) << name << " joint " << track.joint;
        }
        // The pose at the end of the clip (no wrap) is the pose at its start.
        const auto start = skinnedAt(walker, clip, 0.0, false);
        const auto end = skinnedAt(walker, clip, clip->duration, false);
        double worst = 0.0;
        for (size_t i = 0; i < start.size(); ++i) worst = std::max(worst, glm::distance(start[i], end[i]));
        EXPECT_LT(worst, 1e-5 * diagonal) << name;
    }
    EXPECT_NEAR(findClip(walker, "walk")->duration, 1.1f, 0.1f);
    EXPECT_GE(findClip(walker, "idle")->duration, 2.0f);
}

// How far the vertex that hangs most on `joint` strays from its t = 0 position.
double maxExcursion(const Model& model, const Clip& clip, uint32_t joint, float* lowest) {
    const Mesh& mesh = model.meshes[0];
    size_t vertex = 0;
    float best = -1.0f;
    for (size_t i = 0; i < mesh.positions.size(); ++i)
        for (int k = 0; k < 4; ++k)
            if (mesh.joints[i][k] == joint && mesh.weights[i][k] > best) {
                best = mesh.weights[i][k];
                vertex = i;
            }
    const glm::dvec3 start = skinnedAt(model, &clip, 0.0, true)[vertex];
    double excursion = 0.0;
    *lowest = 1e9f;
    for (int step = 1; step < 48; ++step) {
        const auto positions = skinnedAt(model, &clip, clip.duration * step / 48.0, true);
        excursion = std::max(excursion, glm::distance(positions[vertex], start));
        for (const glm::dvec3& p : positions) *lowest = std::min(*lowest, float(p.y));
    }
    return excursion;
}

TEST(Builtin, WalkMovesTheFeetAndIdleKeepsThemPlanted) {
    const Model walker = build("walker");
    const float height = bindPoseBounds(walker).max.y;
    float lowest = 0.0f;
    const double walk = maxExcursion(walker, *findClip(walker, "walk"), findJoint(walker, "foot_l"), &lowest);
    EXPECT_GT(walk, 0.1 * height);
    EXPECT_NEAR(lowest, 0.0f, 0.01f); // the feet neither sink nor float
    const double idle = maxExcursion(walker, *findClip(walker, "idle"), findJoint(walker, "foot_l"), &lowest);
    EXPECT_LT(idle, 0.01 * height);
}

// The float job pipeline agrees with the double reference on the walker.
TEST(Builtin, WalkerFloatPipelineMatchesReference) {
    const Model walker = build("walker");
    const Clip& walk = *findClip(walker, "walk");
    const Mesh& mesh = walker.meshes[0];
    const uint32_t n = walker.skeleton.size();
    std::vector<Transform> local(n);
    std::vector<glm::mat4> model(n), skinning(walker.palette.size());
    std::vector<glm::vec3> positions(mesh.positions.size()), normals(mesh.positions.size());
    const float time = 0.37f;
    ASSERT_TRUE((SamplingJob{&walker.skeleton, &walk, time, true, local}.run()));
    ASSERT_TRUE((LocalToModelJob{&walker.skeleton, local, model}.run()));
    ASSERT_TRUE((SkinningMatricesJob{walker.palette, model, skinning}.run()));
    ASSERT_TRUE(
        (SkinningJob{skinning, mesh.positions, mesh.normals, mesh.joints, mesh.weights, positions, normals}.run()));
    const auto reference = skinnedAt(walker, &walk, time, true);
    const double diagonal = bindPoseBounds(walker).diagonal();
    double worst = 0.0;
    for (size_t i = 0; i < positions.size(); ++i)
        worst = std::max(worst, glm::distance(glm::dvec3(positions[i]), reference[i]));
    EXPECT_LT(worst, 1e-5 * diagonal);
}

TEST(Builtin, Deterministic) {
    for (std::string_view name : builtinNames()) {
        const Model a = build(name), b = build(name);
        ASSERT_EQ(a.meshes.size(), b.meshes.size());
        for (size_t m = 0; m < a.meshes.size(); ++m) {
            EXPECT_EQ(a.meshes[m].positions, b.meshes[m].positions) << name;
            EXPECT_EQ(a.meshes[m].normals, b.meshes[m].normals) << name;
            EXPECT_EQ(a.meshes[m].weights, b.meshes[m].weights) << name;
            EXPECT_EQ(a.meshes[m].indices, b.meshes[m].indices) << name;
        }
        ASSERT_EQ(a.clips.size(), b.clips.size());
        for (size_t c = 0; c < a.clips.size(); ++c)
            for (size_t t = 0; t < a.clips[c].tracks.size(); ++t)
                EXPECT_EQ(a.clips[c].tracks[t].values, b.clips[c].tracks[t].values) << name;
    }
}

} // namespace
} // namespace throng
