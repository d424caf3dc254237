#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `procedural`: the fish swim (swim.glsl), computed per vertex from the rest mesh.
// Per instance: phase offset (time_offset, in cycles), speed, colour.

layout(std140, set = 0, binding = THRONG_BINDING_SWIM) uniform Swim { SwimParams swim; };
layout(push_constant) uniform Push { DrawConstants draw; };

#include "member.glsl"
#include "swim.glsl"

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    vec3 p = vtx.position;
    vec3 n = vtx.normal;
    swimVertex(inst, draw.time, p, n);
#ifdef THRONG_VELOCITY // the member's last record swum at the last frame's time
    vec3 then = vtx.position, unused = vtx.normal;
    swimVertex(previous_instances[member], previousTime(), then, unused);
    emitVertexFrom(member, inst, vtx, p, n, then);
#else
    emitVertex(member, inst, vtx, p, n);
#endif
}
