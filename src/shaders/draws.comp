#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// After the culling pass, one thread per submesh: the indexed indirect draws of the LODs that
// have members (LOD l's members are slots l * visible_stride onward of the visible list), and
// their number, for vkCmdDrawIndexedIndirectCount.

layout(local_size_x = THRONG_CULL_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_CULL_BINDING_PARAMS) readonly buffer Params { CullParams cull; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_RANGES) readonly buffer Ranges { uvec2 ranges[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_DRAWS) writeonly buffer Draws { DrawCommand draws[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_DRAW_COUNTS) writeonly buffer DrawCounts { uint draw_counts[]; };

void main() {
    uint submesh = gl_GlobalInvocationID.x;
    if (submesh >= cull.submeshes) return;
    uint n = 0u;
    for (uint l = 0u; l < cull.lod_count; ++l) {
        uvec2 range = ranges[submesh * THRONG_MAX_LODS + l];
        if (counts[l] == 0u || range.y == 0u) continue;
        DrawCommand d;
        d.index_count = range.y;
        d.instance_count = counts[l];
        d.first_index = range.x;
        d.vertex_offset = 0;
        d.first_instance = l * cull.visible_stride;
        draws[submesh * THRONG_MAX_LODS + n] = d;
        ++n;
    }
    draw_counts[submesh] = n;
}
