// Per-instance poses on the CPU, for the techniques that upload them each frame (palette,
// palette-ubo, bonetex, cpu): what technique `pose` computes on the GPU (pose.comp). Instance
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

// Skinning matrices of every instance: out[i * joint_count + j]. Runs on all cores (oneTBB).
// Contract: !source.empty(), out.size() == instances.size() * source.palette.size(), clip ids
// of the instances < source.clips.size(), `layers` resolved against `source` (resolveLayers).
void sampleCrowdPoses(const AnimationSource& source, std::span<const gpu::shader::InstanceRecord> instances, float time,
                      std::span<MatrixRows> out, std::span<const PoseLayerSetup> layers = {});

// A skinning matrix as quaternion (x, y, z, w) and (translation, uniform scale): 2 vec4. The
// scale is the cube root of the determinant; the rest is re-orthonormalised, so cross-faded or
// sheared matrices come out as the nearest rotation.
void encodeQuaternion(const MatrixRows& m, glm::vec4 out[2]);

// The same matrix as glm column-major, for the CPU skinning jobs.
glm::mat4 toMatrix(const MatrixRows& m);

} // namespace throng::render
