#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"


layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_ANIMATION) uniform sampler2DArray animation;
layout(set = 0, binding = THRONG_BINDING_ANIMATION_BUFFER) uniform samplerBuffer animation_buffer;
layout(std430, set = 0, binding = THRONG_BINDING_ANIMATION_WORDS) readonly buffer AnimationWords { uint animation_words[]; };

layout(push_constant) uniform Push { DrawConstants draw; };

#include "baked_skin.glsl"
#include "member.glsl"

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    // The LOD this draw is of (its region of the visible list); the identity region, past the
    // last LOD, is full detail.
    uint lod = draw.lod_stride > 0u ? uint(gl_InstanceIndex) / draw.lod_stride : 0u;
    bool coarse = THRONG_COARSE_LOD(lod, draw.coarse_lods);
    mat3x4 skin = coarse ? coarseSkinning(inst, vtx.joints, vtx.weights, draw.time) : instanceSkinning(inst, vtx.joints, vtx.weights, draw.time);
    vec3 p = vec4(vtx.position, 1.0) * skin;
    vec3 n = vec4(vtx.normal, 0.0) * skin;
#ifdef THRONG_VELOCITY // the same skinning of the member's last record at the last frame's time
    InstanceRecord before = previous_instances[member];
    float t = previousTime();
    mat3x4 was = coarse ? coarseSkinning(before, vtx.joints, vtx.weights, t) : instanceSkinning(before, vtx.joints, vtx.weights, t);
    emitVertexFrom(member, inst, vtx, p, n, vec4(vtx.position, 1.0) * was);
#else
    emitVertex(member, inst, vtx, p, n);
#endif
}
