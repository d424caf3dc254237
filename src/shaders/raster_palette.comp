#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared.h"

// The vertex cache's first pass, `baked`: one thread per (cached member, joint) blends the joint's
// skinning matrix once (the two frames around the member's time, tweened, and clip B cross-faded
// in, exactly as baked_skin.glsl's instanceSkinning does per vertex) into the joint palette, so a
// vertex then reads 4 matrices instead of fetching up to 48 texels.

#define THRONG_CACHE_WRITER
layout(local_size_x = THRONG_CACHE_LOCAL_SIZE) in;
#include "raster_bindings.glsl"
#include "vertex.glsl"
#include "instance.glsl"
#define THRONG_RASTER_BAKED
#include "raster_skin.glsl"
#include "vertex_cache.glsl"

void main() {
    uint i = cacheThread();
    if (i >= plan.totals.y * raster.joint_count) return;
    uint k = i / raster.joint_count, joint = i % raster.joint_count;
    uint lod = 0u;
    for (uint l = 1u; l < THRONG_MAX_LODS; ++l)
        if (plan.cache[l].y > 0u && k >= plan.cache[l].z) lod = l;
    InstanceRecord inst = instances[memberAt(lod, k - plan.cache[lod].z)];
    float local = raster.time * inst.speed + inst.time_offset;
    uint clip_a = inst.clips & 0xffffu, clip_b = inst.clips >> 16;
    mat3x4 m = tweenedJoint(clip_a, framesAt(clip_a, local), joint);
    if (inst.blend > 0.0) m = m * (1.0 - inst.blend) + tweenedJoint(clip_b, framesAt(clip_b, local), joint) * inst.blend;
    uint at = 3u * i;
    joint_palette[at] = m[0];
    joint_palette[at + 1u] = m[1];
    joint_palette[at + 2u] = m[2];
}
