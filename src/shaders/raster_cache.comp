#version 450
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "shared.h"

// The vertex cache's second pass, `baked`, one LOD (push constant): one thread per (cached
// member, vertex of the LOD) sums the vertex's (up to) 4 joints from the member's palette, as
// instanceSkinning does, and stores the skinned position once for every cluster that uses it.

#define THRONG_CACHE_WRITER
layout(local_size_x = THRONG_CACHE_LOCAL_SIZE) in;
#include "raster_bindings.glsl"
layout(push_constant) uniform Lod { uint lod; } pc;
#include "vertex.glsl"
#include "vertex_cache.glsl"

void main() {
    uvec4 cache = plan.cache[pc.lod];
    uint i = cacheThread();
    if (i >= cache.y * cache.w) return;
    uint slot = i / cache.w, v = i % cache.w;
    MeshVertex vtx = fetchVertex(lod_vertices[raster.lod_vertices[pc.lod].x + v]);
    uint base = (cache.z + slot) * raster.joint_count;
    mat3x4 skin = mat3x4(0.0);
    for (int j = 0; j < 4; ++j) {
        if (vtx.weights[j] == 0.0) continue;
        uint at = 3u * (base + vtx.joints[j]);
        skin += mat3x4(joint_palette[at], joint_palette[at + 1u], joint_palette[at + 2u]) * vtx.weights[j];
    }
    vertex_cache[cache.x + i] = encodeCachedPosition(vec4(vtx.position, 1.0) * skin);
}
