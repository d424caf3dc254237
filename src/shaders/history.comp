#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The `history` pass (src/render/history.h): every member's record copied into the history
// before the frame changes them, 16 bytes a thread over the whole grid (a compute copy runs at
// the memory's rate where vkCmdCopyBuffer did not: 0.85 TB/s on an H100 against its 3 TB/s).

layout(local_size_x = 256) in;

layout(std430, set = 0, binding = 0) readonly buffer From { uvec4 from_words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer To { uvec4 to_words[]; };
layout(push_constant) uniform Push { uint count; } push; // uvec4s to copy

void main() {
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < push.count; i += stride) to_words[i] = from_words[i];
}
