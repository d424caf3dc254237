#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `cpu`: every vertex of every instance was skinned on the CPU and uploaded this
// frame; the GPU only places the instance. The bound buffer holds one batch of instances from
// draw.first_instance on, each instance's block its positions then its normals, 3 floats each.

layout(std430, set = 0, binding = THRONG_BINDING_SKINNED) readonly buffer Skinned { float skinned[]; };
layout(push_constant) uniform Push { DrawConstants draw; };

#include "member.glsl"

vec3 fetch3(uint index) { return vec3(skinned[3u * index], skinned[3u * index + 1u], skinned[3u * index + 2u]); }

#ifdef THRONG_VELOCITY
// The positions as the last frame drew them (the CPU skins them again from the last frame's
// poses): the limbs' motion in the vectors.
layout(std430, set = 0, binding = THRONG_BINDING_PREVIOUS_SKINNED) readonly buffer PreviousSkinned { float previous_skinned[]; };
vec3 previous3(uint index) {
    return vec3(previous_skinned[3u * index], previous_skinned[3u * index + 1u], previous_skinned[3u * index + 2u]);
}
#endif

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    uint block = (member - draw.first_instance) * 2u * draw.vertex_count;
    vec3 p = fetch3(block + uint(gl_VertexIndex));
    vec3 n = fetch3(block + draw.vertex_count + uint(gl_VertexIndex));
#ifdef THRONG_VELOCITY
    emitVertexFrom(member, inst, vtx, p, n, previous3(block + uint(gl_VertexIndex)));
#else
    emitVertex(member, inst, vtx, p, n);
#endif
}
