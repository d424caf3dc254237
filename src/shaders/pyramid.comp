#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// One level of the depth pyramid, one thread per texel: level 0 copies the depth image; level
// k + 1 keeps the minimum (reversed Z: the farthest) of the 2x2 texels of level k it covers
// (at an odd edge the last column or row alone), so a texel at level k holds the farthest
// depth of pixels (x << k .. (x + 1) << k) - 1, and a rectangle tested there is never nearer
// than what was drawn in it.

layout(local_size_x = THRONG_PYRAMID_LOCAL_SIZE, local_size_y = THRONG_PYRAMID_LOCAL_SIZE) in;

layout(set = 0, binding = THRONG_PYRAMID_BINDING_SOURCE) uniform sampler2D source;
layout(set = 0, binding = THRONG_PYRAMID_BINDING_TARGET, r32f) uniform writeonly image2D target;
layout(push_constant) uniform Constants { PyramidConstants sizes; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, sizes.target_size))) return;
    float depth;
    if (sizes.source_size == sizes.target_size) {
        depth = texelFetch(source, p, 0).r;
    } else {
        ivec2 last = sizes.source_size - 1;
        ivec2 s = 2 * p;
        depth = min(min(texelFetch(source, min(s, last), 0).r, texelFetch(source, min(s + ivec2(1, 0), last), 0).r),
                    min(texelFetch(source, min(s + ivec2(0, 1), last), 0).r, texelFetch(source, min(s + ivec2(1, 1), last), 0).r));
    }
    imageStore(target, p, vec4(depth));
}
