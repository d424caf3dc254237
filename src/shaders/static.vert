#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Technique `static`: plain instancing of the bind pose, no animation — the ceiling the
// animated techniques are measured against.
layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(push_constant) uniform Push { DrawConstants draw; };

#include "instance.glsl"

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;

void main() {
    InstanceRecord inst = instances[gl_InstanceIndex];
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, in_position) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
    out_normal = rotateByQuaternion(q, in_normal);
    out_uv = in_uv;
    out_color = in_color * unpackUnorm4x8(inst.color) * draw.base_color;
}
