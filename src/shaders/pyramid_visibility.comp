#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Level 0 of the depth pyramid where the compute rasterizer drew (render/compute_raster.h), one
// thread per pixel: the depth of the visibility buffer's key (24 bits of the depth's float,
// rounded toward the far side: never nearer than what was drawn; empty: 0, the farthest), with
// THRONG_PYRAMID_MERGE the nearer (reversed Z: the larger) of it and the depth image's (`auto`:
// the hardware drew its share there). pyramid.comp builds the levels above.

layout(local_size_x = THRONG_PYRAMID_LOCAL_SIZE, local_size_y = THRONG_PYRAMID_LOCAL_SIZE) in;

#ifdef THRONG_PYRAMID_MERGE
layout(set = 0, binding = THRONG_PYRAMID_BINDING_SOURCE) uniform sampler2D source;
#endif
layout(set = 0, binding = THRONG_PYRAMID_BINDING_TARGET, r32f) uniform writeonly image2D target;
// The 64-bit entries as pairs of words (no 64-bit types needed): the key in the high word's top 24 bits.
layout(std430, set = 0, binding = THRONG_PYRAMID_BINDING_VISIBILITY) readonly buffer Visibility { uvec2 visibility[]; };
layout(push_constant) uniform Constants { PyramidConstants sizes; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, sizes.target_size))) return;
    uint key = visibility[uint(p.y) * uint(sizes.target_size.x) + uint(p.x)].y >> 8;
    float depth = uintBitsToFloat((0xffffffu - key) << 8);
#ifdef THRONG_PYRAMID_MERGE
    depth = max(depth, texelFetch(source, p, 0).r);
#endif
    imageStore(target, p, vec4(depth));
}
