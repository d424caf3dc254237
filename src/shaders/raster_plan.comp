#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Before the compute rasterizer, one thread: each model's members at each LOD (the culling
// pass's counts per (model, LOD) for a crowd of several, per LOD for one, or every member at LOD
// 0 when the frame is not culled), as a RasterRegion per (LOD, model); the vertex cache's layout:
// at each of a model's levels the cache holds (RasterModel::cache_lods), as many of its members as
// the cache still holds, in slot order (the rest are skinned per cluster by the rasterizer); then
// per LOD the indirect dispatches, each shared out among the models by their first workgroups
// (RasterRegion::group_*): the cache pass's (a workgroup per cached member), the rasterizer's of
// the cached members and of the others (a workgroup per (member, cluster) in rows of
// THRONG_RASTER_ROW, skinned in full or coarsely as the model's level is); and how many members each
// resolve variant shades (cached, skinned in full, coarse-skinned) and each one's dispatch over
// the picture (none where it shades no member). With `late` (occlusion culling's late phase, after
// the early members were rasterized): the dispatches of the members the late culling pass added
// after each region's early ones, skinned per cluster (the cache holds early members only), added
// to the resolve's counts; the cache's layout stays the early phase's, which the resolve reads.
// And the splat pass's dispatch (a thread per splat this phase drew), whose pixels the resolve's
// full variant shades.

layout(local_size_x = 1) in;
layout(push_constant) uniform Phase { uint lod; uint late; } pc;

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_CULL_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) buffer Plan { RasterPlan plan; RasterRegion regions[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_MODELS) readonly buffer Models { RasterModel raster_models[]; };

uvec4 rows(uint groups) { return uvec4(min(groups, THRONG_RASTER_ROW), (groups + THRONG_RASTER_ROW - 1u) / THRONG_RASTER_ROW, 1u, 0u); }

// The resolve's dispatches from resolve_counts' first three (the composite's draw is the resolve's:
// THRONG_BINDING_RESOLVE_TILES).
void planResolve() {
    uvec2 tiles = throngResolveTiles(uvec2(raster.viewport));
    if (raster.velocity != 0u) {  // the technique's variant shades the cached members (resolve_body.glsl)
        plan.resolve_counts.y += plan.resolve_counts.x;
        plan.resolve_counts.x = 0u;
    }
    for (uint v = 0u; v < 3u; ++v)
        plan.resolve_dispatches[v] = plan.resolve_counts[v] != 0u ? uvec4(tiles, 1u, 0u) : uvec4(0u, 1u, 1u, 0u);
    plan.resolve_counts.w = plan.resolve_counts.x + plan.resolve_counts.y + plan.resolve_counts.z;
}

// Members of model m at LOD l counted so far (both phases), or by the early phase.
uint counted(uint m, uint l, bool early) {
    if (raster.culled == 0u)  // every member at LOD 0, each model's from its part of the identity region
        return l != 0u ? 0u : raster.models == 1u ? raster.members : raster_models[m].capacity;
    if (raster.models == 1u) return counts[early ? THRONG_COUNT_EARLY + l : l];
    uint at = early ? throngRegionEarly(raster.models, m, l) : throngRegionCount(m, l);
    return min(counts[at], raster_models[m].capacity);  // culling stores no more than its sub-region holds
}

void main() {
    bool late = pc.late != 0u;
    uint cache_vertex = 0u, cached_members = 0u, uncached = 0u, skinned = 0u, coarse = 0u;
    for (uint l = 0u; l < THRONG_MAX_LODS; ++l) {
        uint g_cache = 0u, g_cached = 0u, g_full = 0u, g_coarse = 0u;
        for (uint m = 0u; m < raster.models; ++m) {
            uint at = l * raster.models + m;
            uint clusters = raster_models[m].lod_vertices[l].z != 0u ? raster_models[m].lod_vertices[l].z
                                                                      : raster_models[m].lod_clusters[l].y;
            uint members = clusters == 0u ? 0u : counted(m, l, false);
            bool is_coarse = raster.coarse_lods != 0u && THRONG_COARSE_LOD(l, raster_models[m].coarse_lods);
            RasterRegion r;
            if (late) {
                r = regions[at];  // the early phase's cache layout
                r.first = clusters == 0u ? 0u : counted(m, l, true);
                r.members = max(members, r.first);
            } else {
                uint n = raster_models[m].lod_vertices[l].y;
                uint levels = raster.cache_lods == 0u ? 0u : (raster.coarse_lods != 0u ? raster_models[m].cache_lods : raster_models[m].cache_lods_full);
                uint cached = 0u;
                if (l < levels && n > 0u) {
                    cached = min(members, (raster.cache_capacity - cache_vertex) / n);
                    uncached += members - cached;
                }
                r.members = members;
                r.first = cached;
                r.cached = cached;
                r.vertices = n;
                r.cache_vertex = cache_vertex;
                r.cached_index = cached_members;
                r.group_cache = g_cache;
                r.group_cached = g_cached;
                r.reserved0 = 0u;
                r.reserved1 = 0u;
                g_cache += cached;
                g_cached += cached * clusters;
                cache_vertex += cached * n;
                cached_members += cached;
            }
            uint work = (r.members - r.first) * clusters;
            r.group_full = g_full;
            r.group_coarse = g_coarse;
            if (is_coarse) {
                g_coarse += work;
                coarse += r.members - r.first;
            } else {
                g_full += work;
                skinned += r.members - r.first;
            }
            regions[at] = r;
        }
        plan.dispatches[l] = rows(g_full);
        plan.coarse_dispatches[l] = rows(g_coarse);
        if (!late) {
            plan.cache_dispatches[l] = rows(g_cache);
            plan.cached_dispatches[l] = rows(g_cached);
        }
    }
    // The splats this phase draws (after the early phase's), a thread each; the resolve's full
    // variant shades them.
    uint splats_first = late ? counts[THRONG_COUNT_SPLATS_EARLY] : 0u;
    uint splats = raster.culled == 0u ? 0u : min(counts[THRONG_COUNT_SPLATS], raster.lod_stride);
    splats = splats > splats_first ? splats - splats_first : 0u;
    uvec4 splat_rows = rows((splats + THRONG_SPLAT_LOCAL_SIZE - 1u) / THRONG_SPLAT_LOCAL_SIZE);
    plan.splat_dispatch = uvec4(splats == 0u ? uvec3(0u, 1u, 1u) : splat_rows.xyz, splats_first);
    skinned += splats;
    if (late) {
        plan.resolve_counts.y += skinned;
        plan.resolve_counts.z += coarse;
    } else {
        plan.totals = uvec4(cache_vertex, cached_members, uncached, 0u);
        plan.resolve_counts = uvec4(cached_members, skinned, coarse, 0u);
    }
    planResolve();
}
