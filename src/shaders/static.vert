#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `static`: plain instancing of the bind pose, no animation — the ceiling the
// animated techniques are measured against.

layout(push_constant) uniform Push { DrawConstants draw; };

#include "member.glsl"

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    emitVertex(member, inst, vtx, vtx.position, vtx.normal);
}
