#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The late phase of occlusion culling, one thread per member, after the early phase's members
// were drawn and the depth pyramid built from their depth: every member in the frustum whose
// box, projected, lies behind everything drawn in its rectangle is hidden (a splat: behind
// everything a pixel around it too, main);
// the others are drawn by the next frame's early phase, and now unless the early phase drew them
// already.

layout(local_size_x = THRONG_CULL_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_CULL_BINDING_PARAMS) readonly buffer Params { CullParams cull; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_ASSETS) readonly buffer Assets { CullAsset cull_assets[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_BOUNDS) readonly buffer ClipBounds { vec4 clip_bounds[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_VISIBLE) writeonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_COUNTS) buffer Counts { uint counts[]; };
layout(std430, set = 0, binding = THRONG_CULL_BINDING_DRAWN) buffer Drawn { uint drawn[]; };
layout(set = 1, binding = THRONG_CULL_BINDING_PYRAMID) uniform sampler2D pyramid;

#include "instance.glsl"
#include "cull_common.glsl"

// Whether the box is hidden: its eight corners projected (all in front of the eye, else it is
// not hidden), the rectangle of pixels they span, the pyramid level where that rectangle spans
// at most 2x2 texels, and its nearest depth (reversed Z: the largest) against the farthest
// depth drawn there, the rectangle widened by `margin` pixels each way. A box entirely off the
// screen is hidden too.
bool hidden(MemberBox b, float margin) {
    vec4 c = cull.view_projection * vec4(b.center, 1.0);
    vec4 ax = cull.view_projection * vec4(b.axes[0], 0.0);
    vec4 ay = cull.view_projection * vec4(b.axes[1], 0.0);
    vec4 az = cull.view_projection * vec4(b.axes[2], 0.0);
    vec2 lo = vec2(1e30), hi = vec2(-1e30);
    float nearest = 0.0;
    for (int i = 0; i < 8; ++i) {
        vec4 p = c + ((i & 1) != 0 ? ax : -ax) + ((i & 2) != 0 ? ay : -ay) + ((i & 4) != 0 ? az : -az);
        if (p.w <= 1e-6) return false;
        vec3 ndc = p.xyz / p.w;
        lo = min(lo, ndc.xy);
        hi = max(hi, ndc.xy);
        nearest = max(nearest, ndc.z);
    }
    if (nearest >= 1.0) return false;  // reaches the near plane
    vec2 size = cull.viewport;
    vec2 p0 = (lo * 0.5 + 0.5) * size - margin, p1 = (hi * 0.5 + 0.5) * size + margin;
    if (p1.x < 0.0 || p1.y < 0.0 || p0.x >= size.x || p0.y >= size.y) return true;
    // A triangle inside [p0, p1] covers only pixels whose centres are inside: floor(p0)..floor(p1).
    ivec2 last = ivec2(size) - 1;
    ivec2 a = clamp(ivec2(floor(p0)), ivec2(0), last), z = clamp(ivec2(floor(p1)), ivec2(0), last);
    int level = 0;
    while (level + 1 < int(cull.pyramid_levels) && (((z.x >> level) - (a.x >> level)) > 1 || ((z.y >> level) - (a.y >> level)) > 1)) ++level;
    ivec2 ta = a >> level, tz = z >> level;
    float farthest = min(min(texelFetch(pyramid, ta, level).r, texelFetch(pyramid, ivec2(tz.x, ta.y), level).r),
                         min(texelFetch(pyramid, ivec2(ta.x, tz.y), level).r, texelFetch(pyramid, tz, level).r));
    // A margin of 1e-5 of the depth against rounding: hidden only when clearly behind.
    return nearest * (1.0 + 1e-5) < farthest;
}

void main() {
    uint member = gl_GlobalInvocationID.y * cull.row_width + gl_GlobalInvocationID.x;
    if (member >= cull.members) return;
    // No return past here: the counts are taken by the whole subgroup (countOne).
    bool drawn_early = drawn[member] != 0u;
    InstanceRecord inst = instances[member];
    MemberBox box = memberBox(inst, member);
    bool inside = inFrustum(box);
    // A splat is hidden only behind everything a pixel around it: at a pixel the exact test
    // flips from frame to frame under TAA's jitter (docs/IN_MOTION.md), each flip an append;
    // behind a near member's body it stays hidden.
    bool hide = inside && hidden(box, drawnAsSplat(box) ? 1.0 : 0.0);
    bool draws = inside && !hide;
    if (draws != drawn_early) drawn[member] = draws ? 1u : 0u; // written where it changes: a still crowd writes none
    countOne(inside ? uint(THRONG_COUNT_IN_FRUSTUM) : THRONG_NO_COUNTER);
    countOne(hide && !drawn_early ? uint(THRONG_COUNT_OCCLUDED) : THRONG_NO_COUNTER);
    bool append = draws && !drawn_early;
    appendVisible(member, append ? chooseLevel(box, inst) : 0u, memberModel(inst), append);
}
