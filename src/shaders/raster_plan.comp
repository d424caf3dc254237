#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Before the compute rasterizer, one thread: each LOD's members (the culling pass's counts, or
// every member at LOD 0 when the frame is not culled) and its indirect dispatch, one workgroup per
// (member, cluster) in rows of THRONG_RASTER_ROW.

layout(local_size_x = 1) in;

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_CULL_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) writeonly buffer Plan { RasterPlan plan; };

void main() {
    for (uint l = 0u; l < THRONG_MAX_LODS; ++l) {
        uint members = raster.culled != 0u ? counts[l] : (l == 0u ? raster.members : 0u);
        if (raster.lod_clusters[l].y == 0u) members = 0u;
        uint groups = members * raster.lod_clusters[l].y;
        plan.dispatches[l] = uvec4(min(groups, THRONG_RASTER_ROW), (groups + THRONG_RASTER_ROW - 1u) / THRONG_RASTER_ROW, 1u, 0u);
        plan.members[l / 4u][l % 4u] = members;
    }
}
