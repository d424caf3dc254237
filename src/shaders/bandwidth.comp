#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The memory bandwidth probe (src/gpu/bandwidth.h): every thread copies 16-byte words from one
// storage buffer to another, striding by the whole dispatch.

layout(local_size_x = THRONG_BANDWIDTH_LOCAL_SIZE) in;
layout(std430, set = 0, binding = 0) readonly buffer Source { uvec4 source[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Target { uvec4 target[]; };
layout(push_constant) uniform Words { uint words; } pc;

void main() {
    uint stride = gl_NumWorkGroups.x * THRONG_BANDWIDTH_LOCAL_SIZE;
    for (uint i = gl_GlobalInvocationID.x; i < pc.words; i += stride) target[i] = source[i];
}
