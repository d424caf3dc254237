// throng/anim.h — the CPU animation runtime: sample, compose, skin.
//
// Runtime code: depends on throng/model.h only, never on the importer or the baker.
// Each step is a job in the style of ozz-animation: a struct of input and output spans that
// the caller owns, validate() to check the contract, run() to do the work. run() returns
// false, and writes nothing, when validate() would fail.
//
// Pipeline for one instance at time t:
//   SamplingJob          clip, t          -> local transforms   (skeleton.size())
//   LayerJob (optional)  base, layer, mask -> local transforms  (cross-fades, masked layers)
//   LocalToModelJob      local            -> model matrices     (skeleton.size())
//   SkinningMatricesJob  model, palette   -> skinning matrices  (palette.size())
//   SkinningJob          skinning matrices, mesh -> skinned positions and normals
//
// Alongside it, a double-precision reference (reference*) implements the same maths in
// double: the oracle that every float and GPU path is tested against.
#pragma once

#include <throng/api.h>
#include <throng/model.h>
#include <throng/result.h>

#include <glm/gtc/quaternion.hpp>

#include <span>
#include <string>
#include <string_view>

THRONG_API_BEGIN
namespace throng {

// Maps a time onto a clip: looping wraps into [0, duration), clamping limits to
// [0, duration]. A clip of zero duration always maps to 0.
double clipTime(double time, double duration, bool loop);

// The value of one track at time t (already mapped by clipTime), per the track's
// interpolation: STEP holds the previous key, LINEAR lerps (rotations: shortest-arc slerp),
// CUBICSPLINE is the glTF Hermite spline with tangents scaled by the key interval
// (rotations normalised). Before the first key: first value; after the last: last value.
glm::vec4 sampleTrack(const Track& track, float t);

struct SamplingJob {
    const Skeleton* skeleton = nullptr; // joints without a track keep their rest transform
    const Clip* clip = nullptr;         // its tracks must address joints of `skeleton`
    float time = 0.0f;                  // seconds; mapped through clipTime(time, duration, loop)
    bool loop = true;
    std::span<Transform> output; // size >= skeleton->size()

    bool validate() const;
    bool run() const;
};

// Layered blending of two local poses (issue #13, part 5: the CPU runtime's half; the GPU pose
// pass is to do the same): output[j] = base[j] moved toward layer[j] by w = weight x mask[j]:
// translation and scale lerped, rotation normalised-lerped the shorter way round,
// normalize((1 - w) a + w (+-b)). w = 0 keeps base[j] and w = 1 takes layer[j], exactly. A
// cross-fade is the same blend with no mask. `output` may be `base`.
struct LayerJob {
    std::span<const Transform> base, layer; // size >= joints
    float weight = 1.0f;                    // in [0, 1]
    std::span<const float> mask;            // empty: every joint 1; else size >= joints, each in [0, 1]
    uint32_t joints = 0;
    std::span<Transform> output; // size >= joints

    bool validate() const;
    bool run() const;
};

// A mask for LayerJob: 1 for joint `root` and its descendants, 0 for the rest (skeleton order;
// root < skeleton.size()). E.g. the walker's `spine`: the upper body.
std::vector<float> subtreeMask(const Skeleton& skeleton, uint32_t root);

// `--layer CLIP@JOINT[,WEIGHT][@SHARE%]` (techniques pose, cpu, palette, palette-ubo, bonetex;
// src/render/pose_gpu.h): clip CLIP
// played over the member's own animation from joint JOINT down (subtreeMask), moved there by
// WEIGHT (default 1), on SHARE of the members (default 100%, chosen by their keys as props are).
// The clip's name may hold '@' (the joint's part is after the last one before the share).
struct LayerSpec {
    std::string clip, joint;
    float weight = 1.0f; // in [0, 1]
    float share = 1.0f;  // in [0, 1]
};
// Errors (one line naming the text): no '@', an empty clip or joint, a weight or share that is
// not a number in range.
Result<LayerSpec> parseLayer(std::string_view text);

// model[j] = model[parent[j]] * toMatrix(local[j]); roots: toMatrix(local[j]).
struct LocalToModelJob {
    const Skeleton* skeleton = nullptr;
    std::span<const Transform> local; // size >= skeleton->size()
    std::span<glm::mat4> output;      // size >= skeleton->size()

    bool validate() const;
    bool run() const;
};

// output[k] = model[palette[k].joint] * palette[k].inverse_bind.
struct SkinningMatricesJob {
    std::span<const PaletteEntry> palette;
    std::span<const glm::mat4> model; // every palette joint must be < model.size()
    std::span<glm::mat4> output;      // size >= palette.size()

    bool validate() const;
    bool run() const;
};

// The unit of work of SkinningJob::runParallel(): ~600 KB of streams with normals, ~40 us on
// one core. Small enough to balance a 100k-vertex job over 2-16 threads, large enough that the
// cost of a task stays in the noise; a multiple of every SIMD block (16).
inline constexpr size_t kSkinningChunk = 8192;

// Linear blend skinning, float, up to kMaxInfluences per vertex.
// Position: sum_i w_i M_i p. Normal: the blended matrix's cofactor (inverse transpose up to
// a positive factor, so non-uniform scale is handled) applied to n, then normalised; a blend
// whose cofactor maps n to zero keeps n. Normals are optional: leave both normal spans empty.
//
// run() uses the widest kernel the CPU supports, chosen once at run time (on x86-64: AVX-512F,
// AVX2 + FMA, else SSE2; elsewhere a scalar loop, which also does the last vertices that do not
// fill a block of 4-16). It agrees with the scalar loop to float rounding, not bit for bit (the
// kernels use FMA and 1 / sqrt; tested to 1e-5 relative). A kernel skips an influence slot only
// where every vertex of its block has weight 0 in it; otherwise a zero weight still multiplies
// its matrix, so every matrix that a joint index names must be finite.
// runParallel() is run() split into chunks of kSkinningChunk vertices on oneTBB's threads (the
// calling thread's arena: limit it with tbb::global_control or tbb::task_arena); it writes the
// same bits as run(), and jobs of one chunk or less run on the calling thread.
struct SkinningJob {
    std::span<const glm::mat4> matrices; // every joint index must be < matrices.size()
    std::span<const glm::vec3> positions;
    std::span<const glm::vec3> normals;   // empty, or positions.size()
    std::span<const glm::u16vec4> joints; // positions.size()
    std::span<const glm::vec4> weights;   // positions.size()
    std::span<glm::vec3> out_positions;   // positions.size()
    std::span<glm::vec3> out_normals;     // empty iff normals is empty; else positions.size()

    bool validate() const;
    bool run() const;
    bool runParallel() const;
};

// --- Double-precision reference --------------------------------------------------------

// Model-space matrices of every joint (skeleton order) of `clip` at `time`, every step in double.
// clip == nullptr gives the rest pose.
std::vector<glm::dmat4> referenceModelMatrices(const Model& model, const Clip* clip, double time, bool loop);

// Skinning matrices (palette order) of `clip` at `time`, every step in double.
// clip == nullptr gives the rest pose.
std::vector<glm::dmat4> referenceSkinningMatrices(const Model& model, const Clip* clip, double time, bool loop);

// LayerJob's blend in double: `base` at base_time with `layer` at layer_time over it, joint j
// moved by weights[j] (weight x mask; joints past weights.size(): 0, the base), then to skinning
// matrices (palette order).
std::vector<glm::dmat4> referenceLayeredSkinningMatrices(const Model& model, const Clip& base, double base_time,
                                                         const Clip& layer, double layer_time,
                                                         std::span<const double> weights, bool loop);

// The general case in double, as technique `pose` blends on the GPU: `base` at base_time (null:
// the rest pose), then each layer in order moved over it by its per-joint weights (a cross-fade
// to clip B is a layer of B with every weight `blend`; a masked layer weight x mask), then to
// skinning matrices (palette order).
struct ReferenceLayer {
    const Clip* clip = nullptr; // null: the rest pose
    double time = 0.0;
    std::vector<double> weights; // per skeleton joint; joints past its size: 0
};
std::vector<glm::dmat4> referenceBlendedSkinningMatrices(const Model& model, const Clip* base, double base_time,
                                                         std::span<const ReferenceLayer> layers, bool loop);

struct SkinnedVertices {
    std::vector<glm::dvec3> positions;
    std::vector<glm::dvec3> normals;
};

// Linear blend skinning of one mesh in double; normals with the exact inverse transpose.
SkinnedVertices referenceSkin(const Mesh& mesh, std::span<const glm::dmat4> matrices);

// --- Dual-quaternion skinning (`--skinning dual-quaternion`: techniques palette and baked) --

// A skinning matrix taken apart as p -> R (s p) + t: s the mean length of its 3x3 part's columns,
// R the rotation nearest the 3x3 part / s (exact for rigid joints with uniform scale; shear and
// mirroring are lost), t the translation; R and t as a unit dual quaternion (real r, dual
// d = t r / 2; glm quaternions). s <= 1e-8 (a joint scaled to nothing): the identity rotation
// and scale 0, so its vertices collapse onto t as with linear blending.
struct DualQuaternion {
    glm::dquat real{1.0, 0.0, 0.0, 0.0};
    glm::dquat dual{0.0, 0.0, 0.0, 0.0};
    double scale = 1.0;
};
DualQuaternion toDualQuaternion(const glm::dmat4& m);
// The blend of up to four joints, as the GPU's dual_quaternion.glsl does it: sum w (r, d) with
// each real part's sign matched to the first non-zero-weight joint's (the shorter way round),
// divided by the sum's real length; scales summed by weight. Returned as the matrix of
// p -> R (s p) + t. Weights that sum to zero, or real parts that cancel: the zero matrix.
glm::dmat4 dualQuaternionBlend(std::span<const glm::dmat4> matrices, const glm::u16vec4& joints,
                               const glm::vec4& weights);
// referenceSkin with dual-quaternion blending: positions R (s p) + t; normals R n, normalised
// (src/anim/reference.cpp).
SkinnedVertices referenceSkinDualQuaternion(const Mesh& mesh, std::span<const glm::dmat4> matrices);

} // namespace throng
THRONG_API_END
