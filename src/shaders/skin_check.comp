#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The GPU side of the GPU = CPU test: runs the renderer's skinning function for every
// (query, vertex) and writes the skinned model-space position (instance transform not applied).
layout(local_size_x = THRONG_CHECK_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_ANIMATION) uniform sampler2DArray animation;
layout(set = 0, binding = THRONG_BINDING_ANIMATION_BUFFER) uniform samplerBuffer animation_buffer;
layout(std430, set = 0, binding = THRONG_BINDING_CHECK_VERTICES) readonly buffer Vertices { uint vertex_words[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CHECK_OUTPUT) writeonly buffer Output { vec4 skinned[]; };

layout(push_constant) uniform Push { CheckConstants check; };

#include "baked_skin.glsl"

void main() {
    uint index = gl_GlobalInvocationID.x;
    if (index >= check.vertex_count * check.query_count) return;
    uint query = index / check.vertex_count;
    uint vertex = index % check.vertex_count;
    uint base = vertex * THRONG_VERTEX_WORDS;
    // BakedVertex: position 0-2, normal 3-5, uv 6-7, colour 8, joints 9-10, weights 11-14.
    vec3 position = vec3(uintBitsToFloat(vertex_words[base]), uintBitsToFloat(vertex_words[base + 1]),
                         uintBitsToFloat(vertex_words[base + 2]));
    uint j01 = vertex_words[base + 9], j23 = vertex_words[base + 10];
    uvec4 joints = uvec4(j01 & 0xffffu, j01 >> 16, j23 & 0xffffu, j23 >> 16);
    vec4 weights = vec4(uintBitsToFloat(vertex_words[base + 11]), uintBitsToFloat(vertex_words[base + 12]),
                        uintBitsToFloat(vertex_words[base + 13]), uintBitsToFloat(vertex_words[base + 14]));
    mat3x4 skin = instanceSkinning(instances[query], joints, weights, check.time);
    skinned[index] = vec4(vec4(position, 1.0) * skin, 1.0);
}
