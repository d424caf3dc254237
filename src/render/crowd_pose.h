// Per-instance poses on the CPU, for the techniques that upload them each frame (palette,
// bonetex, cpu). It evaluates exactly what the baked vertex shader approximates: instance time
// local = time * speed + time_offset, clip A and clip B sampled exactly (no frame tweening), and
// the cross-fade as a linear blend of the two clips' skinning matrices (as the shader blends).
#pragma once

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
// of the instances < source.clips.size().
void sampleCrowdPoses(const AnimationSource& source, std::span<const gpu::shader::InstanceRecord> instances, float time,
                      std::span<MatrixRows> out);

// A skinning matrix as quaternion (x, y, z, w) and (translation, uniform scale): 2 vec4. The
// scale is the cube root of the determinant; the rest is re-orthonormalised, so cross-faded or
// sheared matrices come out as the nearest rotation.
void encodeQuaternion(const MatrixRows& m, glm::vec4 out[2]);

// The same matrix as glm column-major, for the CPU skinning jobs.
glm::mat4 toMatrix(const MatrixRows& m);

} // namespace throng::render
