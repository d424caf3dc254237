#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Before the compute rasterizer, one thread: each LOD's members (the culling pass's counts, or
// every member at LOD 0 when the frame is not culled) and its indirect dispatch, one workgroup per
// (member, cluster) in rows of THRONG_RASTER_ROW; then the vertex cache's layout: at each LOD
// below cache_lods, as many of its members as the cache and the palette still hold, in slot
// order (the rest are skinned per cluster by the rasterizer), and the cache passes' dispatches.

layout(local_size_x = 1) in;

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_CULL_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) buffer Plan { RasterPlan plan; };

void main() {
    for (uint l = 0u; l < THRONG_MAX_LODS; ++l) {
        uint members = raster.culled != 0u ? counts[l] : (l == 0u ? raster.members : 0u);
        if (raster.lod_clusters[l].y == 0u) members = 0u;
        uint groups = members * raster.lod_clusters[l].y;
        plan.dispatches[l] = uvec4(min(groups, THRONG_RASTER_ROW), (groups + THRONG_RASTER_ROW - 1u) / THRONG_RASTER_ROW, 1u, 0u);
        plan.members[l / 4u][l % 4u] = members;
    }
    uint cache_vertex = 0u, palette_member = 0u, uncached = 0u;
    for (uint l = 0u; l < THRONG_MAX_LODS; ++l) {
        uint members = plan.members[l / 4u][l % 4u];
        uint n = raster.lod_vertices[l].y;
        uint cached = 0u;
        if (l < raster.cache_lods && n > 0u) {
            cached = min(members, min((raster.cache_capacity - cache_vertex) / n, raster.palette_capacity - palette_member));
            uncached += members - cached;
        }
        plan.cache[l] = uvec4(cache_vertex, cached, palette_member, n);
        uint groups = (cached * n + THRONG_CACHE_LOCAL_SIZE - 1u) / THRONG_CACHE_LOCAL_SIZE;
        plan.cache_dispatches[l] = uvec4(min(groups, THRONG_RASTER_ROW), (groups + THRONG_RASTER_ROW - 1u) / THRONG_RASTER_ROW, 1u, 0u);
        cache_vertex += cached * n;
        palette_member += cached;
    }
    uint groups = (palette_member * raster.joint_count + THRONG_CACHE_LOCAL_SIZE - 1u) / THRONG_CACHE_LOCAL_SIZE;
    plan.palette_dispatch = uvec4(min(groups, THRONG_RASTER_ROW), (groups + THRONG_RASTER_ROW - 1u) / THRONG_RASTER_ROW, 1u, 0u);
    plan.totals = uvec4(cache_vertex, palette_member, uncached, 0u);
}
