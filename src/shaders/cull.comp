#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The culling pass, one thread per member: the member's conservative bounds (its two clips'
// boxes, placed as the member) as a sphere against the frustum; then the coarsest LOD whose
// geometric error, projected at the sphere's nearest depth, stays within the pixel threshold;
// then an append to that LOD's region of the visible list.

layout(local_size_x = THRONG_CULL_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_CULL_BINDING_PARAMS) readonly buffer Params { CullParams cull; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_BOUNDS) readonly buffer ClipBounds { vec4 clip_bounds[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_VISIBLE) writeonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_COUNTS) buffer Counts { uint counts[]; };

#include "instance.glsl"

void main() {
    uint member = gl_GlobalInvocationID.y * cull.row_width + gl_GlobalInvocationID.x;
    if (member >= cull.members) return;
    InstanceRecord inst = instances[member];
    uint clip_a = inst.clips & 0xffffu, clip_b = inst.clips >> 16;
    vec3 lo = min(clip_bounds[2u * clip_a].xyz, clip_bounds[2u * clip_b].xyz);
    vec3 hi = max(clip_bounds[2u * clip_a + 1u].xyz, clip_bounds[2u * clip_b + 1u].xyz);
    float scale = inst.position_scale.w;
    vec3 center = rotateByQuaternion(instanceOrientation(inst), 0.5 * (lo + hi)) * scale + inst.position_scale.xyz;
    float radius = 0.5 * length(hi - lo) * abs(scale);
    if (cull.frustum != 0u) {
        for (int i = 0; i < 6; ++i)
            if (dot(cull.planes[i].xyz, center) + cull.planes[i].w < -radius) return;
    }
    atomicAdd(counts[THRONG_COUNT_IN_FRUSTUM], 1u);
    // The nearest view depth of the sphere, kept positive: a member around the eye gets LOD 0.
    float depth = dot(cull.depth_row, vec4(center, 1.0)) - radius;
    uint lod = 0u;
    if (depth > 0.0) {
        float pixels_per_error = abs(scale) * cull.pixels_per_unit / depth;
        for (uint l = 1u; l < cull.lod_count; ++l)
            if (cull.lod_errors[l / 4u][l % 4u] * pixels_per_error <= cull.lod_error_px) lod = l;
    }
    uint slot = atomicAdd(counts[lod], 1u);
    visible[lod * cull.visible_stride + slot] = member;
}
