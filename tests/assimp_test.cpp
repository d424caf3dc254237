// importAssimp on the shared FBX and Collada models, and on broken files.
#include "test_util.h"

#include <throng/anim.h>
#include <throng/import.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

namespace throng {
namespace {

constexpr const char* kFbx = "AnimationWithSkeleton_FBX/animation_with_skeleton.fbx";
constexpr const char* kCollada = "RiggedSimple_Collada/RiggedSimple.dae";

Model load(const std::string& path) {
    Result<Model> r = importAssimp(path);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    if (!r.ok()) return {};
    EXPECT_TRUE(validate(r.value()).ok()) << validate(r.value()).message;
    return std::move(r).value();
}

int32_t jointNamed(const Model& model, const std::string& name) {
    for (uint32_t j = 0; j < model.skeleton.size(); ++j)
        if (model.skeleton.names[j] == name) return int32_t(j);
    return -1;
}

// Largest distance between a mesh vertex's bind position and its skinned position under
// `clip` at `time` (nullptr: rest pose), over vertices with no weight on a joint in `skip`.
double worstBindError(const Model& model, const Clip* clip, double time, const std::vector<std::string>& skip = {}) {
    const auto matrices = referenceSkinningMatrices(model, clip, time, false);
    double worst = 0.0;
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices skinned = referenceSkin(mesh, matrices);
        for (size_t v = 0; v < mesh.positions.size(); ++v) {
            bool skipped = false;
            for (int i = 0; i < 4; ++i)
                if (mesh.weights[v][i] > 0.0f) {
                    const std::string& name = model.skeleton.names[model.palette[mesh.joints[v][i]].joint];
                    skipped = skipped || std::find(skip.begin(), skip.end(), name) != skip.end();
                }
            if (!skipped) worst = std::max(worst, glm::length(skinned.positions[v] - glm::dvec3(mesh.positions[v])));
        }
    }
    return worst;
}

bool hasWarning(const Model& model, const std::string& part) {
    for (const std::string& w : model.warnings)
        if (w.find(part) != std::string::npos) return true;
    return false;
}

// Animated positions stay finite and within a few bind-pose diagonals of the bind box.
void expectSaneAnimation(const Model& model) {
    const Bounds b = bindPoseBounds(model);
    const double reach = 3.0 * b.diagonal();
    for (const Clip& clip : model.clips) {
        for (int step = 0; step <= 10; ++step) {
            const double t = clip.duration * step / 10.0;
            const auto matrices = referenceSkinningMatrices(model, &clip, t, false);
            for (const Mesh& mesh : model.meshes) {
                for (const glm::dvec3& p : referenceSkin(mesh, matrices).positions) {
                    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
                    for (int k = 0; k < 3; ++k) {
                        ASSERT_GE(p[k], b.min[k] - reach) << clip.name << " t=" << t;
                        ASSERT_LE(p[k], b.max[k] + reach) << clip.name << " t=" << t;
                    }
                }
            }
        }
    }
}

// Vertex counts: with aiProcess_JoinIdenticalVertices assimp shares corners that have equal
// attributes. Without it (the counts in assets/README.md) the FBX gives 4,224 corners
// (1,056 quads) and the Collada 564 (188 triangles x 3).
TEST(Assimp, FbxAnimationWithSkeleton) {
    THRONG_ASSET(path, kFbx);
    const Model model = load(path);
    ASSERT_FALSE(model.meshes.empty());
    EXPECT_EQ(model.format, "FBX (assimp)");
    EXPECT_EQ(model.source, path);
    EXPECT_EQ(skinJointCount(model), 14u); // the 14 clusters; 16 LimbNodes incl. 2 "_end"
    EXPECT_EQ(vertexCount(model), 2464u);
    EXPECT_EQ(triangleCount(model), 2112u);
    ASSERT_EQ(model.clips.size(), 1u);
    EXPECT_EQ(model.clips[0].name, "Armature|ArmatureAction");
    EXPECT_NEAR(model.clips[0].duration, 0.833, 0.01);
    EXPECT_GE(jointNamed(model, "Bone.013_end"), 0);
    EXPECT_LT(jointNamed(model, "Armature"), jointNamed(model, "Bone"));
    for (const Mesh& mesh : model.meshes) EXPECT_GE(mesh.skin, 0);
}

TEST(Assimp, ColladaRiggedSimple) {
    THRONG_ASSET(path, kCollada);
    const Model model = load(path);
    ASSERT_FALSE(model.meshes.empty());
    EXPECT_EQ(model.format, "Collada (assimp)");
    EXPECT_EQ(skinJointCount(model), 2u);
    EXPECT_EQ(vertexCount(model), 160u); // as many as RiggedSimple.glb
    ASSERT_EQ(model.clips.size(), 1u);
    EXPECT_EQ(model.clips[0].name, "Armature");
    EXPECT_NEAR(model.clips[0].duration, 2.083, 0.01);
    // Collada names (not ids), as in the glTF conversion of the same rig.
    const int32_t bone = jointNamed(model, "Bone"), bone1 = jointNamed(model, "Bone.001");
    ASSERT_GE(bone, 0);
    ASSERT_GE(bone1, 0);
    EXPECT_EQ(model.skeleton.parents[size_t(bone1)], bone);
    for (const Track& track : model.clips[0].tracks) {
        EXPECT_EQ(track.joint, uint32_t(bone1));
        ASSERT_EQ(track.times.size(), 50u);
        EXPECT_NEAR(track.times.front(), 0.0417, 1e-3);
        EXPECT_NEAR(track.times.back(), 2.0833, 1e-3);
    }
    // The file is Z up; assimp's fix rotates the root so that the bone chain points along +Y.
    const Bounds b = bindPoseBounds(model);
    EXPECT_GT(b.max.y - b.min.y, 2.0f * (b.max.z - b.min.z));
}

TEST(Assimp, ColladaRestPoseSkinningGivesBindPositions) {
    THRONG_ASSET(path, kCollada);
    const Model model = load(path);
    EXPECT_LE(worstBindError(model, nullptr, 0.0), 1e-5 * bindPoseBounds(model).diagonal());
}

// In this file the nodes of Bone.005 (and so its child Bone.006) rest in the pose of the
// clip's last frame (Blender wrote the current frame's pose), while the clusters' bind pose is
// the armature's rest, which the clip's first frame reproduces. So: the rest pose matches the
// bind positions everywhere except on those two bones, and the clip at t = 0 matches them all.
TEST(Assimp, FbxRestPoseSkinningGivesBindPositions) {
    THRONG_ASSET(path, kFbx);
    const Model model = load(path);
    const double tolerance = 1e-5 * bindPoseBounds(model).diagonal();
    EXPECT_TRUE(hasWarning(model, "the rest pose is not the bind pose for 2 of 14 weighted bones (first: 'Bone.005')"));
    EXPECT_LE(worstBindError(model, nullptr, 0.0, {"Bone.005", "Bone.006"}), tolerance);
    EXPECT_GT(worstBindError(model, nullptr, 0.0), 100.0 * tolerance);
    ASSERT_EQ(model.clips.size(), 1u);
    EXPECT_LE(worstBindError(model, &model.clips[0], 0.0), tolerance);
}

TEST(Assimp, AnimatedPositionsAreSane) {
    THRONG_ASSET(fbx, kFbx);
    THRONG_ASSET(dae, kCollada);
    for (const std::string& path : {fbx, dae}) {
        SCOPED_TRACE(path);
        const Model model = load(path);
        ASSERT_EQ(model.clips.size(), 1u);
        expectSaneAnimation(model);
    }
}

// Largest distance from a point of one set to the nearest point of the other, both ways.
double setDistance(const std::vector<glm::dvec3>& a, const std::vector<glm::dvec3>& b) {
    auto oneWay = [](const std::vector<glm::dvec3>& from, const std::vector<glm::dvec3>& to) {
        double worst = 0.0;
        for (const glm::dvec3& p : from) {
            double best = INFINITY;
            for (const glm::dvec3& q : to) best = std::min(best, glm::length(p - q));
            worst = std::max(worst, best);
        }
        return worst;
    };
    return std::max(oneWay(a, b), oneWay(b, a));
}

std::vector<glm::dvec3> skinnedSet(const Model& model, const Clip* clip, double time) {
    const auto matrices = referenceSkinningMatrices(model, clip, time, false);
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : model.meshes)
        for (const glm::dvec3& p : referenceSkin(mesh, matrices).positions) out.push_back(p);
    return out;
}

// The Collada rig and its glTF conversion must have the same bind positions and animate
// identically (compared as vertex sets: the importers order and split vertices differently).
TEST(Assimp, ColladaMatchesGltf) {
    THRONG_ASSET(dae, kCollada);
    THRONG_ASSET(glb, "RiggedSimple/RiggedSimple.glb");
    const Model a = load(dae);
    Result<Model> b = importGltf(glb);
    ASSERT_TRUE(b.ok()) << b.error().message;
    ASSERT_EQ(a.clips.size(), 1u);
    ASSERT_EQ(b.value().clips.size(), 1u);
    EXPECT_NEAR(a.clips[0].duration, b.value().clips[0].duration, 1e-4);
    const double tolerance = 1e-5 * bindPoseBounds(a).diagonal();
    std::vector<glm::dvec3> bind_a, bind_b;
    for (const Mesh& m : a.meshes) bind_a.insert(bind_a.end(), m.positions.begin(), m.positions.end());
    for (const Mesh& m : b.value().meshes) bind_b.insert(bind_b.end(), m.positions.begin(), m.positions.end());
    EXPECT_LE(setDistance(bind_a, bind_b), tolerance);
    for (int step = 0; step < 20; ++step) {
        const double t = a.clips[0].duration * step / 19.0;
        EXPECT_LE(setDistance(skinnedSet(a, &a.clips[0], t), skinnedSet(b.value(), &b.value().clips[0], t)), tolerance)
            << "t=" << t;
    }
}

std::string writeScratch(const std::string& test, const std::string& name, const std::string& bytes) {
    const auto file = test::scratchDir(test) / name;
    std::ofstream(file, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    return file.string();
}

void expectOneLineError(const std::string& path) {
    Result<Model> r = importAssimp(path);
    ASSERT_FALSE(r.ok());
    EXPECT_FALSE(r.error().message.empty());
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find(path), std::string::npos) << r.error().message;
}

TEST(Assimp, MissingFileIsAnError) { expectOneLineError("/nonexistent/throng/model.fbx"); }

// assimp also reads glTF: the embedded JPEG ("*0") comes through as encoded bytes.
TEST(Assimp, EmbeddedTexture) {
    THRONG_ASSET(path, "CesiumMan/CesiumMan.glb");
    const Model model = load(path);
    ASSERT_EQ(model.textures.size(), 1u);
    EXPECT_EQ(model.textures[0].mime_type, "image/jpeg");
    EXPECT_TRUE(model.textures[0].uri.empty());
    ASSERT_GT(model.textures[0].encoded.size(), 2u);
    EXPECT_EQ(model.textures[0].encoded[0], 0xff); // JPEG SOI marker
    EXPECT_EQ(model.textures[0].encoded[1], 0xd8);
    bool used = false;
    for (const Material& m : model.materials) used = used || m.texture == 0;
    EXPECT_TRUE(used);
    EXPECT_EQ(skinJointCount(model), 19u);
}

// Image files a model names beside itself are read (issue #12): an OBJ whose material names its
// texture by a path from another machine (backslashes, a drive) and one in a subfolder; a missing
// one is the same warning everywhere (textureNotFound).
TEST(Assimp, ExternalTexturesNextToTheModelAreRead) {
    const auto dir = test::scratchDir("assimp_external");
    std::filesystem::create_directories(dir / "tex");
    const std::string skin = "\x89PNG not really an image, but bytes to carry";
    const std::string cloth = "more bytes";
    std::ofstream(dir / "skin.png", std::ios::binary) << skin;
    std::ofstream(dir / "tex" / "cloth.png", std::ios::binary) << cloth;
    std::ofstream(dir / "quad.mtl") << "newmtl skin\nKd 1 1 1\nmap_Kd C:\\art\\skin.png\n"
                                       "newmtl cloth\nKd 1 1 1\nmap_Kd tex/cloth.png\n"
                                       "newmtl gone\nKd 1 1 1\nmap_Kd missing.png\n";
    std::ofstream(dir / "quad.obj") << "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nvt 0 0\n"
                                       "usemtl skin\nf 1/1/1 2/1/1 3/1/1\nusemtl cloth\nf 1/1/1 3/1/1 4/1/1\n"
                                       "usemtl gone\nf 2/1/1 3/1/1 4/1/1\n";
    const Result<Model> r = importModel((dir / "quad.obj").string());
    ASSERT_TRUE(r.ok()) << r.error().message;
    const Model& model = r.value();
    std::map<std::string, std::string> bytes;
    for (const Texture& t : model.textures) bytes[t.uri] = std::string(t.encoded.begin(), t.encoded.end());
    ASSERT_EQ(bytes.size(), 3u);
    EXPECT_EQ(bytes["C:\\art\\skin.png"], skin);
    EXPECT_EQ(bytes["tex/cloth.png"], cloth);
    EXPECT_EQ(bytes["missing.png"], "");
    const std::string warning =
        "texture 'missing.png': image file 'missing.png' not found next to the model; drawn without it (its base "
        "colour shows)";
    EXPECT_NE(std::find(model.warnings.begin(), model.warnings.end(), warning), model.warnings.end())
        << ::testing::PrintToString(model.warnings);
}

TEST(Assimp, RandomBytesAreAnError) {
    std::mt19937 rng(7);
    for (const char* ext : {"fbx", "dae", "x", "obj", "bin"}) {
        std::string bytes(4096, '\0');
        for (char& c : bytes) c = char(rng());
        SCOPED_TRACE(ext);
        expectOneLineError(writeScratch("assimp_random", std::string("random.") + ext, bytes));
    }
}

// assimp quotes the offending text, raw bytes included: the message stays short and holds no
// byte that UTF-8 never uses.
TEST(Assimp, ParseErrorsAreShortAndClean) {
    THRONG_ASSET(dae, kCollada);
    std::ifstream in(dae, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.find("<float_array");
    ASSERT_NE(at, std::string::npos);
    const size_t data = text.find('>', at) + 1;
    text.replace(data, 4, "\xff\xfe\x01x");
    const std::string path = writeScratch("assimp_parse_error", "bad.dae", text);
    Result<Model> r = importAssimp(path);
    ASSERT_FALSE(r.ok());
    const std::string& m = r.error().message;
    EXPECT_LE(m.size(), 240u) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
    EXPECT_EQ(m.find('\x01'), std::string::npos);
    EXPECT_EQ(m.find_first_of("\xff\xfe"), std::string::npos) << m;
}

TEST(Assimp, TruncatedFilesAreErrors) {
    THRONG_ASSET(fbx, kFbx);
    THRONG_ASSET(dae, kCollada);
    for (const std::string& path : {fbx, dae}) {
        std::ifstream in(path, std::ios::binary);
        const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (size_t keep : {size_t(0), size_t(27), whole.size() / 3, whole.size() / 2}) {
            SCOPED_TRACE(path + " cut at " + std::to_string(keep));
            const std::string name = "cut" + std::to_string(keep) + std::filesystem::path(path).extension().string();
            const std::string cut = writeScratch("assimp_truncated", name, whole.substr(0, keep));
            Result<Model> r = importAssimp(cut);
            // assimp may salvage a prefix; whatever it returns must then be a valid model.
            if (r.ok())
                EXPECT_TRUE(validate(r.value()).ok());
            else
                EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
        }
    }
}

} // namespace
} // namespace throng
