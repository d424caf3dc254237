#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The frame's colour target (and, THRONG_VELOCITY, its motion vectors: 0, no motion) cleared by
// a compute pass through storage views (src/render/target_clear.h): the first graphics pass of the
// frame then loads them instead of clearing them through the graphics units.

layout(local_size_x = THRONG_CLEAR_LOCAL_SIZE, local_size_y = THRONG_CLEAR_LOCAL_SIZE) in;

layout(set = 0, binding = THRONG_CLEAR_BINDING_COLOR, rgba8) uniform writeonly image2D color;
#ifdef THRONG_VELOCITY
layout(set = 0, binding = THRONG_CLEAR_BINDING_VELOCITY, r32ui) uniform writeonly uimage2D velocity;
#endif
layout(push_constant) uniform Push { ClearConstants clear; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(uvec2(p), clear.extent))) return;
    imageStore(color, p, clear.color);
#ifdef THRONG_VELOCITY
    imageStore(velocity, p, uvec4(0u)); // two half-float zeros
#endif
}
