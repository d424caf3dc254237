#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `procedural`: the fish swim, computed per vertex from the rest mesh (body along +z,
// head at +z, length about 2). Four motions, each scaled by its own amount:
//   side-to-side  the whole body translates along x:            side * sin(phase)
//   pivot         the body yaws about y through its centre:      pivot * sin(phase)
//   wave          a travelling wave bends it along x:           wave * sin(phase - frequency * z) * mask
//   twist         it rolls about z, lagging toward the tail:    twist * sin(phase - frequency * z) * mask
// mask = 1 - smoothstep(mask_tail, mask_head, z): 0 from mask_head forward (the head stays steady),
// rising to 1 at mask_tail and behind (the tail beats). Per instance: phase offset (time_offset, in cycles), speed, colour.

layout(std140, set = 0, binding = THRONG_BINDING_SWIM) uniform Swim { SwimParams swim; };
layout(push_constant) uniform Push { DrawConstants draw; };

#include "member.glsl"

vec3 rotateY(vec3 v, float a) { float c = cos(a), s = sin(a); return vec3(c * v.x + s * v.z, v.y, -s * v.x + c * v.z); }
vec3 rotateZ(vec3 v, float a) { float c = cos(a), s = sin(a); return vec3(c * v.x - s * v.y, s * v.x + c * v.y, v.z); }

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    float phase = 6.28318531 * (draw.time * inst.speed * swim.beats_per_second + inst.time_offset);
    vec3 p = vtx.position;
    vec3 n = vtx.normal;
    float mask = 1.0 - smoothstep(swim.mask_tail, swim.mask_head, p.z);
    float travelling = sin(phase - swim.frequency * p.z);
    float roll = swim.twist * travelling * mask;
    p = rotateZ(p, roll);
    n = rotateZ(n, roll);
    p.x += swim.wave * travelling * mask;
    float yaw = swim.pivot * sin(phase);
    p = rotateY(p, yaw);
    n = rotateY(n, yaw);
    p.x += swim.side * sin(phase);

    emitVertex(member, inst, vtx, p, n);
}
