#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;
layout(location = 3) in vec4 in_color;
layout(location = 4) in uvec4 in_joints;
layout(location = 5) in vec4 in_weights;

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_ANIMATION) uniform sampler2DArray animation;
layout(set = 0, binding = THRONG_BINDING_ANIMATION_BUFFER) uniform samplerBuffer animation_buffer;

layout(push_constant) uniform Push { DrawConstants draw; };

#include "baked_skin.glsl"
#include "instance.glsl"

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;

void main() {
    InstanceRecord inst = instances[gl_InstanceIndex];
    mat3x4 skin = instanceSkinning(inst, in_joints, in_weights, draw.time);
    vec3 p = vec4(in_position, 1.0) * skin;
    vec3 n = vec4(in_normal, 0.0) * skin;
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, p) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
    out_normal = rotateByQuaternion(q, n);
    out_uv = in_uv;
    out_color = in_color * unpackUnorm4x8(inst.color) * draw.base_color;
}
