// validate(): each invariant of throng/model.h has a case that breaks it and expects its message.
#include <throng/model.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace throng;

namespace {

// Two joints, one triangle skinned to both, one clip with a rotation track.
Model tinyModel() {
    Model m;
    m.skeleton.names = {"root", "child"};
    m.skeleton.parents = {kNoParent, 0};
    m.skeleton.rest = {Transform{}, Transform{glm::vec3(0, 1, 0)}};
    m.skins.push_back(Skin{"skin", {0, 1}});
    m.palette = {PaletteEntry{0, glm::mat4(1.0f)}, PaletteEntry{1, glm::mat4(1.0f)}};
    Mesh mesh;
    mesh.name = "tri";
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh.joints = {{0, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}};
    mesh.weights = {{1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}};
    mesh.indices = {0, 1, 2};
    mesh.submeshes = {Submesh{0, 3, -1}};
    mesh.skin = 0;
    m.meshes.push_back(mesh);
    Clip clip;
    clip.name = "turn";
    clip.duration = 1.0f;
    clip.tracks.push_back(
        Track{1, TrackTarget::Rotation, Interpolation::Linear, {0.0f, 1.0f}, {{0, 0, 0, 1}, {0, 0, 1, 0}}});
    m.clips.push_back(clip);
    return m;
}

void expectError(const Model& m, const std::string& fragment) {
    const Status s = validate(m);
    ASSERT_FALSE(s.ok()) << "expected an error containing '" << fragment << "'";
    EXPECT_NE(s.message.find(fragment), std::string::npos) << s.message;
}

} // namespace

TEST(Validate, AcceptsAConsistentModel) { EXPECT_TRUE(validate(tinyModel()).ok()) << validate(tinyModel()).message; }

TEST(Validate, IndexOutOfRange) {
    Model m = tinyModel();
    m.meshes[0].indices[2] = 3;
    expectError(m, "out of range");
}

TEST(Validate, JointIndexOutOfRange) {
    Model m = tinyModel();
    m.meshes[0].joints[0] = {7, 0, 0, 0};
    expectError(m, "joint index 7 out of range");
}

TEST(Validate, WeightsMustSumToOne) {
    Model m = tinyModel();
    m.meshes[0].weights[1] = {0.5f, 0.49f, 0, 0};
    expectError(m, "weights sum to");
    m.meshes[0].weights[1] = {0.5f, 0.4995f, 0, 0}; // within 1e-3
    EXPECT_TRUE(validate(m).ok());
}

TEST(Validate, NaNAndInfinity) {
    Model m = tinyModel();
    m.meshes[0].weights[0].x = std::numeric_limits<float>::quiet_NaN();
    expectError(m, "NaN");
    m = tinyModel();
    m.meshes[0].positions[2].y = std::numeric_limits<float>::infinity();
    expectError(m, "position 2 is NaN or infinite");
    m = tinyModel();
    m.clips[0].tracks[0].values[1].x = std::numeric_limits<float>::quiet_NaN();
    expectError(m, "NaN");
}

TEST(Validate, CycleInHierarchy) {
    Skeleton s;
    s.names = {"a", "b", "c"};
    s.parents = {2, 0, 1};
    s.rest.resize(3);
    const Status status = validate(s);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("cycle"), std::string::npos) << status.message;
}

TEST(Validate, ParentAfterChild) {
    Skeleton s;
    s.names = {"a", "b"};
    s.parents = {1, kNoParent};
    s.rest.resize(2);
    const Status status = validate(s);
    ASSERT_FALSE(status.ok());
    EXPECT_NE(status.message.find("parent-before-child"), std::string::npos) << status.message;
}

TEST(Validate, TrackOnMissingJoint) {
    Model m = tinyModel();
    m.clips[0].tracks[0].joint = 5;
    expectError(m, "targets joint 5, which does not exist");
}

TEST(Validate, KeyTimesMustIncrease) {
    Model m = tinyModel();
    m.clips[0].tracks[0].times = {0.5f, 0.5f};
    expectError(m, "not increasing");
}

TEST(Validate, CubicSplineNeedsThreeValuesPerKey) {
    Model m = tinyModel();
    m.clips[0].tracks[0].interpolation = Interpolation::CubicSpline;
    expectError(m, "values for 2 keys");
}

TEST(Validate, RotationsMustBeUnit) {
    Model m = tinyModel();
    m.clips[0].tracks[0].values[1] = {0, 0, 2, 0};
    expectError(m, "not a unit quaternion");
}

TEST(Derived, CountsAndBounds) {
    const Model m = tinyModel();
    EXPECT_EQ(vertexCount(m), 3u);
    EXPECT_EQ(triangleCount(m), 1u);
    EXPECT_EQ(skinJointCount(m), 2u);
    EXPECT_EQ(keyframeCount(m.clips[0]), 2u);
    const Bounds b = bindPoseBounds(m);
    EXPECT_FLOAT_EQ(b.diagonal(), std::sqrt(2.0f));
}

TEST(Transform, MatrixAppliesScaleRotationTranslation) {
    Transform t;
    t.translation = {1, 2, 3};
    t.rotation = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
    t.scale = {2, 2, 2};
    const glm::vec4 p = toMatrix(t) * glm::vec4(1, 0, 0, 1); // scale -> (2,0,0), rotate -> (0,2,0), move
    EXPECT_NEAR(p.x, 1.0f, 1e-6f);
    EXPECT_NEAR(p.y, 4.0f, 1e-6f);
    EXPECT_NEAR(p.z, 3.0f, 1e-6f);
}
