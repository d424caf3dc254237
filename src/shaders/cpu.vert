#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `cpu`: every vertex of every instance was skinned on the CPU and uploaded this
// frame; the GPU only places the instance. The bound buffer holds one batch of instances from
// draw.first_instance on, each instance's block its positions then its normals, 3 floats each.

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_SKINNED) readonly buffer Skinned { float skinned[]; };
layout(push_constant) uniform Push { DrawConstants draw; };

#include "instance.glsl"

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;

vec3 fetch3(uint index) { return vec3(skinned[3u * index], skinned[3u * index + 1u], skinned[3u * index + 2u]); }

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    InstanceRecord inst = instances[gl_InstanceIndex];
    uint block = (uint(gl_InstanceIndex) - draw.first_instance) * 2u * draw.vertex_count;
    vec3 p = fetch3(block + uint(gl_VertexIndex));
    vec3 n = fetch3(block + draw.vertex_count + uint(gl_VertexIndex));
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, p) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
    captureWorld(world);
    out_normal = rotateByQuaternion(q, n);
    out_uv = vtx.uv;
    out_color = vtx.color * unpackUnorm4x8(inst.color) * draw.base_color;
}
