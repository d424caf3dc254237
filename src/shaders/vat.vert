#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `vat`: the skinned vertex comes from the vertex animation texture; only uv and
// colour are pulled from the mesh.
layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_VAT) uniform sampler2DArray vat;

layout(push_constant) uniform Push { DrawConstants draw; };

#include "vat_sample.glsl"
#include "instance.glsl"

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    InstanceRecord inst = instances[gl_InstanceIndex];
    VatVertex v = instanceVat(inst, uint(gl_VertexIndex), draw.time);
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, v.position) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
    captureWorld(world);
    out_normal = rotateByQuaternion(q, v.normal);
    out_uv = vtx.uv;
    out_color = vtx.color * unpackUnorm4x8(inst.color) * draw.base_color;
}
