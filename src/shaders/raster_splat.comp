#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#include "shared.h"

// Splats (docs/IN_MOTION.md; src/render/splats.h), a thread per member culling drew as a splat
// (the impostor region of the visible list from its end, this phase's from RasterPlan::
// splat_dispatch.w): its model's centre placed as the member, projected; its silhouette's area
// seen from where the camera is (the splat table's views, bilinear), in pixels at its depth; the
// pixels whose centres lie within the disc of that area around the projected centre (shifted
// within the member's extent by its key) take the
// member's id with the splat triangle (THRONG_SPLAT_TRIANGLE) at the centre's depth, by the same
// 64-bit atomic minimum as the triangles. The resolve colours them (resolve_body.glsl).

layout(local_size_x = THRONG_SPLAT_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBLE) readonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CULL_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) readonly buffer Plan { RasterPlan plan; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBILITY) buffer Visibility { uint64_t visibility[]; };
layout(std430, set = 0, binding = THRONG_BINDING_SPLATS) readonly buffer Splats { SplatModel splat_models[]; };

#include "instance.glsl"
#include "splat.glsl"

void main() {
    uint index = (gl_WorkGroupID.y * THRONG_RASTER_ROW + gl_WorkGroupID.x) * THRONG_SPLAT_LOCAL_SIZE + gl_LocalInvocationID.x;
    uint s = plan.splat_dispatch.w + index;
    if (s >= min(counts[THRONG_COUNT_SPLATS], raster.lod_stride)) return;
    uint member = visible[raster.splat_slot - s];
    InstanceRecord inst = instances[member];
    uint model = min(throngAssetOf(inst.clips), raster.models - 1u);
    SplatModel sm = splat_models[model];
    vec4 q = instanceOrientation(inst);
    float scale = abs(inst.position_scale.w);
    vec3 center = placeMember(inst, sm.center.xyz);
    vec4 clip = raster.view_projection * vec4(center, 1.0);
    if (clip.w <= 1e-6) return;
    float pixels = scale * raster.pixels_per_unit / clip.w;  // screen pixels of one model unit there
    // The disc's centre somewhere within the member's own extent (at most a pixel), fixed per
    // member: members on a regular layout would otherwise sample the pixel grid in step (moire);
    // a shift over the grid leaves the expected coverage as it is.
    uint key = inst.key != 0u ? inst.key : member;
    vec2 jitter = vec2(throngPropHash(key, 0x5a17u) >> 8u, throngPropHash(key, 0x5a18u) >> 8u) * (1.0 / 16777216.0) - 0.5;
    vec2 at = (clip.xy / clip.w * 0.5 + 0.5) * raster.viewport + jitter * min(2.0 * sm.center.w * pixels, 1.0);
    float z = clip.z / clip.w;
    if (z < 0.0 || z > 1.0) return;
    SplatView v = splatView(model, memberDirection(q, raster.eye.xyz - center));
    float r2 = v.area * pixels * pixels / 3.14159265;  // the disc's radius squared, in pixels
    if (r2 <= 0.0) return;
    float r = sqrt(r2);
    ivec2 last = ivec2(raster.viewport) - 1;
    ivec2 p0 = max(ivec2(ceil(at - r - 0.5)), ivec2(0)), p1 = min(ivec2(floor(at + r - 0.5)), last);
    p1 = min(p1, p0 + 2 * int(THRONG_SPLAT_MAX_RADIUS));  // bounded work (culling keeps splats small)
    uint depth_key = 0xffffffu - (floatBitsToUint(z) >> 8);
    uint64_t id = (uint64_t(depth_key) << 40) | (uint64_t(member) << 16) | uint64_t(THRONG_SPLAT_TRIANGLE);
    for (int y = p0.y; y <= p1.y; ++y)
        for (int x = p0.x; x <= p1.x; ++x) {
            vec2 d = vec2(x, y) + 0.5 - at;
            if (dot(d, d) <= r2) atomicMin(visibility[uint(y) * uint(raster.viewport.x) + uint(x)], id);
        }
}
