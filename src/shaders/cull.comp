#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The culling pass without occlusion (phase ALL) and the early phase of occlusion culling
// (EARLY: only the members the last frame drew), one thread per member: the member's
// conservative bounds (its two clips' boxes, placed as the member) as a sphere against the
// frustum, then the LOD, then an append to that LOD's region of the visible list. Phase ALL
// also marks the members in the frustum as drawn: a crowd's first frame is culled by the frustum
// only (CrowdGpu::addPasses), so the next frame's early phase starts from them rather than from
// nothing (which would leave every member to the late phase: for the compute rasterizer, without
// its vertex cache).

layout(local_size_x = THRONG_CULL_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_CULL_BINDING_PARAMS) readonly buffer Params { CullParams cull; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_ASSETS) readonly buffer Assets { CullAsset cull_assets[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_BOUNDS) readonly buffer ClipBounds { vec4 clip_bounds[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_VISIBLE) writeonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_COUNTS) buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_DRAWN) buffer Drawn { uint drawn[]; };
layout(push_constant) uniform Phase { CullPhase phase; };

#include "instance.glsl"
#include "cull_common.glsl"

void main() {
    uint member = gl_GlobalInvocationID.y * cull.row_width + gl_GlobalInvocationID.x;
    if (member >= cull.members) return;
    // No return past here: the counts are taken by the whole subgroup (countOne).
    bool inside = false;
    uint level = 0u, model = 0u;
    if (phase.phase != THRONG_CULL_PHASE_EARLY || drawn[member] != 0u) {
        InstanceRecord inst = instances[member];
        MemberBox box = memberBox(inst, member);
        inside = inFrustum(box);
        if (phase.phase == THRONG_CULL_PHASE_ALL) drawn[member] = inside ? 1u : 0u;
        if (inside) {
            level = chooseLevel(box, inst);
            model = memberModel(inst);
        }
    }
    countOne(inside && phase.phase == THRONG_CULL_PHASE_ALL ? uint(THRONG_COUNT_IN_FRUSTUM) : THRONG_NO_COUNTER);
    appendVisible(member, level, model, inside);
}
