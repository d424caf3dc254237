#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `static`: plain instancing of the bind pose, no animation — the ceiling the
// animated techniques are measured against.

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(push_constant) uniform Push { DrawConstants draw; };

#include "instance.glsl"

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    InstanceRecord inst = instances[gl_InstanceIndex];
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, vtx.position) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
    captureWorld(world);
    out_normal = rotateByQuaternion(q, vtx.normal);
    out_uv = vtx.uv;
    out_color = vtx.color * unpackUnorm4x8(inst.color) * draw.base_color;
}
