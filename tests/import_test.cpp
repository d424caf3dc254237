// glTF import: the shared models against their published numbers, the rest pose, glTF vs
// Collada of the same rig, and hand-built files for each glTF feature.
#include <throng/anim.h>
#include <throng/import.h>

#include "../src/import/common.h"
#include "gltf_builder.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <map>

using namespace throng;
using throng::test::makeRig;
using throng::test::RigOptions;

namespace {

Model load(const std::string& path) {
    Result<Model> r = importModel(path);
    EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : Model{};
}

const Clip* findClip(const Model& m, const std::string& name) {
    for (const Clip& c : m.clips)
        if (c.name == name) return &c;
    return nullptr;
}

// Largest distance between rest-pose skinning and the bind positions, over the given meshes.
double restPoseError(const Model& m, const std::vector<std::string>& skip = {}) {
    const std::vector<glm::dmat4> rest = referenceSkinningMatrices(m, nullptr, 0.0, false);
    double worst = 0.0;
    for (const Mesh& mesh : m.meshes) {
        if (std::find(skip.begin(), skip.end(), mesh.name) != skip.end()) continue;
        const SkinnedVertices s = referenceSkin(mesh, rest);
        for (size_t v = 0; v < s.positions.size(); ++v)
            worst = std::max(worst, glm::length(s.positions[v] - glm::dvec3(mesh.positions[v])));
    }
    return worst;
}

std::vector<glm::dvec3> skinAll(const Model& m, const Clip* clip, double t) {
    const std::vector<glm::dmat4> mats = referenceSkinningMatrices(m, clip, t, true);
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : m.meshes) {
        const SkinnedVertices s = referenceSkin(mesh, mats);
        out.insert(out.end(), s.positions.begin(), s.positions.end());
    }
    return out;
}

std::string scratchFile(const std::string& name) {
    return (throng::test::scratchDir("import_" + name) / name).string();
}

} // namespace

// --- The shared models: numbers from ../shared/assets/README.md --------------------------

struct AssetFacts {
    const char* path;
    uint32_t vertices, joints, skins;
    std::map<std::string, float> clips; // name -> duration (unnamed clips: "clip0")
};

void PrintTo(const AssetFacts& f, std::ostream* os) { *os << f.path; }

class SharedGltf : public ::testing::TestWithParam<AssetFacts> {};

TEST_P(SharedGltf, MatchesPublishedCounts) {
    const AssetFacts& f = GetParam();
    THRONG_ASSET(path, f.path);
    const Model m = load(path);
    EXPECT_EQ(vertexCount(m), f.vertices);
    EXPECT_EQ(skinJointCount(m), f.joints);
    EXPECT_EQ(m.skins.size(), f.skins);
    ASSERT_EQ(m.clips.size(), f.clips.size());
    for (const auto& [name, duration] : f.clips) {
        const Clip* c = findClip(m, name);
        ASSERT_NE(c, nullptr) << "clip " << name;
        EXPECT_NEAR(c->duration, duration, 1e-3) << name;
    }
    EXPECT_TRUE(validate(m).ok());
}

TEST_P(SharedGltf, RestPoseReproducesBindPositions) {
    const AssetFacts& f = GetParam();
    THRONG_ASSET(path, f.path);
    const Model m = load(path);
    // RobotExpressive's two hand meshes are bound in a pose other than the file's rest pose
    // (its finger joints rest elsewhere); the importer says so, and they are left out here.
    std::vector<std::string> skip;
    for (const std::string& w : m.warnings)
        if (w.find("rest pose is not the bind pose") != std::string::npos)
            skip.push_back(w.substr(6, w.find('\'', 6) - 6));
    if (std::string(f.path).find("RobotExpressive") != std::string::npos) {
        EXPECT_EQ(skip, (std::vector<std::string>{"Hand.R", "Hand.L"}));
    } else {
        EXPECT_TRUE(skip.empty());
    }
    EXPECT_LE(restPoseError(m, skip), 1e-5 * bindPoseBounds(m).diagonal());
}

TEST_P(SharedGltf, AnimatesWithinSaneBounds) {
    const AssetFacts& f = GetParam();
    THRONG_ASSET(path, f.path);
    const Model m = load(path);
    const Bounds b = bindPoseBounds(m);
    double moved = 0.0;
    for (const Clip& clip : m.clips) {
        const std::vector<glm::dvec3> rest = skinAll(m, &clip, 0.0);
        for (double t : {0.25, 0.5, 0.75}) {
            const std::vector<glm::dvec3> p = skinAll(m, &clip, t * clip.duration);
            for (size_t v = 0; v < p.size(); ++v) {
                ASSERT_TRUE(std::isfinite(p[v].x) && std::isfinite(p[v].y) && std::isfinite(p[v].z));
                moved = std::max(moved, glm::length(p[v] - rest[v]));
            }
        }
    }
    EXPECT_GT(moved, 1e-3 * b.diagonal()) << "no clip moves any vertex";
}

INSTANTIATE_TEST_SUITE_P(
    Assets, SharedGltf,
    ::testing::Values(AssetFacts{"RiggedSimple/RiggedSimple.glb", 160, 2, 1, {{"clip0", 2.083f}}},
                      AssetFacts{"CesiumMan/CesiumMan.glb", 3273, 19, 1, {{"clip0", 2.0f}}},
                      AssetFacts{"Fox/Fox.glb", 1728, 24, 1, {{"Survey", 3.417f}, {"Walk", 0.708f}, {"Run", 1.158f}}},
                      AssetFacts{"RobotExpressive/RobotExpressive.glb",
                                 7214,
                                 43,
                                 2,
                                 {{"Dance", 3.333f},
                                  {"Death", 0.958f},
                                  {"Idle", 3.333f},
                                  {"Jump", 0.708f},
                                  {"No", 1.667f},
                                  {"Punch", 0.833f},
                                  {"Running", 0.958f},
                                  {"Sitting", 0.417f},
                                  {"Standing", 0.417f},
                                  {"ThumbsUp", 1.583f},
                                  {"Walking", 0.958f},
                                  {"WalkJump", 0.833f},
                                  {"Wave", 1.833f},
                                  {"Yes", 1.667f}}},
                      AssetFacts{"RecursiveSkeletons/RecursiveSkeletons.glb", 3360, 840, 84, {{"Track0", 2.0f}}}),
    [](const auto& param_info) {
        std::string n = param_info.param.path;
        return n.substr(0, n.find('/'));
    });

TEST(SharedGltf, RobotExpressiveBodyPartsFollowTheirJoints) {
    THRONG_ASSET(path, "RobotExpressive/RobotExpressive.glb");
    const Model m = load(path);
    size_t rigid = 0;
    for (const Mesh& mesh : m.meshes) rigid += mesh.rigid_joint >= 0 ? 1 : 0;
    EXPECT_EQ(rigid, 12u);
    bool warned = false;
    for (const std::string& w : m.warnings)
        warned = warned || w.find("12 mesh(es) rigidly attached") != std::string::npos;
    EXPECT_TRUE(warned);
    // The head moves when the robot says yes.
    const Clip* yes = findClip(m, "Yes");
    ASSERT_NE(yes, nullptr);
    const auto it = std::find_if(m.meshes.begin(), m.meshes.end(), [](const Mesh& x) { return x.name == "Head"; });
    ASSERT_NE(it, m.meshes.end());
    const SkinnedVertices a = referenceSkin(*it, referenceSkinningMatrices(m, yes, 0.0, true));
    double moved = 0.0;
    for (double t = 0.1; t < yes->duration; t += 0.1) {
        const SkinnedVertices b = referenceSkin(*it, referenceSkinningMatrices(m, yes, t, true));
        for (size_t v = 0; v < a.positions.size(); ++v)
            moved = std::max(moved, glm::length(a.positions[v] - b.positions[v]));
    }
    EXPECT_GT(moved, 0.005 * bindPoseBounds(m).diagonal()); // a nod: about 0.7% of the robot's size
}

// --- Hand-built files: each feature with known answers ----------------------------------

TEST(GltfFeatures, LinearRotationAndStepTranslation) {
    const std::string path = scratchFile("rig.gltf");
    makeRig().writeGltf(path);
    const Model m = load(path);
    ASSERT_EQ(m.clips.size(), 1u);
    const Clip& clip = m.clips[0];
    EXPECT_EQ(clip.name, "wave");
    EXPECT_FLOAT_EQ(clip.duration, 2.0f);
    // Vertex 4 (0,2,0) hangs on the bone, 1 above its pivot (0,1,0).
    auto vertex4 = [&](double t) {
        return referenceSkin(m.meshes[0], referenceSkinningMatrices(m, &clip, t, false)).positions[4];
    };
    const double h = std::sqrt(0.5);
    EXPECT_NEAR(glm::length(vertex4(0.5) - glm::dvec3(-h, 1 + h, 0)), 0.0, 1e-6); // 45 deg, root not yet moved
    EXPECT_NEAR(glm::length(vertex4(1.0) - glm::dvec3(2 - 1, 1, 0)), 0.0, 1e-6);  // 90 deg, root stepped to x=2
    EXPECT_NEAR(glm::length(vertex4(1.5) - glm::dvec3(2 - h, 1 + h, 0)), 0.0, 1e-6);
    // Vertex 2 (0,1,0) is half on each joint and sits on the pivot: it only follows the root.
    EXPECT_NEAR(glm::length(referenceSkin(m.meshes[0], referenceSkinningMatrices(m, &clip, 1.5, false)).positions[2] -
                            glm::dvec3(2, 1, 0)),
                0.0, 1e-6);
}

TEST(GltfFeatures, CubicSplineFromAFile) {
    const std::string path = scratchFile("cubic.gltf");
    makeRig(RigOptions{.interpolation = "CUBICSPLINE"}).writeGltf(path);
    const Model m = load(path);
    const Track* rot = nullptr;
    for (const Track& t : m.clips[0].tracks)
        if (t.target == TrackTarget::Rotation) rot = &t;
    ASSERT_NE(rot, nullptr);
    EXPECT_EQ(rot->interpolation, Interpolation::CubicSpline);
    // Between key 1 (value (0,0,s,s), out-tangent (0,0,-0.5,0)) and key 2 (identity), s = 0.5, d = 1:
    // 0.5 * v1 + 0.125 * out1 + 0.5 * v2, normalised.
    const double s = std::sqrt(0.5);
    const glm::dvec4 raw(0, 0, 0.5 * s - 0.0625, 0.5 * s + 0.5);
    const glm::dvec4 expected = raw / glm::length(raw);
    const glm::vec4 got = sampleTrack(*rot, 1.5f);
    EXPECT_NEAR(glm::length(glm::dvec4(got) - expected), 0.0, 1e-6);
}

TEST(GltfFeatures, SparseAccessorsAreApplied) {
    const std::string path = scratchFile("sparse.gltf");
    makeRig(RigOptions{.sparse_position = true}).writeGltf(path);
    const Model m = load(path);
    EXPECT_EQ(m.meshes[0].positions[5], glm::vec3(1, 2, 0));
    EXPECT_EQ(m.meshes[0].positions[4], glm::vec3(0, 2, 0));
}

TEST(GltfFeatures, NormalizedIntegerWeightsAndJoints) {
    for (int weight_type : {throng::test::kUByte, throng::test::kUShort}) {
        for (int joint_type : {throng::test::kUByte, throng::test::kUShort}) {
            const std::string path = scratchFile("weights.glb");
            makeRig(RigOptions{.weight_type = weight_type, .joint_type = joint_type}).writeGlb(path);
            const Model m = load(path);
            ASSERT_FALSE(m.meshes.empty());
            const Mesh& mesh = m.meshes[0];
            // 128/255 and 127/255 (or 32768/65535 and 32767/65535), renormalised.
            EXPECT_NEAR(mesh.weights[2].x + mesh.weights[2].y, 1.0f, 1e-6f);
            EXPECT_NEAR(mesh.weights[2].x, 0.5f, 0.003f);
            EXPECT_EQ(mesh.weights[4], glm::vec4(1, 0, 0, 0));
            EXPECT_NE(mesh.joints[4].x, mesh.joints[0].x); // different joints at the ends
        }
    }
}

TEST(GltfFeatures, GlbAndGltfGiveTheSameModel) {
    const std::string a = scratchFile("same.gltf"), b = scratchFile("same.glb");
    makeRig().writeGltf(a);
    makeRig().writeGlb(b);
    const Model ma = load(a), mb = load(b);
    ASSERT_EQ(ma.meshes.size(), 1u);
    ASSERT_EQ(mb.meshes.size(), 1u);
    EXPECT_EQ(ma.meshes[0].positions, mb.meshes[0].positions);
    EXPECT_EQ(ma.meshes[0].weights, mb.meshes[0].weights);
    EXPECT_EQ(ma.clips[0].tracks[0].values, mb.clips[0].tracks[0].values);
}

TEST(GltfFeatures, WithoutASkinImportsRigidWithAWarning) {
    const std::string path = scratchFile("rigid.gltf");
    makeRig(RigOptions{.skin = false}).writeGltf(path);
    const Model m = load(path);
    ASSERT_EQ(m.meshes.size(), 1u);
    EXPECT_EQ(m.skins.size(), 0u);
    ASSERT_GE(m.meshes[0].rigid_joint, 0);
    EXPECT_EQ(m.skeleton.names[size_t(m.meshes[0].rigid_joint)], "body"); // bound to its own node
    bool warned = false;
    for (const std::string& w : m.warnings) warned = warned || w.find("no skin") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(LimitInfluences, KeepsTheFourLargestAndRenormalises) {
    glm::u16vec4 joints;
    glm::vec4 weights;
    const float dropped = detail::limitInfluences({{3, 0.1f}, {1, 0.3f}, {7, 0.05f}, {2, 0.25f}, {5, 0.2f}, {9, 0.1f}},
                                                  0, joints, weights);
    EXPECT_EQ(joints, glm::u16vec4(1, 2, 5, 3)); // 0.3, 0.25, 0.2, then the lower joint of the 0.1 tie
    EXPECT_NEAR(weights.x + weights.y + weights.z + weights.w, 1.0f, 1e-6f);
    EXPECT_NEAR(weights.x, 0.3f / 0.85f, 1e-6f);
    EXPECT_NEAR(dropped, 0.1f, 1e-6f);
    // Duplicate joints merge; no positive weight falls back to the given joint.
    detail::limitInfluences({{4, 0.25f}, {4, 0.25f}}, 0, joints, weights);
    EXPECT_EQ(joints.x, 4);
    EXPECT_FLOAT_EQ(weights.x, 1.0f);
    detail::limitInfluences({{4, 0.0f}}, 6, joints, weights);
    EXPECT_EQ(joints.x, 6);
    EXPECT_FLOAT_EQ(weights.x, 1.0f);
}

// --- The same rig in two formats -----------------------------------------------------------

TEST(CrossFormat, RiggedSimpleGlbAndColladaAgree) {
    THRONG_ASSET(glb_path, "RiggedSimple/RiggedSimple.glb");
    THRONG_ASSET(dae_path, "RiggedSimple_Collada/RiggedSimple.dae");
    const Model glb = load(glb_path), dae = load(dae_path);
    ASSERT_FALSE(glb.meshes.empty());
    ASSERT_FALSE(dae.meshes.empty());
    const double tolerance = 1e-5 * bindPoseBounds(glb).diagonal();
    EXPECT_EQ(skinJointCount(glb), skinJointCount(dae));
    EXPECT_EQ(glb.clips.size(), dae.clips.size());
    // Same skeleton: each skin joint sits at the same model-space place, at rest.
    const std::vector<glm::mat4> rest_glb = detail::restModelMatrices(glb.skeleton);
    const std::vector<glm::mat4> rest_dae = detail::restModelMatrices(dae.skeleton);
    for (uint32_t j : glb.skins[0].joints) {
        double nearest = 1e300;
        for (uint32_t k : dae.skins[0].joints)
            nearest = std::min(nearest, double(glm::length(glm::vec3(rest_glb[j][3] - rest_dae[k][3]))));
        EXPECT_LE(nearest, tolerance) << "glb joint " << glb.skeleton.names[j];
    }
    // Same bind pose: every Collada vertex has a glTF vertex at the same place (the Collada
    // mesh is split per face corner, so it has more vertices).
    const Mesh& g = glb.meshes[0];
    const Mesh& d = dae.meshes[0];
    std::vector<size_t> match(d.positions.size());
    for (size_t v = 0; v < d.positions.size(); ++v) {
        double best = 1e300;
        for (size_t u = 0; u < g.positions.size(); ++u) {
            const double dist = glm::length(glm::dvec3(d.positions[v]) - glm::dvec3(g.positions[u]));
            if (dist < best) {
                best = dist;
                match[v] = u;
            }
        }
        ASSERT_LE(best, tolerance) << "Collada vertex " << v;
    }
    // Same animation: 20 times across the clip.
    const Clip& cg = glb.clips[0];
    const Clip& cd = dae.clips[0];
    EXPECT_NEAR(cg.duration, cd.duration, 1e-3);
    for (int i = 0; i < 20; ++i) {
        const double t = cg.duration * i / 19.0;
        const SkinnedVertices sg = referenceSkin(g, referenceSkinningMatrices(glb, &cg, t, false));
        const SkinnedVertices sd = referenceSkin(d, referenceSkinningMatrices(dae, &cd, t, false));
        double worst = 0.0;
        for (size_t v = 0; v < sd.positions.size(); ++v)
            worst = std::max(worst, glm::length(sd.positions[v] - sg.positions[match[v]]));
        EXPECT_LE(worst, tolerance) << "t = " << t;
    }
}
