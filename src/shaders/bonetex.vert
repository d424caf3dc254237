#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `bonetex`: the CPU writes each instance's joints as quaternion + (translation,
// uniform scale) texels into a float or half texture (one per frame in flight); the vertex
// shader fetches them with point sampling (texelFetch) and skins.

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(set = 0, binding = THRONG_BINDING_BONES) uniform sampler2D bones;
layout(push_constant) uniform Push { DrawConstants draw; };

#include "instance.glsl"

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;

vec4 boneTexel(uint index) {
    return texelFetch(bones, ivec2(int(index % draw.bone_texture_width), int(index / draw.bone_texture_width)), 0);
}

mat3x4 boneJoint(uint instance, uint joint) {
    uint entry = instance * draw.joint_count + joint;
    vec4 q = boneTexel(2u * entry);
    vec4 ts = boneTexel(2u * entry + 1u);
    vec3 x = rotateByQuaternion(q, vec3(ts.w, 0.0, 0.0));
    vec3 y = rotateByQuaternion(q, vec3(0.0, ts.w, 0.0));
    vec3 z = rotateByQuaternion(q, vec3(0.0, 0.0, ts.w));
    return mat3x4(vec4(x.x, y.x, z.x, ts.x), vec4(x.y, y.y, z.y, ts.y), vec4(x.z, y.z, z.z, ts.z));
}

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    InstanceRecord inst = instances[gl_InstanceIndex];
    mat3x4 skin = mat3x4(0.0);
    for (int i = 0; i < 4; ++i)
        if (vtx.weights[i] != 0.0) skin += boneJoint(uint(gl_InstanceIndex), vtx.joints[i]) * vtx.weights[i];
    vec3 p = vec4(vtx.position, 1.0) * skin;
    vec3 n = vec4(vtx.normal, 0.0) * skin;
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, p) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
    captureWorld(world);
    out_normal = rotateByQuaternion(q, n);
    out_uv = vtx.uv;
    out_color = vtx.color * unpackUnorm4x8(inst.color) * draw.base_color;
}
