// Per-instance poses on the CPU, for the techniques that upload them each frame (palette,
// palette-ubo, bonetex, cpu; the first three for crowds of several models too): what technique
// `pose` computes on the GPU (pose.comp). Instance
// time local = time * speed + time_offset; clip A and clip B sampled exactly (no frame
// tweening); the cross-fade blended per joint in local space (LayerJob: exact, so the
// quaternion encodings store it exactly too); then each layer the member carries (its key's
// hash against the layer's share, as pose.comp); then model and skinning matrices.
#pragma once

#include "pose_gpu.h"

#include "../shaders/shared.h"

#include <throng/baked.h>

#include <span>
#include <vector>

namespace throng::render {

// A skinning matrix as the GPU reads it: three rows of a 3x4 matrix (the baked texel layout).
struct MatrixRows {
    glm::vec4 rows[3];
};

struct AssetRange; // asset_library.h

// What a crowd's poses are sampled from: each model's source animation (one model: its own),
// where its clips begin among the crowd's (AssetRange::first_clip: a member's clip ids are the
// library's), and the palette entries each member has: the largest model's joint count, as
// every shader reads palettes (DrawConstants::joint_count, RasterParams::joint_count); a member of
// a smaller skeleton leaves the rest of its entries as they were, and no vertex reads them.
struct PoseSources {
    std::vector<const AnimationSource*> models; // per model, none empty
    std::vector<uint32_t> first_clip;           // per model
    size_t joints = 0;                          // palette entries per member
    bool empty() const { return models.empty(); }
    // The one model's source; null for a crowd of several (or none).
    const AnimationSource* one() const { return models.size() == 1 ? models[0] : nullptr; }
};

// One model's (none if `source` is null or empty).
PoseSources poseSources(const AnimationSource* source);
// Several models' (AssetLibrary::sources, per range), each member's palette `joints` entries
// (the library's joint count); none if any model lacks a source or the counts differ.
PoseSources poseSources(std::span<const AnimationSource> sources, std::span<const AssetRange> ranges, size_t joints);

// Skinning matrices of every instance: out[i * sources.joints + j] for its model's joints j. Runs
// on all cores (oneTBB). Contract: !sources.empty(), out.size() == instances.size() *
// sources.joints, each instance's model (throngAssetOf) one of sources.models and its clip ids
// among that model's, `layers` (one model only) resolved against its source (resolveLayers).
void sampleCrowdPoses(const PoseSources& sources, std::span<const gpu::shader::InstanceRecord> instances, float time,
                      std::span<MatrixRows> out, std::span<const PoseLayerSetup> layers = {});

// A skinning matrix as quaternion (x, y, z, w) and (translation, uniform scale): 2 vec4. The
// scale is the cube root of the determinant; the rest is re-orthonormalised, so cross-faded or
// sheared matrices come out as the nearest rotation.
void encodeQuaternion(const MatrixRows& m, glm::vec4 out[2]);

// The same matrix as glm column-major, for the CPU skinning jobs.
glm::mat4 toMatrix(const MatrixRows& m);

} // namespace throng::render
