#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The GPU side of the vat GPU = CPU test: runs technique vat's vertex function for every
// (query, vertex) and writes the model-space position (instance transform not applied).
layout(local_size_x = THRONG_CHECK_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_VAT) uniform sampler2DArray vat;
layout(std430, set = 0, binding = THRONG_BINDING_CHECK_OUTPUT) writeonly buffer Output { vec4 skinned[]; };

layout(push_constant) uniform Push { CheckConstants check; };

#include "vat_sample.glsl"

void main() {
    uint index = gl_GlobalInvocationID.x;
    if (index >= check.vertex_count * check.query_count) return;
    uint query = index / check.vertex_count;
    uint vertex = index % check.vertex_count;
    skinned[index] = vec4(instanceVat(instances[query], vertex, check.time).position, 1.0);
}
