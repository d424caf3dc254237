#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Before the compute rasterizer, one thread: each LOD's members (the culling pass's counts, or
// every member at LOD 0 when the frame is not culled); the vertex cache's layout: at each LOD
// below cache_lods, as many of its members as the cache still holds, in slot order (the rest are
// skinned per cluster by the rasterizer) and the cache pass's dispatch, a workgroup per cached
// member; then the rasterizer's indirect dispatches, one workgroup per (member, cluster) in rows
// of THRONG_RASTER_ROW: the cached members' and the others'; and how many members each resolve
// variant shades (cached, skinned in full, coarse-skinned) and each one's dispatch over the picture
// (none where it shades no member). With `late` (occlusion culling's late
// phase, after the early members were rasterized): the dispatches of the members the late culling
// pass added after each LOD's early ones, skinned per cluster (the cache holds early members
// only), added to the resolve's counts; the cache's layout stays the early phase's, which the
// resolve reads.

layout(local_size_x = 1) in;
layout(push_constant) uniform Phase { uint lod; uint late; } pc;

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_CULL_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) buffer Plan { RasterPlan plan; };

uvec4 rows(uint groups) { return uvec4(min(groups, THRONG_RASTER_ROW), (groups + THRONG_RASTER_ROW - 1u) / THRONG_RASTER_ROW, 1u, 0u); }

// The resolve's dispatches from resolve_counts' first three (the composite's draw is the resolve's:
// THRONG_BINDING_RESOLVE_TILES).
void planResolve() {
    uvec2 tiles = throngResolveTiles(uvec2(raster.viewport));
    for (uint v = 0u; v < 3u; ++v)
        plan.resolve_dispatches[v] = plan.resolve_counts[v] != 0u ? uvec4(tiles, 1u, 0u) : uvec4(0u, 1u, 1u, 0u);
    plan.resolve_counts.w = plan.resolve_counts.x + plan.resolve_counts.y + plan.resolve_counts.z;
}

void lateMain() {
    uint skinned = 0u, coarse = 0u;
    for (uint l = 0u; l < THRONG_MAX_LODS; ++l) {
        uint clusters = raster.lod_clusters[l].y;
        uint early = counts[THRONG_COUNT_EARLY + l], members = clusters == 0u ? early : counts[l];
        plan.late_first[l / 4u][l % 4u] = early;
        plan.members[l / 4u][l % 4u] = members;
        plan.dispatches[l] = rows((members - early) * clusters);
        if (THRONG_COARSE_LOD(l, raster.coarse_lods))
            coarse += members - early;
        else
            skinned += members - early;
    }
    plan.resolve_counts.y += skinned;
    plan.resolve_counts.z += coarse;
    planResolve();
}

void main() {
    if (pc.late != 0u) {
        lateMain();
        return;
    }
    uint cache_vertex = 0u, cached_members = 0u, uncached = 0u, skinned = 0u, coarse = 0u;
    for (uint l = 0u; l < THRONG_MAX_LODS; ++l) {
        uint members = raster.culled != 0u ? counts[l] : (l == 0u ? raster.members : 0u);
        uint clusters = raster.lod_clusters[l].y;
        if (clusters == 0u) members = 0u;
        plan.members[l / 4u][l % 4u] = members;
        uint n = raster.lod_vertices[l].y;
        uint cached = 0u;
        if (l < raster.cache_lods && n > 0u) {
            cached = min(members, (raster.cache_capacity - cache_vertex) / n);
            uncached += members - cached;
        }
        if (THRONG_COARSE_LOD(l, raster.coarse_lods))
            coarse += members;
        else
            skinned += members - cached;
        plan.cache[l] = uvec4(cache_vertex, cached, cached_members, n);
        plan.cache_dispatches[l] = rows(cached);
        plan.cached_dispatches[l] = rows(cached * clusters);
        plan.dispatches[l] = rows((members - cached) * clusters);
        cache_vertex += cached * n;
        cached_members += cached;
    }
    plan.totals = uvec4(cache_vertex, cached_members, uncached, 0u);
    plan.resolve_counts = uvec4(cached_members, skinned, coarse, 0u);
    planResolve();
}
