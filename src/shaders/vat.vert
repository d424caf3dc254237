#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `vat`: the skinned vertex comes from the vertex animation texture; only uv and
// colour are pulled from the mesh.
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_VAT) uniform sampler2DArray vat;

layout(push_constant) uniform Push { DrawConstants draw; };

#include "vat_sample.glsl"
#include "member.glsl"

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    VatVertex v = instanceVat(inst, uint(gl_VertexIndex), draw.time);
#ifdef THRONG_VELOCITY // the member's last record sampled at the last frame's time
    VatVertex was = instanceVat(previous_instances[member], uint(gl_VertexIndex), previousTime());
    emitVertexFrom(member, inst, vtx, v.position, v.normal, was.position);
#else
    emitVertex(member, inst, vtx, v.position, v.normal);
#endif
}
