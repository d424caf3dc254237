#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// After a culling phase, one thread per submesh: the indexed indirect draws of the LODs that
// have members in this phase (LOD l's members are slots l * visible_stride onward of the
// visible list, in a crowd of several models the submesh's model's from its sub-region there;
// the late phase's follow the early phase's), and their number, for
// vkCmdDrawIndexedIndirectCount. The late phase's draws are the second region of both buffers,
// the light's view's (phase SHADOW, shadows.h) the third. Thread 0 also writes the impostors'
// draw (impostors.h), except for the light's view.

layout(local_size_x = THRONG_CULL_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_CULL_BINDING_PARAMS) readonly buffer Params { CullParams cull; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_ASSETS) readonly buffer Assets { CullAsset cull_assets[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_COUNTS) buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_RANGES) readonly buffer Ranges { uvec2 ranges[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_DRAWS) writeonly buffer Draws { DrawCommand draws[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_DRAW_COUNTS) writeonly buffer DrawCounts { uint draw_counts[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_IMPOSTOR_DRAW) writeonly buffer ImpostorDraw { DrawCommand impostor_draw; uint impostor_draws; };
layout(push_constant) uniform Phase { CullPhase phase; };

void main() {
    uint submesh = gl_GlobalInvocationID.x;
    if (submesh >= cull.submeshes) return;
    bool late = phase.phase == THRONG_CULL_PHASE_LATE;
    bool shadow = phase.phase == THRONG_CULL_PHASE_SHADOW;
    uint region = late ? 1u : shadow ? 2u : 0u;
    uint n = 0u;
    // Thread 0 keeps where the late phase's members of each LOD begin (the compute rasterizer's
    // late pass reads them too).
    if (!late && submesh == 0u) {
        for (uint l = 0u; l < cull.lod_count; ++l) counts[THRONG_COUNT_EARLY + l] = counts[l];
        counts[THRONG_COUNT_HARDWARE_EARLY] = counts[THRONG_COUNT_HARDWARE];
        counts[THRONG_COUNT_SPLATS_EARLY] = counts[THRONG_COUNT_SPLATS];
        for (uint m = 0u; cull.assets > 1u && m < cull.assets; ++m) {
            for (uint l = 0u; l < cull.lod_count; ++l) counts[throngRegionEarly(cull.assets, m, l)] = counts[throngRegionCount(m, l)];
            counts[throngRegionHardwareEarly(cull.assets, m)] = counts[throngRegionHardware(cull.assets, m)];
        }
    }
    // A crowd of several models: the submesh draws its model's members, from its sub-region.
    uint model = 0u;
    while (model + 1u < cull.assets && submesh - cull_assets[model].first_submesh >= cull_assets[model].submesh_count) ++model;
    bool mixed = cull.assets > 1u;
    for (uint l = 0u; l < min(cull.lod_count, cull.draw_lods); ++l) {  // the rest: the compute rasterizer's
        uint first = late ? counts[mixed ? throngRegionEarly(cull.assets, model, l) : THRONG_COUNT_EARLY + l] : 0u;
        // A model's sub-region holds its capacity: members past it (records the host did not
        // count) are not drawn.
        if (mixed) first = min(first, cull_assets[model].capacity);
        uint count = mixed ? min(counts[throngRegionCount(model, l)], cull_assets[model].capacity) - first : counts[l] - first;
        // Auto: LOD 0's large members, at its region's (model's sub-region's) end, the late
        // phase's before the early's.
        bool from_end = l == 0u && cull.hardware_px > 0.0;
        uint end_count = mixed ? min(counts[throngRegionHardware(cull.assets, model)], cull_assets[model].capacity) : counts[THRONG_COUNT_HARDWARE];
        uint end_first = !late ? 0u : mixed ? min(counts[throngRegionHardwareEarly(cull.assets, model)], cull_assets[model].capacity) : counts[THRONG_COUNT_HARDWARE_EARLY];
        if (from_end) count = end_count - end_first;
        uvec2 range = ranges[submesh * THRONG_MAX_LODS + l];
        if (count == 0u || range.y == 0u) continue;
        DrawCommand d;
        d.index_count = range.y;
        d.instance_count = count;
        d.first_index = range.x;
        d.vertex_offset = 0;
        d.first_instance = cull.visible_base + l * cull.visible_stride + (mixed ? cull_assets[model].first_slot : 0u) +
                           (from_end ? (mixed ? cull_assets[model].capacity : cull.visible_stride) - end_count : first);
        draws[(region * cull.submeshes + submesh) * THRONG_MAX_LODS + n] = d;
        ++n;
    }
    draw_counts[region * cull.submeshes + submesh] = n;
    // The impostors of both phases, drawn once after the last (6 indices: two triangles).
    if (submesh == 0u && !shadow) {
        DrawCommand d;
        d.index_count = 6u;
        d.instance_count = counts[THRONG_COUNT_IMPOSTORS];
        d.first_index = 0u;
        d.vertex_offset = 0;
        d.first_instance = cull.impostor_base;
        impostor_draw = d;
        impostor_draws = d.instance_count > 0u ? 1u : 0u;
    }
}
