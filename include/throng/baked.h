// throng/baked.h — a baked asset: what the GPU runtime needs, nothing it does not.
//
// Runtime data: produced offline by bake() (throng/bake.h) or loaded from a .throng file
// (throng/format.h); the renderer reads only this, never a Model.
//
// Animation layout ("bone x frame x clip"): for clip c, frame f, palette joint j, the skinning
// matrix (model[joint] * inverse_bind) as a 3x4 row-major matrix, i.e. three RGBA texels:
//   texel (x = 3 * j + r, y = f, layer = c) = row r of the matrix, r = 0..2.
// `animation` stores these texels layer by layer, row by row: index of texel (x, y, layer) is
//   ((layer * max_frames + y) * texels_per_row + x), 4 components each, texels_per_row = 3 * joint_count.
// Frames past a clip's frame_count repeat its last frame (so the image is dense).
//
// Frame timing: a clip of duration D baked at rate R has frame_count = max(1, round(D * R)) + 1
// frames at times t_f = f * D / (frame_count - 1) (f = 0 .. frame_count - 1); the last frame is at
// exactly D, so the effective rate is (frame_count - 1) / D, within half a frame of R. A clip of
// zero duration has 1 frame. To sample time t: u = clipTime(t) / D * (frame_count - 1), blend
// frames floor(u) and min(floor(u) + 1, frame_count - 1). (bakedFrameCount / bakedFrameTime below.)
// Every frame holds the pose at t_f itself, also the last one of a looping clip (the pose at D,
// the limit from the left, not the wrapped pose at 0; for a seamless loop the two are equal).
//
// Vertex animation (optional, `throng bake --vat`, technique `vat`): every vertex skinned at
// every baked frame of every clip (the same frame times and poses as the bone animation), two
// RGBA texels per vertex:
//   texel (x = 2 * v, y = f, layer = c)     = skinned position of vertex v, (x, y, z, 1)
//   texel (x = 2 * v + 1, y = f, layer = c) = skinned normal of vertex v, (x, y, z, 0)
// stored layer by layer, row by row like `animation`: index ((layer * max_frames + y) *
// vatTexelsPerRow() + x), 4 components each, vatTexelsPerRow() = 2 * vertices.size(), in the
// asset's precision. Frames past a clip's frame_count repeat its last frame. Positions are the
// double-precision reference (referenceSkin) rounded to float (then half); normals are the
// reference's unit normals rounded the same way. Half positions may lie outside frame_bounds by
// their rounding (a renderer pads bounds anyway).
//
// Levels of detail (`lods`, made by bake(), src/bake/lod.cpp): an LOD is only another index range
// per submesh into the SAME `vertices` (the simplifier keeps a subset of the original vertices and
// never makes new ones), so skin weights, normals and every technique's per-vertex data are
// shared by all levels, and every frame bound and clipBounds() holds every level. Layout of
// `indices`: LOD 0's indices (the ranges of `submeshes`) first, then each further level's indices
// appended, level by level, submesh by submesh. lods[l].submeshes[s] is the range of submesh s
// (same order, material and texture as `submeshes`) at level l; lods[0] mirrors `submeshes` with
// error 0. Each level's `error` is how far its surface strays from LOD 0's, in model units, in
// the bind pose (the largest over its submeshes; measured as src/bake/lod.cpp says),
// non-decreasing with the level: a renderer picks the coarsest level whose error, projected to
// the screen, is small enough. An empty `lods` (a file of format
// version 1, a hand-made asset) means one level, the mesh itself: lodLevels() gives that.
#pragma once

#include <throng/api.h>
#include <throng/model.h>

#include <cstdint>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

enum class Precision : uint32_t { Float32 = 0, Float16 = 1 };

// How a vertex's joints are blended: their matrices weighted (linear blend skinning), or as dual
// quaternions (no collapse where a joint twists; TechniqueInfo::dual_quaternion says who draws it).
// A crowd's option (throng/options.h, CrowdOptions::skinning); impostors record the one their
// pictures were drawn with.
enum class Skinning : uint8_t { Linear, DualQuaternion };

// Limits shared by bake() and the .throng reader (a hostile file cannot ask for more).
constexpr uint32_t kMaxBakedJoints = 65536;             // BakedVertex::joints are uint16
constexpr uint64_t kMaxBakedTexels = uint64_t(1) << 28; // 4 GiB of float32 RGBA texels
constexpr uint32_t kMaxBakedLods = 8;                   // levels of detail, LOD 0 included

const char* toString(Precision);

// A named moment of a clip (throng/events.h): a footstep, a sound, a hit.
struct ClipEvent {
    float time = 0.0f; // seconds of clip time, in [0, duration] (a looping clip: [0, duration))
    std::string name;  // 1 .. kMaxEventName bytes
    bool operator==(const ClipEvent&) const = default;
};
constexpr size_t kMaxEventName = 256;
constexpr size_t kMaxClipEvents = 65536;

struct BakedClip {
    std::string name;
    float duration = 0.0f;    // seconds
    uint32_t frame_count = 1; // >= 1
    bool loop = true;
    // frame_count entries: bounds of the skinned mesh per frame. They contain every vertex
    // skinned exactly (double) and skinned with the stored matrices (either precision);
    // a renderer pads them for its own rounding.
    std::vector<Bounds> frame_bounds;
    // Root motion (throng/root_motion.h): empty, or frame_count entries of (d.x, d.z, yaw) taken
    // out of the pose at each baked frame, about `root_pivot` (model x, z).
    std::vector<glm::vec3> root_motion;
    glm::vec2 root_pivot{0.0f};
    // Animation events (throng/events.h), in time order; at most kMaxClipEvents.
    std::vector<ClipEvent> events;
};

// One vertex as the GPU reads it (60 bytes, tightly packed, little-endian).
struct BakedVertex {
    float position[3]; // bind pose, model space
    float normal[3];
    float uv[2];
    uint8_t color[4];   // RGBA8, sRGB-agnostic vertex colour (white when the source has none)
    uint16_t joints[4]; // palette indices, every slot < joint_count (zero-weight slots are 0)
    float weights[4];   // non-negative, sum to 1 within kWeightSumTolerance
};
static_assert(sizeof(BakedVertex) == 60);

struct BakedSubmesh {
    uint32_t first_index = 0; // into BakedAsset::indices
    uint32_t index_count = 0; // multiple of 3
    glm::vec4 base_color{1.0f};
    int32_t texture = -1; // index into BakedAsset::textures
};

// One submesh's triangles at one level of detail: a range of BakedAsset::indices.
struct BakedLodRange {
    uint32_t first_index = 0;
    uint32_t index_count = 0; // multiple of 3; may be 0 where a level dropped a tiny submesh
    bool operator==(const BakedLodRange&) const = default;
};

// One level of detail (see the top): a range per submesh and its error.
struct BakedLod {
    float error = 0.0f;                   // model units; 0 for LOD 0
    std::vector<BakedLodRange> submeshes; // one per BakedAsset::submeshes, same order
    uint64_t triangleCount() const;
};

struct BakedTexture {
    std::string mime_type;        // image/png, image/jpeg
    std::vector<uint8_t> encoded; // empty when the source only named an external file (bake warns)
};

// The source animation, kept beside the baked frames for the techniques that sample poses on
// the CPU every frame (cpu, palette, bonetex). Empty (no joints) in files that do not carry it.
// When present: `palette` has BakedAsset::joint_count entries (the same palette the baked
// matrices were made from) and `clips` has one clip per BakedAsset::clips entry, same order,
// same name and duration (for a model without clips: one empty clip "rest", duration 0).
struct AnimationSource {
    Skeleton skeleton;
    std::vector<PaletteEntry> palette;
    std::vector<Clip> clips;
    bool empty() const { return skeleton.size() == 0; }
};

// Animated impostors (optional; bake with BakeOptions::impostors): the model drawn from
// `azimuths` x `elevations` directions, every clip at `fps`, each picture a tile of `tile` x
// `tile` texels framing the sphere (center, radius) orthographically. View v = e * azimuths + a
// looks at the model from direction (sin(A) cos(E), sin(E), cos(A) cos(E)), A = a * 360 /
// azimuths degrees, E = e * 90 / elevations degrees (e = 0: the horizon; a = 0: from +Z); the
// tile's right is cross(+Y, direction), its up cross(direction, right), its top row up.
// Clip c plays frames(c) pictures at times f * D / (frames(c) - 1) (one picture when D is 0).
// Two images of RGBA8 texels, layer c, row f * tile + y, column v * tile + x:
// ((c * max_frames * tile + y') * views * tile + x') * 4 bytes from the start:
//   color:  the submesh's base colour times the vertex colour (and its texture), sRGB-encoded;
//           alpha coverage
//   normal: the model-space normal * 0.5 + 0.5; alpha the texel's look + 1 (BakedAsset::looks;
//           0: none), which the impostor shader colours the texel by (files from before looks
//           hold the coverage there: their assets have no looks, and the shader reads none).
// Props and kit parts are not in the pictures.
struct BakedImpostors {
    uint32_t tile = 0; // texels per side; 0: no impostors
    // How the pictures' poses blend joints (ImpostorOptions::skinning): a crowd skinned otherwise
    // changes its pose slightly where members become impostors (the renderer says so).
    Skinning skinning = Skinning::Linear;
    uint32_t azimuths = 0;
    uint32_t elevations = 0;
    float fps = 0.0f;       // pictures per second of clip time
    glm::vec3 center{0.0f}; // model space: the sphere every tile frames
    float radius = 0.0f;
    uint32_t max_frames = 0;      // the largest of `frames`
    std::vector<uint32_t> frames; // per clip (BakedAsset::clips order): pictures, >= 1
    std::vector<uint8_t> color;
    std::vector<uint8_t> normal;

    bool empty() const { return tile == 0; }
    uint32_t views() const { return azimuths * elevations; }
    uint64_t width() const { return uint64_t(views()) * tile; } // texels per image row
    uint64_t height() const { return uint64_t(max_frames) * tile; }
    uint64_t bytesPerImage() const { return width() * height() * frames.size() * 4; }
};
constexpr uint32_t kMaxImpostorTexels = 16384; // image width and height at most (a common maxImageDimension2D)

// A prop or part: submeshes first_submesh .. first_submesh + submesh_count - 1 and vertices
// first_vertex .. + vertex_count - 1 of the asset are its, worn by `share` of the members (within
// its slot: throng/attach.h). Either attached (attachProps: skinned to palette entry `joint`
// alone, placed by `offset`) or one of the model's own parts (Model::parts: joint 0, offset the
// identity, skinned as the model made it).
struct BakedProp {
    std::string name;   // the prop model's source, for messages
    uint32_t joint = 0; // palette entry
    uint32_t first_submesh = 0, submesh_count = 0;
    uint32_t first_vertex = 0, vertex_count = 0;
    float share = 1.0f;     // of the members that carry it
    glm::mat4 offset{1.0f}; // in the joint's frame
    std::string slot;       // the kit slot it is a part of (throng/attach.h; empty: none)
};

// A look (Model::looks; throng/looks.h): the member's colour of submeshes `submeshes` is one of
// `colors` (linear RGB), colour i on about shares[i] / (their sum) of the members. `number` is
// the look's index among its model's looks (its salt: throng/looks.h), kept where the looks of
// several models are put together (a crowd's library); derived, not stored.
struct BakedLook {
    std::string name;
    std::vector<uint32_t> submeshes; // ascending, each in one look at most
    std::vector<glm::vec3> colors;
    std::vector<float> shares;     // one per colour (empty: equal)
    std::vector<int32_t> textures; // empty, or one per colour: indices into BakedAsset::textures (Look::textures)
    uint32_t number = 0;
};

// Whether a prop or part whose bind-pose box has diagonal `size` is drawn at a level of detail
// of error `error` (model units): whole at the levels whose error is under a quarter of its size,
// not at all past them, where it would cover fewer than about 4 pixels (a level's error is about
// one) and a small part's triangles would outnumber a far member's own.
inline bool partDrawnAt(float error, float size) { return error * 4.0f <= size; }

struct BakedAsset {
    std::string name; // source, for messages
    Precision precision = Precision::Float32;
    float fps = 30.0f;            // the requested rate
    uint32_t joint_count = 0;     // palette entries
    uint32_t max_frames = 0;      // max frame_count over clips (image height)
    std::vector<BakedClip> clips; // at least one (a model without clips bakes its rest pose as clip "rest")
    // clips.size() * max_frames * 3 * joint_count texels of 4 components: float32 values in
    // `animation_f32` (Precision::Float32) or IEEE half bits in `animation_f16` (Float16).
    std::vector<float> animation_f32;
    std::vector<uint16_t> animation_f16;

    // Optional vertex animation (see the top): empty, or clips.size() * max_frames *
    // vatTexelsPerRow() texels of 4 components in the asset's precision (float32 values in
    // `vat_f32` or half bits in `vat_f16`, the other empty).
    std::vector<float> vat_f32;
    std::vector<uint16_t> vat_f16;

    std::vector<BakedVertex> vertices;   // every mesh of the model, concatenated
    std::vector<uint32_t> indices;       // into `vertices`: LOD 0's, then the other levels' (see the top)
    std::vector<BakedSubmesh> submeshes; // LOD 0
    std::vector<BakedLod> lods;          // empty (one level, the mesh) or at most kMaxBakedLods levels
    std::vector<BakedTexture> textures;
    Bounds bind_bounds;
    AnimationSource source;   // see AnimationSource
    BakedImpostors impostors; // see BakedImpostors; empty unless baked with impostors
    // The model's parts (Model::parts) and props added by attachProps() (throng/attach.h): which
    // submeshes are whose. Stored in .throng files (section PART, docs/FORMAT.md).
    std::vector<BakedProp> props;
    // Colours that vary by member (Model::looks; none: every member the same but its tint).
    // Stored in .throng files (section LOOK).
    std::vector<BakedLook> looks;
    // The joint whose motion the clips' root_motion curves took out (throng/root_motion.h);
    // empty: none (then no clip has a curve).
    std::string root_joint;

    uint32_t texelsPerRow() const { return 3 * joint_count; }
    size_t texelCount() const { return size_t(clips.size()) * max_frames * texelsPerRow(); }
    bool hasVat() const { return !vat_f32.empty() || !vat_f16.empty(); }
    uint64_t vatTexelsPerRow() const { return 2 * uint64_t(vertices.size()); }
    uint64_t vatTexelCount() const { return uint64_t(clips.size()) * max_frames * vatTexelsPerRow(); }
};

// Frame timing as documented at the top: max(1, round(D * R)) + 1 frames, 1 when D == 0 (computed
// in double; saturates at UINT32_MAX, far past kMaxBakedTexels). Time of frame f: f * D /
// (frame_count - 1), exactly D for the last frame; 0 for a one-frame clip.
uint32_t bakedFrameCount(float duration, float fps);
double bakedFrameTime(const BakedClip& clip, uint32_t frame);

// The union of a clip's frame bounds: a conservative box for the clip at any time. Tweening
// between two frames and cross-fading two clips blend skinning matrices linearly, so a blended
// vertex is a convex combination of vertices skinned at baked frames: inside the union of the
// clips' boxes (up to the renderer's rounding, which it pads). Holds every LOD (same vertices).
// Contract (asserted): clip.frame_bounds is not empty (validate() ensures it).
Bounds clipBounds(const BakedClip& clip);

// The asset's levels of detail: `lods`, or when it is empty one level made of `submeshes`
// (error 0). Never empty.
std::vector<BakedLod> lodLevels(const BakedAsset& asset);

// Row r of the skinning matrix of joint j at frame f of clip c, as floats (either precision).
// Contract (asserted): asset passes validate(), clip < clips.size(), frame < max_frames,
// joint < joint_count, row < 3.
glm::vec4 bakedTexel(const BakedAsset& asset, uint32_t clip, uint32_t frame, uint32_t joint, uint32_t row);

// Vertex v's skinned position (texel w = 1) or normal (w = 0) at frame f of clip c, as floats.
// Contract (asserted): asset passes validate() and hasVat(), clip < clips.size(), frame <
// max_frames, vertex < vertices.size().
glm::vec4 vatTexel(const BakedAsset& asset, uint32_t clip, uint32_t frame, uint32_t vertex, bool normal);

// Checks every invariant above (sizes, index ranges, finite values) with a one-line message
// naming the element: "clip 1 'idle': 33 frame bounds for 34 frames". Also: at least one clip and
// one vertex; 1 <= joint_count <= kMaxBakedJoints; texelCount() <= kMaxBakedTexels and, with
// vertex animation, vatTexelCount() <= kMaxBakedTexels and every value finite; a clip of
// duration 0 has 1 frame, any other at least 2; max_frames is the largest frame_count; fps in
// 1 .. 1000. LODs, when present: at most kMaxBakedLods; each has one range per submesh, inside
// `indices`, a multiple of 3; errors finite, non-negative and non-decreasing; lods[0] has the
// ranges of `submeshes` and error 0. Impostors, when present: tile 1 .. 256, azimuths 1 .. 64,
// elevations 1 .. 16, fps in 0.1 .. 1000, a positive finite radius, one frame count (>= 1) per
// clip, max_frames their largest, width and height at most kMaxImpostorTexels, both images of
// bytesPerImage() bytes. Props and parts: their submeshes inside the asset's and one prop each,
// vertices inside, joint in the palette, offset finite, and validateParts (throng/model.h).
Status validate(const BakedAsset& asset);

// IEEE 754 binary16 conversion, round to nearest even; shared by the baker and tests.
// Subnormals both ways; overflow (|x| >= 65520) gives infinity; NaN stays NaN (sign and the top
// 10 payload bits kept), so every half value round-trips through float bit for bit.
uint16_t floatToHalf(float value);
float halfToFloat(uint16_t bits);

} // namespace throng
THRONG_API_END
