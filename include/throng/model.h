// throng/model.h — the in-memory model: skeleton, skinned meshes, clips. Plain data.
//
// Every importer (glTF, assimp, built-in creatures) produces a Model; everything after
// import (sampling, skinning, baking) reads one. A Model that passes validate() satisfies
// every invariant documented below, so later stages may rely on them without checking.
//
// Conventions (all importers normalise to these):
// - Units are the file's own; right-handed, +Y up (assimp and glTF both deliver Y up).
// - Quaternions are glm::quat, unit length; stored x, y, z, w in memory (GLM's default).
// - Time is in seconds. A clip starts at t = 0 and lasts `duration` = its last key time
//   (glTF semantics: a clip whose first key is at 0.042 s holds that key from 0 to 0.042 s).
// - Skinned positions: p' = sum_i w_i * (model[palette[j_i].joint] * palette[j_i].inverse_bind) * p.
#pragma once

#include <throng/api.h>
#include <throng/result.h>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

constexpr uint32_t kMaxInfluences = 4; // influences per vertex after import
constexpr int32_t kNoParent = -1;
constexpr float kWeightSumTolerance = 1e-3f; // |sum(weights) - 1| allowed by validate()

// Local transform of a joint: translation, rotation, scale (applied scale, then rotation, then translation).
struct Transform {
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f}; // glm constructor order is (w, x, y, z)
    glm::vec3 scale{1.0f};
};

glm::mat4 toMatrix(const Transform& t);

// The joint hierarchy. Holds every node of the source that can move a vertex: skin joints,
// their ancestors and nodes that carry meshes. Invariant: parents[j] < j (parent before child),
// or kNoParent for roots. All three arrays have the same length.
struct Skeleton {
    std::vector<std::string> names;
    std::vector<int32_t> parents;
    std::vector<Transform> rest; // local rest pose: the file's node transforms

    uint32_t size() const { return uint32_t(parents.size()); }
};

// A skin as the source file declares it (several per file are allowed). Kept for reporting
// and for tools; skinning itself goes through Model::palette.
struct Skin {
    std::string name;
    std::vector<uint32_t> joints; // skeleton joint indices
};

// One entry of the model's skinning palette: the skinning matrix of entry k is
// model[joint] * inverse_bind. All skins of a file are merged into one palette, and identical
// (joint, inverse_bind) pairs are shared, so an instance needs one palette, not one per skin.
struct PaletteEntry {
    uint32_t joint = 0;
    glm::mat4 inverse_bind{1.0f};
};

struct Material {
    std::string name;
    glm::vec4 base_color{1.0f}; // linear RGBA
    int32_t texture = -1;       // index into Model::textures, or -1
};

// A texture as stored in the source: encoded bytes (PNG/JPEG) or an external uri.
struct Texture {
    std::string name;
    std::string mime_type;
    std::string uri; // empty when embedded
    std::vector<uint8_t> encoded;
};

struct Submesh {
    uint32_t first_index = 0;
    uint32_t index_count = 0; // multiple of 3
    int32_t material = -1;    // index into Model::materials, or -1 (white)
};

// A triangle mesh skinned to the palette. Rigid meshes attached to a joint become meshes with
// one influence of weight 1 on a palette entry of that joint (see rigid_joint), so every mesh
// animates through the same path. Per-vertex arrays all have the vertex count, except uvs and
// colors which may be empty.
struct Mesh {
    std::string name;
    std::vector<glm::vec3> positions; // bind pose, model space
    std::vector<glm::vec3> normals;   // unit length
    std::vector<glm::vec2> uvs;
    std::vector<glm::vec4> colors;    // linear RGBA
    std::vector<glm::u16vec4> joints; // palette indices; unused slots have weight 0
    std::vector<glm::vec4> weights;   // non-negative, sum to 1 within kWeightSumTolerance
    std::vector<uint32_t> indices;    // triangle list
    std::vector<Submesh> submeshes;   // cover `indices`
    int32_t skin = -1;                // Model::skins index for skinned meshes, else -1
    int32_t rigid_joint = -1;         // skeleton joint it was rigidly attached to, else -1
};

enum class Interpolation : uint8_t { Step, Linear, CubicSpline };
enum class TrackTarget : uint8_t { Translation, Rotation, Scale };

const char* toString(Interpolation);
const char* toString(TrackTarget);

// The one wording, in every subcommand, for a texture whose image file a model names but that
// cannot be read: "texture 'NAME': image file 'URI' not found next to the model; drawn without
// it (its base colour shows)".
std::string textureNotFound(const Texture& texture);

// One animated property of one joint, with glTF sampler semantics.
// values: xyz for translation and scale, quaternion (x, y, z, w) for rotation.
// CubicSpline stores 3 values per key: in-tangent, value, out-tangent; others 1 per key.
struct Track {
    uint32_t joint = 0;
    TrackTarget target = TrackTarget::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times; // seconds, strictly increasing, >= 0
    std::vector<glm::vec4> values;
};

struct Clip {
    std::string name;
    float duration = 0.0f; // seconds; >= every key time of every track
    std::vector<Track> tracks;
};

// Meshes that not every member wears (issue #25's kits: hair, hats, bags; throng/attach.h):
// meshes first_mesh .. first_mesh + mesh_count - 1, worn by `share` of the members, and where
// `slot` is named, never with another part of that slot (the shares of a slot add up to 1 or
// less; the rest of the members wear none of it). bake() makes each a BakedProp.
struct Part {
    std::string name;   // for messages and `throng info`
    std::string slot;   // empty: worn on its own share, independently of the others
    float share = 1.0f; // in [0, 1], steps of 1/256
    uint32_t first_mesh = 0, mesh_count = 0;
};

// Colour variation (issue #25's looks; throng/looks.h): the materials `materials` (indices into
// Model::materials) of a member are coloured by one of `colors` (linear RGB, multiplying the
// material's base colour, texture and vertex colours), colour i on about shares[i] / (the sum of
// the shares) of the members, chosen by a seeded hash of the member's key. A look may also vary
// the texture (texture variants): with `textures`, the members of colour i sample textures[i]
// as the base-colour texture of the look's materials instead of the materials' own (a material
// without one gains it), times colors[i] (white where only the texture varies). bake() makes
// each a BakedLook over the materials' submeshes.
struct Look {
    std::string name;                // for messages and `throng info`, e.g. "top"
    std::vector<uint32_t> materials; // at least one; a material in one look at most
    std::vector<glm::vec3> colors;   // 1 .. kMaxLookColors, finite, >= 0
    std::vector<float> shares;       // one per colour, >= 0, not all 0 (empty: equal)
    std::vector<int32_t> textures;   // empty, or one per colour: indices into Model::textures
};

struct Model {
    std::string source; // path, or builtin:NAME
    std::string format; // human-readable, e.g. "glTF 2.0 binary (.glb)"
    Skeleton skeleton;
    std::vector<Skin> skins;
    std::vector<PaletteEntry> palette;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<Texture> textures;
    std::vector<Clip> clips;
    std::vector<Part> parts;           // meshes not every member wears (none: every mesh on every member)
    std::vector<Look> looks;           // materials whose colours vary by member (none: one look)
    std::vector<std::string> warnings; // things the importer changed or skipped, one line each
};

// textureNotFound(...) of every texture that names an image file but holds no bytes.
std::vector<std::string> missingTextures(const Model& model);

// Check every invariant above. The message names the first problem found, e.g.
// "mesh 2 'Body' vertex 17: weights sum to 0.75, not 1".
Status validate(const Skeleton& skeleton);
Status validate(const Model& model);
// The rules of parts alone (Model::parts, BakedAsset::props alike): at most kMaxParts, shares in
// [0, 1], names on one line (4,096 characters, a slot 64), a slot's shares adding up to 1 or less.
constexpr uint32_t kMaxParts = 127; // numbered in 7 bits (src/shaders/shared.h: THRONG_MAX_PROPS)
Status validateParts(std::span<const Part> parts);
// The rules of a look alone (Model::looks, BakedAsset::looks alike): a name on one line (64
// characters), 1 .. kMaxLookColors finite non-negative colours, as many shares (or none), each
// finite and >= 0, adding up to more than 0, and no textures or one per colour, each below
// `texture_count`. The count is checked by the callers (kMaxLooks).
constexpr uint32_t kMaxLooks = 64;      // per model (salted in 8 bits: src/shaders/shared.h THRONG_LOOK_SALT)
constexpr uint32_t kMaxLookColors = 64; // per look
Status validateLook(const std::string& name, std::span<const glm::vec3> colors, std::span<const float> shares,
                    std::span<const int32_t> textures = {}, size_t texture_count = 0);

// --- Derived facts (what `throng info` prints) ------------------------------------------

struct Bounds {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
    float diagonal() const { return glm::length(max - min); }
};

Bounds bindPoseBounds(const Model& model); // over every mesh's bind positions
uint32_t vertexCount(const Model& model);
uint32_t triangleCount(const Model& model);
uint32_t skinJointCount(const Model& model); // size of the union of all skins' joints
uint32_t keyframeCount(const Clip& clip);    // sum of key counts over the clip's tracks

} // namespace throng
THRONG_API_END
