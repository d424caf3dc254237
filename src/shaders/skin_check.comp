#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// The GPU side of the GPU = CPU test: runs the renderer's skinning function for every
// (query, vertex) and writes the skinned model-space position (instance transform not applied).
layout(local_size_x = THRONG_CHECK_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_ANIMATION) uniform sampler2DArray animation;
layout(set = 0, binding = THRONG_BINDING_ANIMATION_BUFFER) uniform samplerBuffer animation_buffer;
layout(std430, set = 0, binding = THRONG_BINDING_ANIMATION_WORDS) readonly buffer AnimationWords { uint animation_words[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CHECK_OUTPUT) writeonly buffer Output { vec4 skinned[]; };

layout(push_constant) uniform Push { CheckConstants check; };

#include "baked_skin.glsl"

void main() {
    uint index = gl_GlobalInvocationID.x;
    if (index >= check.vertex_count * check.query_count) return;
    uint query = index / check.vertex_count;
    uint vertex = index % check.vertex_count;
    MeshVertex v = fetchVertex(vertex);
    mat3x4 skin = instanceSkinning(instances[query], v.joints, v.weights, check.time);
    skinned[index] = vec4(vec4(v.position, 1.0) * skin, 1.0);
}
