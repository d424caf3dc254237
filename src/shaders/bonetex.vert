#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `bonetex`: the CPU writes each instance's joints as quaternion + (translation,
// uniform scale) texels into a float or half texture (one per frame in flight); the vertex
// shader fetches them with point sampling (texelFetch) and skins.

layout(set = 0, binding = THRONG_BINDING_BONES) uniform sampler2D bones;
#ifdef THRONG_VELOCITY
// The texels as the last frame drew them (the CPU keeps the last frame's poses): the limbs' motion
// in the vectors.
layout(set = 0, binding = THRONG_BINDING_PREVIOUS_BONES) uniform sampler2D previous_bones;
#endif
layout(push_constant) uniform Push { DrawConstants draw; };

#include "member.glsl"

// Texel `index` of this frame's texture or (`previous`) the last frame's.
vec4 boneTexel(uint index, bool previous) {
    uint width = uint(textureSize(bones, 0).x); // texels per row
    ivec2 at = ivec2(int(index % width), int(index / width));
#ifdef THRONG_VELOCITY
    if (previous) return texelFetch(previous_bones, at, 0);
#endif
    return texelFetch(bones, at, 0);
}

mat3x4 boneJoint(uint instance, uint joint, bool previous) {
    uint entry = instance * draw.joint_count + joint;
    vec4 q = boneTexel(2u * entry, previous);
    vec4 ts = boneTexel(2u * entry + 1u, previous);
    vec3 x = rotateByQuaternion(q, vec3(ts.w, 0.0, 0.0));
    vec3 y = rotateByQuaternion(q, vec3(0.0, ts.w, 0.0));
    vec3 z = rotateByQuaternion(q, vec3(0.0, 0.0, ts.w));
    return mat3x4(vec4(x.x, y.x, z.x, ts.x), vec4(x.y, y.y, z.y, ts.y), vec4(x.z, y.z, z.z, ts.z));
}

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    mat3x4 skin = mat3x4(0.0);
    for (int i = 0; i < 4; ++i)
        if (vtx.weights[i] != 0.0) skin += boneJoint(member, vtx.joints[i], false) * vtx.weights[i];
    vec3 p = vec4(vtx.position, 1.0) * skin;
    vec3 n = vec4(vtx.normal, 0.0) * skin;
#ifdef THRONG_VELOCITY
    mat3x4 then = mat3x4(0.0);
    for (int i = 0; i < 4; ++i)
        if (vtx.weights[i] != 0.0) then += boneJoint(member, vtx.joints[i], true) * vtx.weights[i];
    emitVertexFrom(member, inst, vtx, p, n, vec4(vtx.position, 1.0) * then);
#else
    emitVertex(member, inst, vtx, p, n);
#endif
}
